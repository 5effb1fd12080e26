"""A whole game night played by bots (`manage.py rehearse`'s runner) against the app run the production way:
the night's figures against their targets (benchmarks/README.md, "A rehearsed night").

Usage: .venv/bin/python benchmarks/rehearsal.py [--turns 6] [--tablets N] [--scenario latin-east-1204] [--seed 1]

By default six turns with 60 tablets, or as close as the scenario's factions allow (the built-in scenario has
eleven: five a faction, 55). The app is `manage.py rungame` (gunicorn, a Celery worker and beat; DEBUG off) on
a database of its own (benchmarks/scratch.py: PostgreSQL when DATABASE_URL names one, else a SQLite file) and
its own keys and queue in the Redis database of TEST_REDIS_URL. The bots (larp/rehearsal) run in this process
with short Strategy phases (`--fast`); every act is timed, and after each the app's CPU (its process group,
from /proc) and the bytes the answer took on the wire (gzip, as a tablet's browser asks for) are noted.

Figures, each with its target and ratio (exit 1 on a miss):
- p95 latency of each kind of act (a tablet's order, a tablet's page, the console's acts, a battle);
- server CPU of a phase change (the console's start, next phase and next turn), per tablet;
- a tablet's bytes a minute over the night (every page and answer, gzip);
- the night's time beyond its Strategy phases, a turn;
- the checks: no violation.
"""
from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from load.server import App, environment, free_port, processes_cpu  # noqa: E402
from scratch import Run, run_main  # noqa: E402

NIGHT_TABLETS = 60
# p95 of an act, by what it is (the first prefix that matches); ms.
LATENCY_TARGETS = (
    ("file order", 100.0),          # a tablet's order (benchmarks/README.md: order p95 <= 100 ms at 60 tablets)
    ("tablet", 300.0),              # a tablet's page, its join, its clock
    ("console:", 1500.0),           # a phase change pressed (reaches 60 tablets in 1.5 s)
    ("", 1000.0),                   # any other act of the moderator: a page, a battle, movement, regroup
)
TARGETS = {"cpu_ms_per_tablet": 10.0, "tablet_kb_min": 15.0, "overhead_s_per_turn": 60.0, "violations": 0}
PHASE_CHANGES = ("console: start", "console: next", "console: open")


def latency_target(kind: str) -> float:
    return next(target for prefix, target in LATENCY_TARGETS if kind.startswith(prefix))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--tablets", type=int, default=0, help="per faction (default: 60 in all, or the nearest)")
    parser.add_argument("--scenario", default="latin-east-1204")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--web-workers", type=int, default=None,
                        help="default: rungame's (one a core, at least 2)")
    args = parser.parse_args()

    with Run("rehearsal") as run:
        var = ROOT / "var" / f"bench-rehearsal-{run.token}"
        env = environment(run.create_database(), run.redis_url, var, run.name)
        os.environ.update(env)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        app = App(env, free_port(), args.web_workers, var / "app.log")
        try:
            app.wait_ready()
            return night(app, args)
        finally:
            app.stop()
            import shutil

            shutil.rmtree(var, ignore_errors=True)  # this run's own folder: its static files, schedule and log


def night(app: App, args) -> int:
    import yaml

    from larp.rehearsal import bots, report
    from larp.rehearsal.runner import Options, Rehearsal

    factions = len(yaml.safe_load((ROOT / "larp" / "scenarios" / f"{args.scenario}.yaml").read_text())["factions"])
    per_faction = args.tablets or max(1, round(NIGHT_TABLETS / factions))
    tablets = per_faction * factions
    print(f"{args.turns} turns of {args.scenario}: {factions} factions x {per_faction} = {tablets} tablets, "
          f"app at {app.base}", flush=True)

    wire: dict[str, int] = {}       # seat -> bytes on the wire (gzip bodies, as the browser would receive them)
    sizes: dict[int, int] = {}      # act number -> bytes
    send = bots.Seat._send

    def measured(self, kind, method, url, data, htmx, expect=()):
        page = send(self, kind, method, url, data, htmx, expect)
        body = gzip.compress((page.text or "").encode("utf-8"), compresslevel=6, mtime=0)
        sizes[page.act.number] = len(body)
        wire[self.name] = wire.get(self.name, 0) + len(body) + 400  # headers both ways, about
        return page

    bots.Seat._send = measured
    group = app.proc.pid
    cpu_after: dict[int, float] = {}

    class Measured(Rehearsal):
        def after_act(self, act):
            cpu_after[act.number] = processes_cpu(lambda pid, pgid: pgid == group)
            super().after_act(act)

    options = Options(scenario=args.scenario, turns=args.turns, tablets=per_faction, seed=args.seed,
                      url=app.base, fast=True)
    rehearsal = Measured(options, say=lambda line: print(f"[rehearse] {line}", flush=True))
    started = time.monotonic()
    the_night = rehearsal.run()
    wall = time.monotonic() - started
    bots.Seat._send = send
    data = report.as_data(the_night)

    # A phase change's CPU: the app's CPU from the act before the press to the press's answer (the bots act one
    # after another, so nothing else of theirs runs meanwhile; the worker's own share is in it).
    acts = the_night.log.acts
    changes = []
    for act in acts:
        if act.kind.startswith(PHASE_CHANGES) and act.number - 1 in cpu_after and act.number in cpu_after:
            changes.append(cpu_after[act.number] - cpu_after[act.number - 1])
    strategy = float(rehearsal.game.rules.get("phase_seconds", {}).get("strategy", 0))
    seats = [s for s in wire if not s.startswith("moderator")]
    kb_min = statistics.mean(wire[s] for s in seats) / 1000 / (wall / 60) if seats else 0.0
    overhead = (wall - strategy * the_night.turns_played) / max(1, the_night.turns_played)

    rows = []
    for kind, row in data["latency"].items():
        rows.append((f"p95 {kind} (n={row['n']}, p50 {row['p50_ms']:.0f})", row["p95_ms"], latency_target(kind), "ms"))
    if changes:
        rows.append((f"server CPU of a phase change per tablet (worst of {len(changes)})",
                     max(changes) * 1000 / tablets, TARGETS["cpu_ms_per_tablet"], "ms"))
    rows += [
        ("a tablet's bytes a minute over the night (gzip)", kb_min, TARGETS["tablet_kb_min"], "KB"),
        (f"the night beyond its Strategy phases ({strategy:.0f} s each), a turn", overhead,
         TARGETS["overhead_s_per_turn"], "s"),
        ("violations of the checks", float(len(data["violations"])), float(TARGETS["violations"]), ""),
    ]
    print()
    print(report.as_text(the_night))
    print(f"night: {the_night.turns_played} of {args.turns} turns, {tablets} tablets, {len(acts)} acts in {wall:.0f} s "
          f"({wall / 60:.1f} min); server CPU of the night "
          f"{(max(cpu_after.values()) - min(cpu_after.values())) if cpu_after else 0:.1f} s; "
          f"bytes per tablet {statistics.mean(wire[s] for s in seats) / 1000 if seats else 0:.0f} KB")
    width = max(len(r[0]) for r in rows)
    print(f"{'figure':<{width}} | {'measured':>9} | {'target':>8} | {'ratio':>6} | ok")
    missed = 0
    for name, value, target, unit in rows:
        ok = value <= target
        missed += not ok
        ratio = value / target if target else (0.0 if value == 0 else float("inf"))
        print(f"{name:<{width}} | {value:>7.1f}{unit:>2} | {target:>6.1f}{unit:>2} | {ratio:>6.2f} | "
              f"{'yes' if ok else 'MISSED'}")
    return 1 if missed or the_night.turns_played < args.turns else 0


if __name__ == "__main__":
    sys.exit(run_main(main))
