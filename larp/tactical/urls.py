from django.urls import path

from larp.tactical import views
from larp.tactical.acts import door

app_name = "tactical"
urlpatterns = [
    path("new/", views.new, name="new"),
    path("<int:table_id>/", views.table_page, name="table"),
    path("<int:table_id>/army/<str:side>/<str:op>/", door, {"action": "army"}, name="army"),
    path("<int:table_id>/army/<str:side>/export.json", views.export_army, name="export_army"),
    path("<int:table_id>/roster/<int:roster_id>.json", views.export_roster, name="export_roster"),
    path("<int:table_id>/approve/", door, {"action": "approve"}, name="approve"),
    path("<int:table_id>/start/", door, {"action": "start"}, name="start"),
    path("<int:table_id>/conditions/", door, {"action": "conditions"}, name="conditions"),
    path("<int:table_id>/act/", door, {"action": "act"}, name="act"),
    path("<int:table_id>/override/", door, {"action": "override"}, name="override"),
    path("<int:table_id>/undo/", door, {"action": "undo"}, name="undo"),
    path("<int:table_id>/turn/", door, {"action": "turn"}, name="turn"),
    path("<int:table_id>/end/", door, {"action": "end"}, name="end"),
    path("<int:table_id>/projector/", views.projector, name="projector"),
    path("<int:table_id>/manoeuvre/", views.manoeuvre, name="manoeuvre"),
    path("<int:table_id>/manoeuvre/<str:op>/", door, {"action": "map"}, name="manoeuvre_act"),
    path("<int:table_id>/manoeuvre/<str:side>/<str:op>/", door, {"action": "move"}, name="manoeuvre_side"),
    path("<int:table_id>/print/<str:side>/<str:what>.pdf", views.print_roster, name="print_army"),
    path("<int:table_id>/print/record.pdf", views.print_record, name="print_record"),
    path("<int:table_id>/sheet/<str:what>.pdf", views.print_sheet, name="print_sheet"),
]
