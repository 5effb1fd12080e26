"""Reads for the players' tablets: the faction board, legal order choices, the map, players, spy reports.

Fog of war (R13): `faction_board` reads only the given faction's stacks and
orders (views check the role first); `map_view` reads positions, flags,
owners and fortresses, never a stack's contents.
"""
from __future__ import annotations

from collections import defaultdict

from django.core.cache import cache
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from larp.battles.models import TurnResolution
from larp.campaign import labels
from larp.campaign.models import Faction, Game, Membership, Province
from larp.engine import is_complete, legal_fleets, legal_steps
from larp.engine.errors import CaseError
from larp.forces.models import Army, Commander, Fleet, TroopCard, roman
from larp.orders.models import Order
from larp.orders.selectors import visible_orders
from larp.orders.services import find_unit
from larp.sheets import selectors as sheets
from larp.maps.view import unit_label
from larp.tablet.models import JoinToken, SpyReport
from larp.turns.models import Phase
from larp.turns import situation
from larp.turns.selectors import current_phase, names
from larp.turns.situation import parse_unit_code



# --- stacks ---------------------------------------------------------------------------


def _cards(cards) -> list[dict]:
    return [{"code": c.troop_type.code, "name": c.troop_type.name, "name_ru": c.troop_type.name_ru,
             "name_en": c.troop_type.name_en, "power": c.troop_type.power, "men": c.troop_type.men} for c in cards]


def _commanders(commanders) -> list[dict]:
    return [{"name": c.name, "name_ru": c.name_ru, "name_en": c.name_en, "power": c.power} for c in commanders]


def _totals(cards: list[dict], commanders: list[dict]) -> dict:
    troops = sum(c["power"] for c in cards)
    bonus = sum(c["power"] for c in commanders)
    men = sum(c["men"] for c in cards)
    return {"troop_power": troops, "commander_power": bonus, "power": troops + bonus, "men": men,
            "men_text": men_text(men)}


def men_text(men: int | None) -> str:
    """10000 -> '10 000' (a thin space groups thousands, as Russian writes them)."""
    return f"{int(men or 0):,}".replace(",", "\u202f")


def stack_content(stack) -> dict:
    """One stack (army, fleet or garrison) as JSON: what a spy report keeps (names in both languages)."""
    if isinstance(stack, Province):
        cards = _cards(TroopCard.objects.filter(garrison=stack).select_related("troop_type"))
        commanders = []
        kind, number, place = "garrison", None, stack
        faction = stack.owner
    else:
        cards = _cards(stack.cards.select_related("troop_type"))
        commanders = _commanders(stack.commanders.all())
        kind = "fleet" if isinstance(stack, Fleet) else "army"
        number, faction = stack.number, stack.faction
        place = stack.sea if isinstance(stack, Fleet) else stack.province
    return {"kind": kind, "number": number, "roman": stack.roman if number else "",
            "faction": {"code": faction.code, "name_ru": faction.name_ru, "name_en": faction.name_en}
            if faction else None,
            "place": {"code": place.code, "name_ru": place.name_ru, "name_en": place.name_en},
            "troops": cards, "commanders": commanders, **_totals(cards, commanders)}


def bilingual(item: dict | None, key: str = "name") -> str:
    """The name in the active language from a {name_ru, name_en} snapshot."""
    if not item:
        return ""
    from django.utils.translation import get_language

    if (get_language() or "ru").startswith("en") and item.get(f"{key}_en"):
        return item[f"{key}_en"]
    return item.get(f"{key}_ru") or item.get(key) or ""



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


def order_choices(sit, unit_code: str, unit_kind: str, label_of: dict[str, str], selected: dict | None) -> dict:
    """Every legal choice of the order form as flat groups, from the engine's `legal_steps` (R5).

    A group is shown when the order type and the steps chosen before it
    (`prefix`) match: the form never offers an illegal path. `selected` (type,
    path, fleet) marks what is picked: the unit's current order, or what was
    sent with a refused order.
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
        _walk(sit, unit_code, kind, [], groups, label_of, sel_type, sel_path, sel_fleet)
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


def _walk(sit, unit_code, kind, path, groups, label_of, sel_type, sel_path, sel_fleet) -> None:
    depth = len(path) + 1
    if depth > 3:
        return
    options = legal_steps(sit, unit_code, kind, path)
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
            fleets = legal_fleets(sit, unit_code, zone)
            if len(fleets) > 1:
                chosen = sel_fleet if sel_type == kind and sel_path[:1] == [zone] and sel_fleet in fleets else fleets[0]
                groups.append({"kind": "fleet", "type": kind, "depth": 0, "prefix": zone,
                               "visible": sel_type == kind and sel_path[:1] == [zone],
                               "label": _("Which fleet carries the army"), "options": [
                                   {"value": f, "label": _fleet_label(sit, f), "checked": f == chosen,
                                    "complete": False, "sea": False, "faction": False} for f in fleets]})
    for value in options:
        if not is_complete(sit, unit_code, kind, path + [value]) or legal_steps(sit, unit_code, kind, path + [value]):
            _walk(sit, unit_code, kind, path + [value], groups, label_of, sel_type, sel_path, sel_fleet)


def _fleet_label(sit, fleet_id: str) -> str:
    return unit_label("fleet", roman(sit.fleets[fleet_id].number))


def describe_order(payload: dict, label_of: dict[str, str], start: str | None = None) -> str:
    """An order in the one wording every page and sheet uses (labels.order_text): «Захват: Филиппополь».

    `start` is accepted for old callers and not shown: the card already says where the unit stands."""
    fleet = parse_unit_code(payload.get("fleet") or "")
    numerals = {payload["fleet"]: roman(fleet[2])} if fleet and fleet[1] == "fleet" else {}
    return labels.order_text(payload, {"provinces": label_of, "factions": label_of, "numerals": numerals})


# --- the faction board --------------------------------------------------------------------


def orders_open(phase: Phase | None, now=None) -> bool:
    """Orders are accepted in a Strategy phase that is paused or running before its deadline (R3)."""
    if phase is None or phase.kind != Phase.STRATEGY:
        return False
    if phase.state == Phase.PAUSED:
        return True
    return phase.state == Phase.RUNNING and phase.deadline is not None and (now or timezone.now()) < phase.deadline


def _stacks(qs):
    return qs.prefetch_related(
        Prefetch("cards", queryset=TroopCard.objects.select_related("troop_type").order_by("id")),
        Prefetch("commanders", queryset=Commander.objects.order_by("id")),
    ).select_related("faction")


def carriers(orders) -> dict[str, str]:
    """Fleet code -> the code of the army whose sea attack or landing boards it (R5), from these orders."""
    return {o.payload["fleet"]: o.payload.get("unit") for o in orders
            if o.payload.get("type") in (Order.SEA_ATTACK, Order.LANDING) and o.payload.get("fleet")}


def _carry_note(army_code: str) -> str:
    """«перевозит армию IV» — the vocabulary's words for a fleet carrying an army."""
    parsed = parse_unit_code(army_code)
    numeral = roman(parsed[2]) if parsed and parsed[1] == "army" else ""
    return labels.carry_text(army_code, {"numerals": {army_code: numeral}} if numeral else {})


def unit_entry(unit, *, sit, label_of, order: Order | None, is_open: bool, selected: dict | None = None,
               carried_army: str | None = None) -> dict:
    """One army or fleet card of the board: stack, totals, current order, the form's legal choices.

    A fleet an army's order boards (`carried_army`) takes no order of its own (R5): its card says what it
    carries and offers no form while that order stands."""
    is_fleet = isinstance(unit, Fleet)
    place = unit.sea if is_fleet else unit.province
    cards = _cards(unit.cards.all())
    commanders = _commanders(unit.commanders.all())
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
        **_totals(cards, commanders),
        "order": order, "order_text": describe_order(order.payload, label_of, start) if order else "",
        "in_turn": in_turn, "carries": carries,
        "choices": (order_choices(sit, code, "fleet" if is_fleet else "army", label_of, selected)
                    if in_turn and not carries else None),
        "open": is_open and in_turn and not carries,
    }


def faction_board(user, faction: Faction) -> dict:
    """Everything the faction page shows; the caller has checked require_faction (R13)."""
    game = faction.game
    phase = current_phase(game)
    turn = phase.turn if phase else None
    sit = start_situation(turn) if turn else None
    label_of = names(game).places
    is_open = orders_open(phase)
    by_unit = {}
    if turn is not None:
        for o in visible_orders(user, turn).filter(faction=faction):
            by_unit[o.payload.get("unit")] = o
    armies = _stacks(Army.objects.filter(faction=faction, destroyed=False).select_related("province"))
    fleets = _stacks(Fleet.objects.filter(faction=faction, destroyed=False).select_related("sea"))
    carried = carriers(by_unit.values())
    units = [unit_entry(u, sit=sit, label_of=label_of, order=by_unit.get(u.code), is_open=is_open,
                        carried_army=carried.get(u.code))
             for u in list(armies) + list(fleets)]
    garrisons = []
    cards_by = defaultdict(list)
    for card in TroopCard.objects.filter(garrison__owner=faction).select_related("troop_type", "garrison"):
        cards_by[card.garrison].append(card)
    for province, cards in sorted(cards_by.items(), key=lambda kv: kv[0].name):
        content = _cards(cards)
        garrisons.append({"place": province.name, "cards": content, **_totals(content, [])})
    return {
        "faction": faction, "game": game, "phase": phase, "turn": turn, "orders_open": is_open,
        "units": units, "garrisons": garrisons, "reports": spy_reports(faction),
        **_summary(units), "label_of": label_of,
    }


def _summary(units: list[dict]) -> dict:
    """Orders the server has from the players (not the holds made for them at the deadline), and those holds."""
    return {"ordered": sum(1 for u in units if u["order"] is not None and not u["order"].implicit),
            "holding": sum(1 for u in units if u["order"] is not None and u["order"].implicit),
            "units_total": len(units)}


def order_summary(user, faction: Faction) -> dict:
    """The board's summary line alone (refreshed beside a card after filing)."""
    phase = current_phase(faction.game)
    turn = phase.turn if phase else None
    orders = {}
    if turn is not None:
        orders = {o.payload.get("unit"): o for o in visible_orders(user, turn).filter(faction=faction)}
    codes = [a.code for a in Army.objects.filter(faction=faction, destroyed=False).select_related("faction")]
    codes += [f.code for f in Fleet.objects.filter(faction=faction, destroyed=False).select_related("faction")]
    return {"turn": turn, "orders_open": orders_open(phase),
            **_summary([{"order": orders.get(code)} for code in codes])}


def one_unit(user, faction: Faction, unit_code: str, selected: dict | None = None) -> dict | None:
    """One card of the board (after filing or a refusal); None if the unit is not the faction's."""
    unit = find_unit(faction.game, unit_code)
    if unit is None or unit.faction_id != faction.pk or unit.destroyed:
        return None
    unit = (_stacks(Fleet.objects.filter(pk=unit.pk).select_related("sea")) if isinstance(unit, Fleet)
            else _stacks(Army.objects.filter(pk=unit.pk).select_related("province"))).get()
    phase = current_phase(faction.game)
    turn = phase.turn if phase else None
    order = visible_orders(user, turn).filter(faction=faction).filter(
        **({"fleet": unit} if isinstance(unit, Fleet) else {"army": unit})).first() if turn else None
    carried_army = None
    if turn is not None and isinstance(unit, Fleet):
        carried_army = carriers(visible_orders(user, turn).filter(
            faction=faction, type__in=[Order.SEA_ATTACK, Order.LANDING])).get(unit.code)
    return unit_entry(unit, sit=start_situation(turn) if turn else None, label_of=names(faction.game).places, order=order,
                      is_open=orders_open(phase), selected=selected, carried_army=carried_army)


def fleet_codes(faction: Faction) -> list[str]:
    """The faction's fleets on the map (their cards change when an army's order boards or leaves one)."""
    return [f.code for f in Fleet.objects.filter(faction=faction, destroyed=False).select_related("faction")]


def spy_reports(faction: Faction) -> list[dict]:
    out = []
    for r in SpyReport.objects.filter(to_faction=faction).select_related("granted_by"):
        c = r.content
        out.append({"report": r, "faction": bilingual(c.get("faction")), "place": bilingual(c.get("place")),
                    "label": _("Garrison") if c.get("kind") == "garrison" else unit_label(c.get("kind"), c.get("roman")),
                    "troops": [bilingual(t) for t in c.get("troops", [])],
                    "commanders": [{"name": bilingual(m), "power": m.get("power")} for m in c.get("commanders", [])],
                    "power": c.get("power"), "men": c.get("men"), "men_text": men_text(c.get("men"))})
    return out


# --- the turn's result for one faction (after regroup) ---------------------------------------


def faction_turn_result(faction: Faction) -> dict | None:
    """What happened to this faction's own stacks in the last turn whose regroup was applied: its own part
    of the printed turn results, in the same words (larp.sheets.build.turn_results). None before that."""
    resolution = (TurnResolution.objects.filter(turn__game_id=faction.game_id, applied_at__isnull=False)
                  .select_related("turn").order_by("-turn__number").first())
    if resolution is None:
        return None
    key = f"larp:turn-result:{resolution.pk}:{resolution.applied_at.timestamp()}:{faction.pk}:{get_language()}"
    try:
        cached = cache.get(key)
    except Exception:  # noqa: BLE001 - without the cache the result is simply computed again
        cached = None
    if cached is not None:
        return cached
    try:
        data = sheets.turn_results(faction.game, resolution.turn.number)
    except sheets.NoResults:
        return None
    mine = faction.name
    battles = []
    for b in data["battles"]:
        for role in ("attacker", "defender"):
            if b[role]["name"] == mine:
                other = b["defender" if role == "attacker" else "attacker"]
                battles.append({"number": b["number"], "province": b["province"], "kind": b["kind"],
                                "attacked": role == "attacker", "against": other["name"], "units": b[role]["units"],
                                "outcome": labels.outcome_for(b["outcome"], role), "losses": b[role]["losses"],
                                "their_losses": other["losses"], "at_table": b.get("at_table")})
    own = {
        "turn": resolution.turn.number,
        "moves": [m for m in data["moves"] if m["faction"] == mine],
        "refused": [r for r in data["refused"] if r["faction"] == mine],
        "battles": battles,
        "retreats": [r for r in data["retreats"] if r["faction"] == mine],
        "destroyed": [u for u in data["destroyed_units"] if u["faction"] == mine],
        "gained": [r["province"] for r in data["recoloured"] if r["to"] == mine],
        "lost": [r["province"] for r in data["recoloured"] if r["from"] == mine],
        "raised": [r for r in data["raised"] if r["faction"] == mine],
    }
    own["empty"] = not any(own[k] for k in ("moves", "refused", "battles", "retreats", "destroyed", "gained",
                                            "lost", "raised"))
    try:
        cache.set(key, own, 60 * 60)
    except Exception:  # noqa: BLE001
        pass
    return own


# --- moderators' lists -------------------------------------------------------------------------


def players(game: Game) -> list[dict]:
    """Factions with their players and each player's working join code (None if none)."""
    now = timezone.now()
    active = {}
    for t in JoinToken.objects.filter(game=game, revoked_at__isnull=True, expires_at__gt=now).order_by("created_at"):
        active[t.user_id] = t
    members = defaultdict(list)
    for m in Membership.objects.filter(game=game, role=Membership.PLAYER).select_related("user").order_by(
            "user__username"):
        members[m.faction_id].append({"user": m.user, "token": active.get(m.user_id)})
    return [{"faction": f, "players": members.get(f.pk, [])} for f in labels.by_name(Faction.objects.filter(game=game))]


def spy_targets(game: Game) -> list[dict]:
    """Every stack a spy could report on: armies, fleets, garrisons, labelled for the moderator."""
    out = []
    for a in Army.objects.filter(game=game, destroyed=False).select_related("faction", "province"):
        out.append({"ref": f"army:{a.pk}", "faction": a.faction_id,
                    "label": f"{a.faction.name} — {unit_label('army', a.roman)} ({a.province.name})"})
    for f in Fleet.objects.filter(game=game, destroyed=False).select_related("faction", "sea"):
        out.append({"ref": f"fleet:{f.pk}", "faction": f.faction_id,
                    "label": f"{f.faction.name} — {unit_label('fleet', f.roman)} ({f.sea.name})"})
    garrisoned = Province.objects.filter(game=game, garrison_cards__isnull=False).select_related("owner").distinct()
    for p in garrisoned:
        owner = p.owner.name if p.owner else _("neutral")
        out.append({"ref": f"garrison:{p.code}", "faction": p.owner_id,
                    "label": f"{owner} — " + _("garrison of %(place)s") % {"place": p.name}})
    return out


# --- the clock's first paint (tablet.js keeps it going) ----------------------------------------
