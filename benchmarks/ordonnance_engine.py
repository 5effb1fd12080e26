#!/usr/bin/env python
"""Benchmarks of the Ordonnance engine against the targets of docs/ordonnance.md ("Performance").

    .venv/bin/python benchmarks/ordonnance_engine.py

(a) contest: a 60-play, 3-player log over a 112-card roster (two mixed 56-card decks, every one of the
    31 possible cards in each), replayed with C11 re-examining every territory after every play:
    median <= 50 ms (the spec's target: the moderator's table waits for this after each card);
(b) territory: the heaviest single call the data allows: a 112-card pool, a leader with two regiments
    and three players with no card there (three searches of 4-card completions, none cut short):
    median <= 5 ms (the spec's target);
(c) play: one move on the virtual table after 59 plays (the call a tablet makes per card; it replays
    the log and searches every open territory): median <= 50 ms, the same wait as (a).
Prints `figure | measured | target | ratio | ok` (milliseconds); says MISSED for a target that was
not met, and then exits 1.
"""
from __future__ import annotations

import pathlib
import random
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from larp.ordonnance.engine import modes  # noqa: E402
from figures import print_targets, timed  # noqa: E402  (benchmarks/figures.py)

SYMBOLS = ["spear", "bow", "swords", "helmet", "flag"]


def symbols(mask: int) -> list[str]:
    return [SYMBOLS[i] for i in range(5) if mask >> i & 1]


def roster() -> list[dict]:
    """Two mixed decks of 56: every possible card once per deck, plus the 25 one- and two-symbol cards again."""
    small = [m for m in range(1, 32) if bin(m).count("1") <= 2]
    deck56 = list(range(1, 32)) + small + small[:10]
    assert len(deck56) == 56
    return [{"id": f"c{n:03d}", "symbols": symbols(m)} for n, m in enumerate(deck56 * 2)]


def contest_case(plays: int = 60, seed: int = 1099) -> dict:
    rng = random.Random(seed)
    deck = roster()
    order = [c["id"] for c in deck]
    rng.shuffle(order)
    players = ["anna", "boris", "vera"]
    counts = {(p, t): 0 for p in players for t in range(1, 6)}
    log = []
    for n in range(plays):
        player = players[n % 3]
        open_ = [t for t in range(1, 6) if counts[player, t] < 4]
        territory = rng.choice(open_)
        counts[player, territory] += 1
        log.append({"player": player, "territory": territory, "card": order[n]})
    return {"players": players, "deck": deck, "plays": log}


def play_case() -> dict:
    case = contest_case(60)
    deck = case["deck"]
    laid = {p["card"] for p in case["plays"]}
    rest = [c["id"] for c in deck if c["id"] not in laid]
    last = case["plays"].pop()   # played again as the move
    hands = {"anna": rest[:4], "boris": rest[4:9], "vera": rest[9:14]}
    hands[last["player"]] = hands[last["player"]][:4] + [last["card"]]
    taken = {c for h in hands.values() for c in h}
    return {"players": case["players"], "deck": deck, "draw_pile": [c for c in rest if c not in taken],
            "hands": hands, "plays": case["plays"], "to_move": last["player"],
            "moves": [{"player": last["player"], "card": last["card"], "territory": last["territory"]}]}


def territory_case() -> dict:
    pool = [{"symbols": c["symbols"]} for c in roster()]
    leader = [{"symbols": ["helmet", "flag"]}] * 4
    return {"armies": [{"player": "anna", "cards": leader, "completed_at": 4},
                       {"player": "boris", "cards": []}, {"player": "vera", "cards": []},
                       {"player": "gleb", "cards": []}], "pool": pool}


def main() -> int:
    ms = 1000.0
    a, b, c = contest_case(), territory_case(), play_case()
    outcome = modes.contest(a)
    assert len(outcome["refused"]) == 0
    assert modes.play(c)["events"][0]["result"] == "laid"
    rows = [
        ("(a) contest: 60 plays, 3 players, 112-card roster, ms", statistics.median(timed(lambda: modes.contest(a), 30)) * ms, 50.0),
        ("(b) territory: 112-card pool, 3 empty lines, ms", statistics.median(timed(lambda: modes.territory(b), 60)) * ms, 5.0),
        ("(c) play: one move after 59 plays, ms", statistics.median(timed(lambda: modes.play(c), 30)) * ms, 50.0),
    ]
    print(f"markers after (a): {len(outcome['markers'])}; territory (b) decided: {modes.territory(b)['decided']}")
    missed = print_targets(rows)
    print("MISSED: " + "; ".join(missed) if missed else "all targets met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
