from django.urls import path

from larp.editor import views

app_name = "editor"
urlpatterns = [
    path("", views.drafts, name="drafts"),
    path("new", views.new, name="new"),
    path("import", views.import_file, name="import"),
    path("<int:draft_id>/", views.page, name="page"),
    path("<int:draft_id>/act", views.act, name="act"),
    path("<int:draft_id>/picture", views.upload_picture, name="upload_picture"),
    path("<int:draft_id>/map-<str:key>", views.picture, name="picture"),
    path("<int:draft_id>/export", views.export, name="export"),
    path("<int:draft_id>/make-game", views.make_game, name="make_game"),
    path("<int:draft_id>/try", views.try_turn, name="try"),
]
