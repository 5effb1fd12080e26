#!/usr/bin/env python
"""Benchmarks of the tactical rules engine (larp/tactical/engine) against its targets (no Django needed).

    .venv/bin/python benchmarks/tactical_engine.py

A moderator waits at the table for every one of these answers, so each must be
well under 50 ms (the issue's bound) on this machine:
(a) exact odds of the largest clash the tables allow: very dense pikemen, three
    full ranks of 5 with a grouped general, against the same counter-attacking:
    median of the whole mode (parse + odds) <= 50 ms;
(b) exact odds of a melee of the largest mixed units: two open units of three
    ranks, each rank differently armoured, with generals (every rank's misses
    change who is hit): median <= 50 ms;
(c) exact odds of a two-against-two melee of open units with generals: <= 50 ms;
(d) the mode a table uses most — one melee round with dice — median <= 5 ms;
(e) an army of about 600 points with generals (`army`): median <= 10 ms.
Prints `figure | measured | target | ratio | ok` (milliseconds); says MISSED
for a target that was not met, and then exits 1.
"""
from __future__ import annotations

import pathlib
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from larp.tactical.engine.cli import MODES  # noqa: E402
from figures import print_targets, timed  # noqa: E402  (benchmarks/figures.py)


def profile(pid, category="line_infantry", specialty=3, melee=2, weapon="infantry_pike", armour=None, shield=None):
    return {"id": pid, "category": category, "specialty": specialty, "melee": melee, "steadiness": 3,
            "weapon": weapon, "armour": armour, "shield": shield, "horse_armour": None}


def unit(uid, side, formation, ranks, general=None):
    return {"id": uid, "side": side, "formation": formation, "bases": 1,
            "ranks": [[{"profile": p, "count": n, "disordered": 0}] for p, n in ranks],
            "general": general, "in_melee": False, "fleeing": False}


GENERAL = {"id": "g", "profile": "pike", "deputy": False, "talents": {"steadiness": 1, "melee": 1, "specialty": 1}}


def largest_clash() -> dict:
    return {"of": "clash", "profiles": [profile("pike", armour="light_armour", shield="shield")],
            "units": [unit("a1", "a", "very_dense", [("pike", 5)] * 3, GENERAL),
                      unit("b1", "b", "very_dense", [("pike", 5)] * 3, dict(GENERAL, id="h"))],
            "clash": {"attacker": "a1", "defender": "b1", "attacked_from": "front", "counter": True}}


def mixed_melee() -> dict:
    profiles = [profile("pike"), profile("pl", armour="light_armour"), profile("ph", armour="heavy_armour"),
                profile("sw", "swordsmen", None, 3, None, "light_armour")]
    return {"of": "melee", "profiles": profiles,
            "units": [unit("a1", "a", "open", [("pike", 3), ("pl", 3), ("ph", 3)], GENERAL),
                      unit("b1", "b", "open", [("sw", 3), ("pl", 3), ("ph", 3)], dict(GENERAL, id="h"))],
            "melee": {"units": ["a1", "b1"], "attacked_from": {"b1": "flank"}}}


def two_against_two() -> dict:
    profiles = [profile("pike", armour="light_armour"), profile("sw", "swordsmen", None, 3, None, "heavy_armour")]
    return {"of": "melee", "profiles": profiles,
            "units": [unit("a1", "a", "open", [("pike", 3)] * 3, GENERAL), unit("a2", "a", "open", [("pike", 3)] * 3),
                      unit("b1", "b", "open", [("sw", 3)] * 3, dict(GENERAL, id="h")),
                      unit("b2", "b", "open", [("sw", 3)] * 3)],
            "melee": {"units": ["a1", "b1", "a2", "b2"], "attacked_from": {}}}


def table_melee() -> dict:
    case = two_against_two()
    del case["of"]
    case["seed"] = 2026
    return case


def army_600() -> dict:
    entry = {"id": "phalangite", "role": "main", "category": "line_infantry", "weapons": ["infantry_pike"],
             "armour": [None, "light_armour"], "shields": [None, "shield"], "horse_armour": [None],
             "javelin": False, "melee": None, "price": None}
    prof = {"id": "phal", "entry": "phalangite", "specialty": 3, "melee": 2, "steadiness": 3, "weapon": "infantry_pike",
            "armour": "light_armour", "shield": "shield", "horse_armour": None, "javelin": False}
    units = [{"id": f"u{i}", "formation": "very_dense", "bases": 1, "figures": [{"profile": "phal", "count": 15}]}
             for i in range(6)]
    generals = [{"id": f"g{i}", "type": "irregular", "mercenary": False, "c_in_c": i == 0, "entry": "phalangite",
                 "method": "roll", "dice": [], } for i in range(4)]
    return {"army_list": {"id": "m", "year": -334, "entries": [entry]}, "points_limit": 600, "profiles": [prof],
            "units": units, "generals": generals, "seed": 600}


def median_ms(mode: str, case: dict, runs: int) -> float:
    MODES[mode](case)                              # warm: the data file is read once per process
    return statistics.median(timed(lambda: MODES[mode](case), runs)) * 1000


def main() -> int:
    rows = [("(a) odds of the largest clash, ms", median_ms("odds", largest_clash(), 15), 50.0),
            ("(b) odds of a melee of mixed units, ms", median_ms("odds", mixed_melee(), 15), 50.0),
            ("(c) odds of a two-against-two melee, ms", median_ms("odds", two_against_two(), 15), 50.0),
            ("(d) one melee round with dice, ms", median_ms("melee", table_melee(), 60), 5.0),
            ("(e) an army of 600 points, ms", median_ms("army", army_600(), 60), 10.0)]
    missed = print_targets(rows)
    print("MISSED: " + "; ".join(missed) if missed else "all targets met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
