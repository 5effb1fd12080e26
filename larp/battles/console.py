"""Reads for the console home: the one next thing to do, the filing grid (R3), the orders table, the paper order.

The console home is the console turn app's: it reads the turn's resolution, the orders and the legal pickers
(larp.orders.pickers), all below it; the turn cycle's own reads are turns.selectors.
"""
from __future__ import annotations

from django.db.models import Count, Max, Q
from django.urls import reverse
from django.utils.translation import gettext as _

from larp.battles.models import TurnResolution
from larp.campaign import labels
from larp.campaign.models import Faction, Game
from larp.forces.models import Fleet
from larp.orders import pickers
from larp.orders.models import Order
from larp.orders.selectors import units_to_order
from larp.orders.services import find_unit
from larp.turns import situation
from larp.turns.models import Phase
from larp.turns.selectors import names
from larp.turns.services import ready_marks

NEXT_PHASE_LABELS = {
    Phase.STRATEGY: lambda: _("Go on to movement"),
    Phase.MOVEMENT: lambda: _("Go on to the battles"),
    Phase.TACTICS: lambda: _("Go on to regroup"),
}


def _post(game: Game, action: str, label: str, confirm: str = "", hint: str = "") -> dict:
    return {"label": label, "url": reverse("battles:control", args=[game.pk, action]), "post": True,
            "action": action, "confirm": confirm, "hint": hint}


def _link(url: str, label: str, hint: str = "") -> dict:
    return {"label": label, "url": url, "post": False, "confirm": "", "hint": hint}


def _next(game: Game, phase: Phase) -> dict:
    if phase.kind == Phase.REGROUP:
        return _post(game, "next", _("Open turn %(n)s") % {"n": phase.turn.number + 1},
                     _("Open turn %(n)s? Players will file orders again.") % {"n": phase.turn.number + 1})
    label = NEXT_PHASE_LABELS[phase.kind]()
    return _post(game, "next", label, _("Close this phase and go on? It cannot be reopened."))


def next_step(game: Game, phase: Phase | None) -> dict | None:
    """The one thing to do now, as the console's primary button (None: wait for the deadline)."""
    if phase is None:
        return _post(game, "start", _("Start the game"),
                     _("Start the game? The draw is fixed and the first Strategy phase begins."))
    if phase.kind == Phase.STRATEGY:
        return _next(game, phase) if phase.state == Phase.CLOSED else None
    resolution = TurnResolution.objects.filter(turn=phase.turn).first()
    result = (resolution.result if resolution else None) or {}
    if phase.kind == Phase.MOVEMENT and (resolution is None or resolution.movement_applied_at is None):
        return _link(reverse("battles:movement", args=[game.pk]), _("Carry out the movement"))
    if phase.kind == Phase.TACTICS and (not result or result.get("awaiting")):
        awaiting = result.get("awaiting") if result else None
        if awaiting:
            return _link(reverse("battles:battles", args=[game.pk]),
                         _("Fight battle %(n)s") % {"n": awaiting["n"]},
                         _("Fought: %(done)s; places of battle this turn: %(places)s.")
                         % {"done": len(result.get("fought", [])), "places": len(result.get("battles", []))})
        return _link(reverse("battles:battles", args=[game.pk]), _("Fight the battles"))
    if phase.kind == Phase.REGROUP and (resolution is None or resolution.applied_at is None):
        return _link(reverse("battles:regroup", args=[game.pk]), _("Apply regroup"))
    return _next(game, phase)


def filing_grid(phase: Phase) -> list[dict] | None:
    """During Strategy: per faction, orders filed of units, and the time of the last one (not their content, R3)."""
    if phase.kind != Phase.STRATEGY:
        return None
    turn = phase.turn
    units: dict[str, int] = {}
    for unit in units_to_order(turn):  # a fleet carrying an army is not missing an order (R5)
        units[unit["faction"]] = units.get(unit["faction"], 0) + 1
    filed = {row["faction__code"]: row for row in Order.objects.filter(turn=turn).values("faction__code").annotate(
        n=Count("id", filter=Q(implicit=False)), last=Max("filed_at", filter=Q(implicit=False)))}
    ready = ready_marks(phase)
    rows = []
    for faction in labels.by_name(Faction.objects.filter(game=turn.game)):
        row = filed.get(faction.code, {})
        rows.append({"faction": faction, "filed": row.get("n", 0), "units": units.get(faction.code, 0),
                     "last": row.get("last"), "ready": ready.get(faction.code)})
    return rows


def orders_table(phase: Phase, names: dict) -> list[dict] | None:
    """After the deadline: every unit's order, in the vocabulary's words (None while orders are secret)."""
    turn = phase.turn
    if not turn.orders_revealed:
        return None
    ordered = {o.payload.get("unit"): o for o in Order.objects.filter(turn=turn).select_related("filed_by").prefetch_related("filed_by__memberships__faction")}
    carried_by = {o.payload["fleet"]: o.payload.get("unit") for o in ordered.values() if o.payload.get("fleet")}
    rows = []
    for unit in situation.start_units(turn):
        order = ordered.get(unit["id"])
        if order:
            text = labels.order_text(order.payload, names)
        elif unit["id"] in carried_by:  # a fleet that carries a landing army takes no order of its own (R5)
            text = labels.carry_text(carried_by[unit["id"]], names)
        else:
            text = "—"
        rows.append({"unit": names.get("units", {}).get(unit["id"], unit["id"]),
                     "faction": names.get("factions", {}).get(unit["faction"], unit["faction"]),
                     "order": text, "implicit": bool(order and order.implicit),
                     "by": order.filed_by if order else None, "at": order.filed_at if order else None})
    return sorted(rows, key=lambda r: labels.name_key(r["faction"]))  # stable: armies, then fleets, by number


def paper_order_units(phase: Phase, names: dict) -> list[dict]:
    """The units a moderator may write an order for this turn (those on the map at its start), by faction."""
    rows = []
    for unit in situation.start_units(phase.turn):
        rows.append({"code": unit["id"], "label": names.get("units", {}).get(unit["id"], unit["id"]),
                     "faction": names.get("factions", {}).get(unit["faction"], unit["faction"])})
    return sorted(rows, key=lambda r: (labels.name_key(r["faction"]), r["label"]))


def paper_order(game: Game, phase: Phase, unit_code: str, selected: dict | None = None) -> dict | None:
    """The legal-choice form of one unit for a paper order (R14): the tablet's pickers, any time of the turn."""
    try:
        unit = find_unit(game, unit_code) if unit_code and len(unit_code) <= 60 else None
    except ValueError:  # digits that are not ASCII name no unit
        unit = None
    if unit is None or unit.destroyed:
        return None
    kind = "fleet" if isinstance(unit, Fleet) else "army"
    turn = phase.turn
    order = Order.objects.filter(turn=turn, **({"fleet": unit} if kind == "fleet" else {"army": unit})).first()
    carried = pickers.carriers(Order.objects.filter(turn=turn, faction_id=unit.faction_id,
                                                    type__in=[Order.SEA_ATTACK, Order.LANDING]))
    entry = pickers.unit_entry(unit, sit=pickers.start_situation(turn), label_of=names(game).places, order=order,
                              is_open=True, selected=selected, busy=pickers.busy_fleets(carried, unit_code))
    entry["faction_name"] = unit.faction.name
    return entry
