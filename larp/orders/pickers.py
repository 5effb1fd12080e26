"""The legal pickers of an order form, below every page that shows one (the tablet's faction board and
the console's paper order): the turn-start situation, every legal choice from the engine's `legal_steps`
(R5), an order in the vocabulary's words, and one unit's card with its form.

Reads only; the pages call these with what they have read (a unit, its order, the names of the places).
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from larp.campaign import labels
from larp.engine import is_complete, legal_fleets, legal_steps
from larp.engine.errors import CaseError
from larp.forces.models import Fleet, roman
from larp.maps.view import unit_label
from larp.orders.models import Order
from larp.turns import situation
from larp.turns.situation import parse_unit_code


# --- a stack's cards and totals ---------------------------------------------------------------


def card_rows(cards) -> list[dict]:
    return [{"code": c.troop_type.code, "name": c.troop_type.name, "name_ru": c.troop_type.name_ru,
             "name_en": c.troop_type.name_en, "power": c.troop_type.power, "men": c.troop_type.men} for c in cards]


def commander_rows(commanders) -> list[dict]:
    return [{"name": c.name, "name_ru": c.name_ru, "name_en": c.name_en, "power": c.power} for c in commanders]


def stack_totals(cards: list[dict], commanders: list[dict]) -> dict:
    troops = sum(c["power"] for c in cards)
    bonus = sum(c["power"] for c in commanders)
    men = sum(c["men"] for c in cards)
    return {"troop_power": troops, "commander_power": bonus, "power": troops + bonus, "men": men,
            "men_text": men_text(men)}


def men_text(men: int | None) -> str:
    """10000 -> '10 000' (a thin space groups thousands, as Russian writes them)."""
    return f"{int(men or 0):,}".replace(",", "\u202f")


# --- the turn-start situation and legal choices (R5) -----------------------------------


def start_situation(turn):
    """The engine's Situation at the start of the turn (orders are checked against it, R5); None if unusable."""
    if not turn.start_state:
        return None
    try:
        return situation.start_situation(turn)
    except CaseError:
        return None


STEP_LABELS = {
    ("march", 1): lambda: _("Step 1"),
    ("march", 2): lambda: _("Step 2 (optional)"),
    ("attack", 1): lambda: _("Step 1: the target, or a friendly province to pass"),
    ("attack", 2): lambda: _("Step 2: the target"),
    ("sea_attack", 1): lambda: _("Sea zone where the army boards its fleet"),
    ("sea_attack", 2): lambda: _("Target on the coast"),
    ("landing", 1): lambda: _("Sea zone where the army boards its fleet"),
    ("landing", 2): lambda: _("Landing place, or the next sea zone"),
    ("landing", 3): lambda: _("Landing place"),
    ("fleet_move", 1): lambda: _("Sea zone to move to"),
    ("fleet_attack", 1): lambda: _("Sea zone of the battle"),
    ("fleet_attack", 2): lambda: _("Whose fleet to attack"),
}


def order_choices(sit, unit_code: str, unit_kind: str, label_of: dict[str, str], selected: dict | None,
                  busy: frozenset = frozenset()) -> dict:
    """Every legal choice of the order form as flat groups, from the engine's `legal_steps` (R5).

    A group is shown when the order type and the steps chosen before it
    (`prefix`) match: the form never offers an illegal path. `selected` (type,
    path, fleet) marks what is picked: the unit's current order, or what was
    sent with a refused order. `busy`: the fleets the faction's other orders board this turn; a sea order
    cannot board them (R5, `fleet_busy`), so they are not offered, nor a sea zone where only they could.
    """
    selected = selected or {}
    sel_type, sel_path, sel_fleet = selected.get("type") or "", list(selected.get("path") or []), selected.get("fleet")
    kinds = Order.FLEET_TYPES if unit_kind == "fleet" else Order.ARMY_TYPES
    type_labels = dict(Order.TYPES)
    types, groups = [], []
    for kind in kinds:
        if kind == Order.HOLD:
            types.append({"value": kind, "label": str(type_labels[kind]), "checked": sel_type == kind})
            continue
        before = len(groups)
        _walk(sit, unit_code, kind, [], groups, label_of, sel_type, sel_path, sel_fleet, busy)
        if len(groups) > before:
            types.append({"value": kind, "label": str(type_labels[kind]), "checked": sel_type == kind})
    complete = sel_type == Order.HOLD or (
        bool(sel_type) and sel_type != Order.HOLD and any(t["value"] == sel_type for t in types)
        and _safe_complete(sit, unit_code, sel_type, sel_path))
    return {"types": types, "groups": groups, "complete": complete}


def _safe_complete(sit, unit_code, kind, path) -> bool:
    try:
        return bool(path) and is_complete(sit, unit_code, kind, path)
    except (KeyError, ValueError, CaseError):
        return False


def free_fleets(sit, unit_code: str, zone: str, busy: frozenset = frozenset()) -> list[str]:
    """The army's fleets in `zone` that a sea order could board and no other order of the faction boards."""
    return [f for f in legal_fleets(sit, unit_code, zone) if f not in busy]


def _walk(sit, unit_code, kind, path, groups, label_of, sel_type, sel_path, sel_fleet, busy=frozenset()) -> None:
    depth = len(path) + 1
    if depth > 3:
        return
    options = legal_steps(sit, unit_code, kind, path)
    if kind in (Order.SEA_ATTACK, Order.LANDING) and depth == 1 and busy:
        options = [zone for zone in options if free_fleets(sit, unit_code, zone, busy)]
    if not options:
        return
    on_selected_branch = sel_type == kind and sel_path[:len(path)] == path
    group = {"kind": "step", "type": kind, "depth": depth, "prefix": "|".join(path),
             "label": STEP_LABELS.get((kind, depth), lambda: _("Step %(n)s") % {"n": depth})(), "options": [],
             "visible": on_selected_branch}
    for value in options:
        place = sit.provinces.get(value)
        group["options"].append({
            "value": value, "label": label_of.get(value, value),
            "sea": place is not None and place.domain == "sea", "faction": place is None,
            "complete": is_complete(sit, unit_code, kind, path + [value]),
            "checked": on_selected_branch and len(sel_path) > len(path) and sel_path[len(path)] == value,
        })
    groups.append(group)
    if kind in (Order.SEA_ATTACK, Order.LANDING) and depth == 1:
        for zone in options:
            fleets = free_fleets(sit, unit_code, zone, busy)
            if len(fleets) > 1:
                chosen = sel_fleet if sel_type == kind and sel_path[:1] == [zone] and sel_fleet in fleets else fleets[0]
                groups.append({"kind": "fleet", "type": kind, "depth": 0, "prefix": zone,
                               "visible": sel_type == kind and sel_path[:1] == [zone],
                               "label": _("Which fleet carries the army"), "options": [
                                   {"value": f, "label": _fleet_label(sit, f), "checked": f == chosen,
                                    "complete": False, "sea": False, "faction": False} for f in fleets]})
    for value in options:
        if not is_complete(sit, unit_code, kind, path + [value]) or legal_steps(sit, unit_code, kind, path + [value]):
            _walk(sit, unit_code, kind, path + [value], groups, label_of, sel_type, sel_path, sel_fleet, busy)


def _fleet_label(sit, fleet_id: str) -> str:
    return unit_label("fleet", roman(sit.fleets[fleet_id].number))


def describe_order(payload: dict, label_of: dict[str, str], start: str | None = None) -> str:
    """An order in the one wording every page and sheet uses (labels.order_text): «Захват: Филиппополь».

    `start` is accepted for old callers and not shown: the card already says where the unit stands."""
    fleet = parse_unit_code(payload.get("fleet") or "")
    numerals = {payload["fleet"]: roman(fleet[2])} if fleet and fleet[1] == "fleet" else {}
    return labels.order_text(payload, {"provinces": label_of, "factions": label_of, "numerals": numerals})


# --- one unit's card ---------------------------------------------------------------------------


def carriers(orders) -> dict[str, str]:
    """Fleet code -> the code of the army whose sea attack or landing boards it (R5), from these orders."""
    return {o.payload["fleet"]: o.payload.get("unit") for o in orders
            if o.payload.get("type") in (Order.SEA_ATTACK, Order.LANDING) and o.payload.get("fleet")}


def busy_fleets(carried: dict[str, str], unit_code: str) -> frozenset:
    """The fleets boarded by orders other than this unit's (`carried`: fleet -> army, from `carriers`)."""
    return frozenset(fleet for fleet, army in carried.items() if army != unit_code)


def _carry_note(army_code: str) -> str:
    """«перевозит армию IV» — the vocabulary's words for a fleet carrying an army."""
    parsed = parse_unit_code(army_code)
    numeral = roman(parsed[2]) if parsed and parsed[1] == "army" else ""
    return labels.carry_text(army_code, {"numerals": {army_code: numeral}} if numeral else {})


def unit_entry(unit, *, sit, label_of, order: Order | None, is_open: bool, selected: dict | None = None,
               carried_army: str | None = None, busy: frozenset = frozenset()) -> dict:
    """One army or fleet card of the board: stack, totals, current order, the form's legal choices.

    A fleet an army's order boards (`carried_army`) takes no order of its own (R5): its card says what it
    carries and offers no form while that order stands. `busy`: the fleets other orders of the faction board
    (`order_choices`)."""
    is_fleet = isinstance(unit, Fleet)
    place = unit.sea if is_fleet else unit.province
    cards = card_rows(unit.cards.all())
    commanders = commander_rows(unit.commanders.all())
    code = unit.code
    in_turn = sit is not None and sit.unit(code) is not None and sit.unit(code).on_map
    if selected is None and order is not None:
        p = order.payload
        selected = {"type": p.get("type"), "fleet": p.get("fleet")}
        if p.get("type") in (Order.MARCH, Order.ATTACK):
            selected["path"] = list(p.get("path") or [])
        elif p.get("type") in (Order.SEA_ATTACK, Order.LANDING):
            selected["path"] = list(p.get("sea") or []) + [p.get("target")]
        elif p.get("type") == Order.FLEET_MOVE:
            selected["path"] = [p.get("sea")]
        elif p.get("type") == Order.FLEET_ATTACK:
            selected["path"] = [p.get("sea"), p.get("target_faction")]
    start = sit.unit(code).location if in_turn else place.code
    carries = _carry_note(carried_army) if is_fleet and carried_army else ""
    return {
        "code": code, "pk": unit.pk, "kind": "fleet" if is_fleet else "army", "roman": unit.roman,
        "label": unit_label("fleet" if is_fleet else "army", unit.roman),
        "place": place.name, "place_code": place.code, "cards": cards, "commanders": commanders,
        **stack_totals(cards, commanders),
        "order": order, "order_text": describe_order(order.payload, label_of, start) if order else "",
        "in_turn": in_turn, "carries": carries,
        "choices": (order_choices(sit, code, "fleet" if is_fleet else "army", label_of, selected, busy)
                    if in_turn and not carries else None),
        "open": is_open and in_turn and not carries,
    }
