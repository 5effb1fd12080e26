from django.urls import path

from larp.rehearsal import views

app_name = "rehearsal"
urlpatterns = [
    path("", views.page, name="page"),
    path("start", views.start, name="start"),
    path("progress", views.progress, name="progress"),
    path("delete", views.delete, name="delete"),
]
