from django.urls import path

from larp.tablet import views

app_name = "tablet"
urlpatterns = [
    path("join/<str:token>/", views.join, name="join"),
    path("g/<int:game_id>/f/<slug:faction>/", views.faction_page, name="faction"),
    path("g/<int:game_id>/f/<slug:faction>/units/<str:unit>/order", views.file_order, name="file_order"),
    path("g/<int:game_id>/f/<slug:faction>/ready", views.orders_ready, name="orders_ready"),
    path("g/<int:game_id>/map/", views.map_page, name="map"),
    path("g/<int:game_id>/map/svg", views.map_svg, name="map_svg"),
    path("g/<int:game_id>/map/picture-<str:key>", views.map_picture, name="map_picture"),
    path("g/<int:game_id>/turns/", views.history_page, name="history"),
    path("g/<int:game_id>/turns/<int:number>/", views.replay_page, name="replay"),
    path("g/<int:game_id>/players/", views.players_page, name="players"),
    path("g/<int:game_id>/players/codes", views.issue_missing, name="issue_missing"),
    path("g/<int:game_id>/players/add", views.add_player, name="add_player"),
    path("g/<int:game_id>/players/<int:user_id>/code", views.issue_code, name="issue_code"),
    path("g/<int:game_id>/codes/<int:token_id>/revoke", views.revoke_code, name="revoke_code"),
    path("g/<int:game_id>/spy/", views.spy_page, name="spy"),
]
