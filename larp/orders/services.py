"""Filing orders (R5): checked by the rules engine, refused after the hard deadline, never lost.

The deadline check and the save are one transaction that holds the phase
row locked, so an order one millisecond late is refused whatever the client
shows, and closing the phase waits for an order being saved.
"""
from __future__ import annotations

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from larp.campaign.access import can_see_faction, require_moderator
from larp.campaign.audit import audit
from larp.campaign.models import Faction, Game
from larp.engine.errors import CaseError
from larp.engine.model import Case
from larp.engine.orders import check_order
from larp.forces.models import Army, Fleet
from larp.orders.messages import refusal_text
from larp.orders.models import Order, OrderEvent
from larp.orders.selectors import units_to_order, visible_orders  # noqa: F401  (re-exported)
from larp.turns import situation
from larp.turns.models import Phase, Turn, TurnSettings
from larp.turns.selectors import grace
from larp.turns.services import close_due


class OrderRefused(Exception):
    """Why an order was not saved, in the user's language; `refusal` is the engine's (or None)."""

    def __init__(self, message: str, refusal: dict | None = None, code: str = "refused"):
        super().__init__(message)
        self.message = message
        self.refusal = refusal
        self.code = code


def find_unit(game: Game, unit_code: str) -> Army | Fleet | None:
    """The army or fleet with this exact code, or None.

    Ordered by pk: the match is unique, and Meta.ordering ("game", ...) would join the game table.
    """
    parsed = situation.parse_unit_code(unit_code)
    if parsed is None:
        return None
    faction, kind, number = parsed
    model = Fleet if kind == "fleet" else Army
    return model.objects.filter(game=game, faction__code=faction, number=number).select_related(
        "faction").order_by("pk").first()


def _lock_current_phase(game: Game) -> Phase | None:
    """The game's current phase row, locked against closing for the rest of the transaction (None: not started).

    On PostgreSQL a shared lock: filers of different factions go on side by
    side, while closing (an UPDATE of the row) waits for every filer holding
    it, and a filer that comes after the close waits for it and then sees it
    closed. Elsewhere (SQLite writes one at a time anyway) the row lock.
    """
    if connection.vendor == "postgresql":
        found = list(Phase.objects.raw(
            f"SELECT p.* FROM {Phase._meta.db_table} p JOIN {TurnSettings._meta.db_table} ts "
            f"ON ts.current_phase_id = p.id WHERE ts.game_id = %s FOR SHARE OF p", [game.pk]))
        if not found:
            return None
        phase = found[0]
        phase.turn = Turn.objects.defer("start_state").get(pk=phase.turn_id)
        return phase
    ts = TurnSettings.objects.filter(game=game).first()
    if ts is None or ts.current_phase_id is None:
        return None
    return Phase.objects.select_for_update().select_related("turn").defer("turn__start_state").get(
        pk=ts.current_phase_id)


def _lock_faction(faction_id: int) -> None:
    """One faction's orders are saved one at a time: they are checked against each other (R5 fleet rules)."""
    # Only this row (no join to the game through Meta.ordering), and NO KEY: inserts that merely
    # reference the faction (their foreign-key checks) are not blocked by it.
    list(Faction.objects.select_for_update(no_key=True, of=("self",)).filter(pk=faction_id).order_by().only("pk"))


def _open_strategy(game: Game, faction_id: int | None = None, arrived_at=None) -> tuple[Phase, Turn, object, bool]:
    """The running Strategy phase, locked; refuse if there is none or the press came after deadline + grace.

    `arrived_at` is when the request reached the server (larp.arrival; None: now). A press that arrived
    before the deadline counts whenever it is handled, as long as the phase is not closed yet; one that
    arrived within the grace after the deadline counts too, marked as in the grace; a later one is
    refused. Returns the phase, its turn, the moment of saving (the server's clock after the lock, the
    order's recorded time) and whether the press came in the grace.
    """
    phase = _lock_current_phase(game)
    if phase is None:
        raise OrderRefused(_("The game has not started yet: orders are filed in the Strategy phase."), code="closed")
    if faction_id is not None:
        _lock_faction(faction_id)
    now = timezone.now()  # read after the locks: the moment of saving
    if phase.kind != Phase.STRATEGY or phase.state == Phase.CLOSED:
        raise OrderRefused(_("The Strategy phase is over: orders are closed until the next turn."), code="closed")
    arrived = min(arrived_at or now, now)
    in_grace = False
    if phase.state == Phase.RUNNING and arrived >= phase.deadline:
        if arrived >= phase.deadline + grace():
            late = (arrived - phase.deadline).total_seconds()
            raise OrderRefused(
                _("Too late: the deadline passed %(seconds)s s ago. The order was not saved.") % {"seconds": f"{late:.1f}"},
                code="late",
            )
        in_grace = True
    return phase, phase.turn, now, in_grace


def _case_with_orders(turn: Turn, faction_id: int, except_unit: str) -> Case:
    """The turn-start situation with this faction's other orders, in filing order (for the fleet rules)."""
    others = Order.objects.filter(turn=turn, faction_id=faction_id).order_by("filed_at", "id")
    return situation.case_with_orders(turn, [o.payload for o in others if o.payload.get("unit") != except_unit])


def _closing_late(func):
    """A request that finds the deadline passed closes the phase (no worker needed), then says no."""

    def wrapper(user, game, *args, **kwargs):
        try:
            return func(user, game, *args, **kwargs)
        except OrderRefused as exc:
            if exc.code == "late":
                close_due(game.pk, how="request")
            raise

    wrapper.__doc__, wrapper.__name__ = func.__doc__, func.__name__
    return wrapper


ORDER_KEYS = ("type", "path", "fleet", "sea", "target", "target_faction")
# The keys each order type reads (larp.engine.case.parse_order): the engine checks exactly these,
# so nothing unchecked (a NaN, a NUL, a megabyte of text under an unused key) is ever stored.
KEYS_OF_TYPE = {Order.HOLD: (), Order.MARCH: ("path",), Order.ATTACK: ("path",),
                Order.SEA_ATTACK: ("fleet", "sea", "target"), Order.LANDING: ("fleet", "sea", "target"),
                Order.FLEET_MOVE: ("sea",), Order.FLEET_ATTACK: ("sea", "target_faction")}


def _order_data(unit: Army | Fleet, unit_code: str, payload: dict) -> dict:
    """The engine's order document from what the client sent; only the keys its type reads are kept."""
    payload = payload if isinstance(payload, dict) else {}
    kind = payload.get("type")
    if not isinstance(kind, str) or kind not in (Order.FLEET_TYPES if isinstance(unit, Fleet) else Order.ARMY_TYPES):
        raise OrderRefused(_("Choose an order type."), code="bad_type")
    data = {k: v for k, v in payload.items() if k == "type" or k in KEYS_OF_TYPE[kind]}
    data["unit"] = unit_code
    return data


def _check(game: Game, turn: Turn, unit: Army | Fleet, order_data: dict) -> None:
    """R5 by the rules engine, against the turn-start map and the faction's other orders."""
    try:
        refusal = check_order(_case_with_orders(turn, unit.faction_id, order_data["unit"]), order_data)
    except CaseError as exc:
        raise OrderRefused(_("The order is incomplete or names an unknown place (%(field)s).")
                           % {"field": exc.args[0] if exc.args else "?"}, code="malformed") from None
    if refusal is not None:
        refusal = refusal.to_dict()
        raise OrderRefused(refusal_text(game.pk, refusal), refusal=refusal, code=refusal["code"])


def clean_key(value) -> str:
    """A confirmation key as the client sent it, or "" when it is not one (then nothing is matched by it)."""
    if not isinstance(value, str) or not 8 <= len(value) <= 64 or not _KEY_CHARS.issuperset(value):
        return ""
    return value


_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")


def _repeat_of(game: Game, unit: Army | Fleet, unit_code: str, key: str) -> Order | None:
    """The unit's order when this confirmation was already saved (a retry, or an answer lost on the way back).

    The order is then left as it is: its filing time and history do not change.
    If the unit has no order any more (withdrawn, or dropped for a carrying
    fleet), the confirmation is filed again like a new one.
    """
    if not key:
        return None
    turn_id = next(iter(OrderEvent.objects.filter(game=game, unit=unit_code, key=key).order_by()
                        .values_list("turn_id", flat=True)[:1]), None)
    if turn_id is None:
        return None
    owner = {"army": unit} if isinstance(unit, Army) else {"fleet": unit}
    order = Order.objects.filter(turn_id=turn_id, **owner).select_related("filed_by").order_by().first()
    if order is not None:
        order.repeated, order.dropped_fleet_order = True, None
    return order


def _save(game: Game, turn: Turn, unit: Army | Fleet, order_data: dict, user, action: str | None = None,
          at=None, key: str = "", in_grace: bool = False) -> Order:
    """Save the order and its history entry, both stamped `at` (the moment the deadline was checked)."""
    owner = {"army": unit} if isinstance(unit, Army) else {"fleet": unit}
    by = user if user.is_authenticated else None
    at = at or timezone.now()
    # The faction's row lock (PostgreSQL) or the one writer (SQLite) is held: nobody else saves this unit now,
    # so a plain look-up and update or insert will do (update_or_create costs a savepoint and two more trips).
    # order_by(): one order per unit, and Meta.ordering would join turn, game and unit tables for nothing.
    existing = next(iter(Order.objects.filter(turn=turn, **owner).order_by().values_list("pk", flat=True)[:1]), None)
    order = Order(pk=existing, turn=turn, **owner, game=game, faction=unit.faction, type=order_data["type"],
                  payload=order_data, implicit=False, filed_by=by, filed_at=at, key=key, in_grace=in_grace)
    order.save(force_update=existing is not None, force_insert=existing is None)
    created = existing is None
    action = action or (OrderEvent.FILED if created else OrderEvent.REPLACED)
    OrderEvent.objects.create(game=game, turn=turn, faction=unit.faction, unit=order_data["unit"], action=action,
                              payload=order_data, by=by, at=at, key=key, in_grace=in_grace)
    order.repeated = False
    order.dropped_fleet_order = _drop_carrying_fleet_order(turn, order_data, user, at)
    return order


@_closing_late
def file_order(user, game: Game, unit_code: str, payload: dict, key: str = "", arrived_at=None) -> Order:
    """File or replace the order of one army or fleet. Raises OrderRefused; saves nothing then.

    `key` names the player's confirmation: the same key sent again (a retry,
    even after the deadline) answers with the order already saved, unchanged
    (`order.repeated`), instead of filing it a second time. `arrived_at`: when the request reached the
    server (larp.arrival), which the deadline and its grace judge.
    """
    unit = find_unit(game, unit_code)
    if unit is None or unit.destroyed:
        raise OrderRefused(_("No such army or fleet on the map."), code="unknown_unit")
    if not can_see_faction(user, unit.faction):
        raise OrderRefused(_("You may give orders only to your own faction's armies and fleets."), code="forbidden")
    key = clean_key(key)
    order_data = _order_data(unit, unit_code, payload)
    repeat = _repeat_of(game, unit, unit_code, key)  # before the deadline check: a saved order stays saved
    if repeat is not None:
        return repeat
    with transaction.atomic():
        _phase, turn, now, in_grace = _open_strategy(game, unit.faction_id, arrived_at)
        repeat = _repeat_of(game, unit, unit_code, key)  # two copies sent at once: the second waited for the lock
        if repeat is not None:
            return repeat
        _check(game, turn, unit, order_data)
        return _save(game, turn, unit, order_data, user, at=now, key=key, in_grace=in_grace)


def _drop_carrying_fleet_order(turn: Turn, order_data: dict, user, at=None) -> str | None:
    """A fleet carrying an army takes no order of its own (R5): the army's order counts, the fleet's goes."""
    fleet_code = order_data.get("fleet")
    if order_data.get("type") not in (Order.SEA_ATTACK, Order.LANDING) or not fleet_code:
        return None
    fleet = find_unit(turn.game, fleet_code)
    if not isinstance(fleet, Fleet):
        return None
    own = Order.objects.filter(turn=turn, fleet=fleet).first()
    if own is None:
        return None
    OrderEvent.objects.create(game=turn.game, turn=turn, faction=fleet.faction, unit=fleet_code,
                              action=OrderEvent.DROPPED, payload=own.payload, by=user if user.is_authenticated else None,
                              at=at or timezone.now())
    own.delete()
    return fleet_code


@_closing_late
def withdraw_order(user, game: Game, unit_code: str, arrived_at=None) -> bool:
    """Withdraw an order before the deadline (the unit will hold). False if there was none."""
    unit = find_unit(game, unit_code)
    if unit is None:
        raise OrderRefused(_("No such army or fleet on the map."), code="unknown_unit")
    if not can_see_faction(user, unit.faction):
        raise OrderRefused(_("You may give orders only to your own faction's armies and fleets."), code="forbidden")
    with transaction.atomic():
        _phase, turn, now, in_grace = _open_strategy(game, unit.faction_id, arrived_at)
        owner = {"army": unit} if isinstance(unit, Army) else {"fleet": unit}
        order = Order.objects.filter(turn=turn, **owner).first()
        if order is None:
            return False
        OrderEvent.objects.create(game=game, turn=turn, faction=unit.faction, unit=unit_code,
                                  action=OrderEvent.WITHDRAWN, payload=order.payload,
                                  by=user if user.is_authenticated else None, at=now, in_grace=in_grace)
        order.delete()
        return True


def lock_and_reveal(turn: Turn) -> int:
    """At the Strategy deadline: every unit without an order holds, recorded as implicit (R3); orders revealed."""
    game = turn.game
    ordered_armies = set(Order.objects.filter(turn=turn, army__isnull=False).values_list("army_id", flat=True))
    ordered_fleets = set(Order.objects.filter(turn=turn, fleet__isnull=False).values_list("fleet_id", flat=True))
    on_map = units_to_order(turn)  # a fleet carrying an army takes no order, so gets no implicit hold (R5)
    on_map_armies = {u["id"] for u in on_map if u["kind"] == "army"}
    on_map_fleets = {u["id"] for u in on_map if u["kind"] == "fleet"}
    holds, events = [], []
    for army in Army.objects.filter(game=game, destroyed=False).select_related("faction"):
        if army.pk not in ordered_armies and army.code in on_map_armies:
            holds.append(Order(game=game, turn=turn, faction=army.faction, army=army, type=Order.HOLD,
                               payload={"unit": army.code, "type": "hold"}, implicit=True))
    for fleet in Fleet.objects.filter(game=game, destroyed=False).select_related("faction"):
        if fleet.pk not in ordered_fleets and fleet.code in on_map_fleets:
            holds.append(Order(game=game, turn=turn, faction=fleet.faction, fleet=fleet, type=Order.HOLD,
                               payload={"unit": fleet.code, "type": "hold"}, implicit=True))
    Order.objects.bulk_create(holds)
    events = [OrderEvent(game=game, turn=turn, faction=o.faction, unit=o.payload["unit"], action=OrderEvent.IMPLICIT,
                         payload=o.payload) for o in holds]
    OrderEvent.objects.bulk_create(events)
    turn.orders_revealed = True
    turn.save(update_fields=["orders_revealed"])
    return len(holds)


def reveal_at_strategy_close(turn: Turn) -> dict:
    """The turn cycle's hook at the Strategy close: implicit holds and the orders revealed, for the audit entry."""
    return {"implicit_holds": lock_and_reveal(turn)}


def payload_from_picks(game: Game, picks: dict) -> dict:
    """The engine's order document from a legal-choice form's picks (type, steps, fleet), on the turn-start map."""
    from larp.engine import order_from_path

    kind = picks.get("type") or ""
    if kind == Order.HOLD:
        return {"type": Order.HOLD}
    ts = TurnSettings.objects.filter(game=game).select_related("current_phase__turn").first()
    turn = ts.current_phase.turn if ts and ts.current_phase else None
    try:
        sit = situation.start_situation(turn) if turn is not None else None
        if sit is None or sit.unit(picks.get("unit") or "") is None:
            return {"type": kind}  # moderator_set_order says why (no turn, unknown unit)
        return order_from_path(sit, picks["unit"], kind, picks.get("path") or [], fleet=picks.get("fleet"))
    except (ValueError, KeyError, IndexError, CaseError):
        raise OrderRefused(_("The order is not whole: choose every step the form offers."), code="malformed") \
            from None


# A moderator writes or corrects an order at any time of the turn (R14). The battles it may reset sit above
# orders, so battles.services.moderator_set_order composes these three steps in one transaction.

def moderator_order_data(user, game: Game, unit_code: str, payload: dict,
                         reason: str) -> tuple[Army | Fleet, dict]:
    """Who may, why, which unit and its order document; raises OrderRefused before anything is locked."""
    require_moderator(user, game)
    if not (reason or "").strip():
        raise OrderRefused(_("Write the reason for changing the order."), code="reason")
    unit = find_unit(game, unit_code)
    if unit is None:
        raise OrderRefused(_("No such army or fleet on the map."), code="unknown_unit")
    return unit, _order_data(unit, unit_code, payload)


def lock_for_moderator(game: Game, unit: Army | Fleet) -> Turn:
    """Inside the caller's transaction: lock the turn cycle and the unit's faction; the current turn."""
    ts = TurnSettings.objects.select_for_update().filter(game=game).first()
    if ts is None or ts.current_phase_id is None:
        raise OrderRefused(_("The game has not started yet: orders are filed in the Strategy phase."),
                           code="closed")
    turn = Phase.objects.select_related("turn").get(pk=ts.current_phase_id).turn
    _lock_faction(unit.faction_id)  # a player of the faction may be filing for the same unit
    return turn


def save_moderator_order(user, game: Game, turn: Turn, unit: Army | Fleet, order_data: dict,
                         reason: str) -> Order:
    """Inside the caller's transaction, after lock_for_moderator: check with the engine, save, audit."""
    _check(game, turn, unit, order_data)
    order = _save(game, turn, unit, order_data, user, action="moderator")
    audit(game, user, "order_changed", {"turn": turn.number, "unit": order_data["unit"], "order": order_data}, reason)
    return order
