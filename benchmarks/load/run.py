"""Game-night load test: 60 tablets on one game, then 300 tablets on five games, against the production setup.

    .venv/bin/python benchmarks/load/run.py              # 60 s Strategy phase (about 5 minutes in all)
    .venv/bin/python benchmarks/load/run.py --full       # the real 5-minute Strategy phase
    .venv/bin/python benchmarks/load/run.py --quick      # 20 s phases, a smoke run

What it does, all on 127.0.0.1:
1. A PostgreSQL database made for this run on DATABASE_URL's server (dropped at the
   end), a Celery queue and cache prefix of its own in the tests' Redis database
   (TEST_REDIS_URL), its own var/ folder (benchmarks/scratch.py);
   migrate, collectstatic, games from the default scenario (`load_scenario`),
   one player account and join code per tablet (`create_player`, `issue_code`).
2. `manage.py rungame` on a free port: gunicorn (3 workers x 4 threads), a Celery
   worker and beat, DEBUG off, SECRET_KEY set.
3. Ceiling: /healthz and the clock back to back for a few seconds each.
4. Stage 1: 60 tablets sign in by join code; each polls the clock every second and
   files or re-files an order every 2-6 s (some withdrawals, a few illegal orders,
   reading the faction's orders), every 0.5-2.5 s in the last 10 s (--burst-think),
   once more in the last second (all sixty), and keeps pressing for 2 s after the
   deadline (those must be refused).
5. Stage 2: 300 tablets across 5 games at once, the same way.
6. After each stage, the orders are counted in the database (verify.py).
Prints a table; writes var/load/last-run.json. Exit 1 if an order was lost,
duplicated or saved late, or a target was missed (--no-targets: report only).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from server import (
    App,
    cpu_snapshot,
    environment,
    free_port,
    others_cores,
    server_times,
)
from scratch import Run, run_main  # noqa: E402  (benchmarks/scratch.py)

MAX_REQUESTS = 400_000  # a hard budget for the whole run, far above what the stages need


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


def table(samples, duration: float, title: str) -> tuple[list[dict], str]:
    rows = []
    groups: dict[str, list] = {}
    for s in samples:
        key = s.endpoint + (f" ({s.window})" if s.endpoint == "order" and s.window else "")
        groups.setdefault(key, []).append(s)
        if s.endpoint == "order":
            groups.setdefault("order (all)", []).append(s)
    for key in sorted(groups):
        ss = groups[key]
        lat = [s.latency * 1000 for s in ss]
        statuses: dict = {}
        for s in ss:
            status = s.status or s.detail.get("client_error", "client error")
            statuses[status] = statuses.get(status, 0) + 1
        rows.append({"endpoint": key, "requests": len(ss), "rps": round(len(ss) / duration, 1),
                     "p50_ms": round(pct(lat, 50), 1), "p95_ms": round(pct(lat, 95), 1),
                     "p99_ms": round(pct(lat, 99), 1), "max_ms": round(max(lat), 1),
                     "errors": sum(1 for s in ss if not s.expected), "statuses": statuses})
    header = (f"{'endpoint':<18}{'requests':>9}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}"
              f"{'max ms':>9}{'errors':>8}  statuses")
    lines = [f"\n{title}", header]
    for r in rows:
        lines.append(f"{r['endpoint']:<18}{r['requests']:>9}{r['rps']:>8}{r['p50_ms']:>9}{r['p95_ms']:>9}"
                     f"{r['p99_ms']:>9}{r['max_ms']:>9}{r['errors']:>8}  "
                     + " ".join(f"{k}:{v}" for k, v in sorted(r["statuses"].items(), key=lambda kv: str(kv[0]))))
    return rows, "\n".join(lines)


async def ceiling(base: str, game_id: int, concurrency: int, seconds: float, rec) -> dict:
    from client import closed_loop

    await closed_loop(base, "/healthz", "warmup", concurrency, 2, rec)
    health = await closed_loop(base, "/healthz", "healthz", concurrency, seconds, rec)
    clock = await closed_loop(base, f"/g/{game_id}/clock", "clock_max", concurrency, seconds, rec)
    health2 = await closed_loop(base, "/healthz", "healthz", concurrency, seconds, rec)
    best = max(health, health2)
    return {"healthz_rps": round(best, 1), "healthz_rps_runs": [round(health, 1), round(health2, 1)],
            "clock_rps": round(clock, 1), "clock_ratio": round(clock / best, 3), "concurrency": concurrency,
            "seconds": seconds}


async def run_stage(base: str, setups, seed: int, rec, grace: float):
    from client import TabletClient

    rng = random.Random(seed)
    clients = [TabletClient(base, t, s.variants, s.illegal, rec, random.Random(rng.random()), grace)
               for s in setups for t in s.tablets]
    try:
        sem = asyncio.Semaphore(8)

        async def open_one(c):
            async with sem:
                await c.open()

        await asyncio.gather(*(open_one(c) for c in clients))
        return clients
    except BaseException:
        await asyncio.gather(*(c.close() for c in clients))
        raise


async def play_stage(clients, deadline_of: dict, think, burst_think, after: float, stampede_seconds: float):
    tasks = []
    for c in clients:
        deadline = deadline_of[c.t.game_id]
        tasks.append(c.poll_clock(deadline + after))
        tasks.append(c.play(deadline, deadline + after, think, burst_think, stampede_seconds))
    try:
        await asyncio.gather(*tasks)
    finally:
        await asyncio.gather(*(c.close() for c in clients))


def stage(name: str, base: str, n_games: int, tablets_per_game: int, strategy: float, args, rec, tag: str,
          app_log: Path):
    import setup_game
    from verify import verify_game

    print(f"\n== {name}: {tablets_per_game * n_games} tablets on {n_games} game(s), "
          f"Strategy {strategy:.0f} s ==", flush=True)
    setups = setup_game.create_games(n_games, strategy, tablets_per_game, tag)
    loop = asyncio.new_event_loop()
    first = len(rec.samples)
    clients = loop.run_until_complete(run_stage(base, setups, args.seed, rec, args.grace))
    phases, deadline_of = {}, {}
    for s in setups:
        phase = setup_game.start(s)
        setup_game.order_variants(s, phase)
        phases[s.game.pk] = phase.pk
        deadline_of[s.game.pk] = phase.deadline.timestamp()
    t0 = time.time()
    print(f"   Strategy phase running; deadline in {strategy:.0f} s", flush=True)
    cpu0 = cpu_snapshot(args.app_pgid)
    loop.run_until_complete(play_stage(clients, deadline_of, args.think, args.burst_think, args.after,
                                                 args.stampede_seconds))
    cpu_ours, cpu_others = others_cores(cpu0, cpu_snapshot(args.app_pgid))
    duration = time.time() - t0
    loop.close()
    time.sleep(3)  # let the close (worker or a request) finish its transaction
    samples = [s for s in rec.samples[first:] if s.endpoint not in ("join", "faction_page")]
    unknown = [u for c in clients for u in c.unknown]
    reports = [verify_game(s.game, phases[s.game.pk], samples, unknown, args.grace) for s in setups]
    rows, text = table(samples, duration, f"{name}: {duration:.0f} s, {len(samples)} requests")
    print(text)
    server = {k: {"requests": len(v), "p50_ms": round(pct(v, 50), 1), "p95_ms": round(pct(v, 95), 1),
                  "p99_ms": round(pct(v, 99), 1)}
              for k, v in sorted(server_times(app_log, since=t0 - 1).items()) if k != "other"}
    print(f"   CPU: this test (server + clients) {cpu_ours} cores, other processes on the machine {cpu_others} "
          f"cores, of {os.cpu_count()}" + ("  <- NOT A QUIET MACHINE: figures are pessimistic" if cpu_others > 0.2 else ""))
    print("   time inside the server (gunicorn access log): " + "; ".join(
        f"{k} p50 {v['p50_ms']} / p95 {v['p95_ms']} / p99 {v['p99_ms']} ms" for k, v in server.items()))
    for r in reports:
        print(f"   game {r['game']}: saves acknowledged {r.get('acknowledged_saves')}, withdrawals "
              f"{r.get('acknowledged_withdrawals')}, late presses refused {r.get('late_refused')}, no answer "
              f"{r.get('unknown_outcome')} ({r.get('unknown_outcome_saved')} of them saved); LOST {r.get('lost')} "
              f"({r.get('refused_in_time')} sent in time and refused), DUPLICATED {r.get('duplicated')}, "
              f"unacknowledged {r.get('unacknowledged_in_history')}, wrong content {r.get('wrong_content')}; "
              f"closed by {r['closed_how']} {r['close_late_ms']} ms after the deadline; "
              f"{r.get('orders_after_close')} orders ({r.get('implicit_holds')} implicit holds)")
        for p in r["problems"][:20]:
            print("     PROBLEM:", p)
    return {"name": name, "tablets": tablets_per_game * n_games, "games": n_games, "strategy_seconds": strategy,
            "duration_s": round(duration, 1), "endpoints": rows, "server_side": server,
            "cpu_cores_this_test": cpu_ours, "cpu_cores_other_processes": cpu_others, "games_verified": reports}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="the real 5-minute Strategy phase")
    parser.add_argument("--quick", action="store_true", help="20 s phases (smoke run)")
    parser.add_argument("--strategy-seconds", type=float, default=None)
    parser.add_argument("--tablets", type=int, default=60, help="stage 1: tablets on one game")
    parser.add_argument("--games", type=int, default=5, help="stage 2: games (60 tablets each)")
    parser.add_argument("--web-workers", type=int, default=None,
                        help="default: rungame's (one a core, at least 2)")
    parser.add_argument("--after", type=float, default=2.0, help="seconds tablets keep pressing after the deadline")
    pair = lambda text: tuple(float(x) for x in text.split(","))
    parser.add_argument("--think", type=pair, default=(2.0, 6.0), metavar="MIN,MAX",
                        help="seconds between a tablet's presses before the last 10 s (default 2,6)")
    parser.add_argument("--burst-think", type=pair, default=(0.5, 2.5), metavar="MIN,MAX",
                        help="seconds between presses in the last 10 s (default 0.5,2.5; 0.3,1.5 for a harsher night)")
    parser.add_argument("--stampede-seconds", type=float, default=1.0,
                        help="every tablet presses once more within this many seconds before the deadline "
                             "(default 1: all sixty in the last second; 10 spreads them over the last 10 s)")
    parser.add_argument("--ceiling-seconds", type=float, default=6.0)
    parser.add_argument("--ceiling-concurrency", type=int, default=16)
    parser.add_argument("--skip-stage2", action="store_true")
    parser.add_argument("--seed", type=int, default=20260512)
    parser.add_argument("--grace", type=float, default=0.0,
                        help="seconds after the deadline the server may still save a press (default 0). A press "
                             "sent before the deadline must be saved whatever this is")
    parser.add_argument("--no-targets", action="store_true", help="report only; exit 0 unless orders were lost")
    args = parser.parse_args()
    strategy = args.strategy_seconds or (300.0 if args.full else 20.0 if args.quick else 60.0)
    if strategy < 15:
        parser.error("the Strategy phase must be at least 15 s (10 s of burst plus a steady part)")

    with Run("load", needs_postgres=True) as run:
        return load_test(run, args, strategy)


def load_test(run: Run, args, strategy: float) -> int:
    run.start_redis()
    var_dir = ROOT / "var" / "load"
    # The app's own folder (static files, beat schedule, app.log): two runs at once never share one.
    app_dir = var_dir / run.name
    env = environment(run.create_database(), run.redis_url, app_dir, run.name)
    os.environ.update(env)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    # Tablets sign in by join code; their accounts' passwords are never used, so this process
    # stores them with a fast hasher (PBKDF2 would take minutes for 360 accounts). The server
    # keeps its own settings.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

    print("migrating and collecting static files ...", flush=True)
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)

    from client import Recorder

    rec = Recorder(MAX_REQUESTS)
    port = free_port()
    args.web_workers = args.web_workers or max(2, os.cpu_count() or 2)  # rungame's default, said in the results
    app = App(env, port, args.web_workers, app_dir / "app.log")
    results = {"started": time.strftime("%Y-%m-%d %H:%M:%S"), "machine": {"cpus": os.cpu_count()},
               "think": args.think, "burst_think": args.burst_think, "stampede_seconds": args.stampede_seconds,
               "web_workers": args.web_workers, "threads_per_worker": "4 + stream slots", "strategy_seconds": strategy}
    args.app_pgid = app.proc.pid  # rungame leads its own process group
    try:
        app.wait_ready()
        print(f"app up at {app.base} (gunicorn {args.web_workers} workers, Celery worker + beat)")
        import setup_game

        probe = setup_game.create_games(1, 3600, 0, "ceiling")[0]  # a deadline far away
        setup_game.start(probe)
        loop = asyncio.new_event_loop()
        cpu0 = cpu_snapshot(args.app_pgid)
        results["ceiling"] = loop.run_until_complete(
            ceiling(app.base, probe.game.pk, args.ceiling_concurrency, args.ceiling_seconds, rec))
        loop.close()
        c = results["ceiling"]
        c["cpu_cores_this_test"], c["cpu_cores_other_processes"] = others_cores(cpu0, cpu_snapshot(args.app_pgid))
        print(f"\nceiling: /healthz {c['healthz_rps']} req/s, clock {c['clock_rps']} req/s "
              f"({c['concurrency']} connections back to back) -> clock/ceiling {c['clock_ratio']:.0%} (target >= 70%); "
              f"other processes used {c['cpu_cores_other_processes']} cores meanwhile")
        results["stage1"] = stage("stage 1", app.base, 1, args.tablets, strategy, args, rec, "s1", app.log)
        if not args.skip_stage2:
            results["stage2"] = stage("stage 2", app.base, args.games, 60, strategy, args, rec, "s2", app.log)
    finally:
        app.stop()
    server_errors = [line for line in (app_dir / "app.log").read_text(errors="replace").splitlines()
                     if "Traceback" in line or "Internal Server Error" in line]
    results["server_tracebacks"] = len(server_errors)

    verdicts = []
    ratio = results["ceiling"]["clock_ratio"]
    verdicts.append(("clock >= 70% of the /healthz ceiling", ratio >= 0.70, f"{ratio:.0%}"))
    s1 = {r["endpoint"]: r for r in results["stage1"]["endpoints"]}
    p95 = s1["order (all)"]["p95_ms"]
    verdicts.append(("order filing p95 <= 100 ms at 60 tablets", p95 <= 100, f"{p95} ms"))
    lost = sum(g.get("lost", 0) + g.get("wrong_content", 0) for st in ("stage1", "stage2") if st in results
               for g in results[st]["games_verified"])
    dup = sum(g.get("duplicated", 0) + g.get("unacknowledged_in_history", 0) for st in ("stage1", "stage2")
              if st in results for g in results[st]["games_verified"])
    problems = sum(len(g["problems"]) for st in ("stage1", "stage2") if st in results
                   for g in results[st]["games_verified"])
    verdicts.append(("orders lost = 0", lost == 0, str(lost)))
    verdicts.append(("orders duplicated = 0", dup == 0, str(dup)))
    verdicts.append(("no other order problem (late saves, history)", problems == 0, str(problems)))
    errors = sum(r["errors"] for st in ("stage1", "stage2") if st in results for r in results[st]["endpoints"]
                 if r["endpoint"] != "order (all)")  # each order is also in its window's row
    verdicts.append(("unexpected responses = 0", errors == 0, str(errors)))
    verdicts.append(("server tracebacks = 0", not server_errors, str(len(server_errors))))
    print("\nverdicts")
    for text, ok, value in verdicts:
        print(f"  {'ok  ' if ok else 'MISS'} {text}: {value}")
    results["verdicts"] = [{"target": t, "ok": ok, "value": v} for t, ok, v in verdicts]
    (var_dir / "last-run.json").write_text(json.dumps(results, indent=1, default=str))
    shutil.rmtree(app_dir / "staticfiles", ignore_errors=True)  # collected for this run only
    print(f"\nfigures: {var_dir / 'last-run.json'}; server log: {app_dir / 'app.log'}")
    integrity = lost == 0 and dup == 0 and problems == 0
    if args.no_targets:
        return 0 if integrity else 1
    return 0 if all(ok for _t, ok, _v in verdicts) else 1


if __name__ == "__main__":
    sys.exit(run_main(main))
