from django.urls import path

from larp.tables import views

app_name = "tables"
urlpatterns = [
    path("tables/", views.table_list, name="list"),
    path("tables/<int:table_id>/", views.open_table, name="open"),
    path("tables/<int:table_id>/version", views.version, name="version"),
    path("tables/<int:table_id>/stream", views.stream, name="stream"),
]
