#!/usr/bin/env python
"""Benchmarks of the «Орда» engine (docs/orda.md O24) against its targets (no Django needed).

    .venv/bin/python benchmarks/orda_engine.py

Every answer a moderator waits for at the table must come well under 50 ms,
so the targets are 20 ms for the heaviest mode and 10 ms for the everyday ones,
each measured end to end through the command line's `main` (JSON text in,
JSON text out), median of 40 runs, on the largest case the data allows:
all 48 tokens of the four factions on the largest board the engine accepts
(radius 30, 2,791 hexes), packed round the centre so auras, minority and zones
of control all count:
(a) orda.odds with a second chance on BOTH sides (the most dice outcomes the
    contract allows) and a retreat through traps;
(b) orda.attack (the mode a table uses most), seeded dice;
(c) orda.move of speed 3 through three zones of control, seeded dice;
(d) orda.turn end (siege of every city, young herd, expiry, victory check).
Prints `figure | measured | target | ratio | ok`; says MISSED for a target not met, and then exits 1.
"""
from __future__ import annotations

import io
import json
import pathlib
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from larp.orda.engine import cli  # noqa: E402
from larp.orda.engine.data import load  # noqa: E402
from larp.orda.engine.hexes import disc, hex_order  # noqa: E402
from figures import print_targets, timed  # noqa: E402  (benchmarks/figures.py)

FACTIONS = ["rus", "north_mongolia", "china", "south_mongolia"]
CAPITALS = {"rus": [0, 30], "north_mongolia": [0, -30], "china": [30, 0], "south_mongolia": [-30, 0]}


def largest_case() -> dict:
    data = load()
    spots = iter(hex_order((0, 0), disc(4)))
    units = []
    for i, f in enumerate(FACTIONS):
        for kind in data.kinds[f].values():
            for n in range(kind.count):
                q, r = next(spots)
                units.append({"id": f"{f}-{kind.id}-{n + 1}", "faction": f, "token": kind.id, "where": "board",
                              "hex": [q, r], "stats": {"health": 4, "attack": 3, "defence": 2, "speed": 3,
                                                       "summon": 2, "range": 2 if kind.cls == "ranged" else None},
                              "damage": 0, "effects": []})
    cities = [{"id": f"{f}-cap", "kind": "capital", "faction": f, "hex": h, "colour": data.number("factions", f,
               "capital_colour"), "durability": 8, "damage": 0, "destroyed": False} for f, h in CAPITALS.items()]
    return {"game": {"mode": "conquest", "players": 4, "order": FACTIONS, "tour": 3, "active": "rus"},
            "factions": [{"id": f, "capital": f"{f}-cap"} for f in FACTIONS], "board": {"radius": 30},
            "cities": cities, "units": units, "traps": [{"hex": [q, 5], "faction": "china"} for q in range(-5, 1)],
            "seed": 12345}


def place(doc: dict, uid: str, hex_) -> None:
    occupied = {tuple(u["hex"]): u for u in doc["units"] if u["hex"]}
    if tuple(hex_) in occupied:
        occupied[tuple(hex_)]["hex"] = [hex_[0] + 12, hex_[1] - 6]
    next(u for u in doc["units"] if u["id"] == uid)["hex"] = hex_


def cases() -> dict:
    base = largest_case()
    odds = json.loads(json.dumps(base))
    odds["game"]["active"] = "south_mongolia"
    for u in odds["units"]:
        if u["id"] in ("south_mongolia-raider-1", "rus-axe_retainer-1"):
            u["effects"] = [{"kind": "golden_horde", "from": "south_mongolia-genghis_khan-1",
                             "expires": {"faction": "south_mongolia", "tour": 3}}]
    place(odds, "south_mongolia-raider-1", [2, 6])
    place(odds, "rus-axe_retainer-1", [1, 6])
    odds["attack"] = {"attacker": "south_mongolia-raider-1", "target": "rus-axe_retainer-1", "counter": "defence"}
    attack = json.loads(json.dumps(odds))
    move = json.loads(json.dumps(base))
    place(move, "rus-vityaz-1", [10, -10])
    move["move"] = {"unit": "rus-vityaz-1", "path": [[10, -9], [10, -8], [10, -7]]}
    for i, (uid, h) in enumerate([("north_mongolia-raider-1", [11, -9]), ("north_mongolia-raider-2", [11, -8]),
                                  ("north_mongolia-thief-1", [9, -7])]):
        place(move, uid, h)
    move["dice"] = []
    turn = json.loads(json.dumps(base))
    turn["stage"] = "end"
    turn["game"]["active"] = "north_mongolia"
    for i, uid in enumerate(["north_mongolia-raider-1", "north_mongolia-long_bow_raider-1"]):
        place(turn, uid, [1 - i, 29])
    turn["turn_start"] = {u["id"]: u["hex"] for u in turn["units"]}
    return {"odds": odds, "attack": attack, "move": move, "turn": turn}


def main() -> int:
    rows = []
    targets = {"odds": 20.0, "attack": 10.0, "move": 10.0, "turn": 10.0}
    for mode, doc in cases().items():
        text = json.dumps(doc)

        def call():
            out, err = io.StringIO(), io.StringIO()
            code = cli.main([mode, "-"], io.StringIO(text), out, err)
            assert code == 0 and '"refused": null' in out.getvalue()[:30], out.getvalue()[:200] + err.getvalue()
        ms = statistics.median(timed(call, 40)) * 1000
        rows.append((f"orda.{mode}, 48 units, radius 30 (ms)", ms, targets[mode]))
    missed = print_targets(rows)
    print("MISSED: " + "; ".join(missed) if missed else "all targets met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
