"""Reads for printing: the database (and the engine's stored results) -> plain data for the renderers.

A handful of queries per document whatever the number of factions; names in
the active language.
"""
from __future__ import annotations

from collections import defaultdict

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from larp.battles.selectors import battle_dice, turn_result
from larp.campaign.models import AuditEntry, Faction, Game, Province, SpecialState
from larp.dice import selectors as dice_selectors
from larp.engine.rules import parse_rules
from larp.forces.models import Army, Commander, Fleet, TroopCard, TroopType
from larp.campaign import labels
from larp.maps import view as maps
from larp.sheets import build
from larp.orders.messages import refusal_text
from larp.turns.models import Phase, Turn, TurnSettings
from larp.turns.selectors import Names, names as game_names
from larp.turns.situation import ENGINE_RULE_KEYS, case_from_game, start_case


class NoResults(LookupError):
    """The turn has no stored engine result yet; the message says so to a moderator."""


def engine_rules(game: Game):
    return parse_rules({k: v for k, v in (game.rules or {}).items() if k in ENGINE_RULE_KEYS})


def current_turn_number(game: Game) -> int | None:
    """The turn being played (or the last one), None before the first turn."""
    ts = TurnSettings.objects.filter(game=game).select_related("current_phase__turn").first()
    if ts and ts.current_phase_id:
        return ts.current_phase.turn.number
    return Turn.objects.filter(game=game).order_by("-number").values_list("number", flat=True).first()


def order_turn_number(game: Game) -> int | None:
    """The turn the next orders are for: this one while its Strategy phase is open, else the next; blank
    before the game (forms printed in advance are filled in by hand)."""
    ts = TurnSettings.objects.filter(game=game).select_related("current_phase__turn").first()
    phase = ts.current_phase if ts else None
    if phase is None:
        return None
    if phase.kind == Phase.STRATEGY and phase.state != Phase.CLOSED:
        return phase.turn.number
    return phase.turn.number + 1


def header(game: Game, turn: int | None) -> dict:
    return {"game": game.title, "turn": turn,
            "date": formats.date_format(timezone.localtime(), "DATETIME_FORMAT"),
            "dice_fingerprint": dice_selectors.game_fingerprint(game), "dice_chosen": dice_selectors.chosen(game)}


# --- battle sheets -------------------------------------------------------------

def battle_sheets(game: Game, faction_id: int | None = None) -> list[dict]:
    """One battle sheet (R1) per faction: its armies, fleets, garrisons, commanders and specials."""
    factions = labels.by_name(Faction.objects.filter(game=game))
    if faction_id is not None:
        factions = [f for f in factions if f.pk == faction_id]
    names = game_names(game)
    types = {t.pk: t.code for t in TroopType.objects.filter(game=game)}
    stack_cards = {"army": defaultdict(list), "fleet": defaultdict(list), "garrison": defaultdict(list)}
    for army_id, fleet_id, garrison_id, type_id in TroopCard.objects.filter(game=game).order_by("id").values_list(
            "army_id", "fleet_id", "garrison_id", "troop_type_id"):
        kind, key = ("army", army_id) if army_id else ("fleet", fleet_id) if fleet_id else ("garrison", garrison_id)
        stack_cards[kind][key].append(types[type_id])
    commanders = {"army": defaultdict(list), "fleet": defaultdict(list), "none": defaultdict(list)}
    for c in Commander.objects.filter(game=game).order_by("id"):
        entry = {"name": c.name, "power": c.power}
        if c.army_id:
            commanders["army"][c.army_id].append(entry)
        elif c.fleet_id:
            commanders["fleet"][c.fleet_id].append(entry)
        else:
            commanders["none"][c.faction_id].append(entry)
    provinces = list(Province.objects.filter(game=game).order_by("code"))
    rules = engine_rules(game)
    states = {s.special: s.state for s in SpecialState.objects.filter(game=game)}
    armies = defaultdict(list)
    for a in Army.objects.filter(game=game, destroyed=False).select_related("province").order_by("number"):
        armies[a.faction_id].append(_stack(a.roman, a.province.name, stack_cards["army"][a.pk],
                                           commanders["army"][a.pk], names))
    fleets = defaultdict(list)
    for f in Fleet.objects.filter(game=game, destroyed=False).select_related("sea").order_by("number"):
        fleets[f.faction_id].append(_stack(f.roman, f.sea.name, stack_cards["fleet"][f.pk],
                                           commanders["fleet"][f.pk], names))
    capital_ids = set(Faction.objects.filter(game=game, capital__isnull=False).values_list("capital_id", flat=True))

    sheets = []
    turn = current_turn_number(game)
    head = header(game, turn)
    for faction in factions:
        owned = [p for p in provinces if p.owner_id == faction.pk]
        garrisons = []
        for p in owned:
            if not p.fortress:
                continue
            grouped = build.cards(stack_cards["garrison"][p.pk], names)
            garrisons.append({"province": p.name, "capital": p.pk in capital_ids,
                              "special": labels.special_name(p.special) if p.special else "",
                              "cards": grouped, "cards_text": build.cards_text(grouped),
                              "power": build.stack_power(grouped), "men": build.stack_men(grouped)})
        special_ids = list(faction.specials) + [p.special for p in owned if p.special and p.special not in faction.specials]
        specials = []
        for sid in special_ids:
            spec = rules.specials.get(sid)
            if spec is None:
                specials.append({"name": labels.special_name(sid), "effect": "", "state": ""})
                continue
            specials.append({"name": labels.special_name(sid),
                             "effect": labels.special_effect(spec, names.province, names.faction),
                             "state": labels.special_state(spec, states.get(sid))})
        sheets.append({
            **head,
            "faction": {"code": faction.code, "name": faction.name, "colour": faction.colour,
                        "capital": next((p.name for p in provinces if p.pk == faction.capital_id), "")},
            "armies": armies[faction.pk],
            "fleets": fleets[faction.pk],
            "garrisons": garrisons,
            "specials": specials,
            "unattached_commanders": commanders["none"][faction.pk],
        })
    return sheets


def _stack(label: str, location: str, codes: list[str], commanders: list[dict], names: Names) -> dict:
    grouped = build.cards(codes, names)
    return {"label": label, "location": location, "cards": grouped, "cards_text": build.cards_text(grouped),
            "power": build.stack_power(grouped), "men": build.stack_men(grouped), "commanders": commanders,
            "commanders_power": sum(c["power"] for c in commanders)}


# --- blank order forms ---------------------------------------------------------

def order_forms(game: Game, faction_id: int | None = None, turn: int | None = None) -> list[dict]:
    """One blank order form (R5) per faction, each army and fleet pre-filled with its number and place."""
    factions = Faction.objects.filter(game=game)
    if faction_id is not None:
        factions = factions.filter(pk=faction_id)
    factions = labels.by_name(factions)
    armies, fleets = defaultdict(list), defaultdict(list)
    for a in Army.objects.filter(game=game, destroyed=False).select_related("province").order_by("number"):
        armies[a.faction_id].append({"kind": "army", "number": a.roman, "position": a.province.name})
    for f in Fleet.objects.filter(game=game, destroyed=False).select_related("sea").order_by("number"):
        fleets[f.faction_id].append({"kind": "fleet", "number": labels.fleet_label(f.roman), "position": f.sea.name})
    # Orders are only ever filed for the turn ahead: a form asked for a turn whose Strategy phase is over
    # (the console's buttons send the turn being resolved) is for the next one.
    upcoming = order_turn_number(game)
    head = header(game, upcoming if upcoming is not None and (turn is None or turn < upcoming) else turn)
    return [{**head, "faction": {"code": f.code, "name": f.name, "colour": f.colour},
             "units": armies[f.pk] + fleets[f.pk]} for f in factions]


# --- after a turn: protocols and results ---------------------------------------

def _turn_case_and_result(game: Game, number: int) -> tuple[dict, dict, dict]:
    stored = turn_result(game, number)
    if stored is None:
        raise NoResults(_("Turn %(turn)s has no results yet: resolve its battles in the console first.")
                        % {"turn": number})
    turn = Turn.objects.filter(game=game, number=number).first()
    case = start_case(game, turn)
    return case, stored["result"], stored


def turn_protocols(game: Game, number: int, battle: int | None = None) -> list[dict]:
    case, result, _stored = _turn_case_and_result(game, number)
    protocols = build.protocols_from_turn(case, result, game_names(game), header=header(game, number), only=battle,
                                          dice=battle_dice(game, number), outside=_stored.get("outside"))
    if not protocols:
        if battle is not None:
            raise NoResults(_("Turn %(turn)s has no battle no. %(n)s.") % {"turn": number, "n": battle})
        raise NoResults(_("No battles were fought in turn %(turn)s.") % {"turn": number})
    return protocols


def turn_results(game: Game, number: int) -> dict:
    case, result, stored = _turn_case_and_result(game, number)
    names = game_names(game)
    turn = Turn.objects.filter(game=game, number=number).first()
    orders = {o.payload.get("unit"): o.payload for o in turn.orders.all()} if turn else {}
    return build.turn_results(case, result, names, header=header(game, number), news=stored.get("news", ""),
                              raised=_raised(game, number), orders=orders, dice=battle_dice(game, number),
                              outside=stored.get("outside"),
                              refusal_text=lambda r: refusal_text(game.pk, r))


def _raised(game: Game, number: int) -> list[dict]:
    """Armies raised anew (R2) between this turn's start and the next one's, from the audit log."""
    turn = Turn.objects.filter(game=game, number=number).first()
    if turn is None:
        return []
    entries = AuditEntry.objects.filter(game=game, action="army_raised", at__gte=turn.started_at)
    following = Turn.objects.filter(game=game, number=number + 1).first()
    if following is not None:
        entries = entries.filter(at__lt=following.started_at)
    armies = {a.code: a for a in Army.objects.filter(game=game).select_related("faction")}
    provinces = {p.code: p.name for p in Province.objects.filter(game=game)}
    raised = []
    for entry in entries.order_by("at", "id"):
        army = armies.get(entry.detail.get("army"))
        if army is None:
            continue
        raised.append({"faction": army.faction.name, "unit": labels.army_label(army.roman),
                       "province": provinces.get(entry.detail.get("province"), entry.detail.get("province"))})
    return raised


# --- the map on paper ------------------------------------------------------------

NOW, START, AFTER = "now", "start", "after"


def map_extent(game: Game) -> tuple[float, float, float]:
    """The map's drawing size and symbol scale (larp.maps.view.map_extent): paper sizes the names from it."""
    return maps.map_extent(game)


def map_state(game: Game, turn: int | None = None, after: bool = False) -> tuple[dict, int | None, str]:
    """(state document, turn number, moment) of the map asked for: the game as it stands (no turn), a turn's
    start as the turn stored it, or the state its regroup left (`after`; the turn being played by default).
    NoResults, with the reason, for a turn that has not started or not been through its regroup."""
    if turn is None and not after:
        return case_from_game(game), current_turn_number(game), NOW
    number = turn if turn is not None else current_turn_number(game)
    if number is None:
        raise NoResults(_("The game has not started: there is no turn to draw the map of yet."))
    if after:
        stored = turn_result(game, number)
        state = ((stored or {}).get("result") or {}).get("state")
        if state:
            return state, number, AFTER
    start = Turn.objects.filter(game=game, number=number).values_list("start_state", flat=True).first()
    if not start:
        raise NoResults(_("Turn %(turn)s has not started: there is no map of its start.") % {"turn": number})
    if after:
        raise NoResults(_("Turn %(turn)s has not been through its regroup yet: there is no map after it.")
                        % {"turn": number})
    return start, number, START


def _when(number: int | None, moment: str) -> str:
    if number is None:
        return _("Before the first turn")
    if moment == START:
        return _("Turn %(n)s, its start") % {"n": number}
    if moment == AFTER:
        return _("Turn %(n)s, after the regroup") % {"n": number}
    return _("Turn %(n)s, as it stands now") % {"n": number}


def _map_pages(game: Game, turn: int | None, after: bool, label_px: float) -> tuple[dict, list[dict]]:
    """What every copy of the map shares (heading, moment, the drawing), and every stack of the moment with
    its contents: the caller keeps only what its reader may see."""
    state, number, moment = map_state(game, turn, after)
    names = game_names(game)
    commander_names = {c.name_ru: c.name for c in Commander.objects.filter(game=game)}
    stacks = build.map_stacks(state, names, lambda name: commander_names.get(name, name))
    common = {**header(game, number), "moment": moment, "when": _when(number, moment),
              "map": maps.map_view(game, state=state, label_px=label_px, flag_size=label_px / 10)}
    return {**common, "state": state, "names": names}, stacks


def moderators_map(game: Game, *, turn: int | None = None, after: bool = False,
                   label_px: float = 10) -> list[dict]:
    """The moderators' map: one page, every army and fleet with its place (no contents: that is the battle
    sheets'), grouped by faction in the order of their names."""
    common, stacks = _map_pages(game, turn, after, label_px)
    common.pop("state"), common.pop("names")
    groups = []
    for faction in labels.by_name(Faction.objects.filter(game=game)):
        units = [{"label": s["label"], "place": s["place"]} for s in stacks if s["faction"] == faction.code]
        groups.append({"code": faction.code, "name": faction.name, "colour": faction.colour, "units": units})
    return [{**common, "faction": None, "groups": groups}]


def faction_maps(game: Game, faction_id: int | None = None, *, turn: int | None = None, after: bool = False,
                 label_px: float = 10) -> list[dict]:
    """A faction's map (every faction's, one page each, without `faction_id`): every flag on the map, and the
    contents of this faction's own armies, fleets and garrisons only (R13)."""
    common, stacks = _map_pages(game, turn, after, label_px)
    state, names = common.pop("state"), common.pop("names")
    factions = labels.by_name(Faction.objects.filter(game=game))
    if faction_id is not None:
        factions = [f for f in factions if f.pk == faction_id]
    return [{**common, "faction": {"code": f.code, "name": f.name, "colour": f.colour},
             "stacks": [s for s in stacks if s["faction"] == f.code],
             "garrisons": build.map_garrisons(state, f.code, names)} for f in factions]
