#!/usr/bin/env python
"""A player's faction page on the hall's Wi-Fi: bytes on the wire and time to usable, against targets.

    .venv/bin/python benchmarks/tablet_network.py [--kbps 400] [--latency 400] [--faction nicaea]

Starts the app the production way (gunicorn with the game-night flags, DEBUG off,
collected static files served by WhiteNoise) on a free port of 127.0.0.1, loads
the default scenario (the big map), signs a player in, and drives Debian's
headless Chromium at 768x1024 with Chromium's own network emulation (CDP
Network.emulateNetworkConditions: 400 kbps each way, 400 ms latency):

(a) the faction page, cold (empty cache): usable (clock running, order forms
    set up by the script) <= 2 s; the map drawn is shown for information;
(b) the same page again, warm (cache kept): <= 30 KB on the wire;
(c) a phase change seen by an open page (Strategy -> Movement): <= 10 KB on the
    wire per tablet, counted from the moderator's click until the page has
    refreshed, clock polls included.

Uses only what it makes (benchmarks/scratch.py): files under var/bench-tablet-network/,
a new SQLite file (or a new database on DATABASE_URL's PostgreSQL server) removed at
the end, and the tests' Redis database (TEST_REDIS_URL) for the cache, under a key
prefix of its own, deleted at the end, so the page sees the moderator's change. Prints `figure | measured | target | ratio | ok`; MISSED marks a missed
target, and the script then exits 1.
"""
from __future__ import annotations

import argparse
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
VAR = ROOT / "var" / "bench-tablet-network"
VAR.mkdir(parents=True, exist_ok=True)
TITLE = "tablet-network-bench"
PASSWORD = "bench-player-password-1"

from figures import print_targets  # noqa: E402  (benchmarks/figures.py)
from scratch import Run, run_main  # noqa: E402  (benchmarks/scratch.py)


def environment(run: Run) -> dict:
    return {
        "LARP_VAR_DIR": str(VAR),
        "DATABASE_URL": run.create_database(),
        "REDIS_URL": run.redis_url,
        "CACHE_URL": "redis",
        "CACHE_KEY_PREFIX": run.name,
        "CELERY_BROKER_URL": "filesystem://",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SETTINGS_MODULE": "larp.settings",
        "LARP_PLAIN_STATIC": "",
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the web server did not start on port {port}")


def setup_game(faction_code: str):
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    from larp.campaign.models import Game
    from larp.campaign.services.members import add_moderator, create_player
    from larp.scenarios.loader import load_scenario
    from larp.turns import services as turns

    Game.objects.filter(title=TITLE).delete()
    game = load_scenario("latin-east-1204", title=TITLE, seed=1204)
    mod, _ = add_moderator(game, f"bench-mod-{game.pk}", password=PASSWORD)
    player, _ = create_player(game.factions.get(code=faction_code), f"bench-player-{game.pk}", password=PASSWORD)
    turns.start_game(game, mod)
    return game, mod, player


class Wire:
    """Bytes received per request, from Chromium's own accounting (headers and compressed body)."""

    def __init__(self, page, context):
        self.cdp = context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        self.urls, self.bytes = {}, []
        self.cdp.on("Network.requestWillBeSent", lambda e: self.urls.__setitem__(e["requestId"], e["request"]["url"]))
        self.cdp.on("Network.loadingFinished",
                    lambda e: self.bytes.append((self.urls.get(e["requestId"], "?"), e["encodedDataLength"])))

    def throttle(self, kbps: int, latency_ms: int) -> None:
        rate = kbps * 1000 / 8  # bytes per second
        self.cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency_ms,
                                                            "downloadThroughput": rate, "uploadThroughput": rate})

    def mark(self) -> int:
        return len(self.bytes)

    def since(self, mark: int) -> list[tuple[str, int]]:
        return self.bytes[mark:]


def usable(page) -> None:
    page.wait_for_function("""() => window.tablet && document.querySelector('form[data-order-form][data-ready]')
        && /\\d\\d:\\d\\d/.test(document.querySelector('[data-clock-time]').textContent)""", polling="raf",
                           timeout=60000)


def main() -> int:
    with Run("tablet_network") as run:
        return measure(run)


def measure(run: Run) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kbps", type=int, default=400)
    parser.add_argument("--latency", type=int, default=400, help="ms added to every request")
    parser.add_argument("--faction", default="nicaea")
    args = parser.parse_args()
    run.start_redis()
    env = environment(run)
    os.environ.update(env)

    game, mod, player = setup_game(args.faction)
    from django.urls import reverse

    from larp.turns import services as turns

    port = free_port()
    python = sys.executable
    # The game night's web server, with the flags manage.py rungame gives it.
    server = subprocess.Popen(
        [python, "-m", "gunicorn", "larp.wsgi:application", "--bind", f"127.0.0.1:{port}", "--workers", "2",
         "--threads", "4", "--keep-alive", "75", "--log-level", "warning"],
        cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.DEVNULL)
    rows, info = [], []
    try:
        wait_for_port(port)
        base = f"http://127.0.0.1:{port}"
        page_path = reverse("tablet:faction", args=[game.pk, args.faction])
        chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, headless=True,
                                        args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
            login = browser.new_context(base_url=base, locale="ru-RU")
            lp = login.new_page()
            lp.goto("/login/")
            lp.fill("input[name=username]", player.username)
            lp.fill("input[name=password]", PASSWORD)
            lp.locator("form [type=submit]").last.click()
            lp.wait_for_load_state()
            state = login.storage_state()
            login.close()

            # (a) cold: a fresh cache, signed in.
            context = browser.new_context(base_url=base, locale="ru-RU", storage_state=state,
                                          viewport={"width": 768, "height": 1024})
            page = context.new_page()
            wire = Wire(page, context)
            wire.throttle(args.kbps, args.latency)
            mark = wire.mark()
            started = time.perf_counter()
            page.goto(page_path, wait_until="commit")
            usable(page)
            cold_usable = time.perf_counter() - started
            page.locator("#map svg[data-pan][data-ready]").wait_for(timeout=60000)
            cold_map = time.perf_counter() - started
            page.wait_for_timeout(300)
            cold = wire.since(mark)
            cold_bytes = sum(n for _, n in cold)
            html = [n for u, n in wire.since(mark) if u.endswith(page_path)]

            # (b) warm: the same page again with what the browser kept.
            page.wait_for_timeout(1000)
            mark = wire.mark()
            started = time.perf_counter()
            page.goto(page_path, wait_until="commit")
            usable(page)
            warm_usable = time.perf_counter() - started
            page.locator("#map svg[data-pan][data-ready]").wait_for(timeout=60000)
            page.wait_for_timeout(300)
            warm = wire.since(mark)
            warm_bytes = sum(n for _, n in warm)

            # (c) a phase change reaching the open page.
            page.wait_for_timeout(2000)
            clock_polls = [n for u, n in wire.bytes if "/clock" in u]
            mark = wire.mark()
            started = time.perf_counter()
            turns.next_phase(game, mod, reason="benchmark")
            page.wait_for_function("document.querySelector('[data-lock-note]') && "
                                   "!document.querySelector('[data-lock-note]').hidden", timeout=30000)
            seen = time.perf_counter() - started
            page.wait_for_timeout(3000)  # the board and the map refreshes finish
            change = wire.since(mark)
            change_bytes = sum(n for _, n in change)
            browser.close()
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()

    print(f"Faction page of {args.faction} on the default scenario, {args.kbps} kbps / {args.latency} ms, "
          f"Chromium 768x1024.\n")
    rows = [
        ("(a) cold: usable, s", cold_usable, 2.0),
        ("(b) warm: on the wire, KB", warm_bytes / 1000, 30.0),
        ("(c) phase change: on the wire per tablet, KB", change_bytes / 1000, 10.0),
    ]
    missed = print_targets(rows)
    print()
    print(f"for information: cold page on the wire {cold_bytes / 1000:.1f} KB (the page itself "
          f"{sum(html) / 1000:.1f} KB), map drawn after {cold_map:.2f} s; warm page usable after {warm_usable:.2f} s; "
          f"phase change shown after {seen:.2f} s; one clock poll {max(clock_polls or [0]) / 1000:.2f} KB; "
          f"requests in the phase change: {len(change)}")
    for url, n in sorted(change, key=lambda r: -r[1])[:6]:
        print(f"  {n / 1000:6.2f} KB  {url.replace(base, '')}")
    print("the cold page's requests:")
    for url, n in sorted(cold, key=lambda r: -r[1]):
        print(f"  {n / 1000:6.2f} KB  {url.replace(base, '')}")
    if missed:
        print("MISSED: " + ", ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(run_main(main))
