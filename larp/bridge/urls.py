from django.urls import path

from larp.bridge import views

app_name = "bridge"
urlpatterns = [
    path("console/battles/table/<slug:action>", views.act, name="act"),
]
