from django.urls import path

from larp.orda import acts, views

app_name = "orda"
urlpatterns = [
    path("new/", views.new, name="new"),
    path("<int:table_id>/", views.table, name="table"),
    path("<int:table_id>/projector/", views.projector, name="projector"),
    path("<int:table_id>/act/<str:action>/", acts.door, name="act"),
    path("<int:table_id>/print/<str:doc>.pdf", views.print_doc, name="print"),
    path("data/", views.data_list, name="data"),
    path("data/<int:data_id>/", views.data_edit, name="data_edit"),
    path("data/<int:data_id>/board/", views.data_board, name="data_board"),
    path("data/<int:data_id>/export.yaml", views.data_export, name="data_export"),
    path("data/<int:data_id>/print/<str:doc>.pdf", views.data_print, name="data_print"),
]
