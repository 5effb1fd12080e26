"""The one place that converts the database into the rules engine's data and back.

- `case_from_game(game)`: the engine's case document (docs/adjudication.md)
  from the models: what snapshots and a turn's start state store;
- `start_situation(turn)`: the engine's Situation at the turn's start, parsed
  once per process (one cache: orders are checked against it, the tablet
  offers legal steps from it);
- `case_with_orders(turn, payloads)`: that situation with a faction's orders;
- `turn_case(turn, payloads, dice, choices)`: the console's whole turn;
- unit codes both ways: `army_code`, `fleet_code`, `parse_unit_code`
  (armies are `<faction>-<number>`, fleets `<faction>-f<number>`);
- `apply_positions`, `apply_state`: the engine's results written back.

Ids are the scenario codes. Callers query their own models (orders, dice)
and hand the plain data here; this module reads campaign and forces only.
"""
from __future__ import annotations

import re
from collections import defaultdict

from larp.campaign.models import Adjacency, Faction, Game, Province, Relation, SpecialState
from larp.engine.case import parse_case, parse_order
from larp.engine.model import Case, Situation
from larp.forces.models import Army, Commander, Fleet, TroopCard, TroopType

ENGINE_RULE_KEYS = ("army_max_men", "two_dice_above_men", "storms_per_turn", "defence", "militia",
                    "band_upper_bounds", "losses", "specials")


def army_code(faction_code: str, number: int) -> str:
    return f"{faction_code}-{number}"


def fleet_code(faction_code: str, number: int) -> str:
    return f"{faction_code}-f{number}"


UNIT_CODE = re.compile(r"(?P<faction>[a-z][a-z0-9_-]*)-(?P<fleet>f?)(?P<number>[1-9][0-9]{0,4})", re.ASCII)
MAX_UNIT_NUMBER = 32767  # forces' PositiveSmallIntegerField


def parse_unit_code(code: str) -> tuple[str, str, int] | None:
    """'north-f1' -> ('north', 'fleet', 1), 'north-2' -> ('north', 'army', 2); None if it is no unit code.

    Strict: ASCII digits in canonical form only (no leading zeros, signs, spaces or other scripts' digits),
    so each unit has exactly one code; anything else is None (a 404 for a URL that names a unit)."""
    match = UNIT_CODE.fullmatch(code) if isinstance(code, str) else None
    if match is None or int(match["number"]) > MAX_UNIT_NUMBER:
        return None
    return match["faction"], "fleet" if match["fleet"] else "army", int(match["number"])


# --- the turn's start, and the cases built on it ------------------------------------------------

_situations: dict[tuple[int, str], Situation] = {}


def start_situation(turn) -> Situation:
    """The engine's Situation at the turn's start, parsed once per process (the start state never changes).

    Raises larp.engine.errors.CaseError if the stored state is unusable.
    """
    key = (turn.pk, turn.started_at.isoformat())
    sit = _situations.get(key)
    if sit is None:
        sit = parse_case(turn.start_state).situation
        if len(_situations) > 32:
            _situations.clear()
        _situations[key] = sit
    return sit


def start_units(turn) -> list[dict]:
    """The armies, then the fleets, on the map at the turn's start, as the turn stored them:
    {"id": unit code, "kind": "army" | "fleet", "faction": faction code, "place": province or sea zone code}."""
    state = turn.start_state or {}
    return ([{"id": a["id"], "kind": "army", "faction": a["faction"], "place": a.get("province")}
             for a in state.get("armies") or []]
            + [{"id": f["id"], "kind": "fleet", "faction": f["faction"], "place": f.get("sea")}
               for f in state.get("fleets") or []])


def start_positions(turn) -> dict[str, str]:
    """{unit code: place code} at the turn's start."""
    return {u["id"]: u["place"] for u in start_units(turn)}


def start_case(game: Game, turn=None) -> dict:
    """The engine's case document at the turn's start, as the turn stored it; the game as it stands now when
    there is no such turn or it kept none."""
    if turn is not None and turn.start_state:
        return turn.start_state
    return case_from_game(game)


def case_with_orders(turn, payloads: list[dict]) -> Case:
    """The turn-start situation with these orders (a faction's, in filing order: for the fleet rules)."""
    sit = start_situation(turn)
    return Case(situation=sit, orders=tuple(parse_order(sit, raw, i) for i, raw in enumerate(payloads)))


def turn_case(turn, payloads: list[dict], dice: list[dict], choices: dict) -> dict:
    """The engine's case for the console's turn: start state + orders in filing order + dice + choices.

    The server's dice are rolled explicitly and stored, never implied: the seed is left out.
    """
    case = dict(turn.start_state)
    case["orders"] = list(payloads)
    case["dice"] = list(dice)
    case["choices"] = dict(choices)
    case["seed"] = None
    return case


def relations(game: Game) -> tuple[frozenset[frozenset[str]], frozenset[tuple[str, str]]]:
    """R1's alliances ({a, b}) and passages ((granter, grantee)) by faction code, in the engine's shape."""
    alliances, passages = set(), set()
    for kind, a, b in Relation.objects.filter(game=game).values_list("kind", "from_faction__code",
                                                                     "to_faction__code"):
        if kind == Relation.ALLIANCE:
            alliances.add(frozenset((a, b)))
        else:
            passages.add((a, b))
    return frozenset(alliances), frozenset(passages)


def case_from_game(game: Game, *, draw: list[str] | None = None) -> dict:
    """The whole situation as the engine reads it; a handful of queries whatever the map size."""
    factions = list(Faction.objects.filter(game=game).select_related("capital").order_by("code"))
    fcode = {f.pk: f.code for f in factions}
    provinces = list(Province.objects.filter(game=game).order_by("code"))
    pcode = {p.pk: p.code for p in provinces}
    types = {t.pk: t for t in TroopType.objects.filter(game=game)}

    cards_by = {"army": defaultdict(list), "fleet": defaultdict(list), "garrison": defaultdict(list)}
    for army_id, fleet_id, garrison_id, type_id in TroopCard.objects.filter(game=game).order_by("id").values_list(
        "army_id", "fleet_id", "garrison_id", "troop_type_id"
    ):
        code = types[type_id].code
        if army_id:
            cards_by["army"][army_id].append(code)
        elif fleet_id:
            cards_by["fleet"][fleet_id].append(code)
        else:
            cards_by["garrison"][garrison_id].append(code)
    commanders_by = {"army": defaultdict(list), "fleet": defaultdict(list)}
    for cm in Commander.objects.filter(game=game).order_by("id"):
        entry = {"name": cm.name_ru, "power": cm.power}
        if cm.army_id:
            commanders_by["army"][cm.army_id].append(entry)
        elif cm.fleet_id:
            commanders_by["fleet"][cm.fleet_id].append(entry)

    start_provinces = defaultdict(list)
    for p in provinces:
        if p.start_owner_id:
            start_provinces[fcode[p.start_owner_id]].append(p.code)
    capital_of = {f.capital_id: f.code for f in factions if f.capital_id}

    relations = []
    for r in Relation.objects.filter(game=game).order_by("kind", "from_faction__code", "to_faction__code"):
        if r.kind == Relation.ALLIANCE:
            relations.append({"kind": "alliance", "factions": sorted([fcode[r.from_faction_id], fcode[r.to_faction_id]])})
        else:
            relations.append({"kind": "passage", "from": fcode[r.from_faction_id], "to": fcode[r.to_faction_id]})

    adjacency = sorted(
        sorted([pcode[a], pcode[b]]) for a, b in Adjacency.objects.filter(game=game).values_list("a_id", "b_id")
    )
    armies = [
        {
            "id": army_code(fcode[a.faction_id], a.number), "faction": fcode[a.faction_id], "number": a.number,
            "province": pcode[a.province_id], "troops": cards_by["army"][a.pk],
            "commanders": commanders_by["army"][a.pk],
        }
        for a in Army.objects.filter(game=game, destroyed=False).order_by("faction__code", "number")
    ]
    fleets = [
        {
            "id": fleet_code(fcode[f.faction_id], f.number), "faction": fcode[f.faction_id], "number": f.number,
            "sea": pcode[f.sea_id], "troops": cards_by["fleet"][f.pk], "commanders": commanders_by["fleet"][f.pk],
        }
        for f in Fleet.objects.filter(game=game, destroyed=False).order_by("faction__code", "number")
    ]
    if draw is None:
        settings = getattr(game, "turn_settings", None)
        draw = list(settings.draw) if settings and settings.draw else [f.code for f in factions]
    return {
        "troop_types": [
            {"id": t.code, "power": t.power, "men": t.men, "domain": t.domain}
            for t in sorted(types.values(), key=lambda t: t.code)
        ],
        "factions": [
            {"id": f.code, "crusader": f.crusader, "capital": f.capital.code if f.capital else None,
             "specials": list(f.specials), "start_provinces": start_provinces[f.code]}
            for f in factions
        ],
        "relations": relations,
        "provinces": [
            {"id": p.code, "domain": p.domain, "owner": fcode.get(p.owner_id), "capital_of": capital_of.get(p.pk),
             "fortress": p.fortress, "special": p.special or None, "garrison": cards_by["garrison"][p.pk]}
            for p in provinces
        ],
        "adjacency": adjacency,
        "armies": armies,
        "fleets": fleets,
        "draw": draw,
        "orders": [],
        "special_state": {s.special: s.state for s in SpecialState.objects.filter(game=game).order_by("special")},
        "rules": {k: v for k, v in (game.rules or {}).items() if k in ENGINE_RULE_KEYS},
        "dice": [],
        "seed": None,  # the dice seed stays secret (docs/dice.md); the server's dice are rolled and stored
        "choices": {},
    }


def apply_state(game: Game, state: dict) -> None:
    """Write the engine's state after regroup (`run_turn(...)["state"]`) back to the models (R12).

    Positions, stacks (re-made cards), garrisons, owners and specials' state.
    An army or fleet absent from the state was destroyed: its cards leave the
    game and its commanders become unattached (R11). Call inside a transaction.
    """
    types = {t.code: t for t in TroopType.objects.filter(game=game)}
    provinces = {p.code: p for p in Province.objects.filter(game=game)}
    factions = {f.code: f for f in Faction.objects.filter(game=game)}
    armies = {army_code(a.faction.code, a.number): a for a in Army.objects.filter(game=game).select_related("faction")}
    fleets = {fleet_code(f.faction.code, f.number): f for f in Fleet.objects.filter(game=game).select_related("faction")}

    TroopCard.objects.filter(game=game).delete()
    cards: list[TroopCard] = []
    for code, army in armies.items():
        entry = state["armies"].get(code)
        if entry is None:
            if not army.destroyed:
                army.destroyed = True
                Commander.objects.filter(army=army).update(army=None)
            continue
        army.destroyed = False
        army.province = provinces[entry["province"]]
        cards += [TroopCard(game=game, troop_type=types[t], army=army) for t in entry["troops"]]
    Army.objects.bulk_update(armies.values(), ["destroyed", "province"])
    for code, fleet in fleets.items():
        entry = state["fleets"].get(code)
        if entry is None:
            if not fleet.destroyed:
                fleet.destroyed = True
                Commander.objects.filter(fleet=fleet).update(fleet=None)
            continue
        fleet.destroyed = False
        fleet.sea = provinces[entry["sea"]]
        cards += [TroopCard(game=game, troop_type=types[t], fleet=fleet) for t in entry["troops"]]
    Fleet.objects.bulk_update(fleets.values(), ["destroyed", "sea"])
    for code, entry in state["provinces"].items():
        province = provinces[code]
        province.owner = factions.get(entry.get("owner")) if entry.get("owner") else None
        cards += [TroopCard(game=game, troop_type=types[t], garrison=province) for t in entry.get("garrison") or []]
    Province.objects.bulk_update(provinces.values(), ["owner"])
    TroopCard.objects.bulk_create(cards)
    for special, value in (state.get("special_state") or {}).items():
        SpecialState.objects.update_or_create(game=game, special=special, defaults={"state": value})


def apply_positions(game: Game, positions: dict) -> None:
    """After movement: armies and fleets stand where the engine moved them (the map shows it)."""
    provinces = {p.code: p for p in Province.objects.filter(game=game)}
    for army in Army.objects.filter(game=game, destroyed=False).select_related("faction"):
        where = positions.get("armies", {}).get(army_code(army.faction.code, army.number))
        if where and army.province_id != provinces[where].pk:
            army.province = provinces[where]
            army.save(update_fields=["province"])
    for fleet in Fleet.objects.filter(game=game, destroyed=False).select_related("faction"):
        where = positions.get("fleets", {}).get(fleet_code(fleet.faction.code, fleet.number))
        if where and fleet.sea_id != provinces[where].pk:
            fleet.sea = provinces[where]
            fleet.save(update_fields=["sea"])
