"""Small case documents for the engine's unit tests (plain dicts, as the contract shapes them)."""
from __future__ import annotations

import copy
import json
import pathlib

import yaml

from larp.engine.scenario import case_from_scenario

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "larp" / "scenarios" / "latin-east-1204.yaml"
_scenario_case: dict | None = None


def faction(fid, capital=None, specials=(), crusader=False, start=()):
    return {"id": fid, "crusader": crusader, "capital": capital, "specials": list(specials),
            "start_provinces": list(start)}


def land(pid, owner=None, fortress=False, garrison=(), capital_of=None, special=None):
    return {"id": pid, "domain": "land", "owner": owner, "capital_of": capital_of, "fortress": fortress,
            "special": special, "garrison": list(garrison)}


def sea(pid):
    return {"id": pid, "domain": "sea", "owner": None, "capital_of": None, "fortress": False,
            "special": None, "garrison": []}


def army(aid, fid, number, province, troops, commanders=()):
    return {"id": aid, "faction": fid, "number": number, "province": province, "troops": list(troops),
            "commanders": [{"name": f"C{i}", "power": p} for i, p in enumerate(commanders)]}


def fleet(fid_, fid, number, zone, troops, commanders=()):
    return {"id": fid_, "faction": fid, "number": number, "sea": zone, "troops": list(troops),
            "commanders": [{"name": f"C{i}", "power": p} for i, p in enumerate(commanders)]}


def make_case(factions, provinces, adjacency, armies=(), fleets=(), orders=(), relations=(), draw=None,
              **extra) -> dict:
    case = {
        "factions": list(factions), "relations": list(relations), "provinces": list(provinces),
        "adjacency": [list(p) for p in adjacency], "armies": list(armies), "fleets": list(fleets),
        "draw": list(draw) if draw is not None else [f["id"] for f in factions],
        "orders": list(orders), "special_state": {}, "dice": [], "seed": None, "choices": {},
    }
    case.update(extra)
    return case


def battle_case(provinces, factions, armies, battle, dice, **extra) -> dict:
    return make_case(factions, provinces, [], armies=armies, battle=battle, dice=dice, **extra)


def side(faction_id, armies=(), garrison=None, holds_walls=None):
    s = {"faction": faction_id, "armies": list(armies)}
    if garrison is not None:
        s["garrison"] = garrison
    if holds_walls is not None:
        s["holds_walls"] = holds_walls
    return s


def scenario_case() -> dict:
    """The default scenario as a case document (a fresh deep copy each call)."""
    global _scenario_case
    if _scenario_case is None:
        _scenario_case = case_from_scenario(yaml.safe_load(SCENARIO.read_text(encoding="utf-8")))
    return copy.deepcopy(_scenario_case)


def roundtrip(data: dict) -> dict:
    return json.loads(json.dumps(data))
