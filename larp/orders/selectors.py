"""Reads of orders for pages and other apps; writes (filing, checking, revealing) are in orders.services."""
from __future__ import annotations

from larp.campaign.access import is_moderator, player_faction
from larp.orders.models import Order
from larp.turns.models import Turn


def visible_orders(user, turn: Turn):
    """Orders secret until the Movement phase (R3): a player sees only their faction's; moderators all."""
    qs = Order.objects.filter(turn=turn).select_related("faction", "army", "fleet", "filed_by")
    if is_moderator(user, turn.game_id):
        return qs
    own = player_faction(user, turn.game_id)
    if own is None:
        return qs.none()
    if turn.orders_revealed:
        return qs
    return qs.filter(faction=own)
