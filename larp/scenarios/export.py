"""A game's world as a scenario file again: the same schema as the shipped YAML (docs/scenarios.md).

`scenario_of(game)` reads the map, factions, troop types and forces as they
stand now (before the game starts: exactly what was loaded; later: the present
position, to start another war from it) and the rules block. Destroyed armies
and fleets are left out. Loading the result gives an equal scenario: the round
trip is lossless (tests/gamefile/test_scenario_file.py).
"""
from __future__ import annotations

from collections import defaultdict

from larp.campaign.models import Adjacency, Faction, Game, MapPicture, Province, Relation
from larp.forces.models import Army, Commander, Fleet, TroopCard, TroopType


def picture_of(game: Game) -> tuple[str, bytes] | None:
    """The game's map picture as the scenario's .zip carries it: (file name, bytes), or None."""
    pic = MapPicture.objects.filter(game=game).first()
    return (pic.name, bytes(pic.body)) if pic else None


def _named(obj) -> dict:
    return {"name_ru": obj.name_ru, "name_en": obj.name_en}


def scenario_of(game: Game) -> dict:
    header = {"id": game.scenario, **(game.scenario_header or {})}
    types = {t.pk: t.code for t in TroopType.objects.filter(game=game)}
    provinces = {p.pk: p for p in Province.objects.filter(game=game).select_related("owner").order_by("pk")}
    cards = defaultdict(list)
    for card in TroopCard.objects.filter(game=game).order_by("pk"):
        key = ("army", card.army_id) if card.army_id else ("fleet", card.fleet_id) if card.fleet_id else \
            ("garrison", card.garrison_id)
        cards[key].append(types[card.troop_type_id])
    commanders = defaultdict(list)
    for cm in Commander.objects.filter(game=game).order_by("pk"):
        key = ("army", cm.army_id) if cm.army_id else ("fleet", cm.fleet_id)
        commanders[key].append({**_named(cm), "power": cm.power})
    relations = [
        {"kind": kind, "factions": [a, b]} if kind == Relation.ALLIANCE else {"kind": kind, "from": a, "to": b}
        for kind, a, b in Relation.objects.filter(game=game).order_by("pk").values_list(
            "kind", "from_faction__code", "to_faction__code")]
    return {
        "scenario": header,
        "rules": game.rules or {},
        "troop_types": [
            {"id": t.code, **_named(t), "domain": t.domain, "power": t.power, "men": t.men,
             **({"supply": t.supply} if t.supply is not None else {})}
            for t in TroopType.objects.filter(game=game).order_by("pk")
        ],
        "factions": [_faction(f, provinces, cards, commanders)
                     for f in Faction.objects.filter(game=game).order_by("pk")],
        "provinces": [_province(p, cards) for p in provinces.values()],
        "adjacency": [[provinces[a].code, provinces[b].code]
                      for a, b in Adjacency.objects.filter(game=game).order_by("pk").values_list("a_id", "b_id")],
        **({"relations": relations} if relations else {}),
    }


def _faction(f: Faction, provinces: dict, cards: dict, commanders: dict) -> dict:
    def unit(kind, u, where_key, where):
        return {"number": u.number, where_key: where, "troops": cards[(kind, u.pk)],
                **({"commanders": commanders[(kind, u.pk)]} if kind == "army" or commanders[(kind, u.pk)] else {})}

    armies = Army.objects.filter(faction=f, destroyed=False).order_by("pk")
    fleets = Fleet.objects.filter(faction=f, destroyed=False).order_by("pk")
    return {
        "id": f.code, **_named(f), "colour": f.colour,
        "capital": provinces[f.capital_id].code if f.capital_id else None,
        "crusader": f.crusader, "specials": list(f.specials or []),
        "armies": [unit("army", a, "province", provinces[a.province_id].code) for a in armies],
        "fleets": [unit("fleet", fl, "sea", provinces[fl.sea_id].code) for fl in fleets],
    }


def _province(p: Province, cards: dict) -> dict:
    return {
        "id": p.code, **_named(p), "domain": p.domain, "owner": p.owner.code if p.owner_id else None,
        "fortress": p.fortress, "garrison": cards[("garrison", p.pk)], "lat": p.latitude, "lon": p.longitude,
        **({"x": p.map_x, "y": p.map_y} if p.map_x is not None and p.map_y is not None else {}),
        **({"special": p.special} if p.special else {}),
    }
