"""What one order and one clock poll cost the server, in CPU, measured in-process (issue: prove it).

Usage: .venv/bin/python benchmarks/order_cost.py [--orders 400] [--queries]

The load test (benchmarks/load/) shows latency under load; this shows the
cost behind it, without the network or the tablets' own CPU: the whole
Django stack (middleware, session, the view, the engine's check, the writes)
through Django's test client, against PostgreSQL (a database of its own,
created on DATABASE_URL's server and dropped at the end) and the tests' Redis
database (TEST_REDIS_URL; its own keys only): see benchmarks/scratch.py. Legal
orders only (hold, one-step marches, fleet moves) on the default scenario,
twelve tablets. `--queries` also lists the SQL of one order.

Targets: one order at most 15 ms of CPU and 15 SQL statements; one clock poll
at most 2 ms of CPU. Exits 1 when one is missed.
"""
import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "benchmarks" / "load"))

from figures import print_targets  # noqa: E402  (benchmarks/figures.py)
from scratch import Run, run_main  # noqa: E402

ORDER_CPU_MS, ORDER_QUERIES, CLOCK_CPU_MS = 15.0, 15, 2.0


def main() -> int:
    with Run("order_cost", needs_postgres=True) as run:
        return measure_all(run)


def measure_all(run: Run) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--orders", type=int, default=400)
    parser.add_argument("--queries", action="store_true", help="print the SQL of one order")
    args = parser.parse_args()
    run.start_redis()
    from server import environment

    os.environ.update(environment(run.create_database(), run.redis_url, ROOT / "var" / "order-cost", run.name))
    os.environ["ALLOWED_HOSTS"] = "testserver"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # tablets sign in by code
    call_command("migrate", verbosity=0)
    import setup_game

    setup = setup_game.create_games(1, 3600, 12, "cost")[0]
    phase = setup_game.start(setup)
    setup_game.order_variants(setup, phase)
    tablets = []
    for t in setup.tablets:
        client = Client()
        assert client.get(t.join_path).status_code == 302
        tablets.append((client, t))
    rng = random.Random(1204)

    def order():
        client, t = rng.choice(tablets)
        unit = rng.choice(t.units)
        response = client.post(f"/g/{t.game_id}/units/{unit}/order", json.dumps(rng.choice(setup.variants[unit])),
                               content_type="application/json")
        assert response.status_code == 200, (response.status_code, response.content[:300])

    def clock():
        client, t = rng.choice(tablets)
        assert client.get(f"/g/{t.game_id}/clock").status_code == 200

    def measure(what, n):
        for _ in range(min(50, n)):  # warm: imports, the turn's parsed map, connection
            what()
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(n):
            what()
        return (time.process_time() - cpu) / n * 1000, (time.perf_counter() - wall) / n * 1000

    o_cpu, o_wall = measure(order, args.orders)
    c_cpu, c_wall = measure(clock, args.orders)
    with CaptureQueriesContext(connection) as captured:
        order()
    queries = [q["sql"] for q in captured.captured_queries]
    print(f"order: {o_cpu:.2f} ms CPU, {o_wall:.2f} ms wall, {len(queries)} SQL statements (BEGIN/COMMIT included)")
    print(f"clock: {c_cpu:.2f} ms CPU, {c_wall:.2f} ms wall")
    print(f"one core files about {1000 / o_cpu:.0f} orders a second, or answers {1000 / c_cpu:.0f} clock polls")
    if args.queries:
        for sql in queries:
            print("  ", sql[:200])
    print()
    missed = print_targets([("order: CPU, ms", o_cpu, ORDER_CPU_MS),
                            ("order: SQL statements", len(queries), ORDER_QUERIES),
                            ("clock poll: CPU, ms", c_cpu, CLOCK_CPU_MS)])
    print("MISSED: " + "; ".join(missed) if missed else "all targets met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(run_main(main))
