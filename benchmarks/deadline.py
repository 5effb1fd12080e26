"""How late after the Strategy deadline does a real Celery worker close the phase? (issue: turn cycle)

Usage: .venv/bin/python benchmarks/deadline.py [--runs 20]
Starts Redis if needed (scripts/services.sh), a real worker with beat, and
20 games whose deadlines fall a quarter second apart; prints the lateness of
each close (closed_at - deadline) and min / median / p95 / max.
Target: every phase closed less than 1 s after its deadline; exits 1 if not.
Uses only what it makes (benchmarks/scratch.py): a new SQLite file under
var/bench/, or a new database on DATABASE_URL's PostgreSQL server, removed at
the end; a Celery queue and cache prefix of its own in the tests' Redis
database (TEST_REDIS_URL).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "benchmarks" / "load"))

from scratch import Run, run_main  # noqa: E402

TARGET_MS = 1000.0


def main() -> int:
    with Run("deadline") as run:
        return measure(run)


def measure(run: Run) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--strategy-seconds", type=float, default=2.0)
    args = parser.parse_args()
    run.start_redis()
    from server import environment

    os.environ.update(environment(run.create_database(), run.redis_url, ROOT / "var" / "bench-deadline", run.name))
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # moderators' accounts only
    call_command("migrate", verbosity=0)
    from larp.campaign.models import Game
    from larp.campaign.services.members import add_moderator
    from larp.scenarios.loader import load_scenario
    from larp.turns import services
    from larp.turns.models import Phase
    from larp.turns.selectors import closing_delay

    tmp = Path(tempfile.mkdtemp())
    log = open(tmp / "worker.log", "w")
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "larp", "worker", "--pool", "solo", "-B", "--schedule",
         str(tmp / "beat"), "--loglevel", "INFO", "--without-gossip", "--without-mingle"],
        cwd=ROOT, env=dict(os.environ), stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            if "ready." in (tmp / "worker.log").read_text(errors="replace"):
                break
            time.sleep(0.1)
        phases = []
        for i in range(args.runs):
            game = load_scenario("tiny", title=f"deadline-bench-{i}-{time.time_ns()}", seed=i)
            game.rules = {**game.rules, "phase_seconds": {"strategy": args.strategy_seconds + 0.25 * i}}
            game.save(update_fields=["rules"])
            mod, _ = add_moderator(game, f"bench-mod-{i}-{time.time_ns()}")
            phases.append(services.start_game(game, mod).pk)
        end = time.monotonic() + args.strategy_seconds + 0.25 * args.runs + 15 + closing_delay().total_seconds()
        while time.monotonic() < end and Phase.objects.filter(pk__in=phases, state="running").exists():
            time.sleep(0.2)
        rows = Phase.objects.filter(pk__in=phases).order_by("pk")
        late_ms = []
        for p in rows:
            if p.state != "closed":
                print(f"phase {p.pk}: NOT CLOSED")
                continue
            # Due at deadline + grace + settle (settings.ORDER_GRACE_SECONDS, ORDER_SETTLE_SECONDS): lateness after that.
            late_ms.append((p.closed_at - p.deadline - closing_delay()).total_seconds() * 1000)
            print(f"phase {p.pk}: closed by {p.closed_how:<8} {late_ms[-1]:8.1f} ms after it was due")
        met = len(late_ms) == args.runs and max(late_ms) < TARGET_MS
        if late_ms:
            ordered = sorted(late_ms)
            p95 = ordered[max(0, int(round(0.95 * len(ordered))) - 1)]
            print(f"\nruns {len(late_ms)}/{args.runs}  min {ordered[0]:.1f} ms  median {statistics.median(ordered):.1f} ms"
                  f"  p95 {p95:.1f} ms  max {ordered[-1]:.1f} ms  (target: every close < {TARGET_MS:.0f} ms: "
                  f"{'ok' if met else 'MISSED'})")
        else:
            print(f"\nno phase closed (target: every close < {TARGET_MS:.0f} ms: MISSED)")
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(run_main(main))
