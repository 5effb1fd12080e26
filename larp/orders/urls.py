from django.urls import path

from larp.orders import views

app_name = "orders"
urlpatterns = [
    path("units/<str:unit>/order", views.file_order, name="file"),
    path("units/<str:unit>/withdraw", views.withdraw_order, name="withdraw"),
    path("factions/<slug:faction>/orders", views.faction_orders, name="faction_orders"),
]
