"""What one act at a table costs, and how long the dice check of a long table takes (PostgreSQL).

Usage: .venv/bin/python benchmarks/table_step.py [--steps 300]

One act is what every system's service does around its engine
(larp/tables/services.py): the table's row lock, two server dice taken from
the committed stream (stored with their counters), one step recorded with its
audit entry. Then the seed is revealed and the whole game's dice check
(larp.dice.selectors.check: recompute every die, counters, fingerprint) is
timed over the record those acts left. PostgreSQL: a database of its own,
created on DATABASE_URL's server and dropped at the end; the tests' Redis
database (TEST_REDIS_URL; its own keys only): see benchmarks/scratch.py.
Targets: one act under 25 ms wall; the check of 1,000 dice under 1 s. Exits 1
when one is missed (or the dice check disagrees).
"""
import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "benchmarks" / "load"))

from scratch import Run, run_main  # noqa: E402

ACT_TARGET_MS = 25.0
CHECK_TARGET_S = 1.0


def main() -> int:
    with Run("table_step", needs_postgres=True) as run:
        return measure(run)


def measure(run: Run) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=500)
    args = parser.parse_args()
    run.start_redis()
    from server import environment

    os.environ.update(environment(run.create_database(), run.redis_url, ROOT / "var" / "table-step", run.name))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from larp.campaign.services.members import add_moderator
    from larp.dice import selectors as dice_selectors
    from larp.dice import services as dice
    from larp.scenarios.loader import load_scenario
    from larp.tables import services as tables

    game = load_scenario("tiny", title="Table step benchmark", seed=1)
    moderator, _ = add_moderator(game, "bench-mod", password="bench-password-1")
    north, south = game.factions.get(code="north"), game.factions.get(code="south")
    table = tables.create_table(game, "red-plains", "Бенчмарк", [("north", "Север", north), ("south", "Юг", south)],
                                moderator)
    walls = []
    cpu0 = time.process_time()
    for _ in range(args.steps):
        t0 = time.perf_counter()
        with tables.locked(table.pk) as t:
            seq = tables.next_seq(t)
            values = tables.take_dice(t, seq, count=2, purpose="melee", user=moderator)
            tables.record(t, "melee", moderator, seq=seq, payload={"dice": values}, summary="схватка")
        walls.append((time.perf_counter() - t0) * 1000)
    cpu = (time.process_time() - cpu0) * 1000 / args.steps
    walls.sort()
    median, p95 = walls[len(walls) // 2], walls[int(len(walls) * 0.95)]
    dice.reveal(table.dice, moderator)
    dice.reveal(dice.game_stream(game), moderator)
    t0 = time.perf_counter()
    lines = dice_selectors.check(game)
    check_s = time.perf_counter() - t0
    n_dice = args.steps * 2
    ok = all(line.ok for line in lines)
    per_1000 = check_s * 1000 / n_dice
    print(f"one act (lock, 2 server dice, a step, its audit): median {median:.1f} ms, p95 {p95:.1f} ms wall, "
          f"{cpu:.1f} ms CPU (target {ACT_TARGET_MS:.0f} ms; ratio {median / ACT_TARGET_MS:.2f})")
    print(f"dice check of {n_dice} dice: {check_s:.3f} s, {per_1000:.3f} s per 1,000 dice "
          f"(target {CHECK_TARGET_S:.0f} s; ratio {per_1000 / CHECK_TARGET_S:.2f}); all lines agree: {ok}")
    met = ok and median <= ACT_TARGET_MS and per_1000 <= CHECK_TARGET_S
    print("all targets met" if met else "MISSED: " + "; ".join(
        what for what, bad in (("one act", median > ACT_TARGET_MS), ("dice check", per_1000 > CHECK_TARGET_S),
                               ("dice lines agree", not ok)) if bad))
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(run_main(main))
