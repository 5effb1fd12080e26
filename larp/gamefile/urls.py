from django.urls import path

from larp.gamefile import views

app_name = "gamefile"
urlpatterns = [
    path("", views.page, name="page"),
    path("scenario.yaml", views.scenario, name="scenario"),
    path("game.json.gz", views.game_file, name="game"),
    path("backups/<str:name>", views.backup, name="backup"),
    path("back-up", views.back_up, name="back_up"),
    path("new-game", views.new_game, name="new_game"),
    path("restore", views.restore, name="restore"),
]
