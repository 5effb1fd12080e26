#!/usr/bin/env python
"""Benchmarks of the Red Plains engine against its targets (no Django needed).

    .venv/bin/python benchmarks/redplains_engine.py

A moderator waits at the table for each of these answers; every target is well
under the 50 ms a table notices (docs/red-plains.md W42.1):
(a) exact odds of the largest melee the data allows: a 16-figure unit attacked
    on all four sides by 16-figure cavalry (charging: 8 dice each, 4 defender
    groups): median <= 25 ms;
(b) exact odds of a melee of two 16-figure units (the calculator's usual
    question): median <= 5 ms;
(c) exact odds of the largest massed volley: four 16-figure bow units, massed,
    Crab, at a unit crossing the bridge (3 re-roll rounds, 32 dice): median <= 25 ms;
(d) the mode a table uses most, one melee with its dice: median <= 5 ms;
(e) a whole turn of a full board (24 units, every one ordered, seeded dice):
    median <= 50 ms.
Each figure is parse + compute + JSON, through the command line's own mode
functions. Prints `figure | measured | target | ratio | ok`; says MISSED for
a target that was not met, and then exits 1.
"""
from __future__ import annotations

import json
import pathlib
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from larp.redplains.engine.cli import MODES  # noqa: E402
from larp.rules.cli import dumps  # noqa: E402
from figures import print_targets, timed  # noqa: E402  (benchmarks/figures.py)


def unit(uid, side, utype, figures, **kw):
    return {"id": uid, "side": side, "type": utype, "figures": figures, **kw}


BIGGEST_MELEE = {"melee": {"kind": "attack", "defender": unit("d", "south", "samurai_spears", 16),
                           "attackers": [unit(f"c{i}", "north", "cavalry", 16, attacks=side)
                                         for i, side in enumerate(["front", "left", "right", "rear"])]}}
TWO_SIXTEENS = {"melee": {"kind": "attack", "defender": unit("d", "south", "ashigaru_spears", 16),
                          "attackers": [unit("a", "north", "cavalry", 16, attacks="front", decisive=True)]}}
BIGGEST_VOLLEY = {"volley": {"target": unit("t", "south", "samurai_spears", 16, crosses_bridge=True,
                                            has_move_order=True),
                             "shooters": [unit(f"b{i}", "north", "samurai_bows", 16, massed=True, crab=True)
                                          for i in range(4)]}}
ONE_MELEE = dict(TWO_SIXTEENS, seed=20260512)


def full_board() -> dict:
    """24 units facing each other across the centre line, everyone ordered to advance, shoot or hold."""
    units, orders = [], []
    types = ["samurai_spears", "samurai_bows", "ashigaru_spears", "ashigaru_arquebus", "cavalry", "ashigaru_spears"]
    for col in range(1, 13):
        for side, row, facing in (("north", 3, "S"), ("south", 4, "N")):
            uid = f"{side[0]}{col}"
            utype = types[(col + (side == "south")) % len(types)]
            label = {"north": "A" if col <= 6 else "B", "south": "C" if col <= 6 else "D"}[side]
            label += "1" + str(7 - col if col <= 6 else col - 6)
            units.append(unit(uid, side, utype, 12, cell=label, facing=facing))
            enemy = f"{'s' if side == 'north' else 'n'}{col}"
            if utype in ("samurai_bows", "ashigaru_arquebus"):
                orders.append({"unit": uid, "slot": 1, "kind": "ordinary", "type": "shoot", "target": enemy})
            elif col % 3 == 0:
                orders.append({"unit": uid, "slot": 1, "kind": "special", "type": "hold"})
            elif utype == "cavalry":
                orders.append({"unit": uid, "slot": 1, "kind": "ordinary", "type": "move", "actions": ["move"]})
            else:
                orders.append({"unit": uid, "slot": 1, "kind": "ordinary", "type": "move"})
    return {"turn": 3, "field": {"extra_cells": [], "river": False, "bridge": None, "hills": [], "forests": []},
            "defender": "south", "sides": {"north": {"general_retreat": None}, "south": {"general_retreat": None}},
            "units": units, "orders": orders, "banners": [], "shinobi": {"panic": [], "sabotage": []},
            "choices": {"no_joint": [], "stop": None}, "history": [], "dice": {}, "seed": 7}


def median_ms(mode: str, case: dict, runs: int) -> float:
    text = json.dumps(case)
    MODES[mode](json.loads(text))                                  # warm the data file's cache
    return statistics.median(timed(lambda: dumps(MODES[mode](json.loads(text))), runs)) * 1000


def main() -> int:
    board = full_board()
    result = MODES["turn"](json.loads(json.dumps(board)))
    melees = sum(1 for e in result["events"] if e["type"] == "melee")
    print(f"full board: {len(board['units'])} units, {melees} melees, {len(result['events'])} events")
    rows = [
        ("(a) odds: 16 v 4 x 16 cavalry, ms", median_ms("odds", BIGGEST_MELEE, 20), 25.0),
        ("(b) odds: 16 v 16 melee, ms", median_ms("odds", TWO_SIXTEENS, 60), 5.0),
        ("(c) odds: 4 x 16 bows massed volley, ms", median_ms("odds", BIGGEST_VOLLEY, 20), 25.0),
        ("(d) one melee with dice, ms", median_ms("melee", ONE_MELEE, 200), 5.0),
        ("(e) turn of a full board, ms", median_ms("turn", board, 30), 50.0),
    ]
    missed = print_targets(rows)
    print("MISSED: " + "; ".join(missed) if missed else "all targets met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
