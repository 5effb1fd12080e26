from django.urls import path

from larp.dice import views

app_name = "dice"
urlpatterns = [
    path("dice/", views.verify, name="verify"),
    path("dice/reveal", views.reveal, name="reveal"),
    path("dice/contribute", views.contribute, name="contribute"),
]
