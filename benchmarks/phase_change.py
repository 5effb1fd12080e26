"""Sixty tablets at a phase change (issue 36): how long until every tablet shows the new phase, what it costs
the server, and what an idle tablet costs the hall's Wi-Fi.

Usage: .venv/bin/python benchmarks/phase_change.py [--tablets 60] [--changes 4] [--idle 30] [--poll] [--table-poll]

By default the clock and the battle table's version are pushed (CLOCK_STREAM=1: server-sent events, 40 stream
slots a web worker); --poll measures the polling tablets as before (the clock and the table), --table-poll the
table's pages polling while the clock is pushed.

The app runs the production way (benchmarks/load/server.py: `manage.py rungame`, gunicorn, DEBUG off) on its
own PostgreSQL database, made for this run and dropped after it, and its own keys and Celery queue in the Redis
database of TEST_REDIS_URL (benchmarks/scratch.py: nothing else there is touched). Sixty tablets are asyncio
HTTP clients (aiohttp) that behave as static/js/tablet.js does: they sign in by join code, open their
faction page, then follow the clock the way the page does (push or polling, whichever the page uses:
`clock_stream` in the page's data) and, when the phase changes, fetch the board fragment and the map's SVG
when its version changed. Requests carry the headers Chromium sends, so the bytes counted are the Wi-Fi's.

Figures, each with its target and ratio (exit 1 on a miss):
- a phase change reaches all tablets (last tablet's board and map in hand), seconds after the press;
- server CPU per tablet per change (the app's process group, /proc, over the change, less idle);
- an idle tablet's bytes a minute, both ways;
- the idle clock's server CPU per tablet per second (one poll a second at <= 1 ms, or the stream's share);
- a table act reaches the 10 tablets at the table (each has the page fetched again), seconds after it is
  committed (the act is made in this process, through the tables' services);
- the server CPU of an idle table's tablet: per tablet-second, and per the version poll it replaces (a page polls
  twice a second); for polling pages, per poll made. Over a window (--table-window, 60 s: a stream reconnects
  once through the full seat check), less the app's idle rate over a window as long just before.
Server CPU is the app's process group only (gunicorn, Celery worker and beat), read from /proc; it hardly
depends on what else the machine runs, unlike the seconds, which include waiting for a core.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from load.server import App, environment, free_port, processes_cpu  # noqa: E402
from scratch import Run, run_main  # noqa: E402

TARGETS = {"reach_s": 1.5, "cpu_ms_per_tablet": 10.0, "idle_kb_min": 15.0, "poll_cpu_ms": 1.0,
           "table_reach_s": 1.0, "table_poll_cpu_ms": 1.0}
# What Chromium on an Android tablet sends with a fetch() from the faction page (cookies are added by the jar).
CHROMIUM = {
    "User-Agent": "Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) "
                  "Chrome/131.0.0.0 Safari/537.36",
    "sec-ch-ua": '"Chromium";v="131", "Not_A Brand";v="24"', "sec-ch-ua-mobile": "?0",
    "sec-ch-ua-platform": '"Android"', "Accept": "*/*", "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors",
    "Sec-Fetch-Dest": "empty", "Accept-Encoding": "gzip, deflate", "Accept-Language": "ru-RU,ru;q=0.9,en;q=0.8",
}


def cpu_snapshot(app_pgid: int) -> tuple[float, float, float]:
    """(0, CPU-seconds of the app's process group alone: web, worker, beat, wall time). Not this process: its
    sixty emulated tablets are the clients' CPU, not the server's (load.server's snapshot counts both)."""
    return 0.0, processes_cpu(lambda pid, pgid: pgid == app_pgid), time.monotonic()


class Tablet:
    """One emulated tablet: its session, what it last saw, and the bytes it moved."""

    def __init__(self, base: str, game_id: int, faction: str, join_path: str):
        self.base, self.game_id, self.faction, self.join_path = base, game_id, faction, join_path
        self.session = None
        self.sent = self.received = self.requests = 0
        self.phase = None
        self.map_version = ""
        self.etag = ""
        self.stream = ""
        self.poll_ms = 800
        self.polled_instead = False
        self.reached: dict[int, float] = {}  # change number -> when board and map were in hand
        self.change_no = 0

    def _count(self, method: str, url: str, headers: dict, resp, body: bytes) -> None:
        from yarl import URL

        cookies = self.session.cookie_jar.filter_cookies(URL(url))
        cookie_line = "; ".join(f"{k}={m.value}" for k, m in cookies.items())
        path = url[len(self.base):]
        self.sent += len(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n") \
            + sum(len(k) + len(v) + 4 for k, v in headers.items()) + (len(cookie_line) + 10 if cookie_line else 0) + 2
        self.received += len("HTTP/1.1 200 OK\r\n") + sum(len(k) + len(v) + 4 for k, v in resp.raw_headers) + 2 \
            + len(body)
        self.requests += 1

    async def get(self, path: str, extra: dict | None = None):
        import aiohttp

        headers = {**CHROMIUM, "Referer": f"{self.base}/g/{self.game_id}/f/{self.faction}/", **(extra or {})}
        url = self.base + path
        async with self.session.get(url, headers=headers, allow_redirects=False,
                                    auto_decompress=False) as resp:
            body = await resp.read()
            self._count("GET", url, headers, resp, body)
            if resp.headers.get("Content-Encoding") == "gzip":
                import gzip
                body = gzip.decompress(body)
            return resp.status, resp.headers, body

    async def open(self) -> None:
        import aiohttp

        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                             connector=aiohttp.TCPConnector(limit=4, keepalive_timeout=70),
                                             timeout=aiohttp.ClientTimeout(total=30))
        status, _h, _b = await self.get(self.join_path)
        assert status == 302, status
        status, _h, body = await self.get(f"/g/{self.game_id}/f/{self.faction}/")
        assert status == 200, status
        html = body.decode()
        self.map_version = re.search(r"map/svg\?f=[^&\"]*&amp;v=([0-9a-f]+)", html).group(1)
        stream = re.search(r'data-clock-stream="([^"]*)"', html)
        self.stream = stream.group(1).replace("&amp;", "&") if stream else ""
        await self.get(f"/g/{self.game_id}/map/svg?f={self.faction}&v={self.map_version}")
        self.sent = self.received = self.requests = 0  # the opening page is not the idle cost

    async def follow(self, end: float) -> None:
        """The clock as tablet.js follows it: the stream when the page offers one (and a poll every 30 s for the
        clock's offset), else polling. A stream refused (204), at the first connection or at a reconnection,
        makes the tablet poll at once, as the page's EventSource error does (`tablet.js`: `sync()` after one
        poll interval); it used to wait for the next 30-second poll, which left a tablet refused at a
        reconnection deaf for up to 30 s."""
        if self.stream:
            offset = asyncio.get_running_loop().create_task(self._poll(end, every=30.0))
            try:
                await self._stream(end)  # until `end`, or refused
            finally:
                offset.cancel()
        if not self.stream:  # polled from the start, or the server had no stream left for it
            await self._poll(end)

    async def _poll(self, end: float, every: float | None = None) -> None:
        import json

        if every:
            await asyncio.sleep(every)

        while time.time() < end:
            if every and not self.stream:
                return  # the stream was refused: follow() polls every 0.8 s from now on
            extra = {"If-None-Match": self.etag} if self.etag else {}
            try:
                status, headers, body = await self.get(f"/g/{self.game_id}/clock", extra)
            except Exception:  # noqa: BLE001 - a lost poll: the next one tries again
                await asyncio.sleep(1)
                continue
            if status == 200:
                payload = json.loads(body)
                self.etag = headers.get("ETag", "")
                self.poll_ms = payload.get("poll_ms", 800)
                await self._seen(payload)
            await asyncio.sleep(every or self.poll_ms / 1000)

    async def _stream(self, end: float) -> None:
        import json

        import aiohttp

        headers = {**CHROMIUM, "Accept": "text/event-stream", "Cache-Control": "no-cache",
                   "Referer": f"{self.base}/g/{self.game_id}/f/{self.faction}/"}
        while time.time() < end:
            url = self.base + self.stream
            try:
                async with self.session.get(url, headers=headers, timeout=aiohttp.ClientTimeout(
                        total=None, sock_read=40)) as resp:
                    self._count("GET", url, headers, resp, b"")
                    if resp.status == 204:  # the worker's streams are all taken: EventSource ends, the tablet polls
                        self.stream = ""
                        self.polled_instead = True
                        return
                    data = ""
                    async for raw in resp.content:
                        self.received += len(raw)
                        line = raw.decode().rstrip("\r\n")
                        if line.startswith("data:"):
                            data += line[5:].strip()
                        elif line == "" and data:
                            await self._seen(json.loads(data))
                            data = ""
                        if time.time() >= end:
                            return
            except Exception:  # noqa: BLE001 - EventSource reconnects
                await asyncio.sleep(1)

    async def _seen(self, payload: dict) -> None:
        if payload.get("beat"):
            return
        key = (payload.get("turn"), payload.get("phase"))
        if self.phase is not None and key != self.phase:
            self.phase = key
            asyncio.get_running_loop().create_task(self._refresh_quietly(self.change_no))
        self.phase = key

    async def _refresh_quietly(self, change_no: int) -> None:
        try:
            await self._refresh(change_no)
        except Exception:  # noqa: BLE001 - a failed refresh: the tablet is not counted as reached
            pass

    async def _refresh(self, change_no: int) -> None:
        """As tablet.js on `tablet:phase-changed`: the board fragment, which names the map of its state
        (data-map-next), then the map's SVG when its version changed."""
        _s, _h, body = await self.get(f"/g/{self.game_id}/f/{self.faction}/", {"HX-Request": "true"})
        html = body.decode()
        found = re.search(r'data-map-next="[^"]*map/svg\?f=[^&"]*&amp;v=([0-9a-f]+)', html)
        if found is None:  # a board without it: the map's fragment, as before
            _s, _h, body = await self.get(f"/g/{self.game_id}/map/?f={self.faction}", {"HX-Request": "true"})
            found = re.search(r"map/svg\?f=[^&\"]*&amp;v=([0-9a-f]+)", body.decode())
        if found and found.group(1) != self.map_version:
            self.map_version = found.group(1)
            await self.get(f"/g/{self.game_id}/map/svg?f={self.faction}&v={self.map_version}")
        self.reached.setdefault(change_no, time.time())


TABLE_POLL_S = 0.5  # static/js/table-live.js: setInterval(tick, 500), a poll each tick when the page polls


class TableWatcher:
    """A battle table's page on a tablet, as static/js/table-live.js follows it: the table's stream when the page
    names one (data-table-stream-url; reconnected a second after it ends, as EventSource does), else, or when the
    stream is refused (204), the table's version polled every TABLE_POLL_S; when the version changed, the page
    fetched again (X-Table-Refresh). Rides on a tablet's session (a second tab)."""

    def __init__(self, tablet: Tablet, page: str, poll: bool = False):
        self.tablet, self.page, self.poll = tablet, page, poll
        self.version_url = self.stream_url = ""
        self.version = None
        self.polls = self.connects = self.events = 0
        self.refused = False
        self.seen: dict[int, float] = {}  # table version -> when the refreshed page was in hand

    async def open(self) -> None:
        status, _h, body = await self.tablet.get(self.page)
        assert status == 200, status
        html = body.decode()
        self.version_url = re.search(r'data-table-version-url="([^"]+)"', html).group(1)
        self.version = int(re.search(r'data-table-version="(\d+)"', html).group(1))
        stream = re.search(r'data-table-stream-url="([^"]+)"', html)
        self.stream_url = stream.group(1) if stream and not self.poll else ""

    async def follow(self, end: float) -> None:
        if self.stream_url:
            await self._stream(end)
        if not self.stream_url:  # polled from the start, or the stream was refused
            await self._poll(end)

    async def _seen(self, version: int) -> None:
        if version != self.version:
            self.version = version
            await self.tablet.get(self.page, {"X-Table-Refresh": "1"})
            self.seen.setdefault(version, time.time())

    async def _poll(self, end: float) -> None:
        import json

        while time.time() < end:
            started = time.time()
            try:
                status, _h, body = await self.tablet.get(self.version_url)
                self.polls += 1
                if status == 200:
                    await self._seen(json.loads(body)["version"])
            except Exception:  # noqa: BLE001 - a lost poll: the next one tries again
                pass
            await asyncio.sleep(max(0.0, TABLE_POLL_S - (time.time() - started)))

    async def _stream(self, end: float) -> None:
        import json

        import aiohttp

        headers = {**CHROMIUM, "Accept": "text/event-stream", "Cache-Control": "no-cache",
                   "Referer": self.tablet.base + self.page}
        failures = 0
        while time.time() < end:
            url = self.tablet.base + self.stream_url
            try:
                async with self.tablet.session.get(url, headers=headers, allow_redirects=False,
                                                   timeout=aiohttp.ClientTimeout(total=None, sock_read=40)) as resp:
                    self.tablet._count("GET", url, headers, resp, b"")
                    self.connects += 1
                    if resp.status != 200:  # 204: the worker's streams are all taken; EventSource ends, the page polls
                        self.stream_url, self.refused = "", True
                        return
                    data = ""
                    async for raw in resp.content:
                        self.tablet.received += len(raw)
                        line = raw.decode().rstrip("\r\n")
                        if line.startswith("data:"):
                            data += line[5:].strip()
                        elif line == "" and data:
                            event, data, failures = json.loads(data), "", 0
                            self.events += 1
                            if "version" in event:
                                await self._seen(event["version"])
                        if time.time() >= end:
                            return
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - EventSource reconnects; after three failures in a row the page polls
                failures += 1
                if failures >= 3:
                    self.stream_url = ""
                    return
            await asyncio.sleep(1)  # the stream's `retry: 1000`


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tablets", type=int, default=60)
    parser.add_argument("--changes", type=int, default=4)
    parser.add_argument("--idle", type=float, default=30, help="seconds of idle tablets measured")
    parser.add_argument("--web-workers", type=int, default=None,
                        help="default: rungame's (one a core, at least 2)")
    parser.add_argument("--poll", action="store_true", help="the clock polled (as before), not pushed")
    parser.add_argument("--table-tablets", type=int, default=10)
    parser.add_argument("--table-acts", type=int, default=4)
    parser.add_argument("--table-window", type=float, default=60,
                        help="seconds of the idle table measured (60: each table stream reconnects once)")
    parser.add_argument("--table-poll", action="store_true", help="the table's pages poll its version (as before)")
    args = parser.parse_args()
    with Run("phase", needs_postgres=True) as scratch:
        return measure(scratch, args)


def measure(scratch: Run, args) -> int:
    scratch.start_redis()
    var_dir = ROOT / "var" / f"bench-phase-{os.getpid()}"
    env = environment(scratch.create_database(), scratch.redis_url, var_dir, scratch.name)
    env["CLOCK_STREAM"] = "0" if args.poll else "1"
    os.environ.update({k: v for k, v in env.items() if k in (
        "DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CELERY_QUEUE", "CACHE_KEY_PREFIX", "SECRET_KEY",
        "LARP_VAR_DIR", "DJANGO_SETTINGS_MODULE", "ALLOWED_HOSTS", "ORDER_GRACE_SECONDS", "ORDER_SETTLE_SECONDS",
        "CLOCK_STREAM")})
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # the benchmark's accounts only
    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)
    app = App(env, free_port(), args.web_workers, var_dir / "app.log")
    try:
        app.wait_ready()
        return asyncio.run(run(app, args))
    finally:
        app.stop()
        from django.db import connections

        connections.close_all()


async def run(app: App, args) -> int:
    from asgiref.sync import sync_to_async
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from larp.campaign.services.members import add_moderator, create_player
    from larp.scenarios.loader import load_scenario
    from larp.tables import registry as table_pages
    from larp.tables import services as tables
    from larp.tablet import services as tablet_services
    from larp.turns import services as turns

    def setup():
        game = load_scenario("latin-east-1204", title="phase change bench", seed=1204)
        mod, _ = add_moderator(game, "bench-mod")
        factions = list(game.factions.order_by("code"))
        tablets = []
        for i in range(args.tablets):
            faction = factions[i % len(factions)]
            user, _ = create_player(faction, f"bench-t{i:03d}")
            token = tablet_services.issue_code(mod, game, user)
            tablets.append((faction.code, f"/join/{tablet_services.link(token)}/"))
        turns.start_game(game, mod)
        table = tables.create_table(game, "tactical", "bench", [("a", "A", factions[0]), ("b", "B", factions[1])],
                                    mod, seed=1)
        store = SessionStore()
        store[SESSION_KEY], store[BACKEND_SESSION_KEY] = str(mod.pk), "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = mod.get_session_auth_hash()
        store.create()
        return game, mod, tablets, store.session_key, table

    game, mod, specs, mod_session, table = await sync_to_async(setup)()
    table_factions = await sync_to_async(
        lambda: {side.faction.code for side in table.sides.select_related("faction")})()
    tablets = [Tablet(app.base, game.pk, code, path) for code, path in specs]
    for i in range(0, len(tablets), 10):
        await asyncio.gather(*(t.open() for t in tablets[i:i + 10]))
    print(f"{len(tablets)} tablets on {len({t.faction for t in tablets})} factions; "
          f"clock by {'push (' + tablets[0].stream.split('?')[0] + ')' if tablets[0].stream else 'polling'}")

    end = time.time() + 3600  # cancelled at the end
    followers = [asyncio.get_running_loop().create_task(t.follow(end)) for t in tablets]
    await asyncio.sleep(3)  # every tablet has seen the phase once

    # Idle: bytes and server CPU of the clock alone.
    for t in tablets:
        t.sent = t.received = t.requests = 0
    before = cpu_snapshot(app.proc.pid)
    await asyncio.sleep(args.idle)
    after = cpu_snapshot(app.proc.pid)
    idle_cpu_s = after[1] - before[1]
    idle_seconds = after[2] - before[2]
    requests = sum(t.requests for t in tablets)
    idle_bytes = sum(t.sent + t.received for t in tablets) / len(tablets) * 60 / idle_seconds
    # The clock's server CPU per tablet per second (a poll a second at <= 1 ms each; or the stream's share).
    poll_cpu_ms = idle_cpu_s * 1000 / idle_seconds / len(tablets)
    idle_rate = idle_cpu_s / idle_seconds
    pollers = sum(1 for t in tablets if t.polled_instead)
    if pollers:
        print(f"{pollers} tablets were refused a stream (their worker's slots were taken) and poll", flush=True)
    print(f"idle: {requests} clock requests in {idle_seconds:.0f} s from {len(tablets)} tablets, server CPU "
          f"{idle_cpu_s:.2f} s ({idle_rate:.2f} of a core), {idle_bytes / 1000:.1f} KB a tablet a minute", flush=True)

    # A battle table followed by ten tablets of its two factions (its stream, or its version polled): the idle
    # table's CPU, then acts.
    # The app's idle rate over a window as long as the table's (the clock's streams reconnect every 55 s: a
    # shorter window may miss them, and charge the table's streams with the clock's reconnections).
    base = cpu_snapshot(app.proc.pid)
    await asyncio.sleep(args.table_window)
    base_end = cpu_snapshot(app.proc.pid)
    table_idle_rate = (base_end[1] - base[1]) / (base_end[2] - base[2])
    page = table_pages.table_url(table.system, game.pk, table.pk)
    seated = [t for t in tablets if t.faction in table_factions][:args.table_tablets]
    watchers = [TableWatcher(t, page, poll=args.table_poll) for t in seated]
    await asyncio.gather(*(w.open() for w in watchers))
    table_end = time.time() + 3600  # cancelled below
    table_tasks = [asyncio.get_running_loop().create_task(w.follow(table_end)) for w in watchers]
    await asyncio.sleep(2)  # each has polled or connected once in full (its seat checked)
    polls_before, before = sum(w.polls for w in watchers), cpu_snapshot(app.proc.pid)
    connects_before, events_before = sum(w.connects for w in watchers), sum(w.events for w in watchers)
    await asyncio.sleep(args.table_window)
    after = cpu_snapshot(app.proc.pid)
    table_seconds = after[2] - before[2]
    table_polls = sum(w.polls for w in watchers) - polls_before
    table_cpu_ms = max(0.0, (after[1] - before[1]) - table_idle_rate * table_seconds) * 1000
    per_tablet_second = table_cpu_ms / table_seconds / len(watchers)
    streamed = sum(1 for w in watchers if w.stream_url)
    if table_polls:  # polling pages (some or all): per poll made
        table_poll_ms = table_cpu_ms / table_polls
    else:  # pushed: per the poll it replaces (a page polls every TABLE_POLL_S)
        table_poll_ms = per_tablet_second * TABLE_POLL_S
    how = f"{streamed} by the stream, {len(watchers) - streamed} polling" + (
        f" ({sum(1 for w in watchers if w.refused)} refused a stream)" if any(w.refused for w in watchers) else "")
    print(f"table: the app idle at {table_idle_rate * 1000:.1f} ms/s over {base_end[2] - base[2]:.0f} s; "
          f"{len(watchers)} tablets ({how}), {table_polls} version polls, "
          f"{sum(w.connects for w in watchers) - connects_before} stream connections and "
          f"{sum(w.events for w in watchers) - events_before} events in {table_seconds:.0f} s; server CPU "
          f"{table_cpu_ms:.0f} ms = {per_tablet_second:.3f} ms a tablet-second, {table_poll_ms:.3f} ms "
          f"{'a poll' if table_polls else 'a poll replaced'}", flush=True)

    def act():
        with tables.locked(table.pk) as locked:
            tables.record(locked, "note", mod, summary="benchmark")
        locked.refresh_from_db(fields=["version"])
        return locked.version

    table_reach = []
    for n in range(args.table_acts):
        pressed = time.time()
        version = await sync_to_async(act)()
        limit = time.time() + 10
        while time.time() < limit and sum(1 for w in watchers if version in w.seen) < len(watchers):
            await asyncio.sleep(0.02)
        got = [w.seen[version] - pressed for w in watchers if version in w.seen]
        table_reach.append(max(got) if len(got) == len(watchers) else float("inf"))
        print(f"table act {n + 1}: {len(got)}/{len(watchers)} tablets, median {statistics.median(got or [0]):.2f} s, "
              f"last {table_reach[-1]:.2f} s", flush=True)
        await asyncio.sleep(1.3 + 0.37 * n)  # the next act lands elsewhere in the polls' second
    for task in table_tasks:
        task.cancel()
    await asyncio.gather(*table_tasks, return_exceptions=True)

    # Phase changes, pressed by the moderator on the console (over HTTP, as a browser sends it).
    import aiohttp

    reach, cpu_per_tablet = [], []
    async with aiohttp.ClientSession() as mod_http:
        for n in range(1, args.changes + 1):
            phase = await sync_to_async(turns.current_phase)(game)
            for t in tablets:
                t.change_no = n
            start = cpu_snapshot(app.proc.pid)
            pressed = time.time()
            async with mod_http.post(f"{app.base}/g/{game.pk}/control/next", headers={
                    "X-CSRFToken": "x" * 32, "Cookie": f"sessionid={mod_session}; csrftoken={'x' * 32}"}, data={"phase": phase.pk, "skip": "1", "reason": "benchmark"},
                    allow_redirects=False) as resp:
                assert resp.status == 302, (resp.status, (await resp.text())[:500])
            limit = time.time() + 20
            while time.time() < limit and sum(1 for t in tablets if n in t.reached) < len(tablets):
                await asyncio.sleep(0.02)
            done = cpu_snapshot(app.proc.pid)
            got = [t.reached[n] - pressed for t in tablets if n in t.reached]
            last = max(got) if len(got) == len(tablets) else float("inf")
            window = done[2] - start[2]
            cpu = max(0.0, (done[1] - start[1]) - idle_rate * window)
            reach.append(last)
            cpu_per_tablet.append(cpu * 1000 / len(tablets))
            print(f"change {n}: {len(got)}/{len(tablets)} tablets, median {statistics.median(got or [0]):.2f} s, "
                  f"last {last:.2f} s; server CPU {cpu:.2f} s = {cpu_per_tablet[-1]:.1f} ms a tablet", flush=True)
            await asyncio.sleep(3)
    for f in followers:
        f.cancel()
    await asyncio.gather(*followers, return_exceptions=True)
    for t in tablets:
        await t.session.close()

    figures = [
        ("phase change reaches every tablet (worst of the changes)", max(reach), TARGETS["reach_s"], "s"),
        ("server CPU per tablet per change (worst)", max(cpu_per_tablet), TARGETS["cpu_ms_per_tablet"], "ms"),
        ("idle tablet, both ways", idle_bytes / 1000, TARGETS["idle_kb_min"], "KB/min"),
        ("idle clock's server CPU per tablet-second (app, worker, beat)", poll_cpu_ms, TARGETS["poll_cpu_ms"], "ms"),
        (f"a table act reaches its {len(watchers)} tablets (worst)", max(table_reach), TARGETS["table_reach_s"], "s"),
        ("idle table tablet's server CPU per second (2 polls' worth)", per_tablet_second,
         2 * TARGETS["table_poll_cpu_ms"], "ms"),
        ("server CPU of one table version poll" + ("" if table_polls else " (replaced: the stream's share)"),
         table_poll_ms, TARGETS["table_poll_cpu_ms"], "ms"),
    ]
    print(f"{'figure':<58} {'value':>9} {'target':>9} {'ratio':>6}")
    missed = 0
    for name, value, target, unit in figures:
        ratio = value / target
        missed += ratio > 1
        print(f"{name:<58} {value:>7.2f} {unit:<3} {target:>6.1f} {unit:<3} {ratio:>5.2f}{'  MISSED' if ratio > 1 else ''}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(run_main(main))
