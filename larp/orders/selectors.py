"""Reads of orders for pages and other apps; writes (filing, checking, revealing) are in orders.services."""
from __future__ import annotations

from larp.campaign.access import is_moderator, player_faction
from larp.orders.models import Order
from larp.turns import situation
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


def carried_fleets(turn: Turn) -> set[str]:
    """Codes of the fleets an army's sea attack or landing boards this turn (R5).

    Such a fleet takes no order of its own: it is not missing one, so every count of orders filed or
    missing leaves it out."""
    return {o["payload"]["fleet"] for o in Order.objects.filter(turn=turn, type__in=[Order.SEA_ATTACK, Order.LANDING])
            .order_by().values("payload") if o["payload"].get("fleet")}


def units_to_order(turn: Turn) -> list[dict]:
    """The units on the map at the turn's start that take an order of their own (carrying fleets do not)."""
    carried = carried_fleets(turn)
    return [u for u in situation.start_units(turn) if not (u["kind"] == "fleet" and u["id"] in carried)]
