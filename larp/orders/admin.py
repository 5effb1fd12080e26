from django.contrib import admin

from larp.campaign.admin_scope import GameScopedAdmin
from larp.orders.models import Order, OrderEvent


@admin.register(Order)
class OrderAdmin(GameScopedAdmin):
    list_display = ["turn", "faction", "army", "fleet", "type", "payload", "implicit", "filed_by", "filed_at"]
    list_filter = ["game", "faction", "type", "implicit"]


@admin.register(OrderEvent)
class OrderEventAdmin(GameScopedAdmin):
    list_display = ["at", "turn", "faction", "unit", "action", "payload", "by"]
    list_filter = ["game", "faction", "action"]

    def has_change_permission(self, request, obj=None):
        return False
