#!/usr/bin/env python
"""Printing speed against its targets, on the default scenario.

    .venv/bin/python benchmarks/printing.py [--runs 10]

(a) all 11 battle sheets in one PDF, from the database to the bytes
    (`larp.sheets.services.render_document`): median <= 1.5 s;
(b) one battle protocol, from the stored turn result to the bytes: median <= 200 ms;
plus, for information, the other documents and the first (cold) call, which
also registers the fonts. Uses a new SQLite file under var/bench/ (or a
new database on DATABASE_URL's PostgreSQL server), removed at the end
(benchmarks/scratch.py). Prints `figure | measured | target | ratio | ok`;
says MISSED for a target that was not met, and then exits 1.
"""
from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DJANGO_SETTINGS_MODULE"] = "larp.settings_test"

from figures import print_targets, timed  # noqa: E402  (benchmarks/figures.py)
from scratch import Run, run_main  # noqa: E402  (benchmarks/scratch.py)

TITLE = "printing-bench"
ORDERS = [
    {"unit": "thessalonica-2", "type": "attack", "path": ["yanina"]},
    {"unit": "bulgaria-4", "type": "attack", "path": ["serres"]},
    {"unit": "athens-2", "type": "march", "path": ["athens"]},
    {"unit": "epirus-2", "type": "attack", "path": ["bodonitsa"]},
    {"unit": "latin_empire-4", "type": "attack", "path": ["adrianople"]},
    {"unit": "venice-f1", "type": "fleet_attack", "sea": "south_aegean", "target_faction": "nicaea"},
]


def main() -> int:
    with Run("printing") as run:
        return measure(run)


def measure(run: Run) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = run.create_database()

    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import translation
    from pypdf import PdfReader

    call_command("migrate", verbosity=0)
    from larp.battles.models import TurnResolution
    from larp.campaign.models import Game
    from larp.scenarios.loader import load_scenario
    from larp.engine import run_turn
    from larp.sheets import services
    from larp.turns.models import Turn
    from larp.turns.situation import case_from_game

    Game.objects.filter(title=TITLE).delete()
    game = load_scenario("latin-east-1204", title=TITLE, seed=1204)
    case = case_from_game(game)
    result = run_turn(dict(case, orders=ORDERS, seed=1204))
    turn = Turn.objects.create(game=game, number=1, start_state=case)
    TurnResolution.objects.create(turn=turn, result=result, news="Новости феодального модуля.")

    def render(kind, **params):
        return lambda: services.render_document(game, kind, {"paper": "a4", **params})

    rows, info = [], []
    with translation.override("ru"):
        cold = timed(render("battle-sheets"), 1)[0]
        sheets = timed(render("battle-sheets"), args.runs)
        protocol = timed(render("protocols", turn=1, battle=2), args.runs * 3)
        rows.append(("(a) 11 battle sheets in one PDF, median (s)", statistics.median(sheets), 1.5))
        rows.append(("(b) one battle protocol, median (ms)", statistics.median(protocol) * 1000, 200.0))
        others = {
            "11 battle sheets, first call with font registration (s)": cold,
            "11 battle sheets on A5, median (s)": statistics.median(timed(render("battle-sheets", paper="a5"),
                                                                          args.runs)),
            "all protocols of the turn, median (s)": statistics.median(timed(render("protocols", turn=1), args.runs)),
            "turn results, median (s)": statistics.median(timed(render("turn-results", turn=1), args.runs)),
            "11 blank order forms, median (s)": statistics.median(timed(render("order-forms"), args.runs)),
        }
        pages = {kind: len(PdfReader(io.BytesIO(services.render_document(game, kind, {"turn": 1})[2])).pages)
                 for kind in ("battle-sheets", "protocols", "turn-results", "order-forms")}
    info.append(f"    {len(result['fought'])} battles in the turn; pages: "
                + ", ".join(f"{k} {v}" for k, v in pages.items()))

    missed = print_targets(rows)
    print("for information:")
    for name, seconds in others.items():
        print(f"    {name}: {seconds:.3f}")
    for line in info:
        print(line)
    Game.objects.filter(title=TITLE).delete()
    print("MISSED: " + "; ".join(missed) if missed else "all targets met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(run_main(main))
