from django.urls import path

from larp.battles import views

app_name = "battles"
urlpatterns = [
    path("console/", views.console, name="console"),
    path("control/<slug:action>", views.control, name="control"),
    path("console/order", views.moderator_order, name="moderator_order"),
    path("console/movement/", views.movement, name="movement"),
    path("console/movement/apply", views.movement_action, name="movement_apply"),
    path("console/battles/", views.battles, name="battles"),
    path("console/battles/<slug:action>", views.battle_action, name="battle_action"),
    path("console/regroup/", views.regroup, name="regroup"),
    path("console/regroup/<slug:action>", views.regroup_action, name="regroup_action"),
    path("projector/", views.projector, name="projector"),
    path("projector/version", views.projector_version, name="projector_version"),
    path("history/", views.history, name="history"),
    path("history/<int:number>/", views.history_turn, name="history_turn"),
    path("history/<int:number>/replay/", views.history_replay, name="history_replay"),
    path("history/<int:number>/replay/hall", views.history_replay_hall, name="history_replay_hall"),
    path("history/<int:number>/<str:part>.json", views.history_turn_case, name="history_turn_case"),
]
