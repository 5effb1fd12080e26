from django.urls import path

from larp.redplains import acts, views

app_name = "redplains"
urlpatterns = [
    path("new/", views.new, name="new"),
    path("calc/", views.calc, name="calc"),
    path("<int:table_id>/", views.table, name="table"),
    path("<int:table_id>/projector/", views.projector, name="projector"),
    path("<int:table_id>/act/<slug:action>", acts.door, name="act"),
    path("<int:table_id>/print/<slug:doc>.pdf", views.sheet, name="sheet"),
]
