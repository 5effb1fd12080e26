from django.urls import path

from larp.tactical import views

app_name = "tactical"
urlpatterns = [
    path("new/", views.new, name="new"),
    path("<int:table_id>/", views.table_page, name="table"),
    path("<int:table_id>/army/<str:side>/<str:op>/", views.army, name="army"),
    path("<int:table_id>/approve/", views.approve, name="approve"),
    path("<int:table_id>/start/", views.start, name="start"),
    path("<int:table_id>/conditions/", views.conditions, name="conditions"),
    path("<int:table_id>/act/", views.act, name="act"),
    path("<int:table_id>/override/", views.override, name="override"),
    path("<int:table_id>/undo/", views.undo, name="undo"),
    path("<int:table_id>/turn/", views.turn, name="turn"),
    path("<int:table_id>/end/", views.end, name="end"),
    path("<int:table_id>/projector/", views.projector, name="projector"),
    path("<int:table_id>/manoeuvre/", views.manoeuvre, name="manoeuvre"),
    path("<int:table_id>/manoeuvre/<str:op>/", views.manoeuvre_act, name="manoeuvre_act"),
    path("<int:table_id>/manoeuvre/<str:side>/<str:op>/", views.manoeuvre_side, name="manoeuvre_side"),
    path("<int:table_id>/print/<str:side>/<str:what>.pdf", views.print_roster, name="print_army"),
    path("<int:table_id>/print/record.pdf", views.print_record, name="print_record"),
    path("<int:table_id>/sheet/<str:what>.pdf", views.print_sheet, name="print_sheet"),
]
