"""Tablets as asyncio tasks (aiohttp): sign in by join code, poll the clock, file and re-file orders.

Every loop is bounded by a wall-clock end and a request budget, and stops by
itself. Only http://127.0.0.1:<port> is ever contacted.
"""
from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from dataclasses import dataclass, field

import aiohttp

TIMEOUT = aiohttp.ClientTimeout(total=15)


@dataclass
class Sample:
    endpoint: str          # clock | order | withdraw | orders_list | healthz | join
    started: float         # time.time() when sent
    latency: float         # seconds
    status: int            # HTTP status, 0 for a client-side failure (timeout, connection)
    window: str = ""       # steady | burst | late (orders: relative to the deadline)
    expected: bool = True  # a status the scenario expects (200, 409 after the deadline, 422 for illegal orders)
    detail: dict = field(default_factory=dict)


def sent_in_time(sent_at: float, deadline: float) -> bool:
    """Did the player press while their clock still showed time left? Then the order must be saved.

    The one notion of "in time" for the whole check: the moment the press left
    the tablet, against the deadline itself. When the answer arrives does not
    matter (a press sent 4 s before the deadline and answered after it was
    still made in time). The server may accept more (a grace period after the
    deadline): that can only turn refusals into saves, never excuse a refusal
    of a press sent in time.
    """
    return sent_at < deadline


def may_be_saved(sent_at: float, deadline: float, grace: float) -> bool:
    """A press the server is allowed to save: sent before the deadline plus its grace period (0: none)."""
    return sent_at < deadline + grace


class Recorder:
    def __init__(self, budget: int):
        self.samples: list[Sample] = []
        self.budget = budget

    def exhausted(self) -> bool:
        return len(self.samples) >= self.budget


def _assert_loopback(base: str) -> None:
    if not base.startswith(("http://127.0.0.1:", "http://localhost:")):
        raise ValueError(f"load is only ever sent to loopback, not {base}")


async def _request(session, rec: Recorder, method: str, url: str, endpoint: str, **kw) -> tuple[int, dict | None, Sample]:
    t0, wall = time.perf_counter(), time.time()
    status, body = 0, None
    try:
        async with session.request(method, url, allow_redirects=False, **kw) as resp:
            status = resp.status
            raw = await resp.read()
            if resp.content_type == "application/json":
                body = json.loads(raw)
    except (TimeoutError, aiohttp.ClientError) as exc:
        body = {"client_error": type(exc).__name__}
    sample = Sample(endpoint, wall, time.perf_counter() - t0, status, expected=status == 200)  # callers refine
    if status == 0:
        sample.detail = {"client_error": body["client_error"]}
    rec.samples.append(sample)
    return status, body, sample


class TabletClient:
    def __init__(self, base: str, tablet, variants: dict, illegal: dict, rec: Recorder, rng: random.Random,
                 grace: float = 0.0):
        _assert_loopback(base)
        self.base, self.t, self.variants, self.illegal, self.rec, self.rng = base, tablet, variants, illegal, rec, rng
        self.grace = grace  # seconds after the deadline the server may still save a press (0: none)
        self.session: aiohttp.ClientSession | None = None
        self.csrf = ""
        self.unknown: list[dict] = []  # order requests whose outcome the client never learned

    async def open(self) -> None:
        # unsafe=True: aiohttp keeps no cookies for bare IP addresses otherwise.
        # keepalive_timeout below gunicorn's 2 s: like a browser, never send on a connection the server
        # may be closing (else a POST can fail on a stale connection with no answer, through no fault of the app).
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True), timeout=TIMEOUT,
                                             connector=aiohttp.TCPConnector(limit=2, keepalive_timeout=1.5))
        status, _body, _s = await _request(self.session, self.rec, "GET", self.base + self.t.join_path, "join")
        if status != 302:
            raise RuntimeError(f"{self.t.username}: join code refused ({status})")
        # The faction page sets the CSRF cookie, as it does on a real tablet.
        page = f"{self.base}/g/{self.t.game_id}/f/{self.t.faction}/"
        status, _body, _s = await _request(self.session, self.rec, "GET", page, "faction_page")
        if status != 200:
            raise RuntimeError(f"{self.t.username}: faction page {status}")
        cookie = self.session.cookie_jar.filter_cookies(self.base).get("csrftoken")
        if cookie is None:
            raise RuntimeError(f"{self.t.username}: no CSRF cookie")
        self.csrf = cookie.value

    async def close(self) -> None:
        if self.session is not None:
            await self.session.close()

    # --- what a player does --------------------------------------------------------------------

    async def poll_clock(self, end: float) -> None:
        await asyncio.sleep(self.rng.random())
        url = f"{self.base}/g/{self.t.game_id}/clock"
        while time.time() < end and not self.rec.exhausted():
            t0 = time.time()
            await _request(self.session, self.rec, "GET", url, "clock")
            await asyncio.sleep(max(0.0, 1.0 - (time.time() - t0)))

    def _window(self, deadline: float, at: float) -> str:
        if at >= deadline:
            return "late"
        return "burst" if at >= deadline - 10 else "steady"

    async def file(self, deadline: float, *, illegal: bool = False) -> None:
        unit = self.rng.choice(self.t.units)
        payload = self.illegal[unit] if illegal else self.rng.choice(self.variants[unit])
        url = f"{self.base}/g/{self.t.game_id}/units/{unit}/order"
        # Each press carries its own confirmation key, as the tablet's page sends one: the history
        # (OrderEvent.key) then says for certain whether a press whose answer never came was saved.
        key = secrets.token_urlsafe(12)
        status, body, sample = await _request(
            self.session, self.rec, "POST", url, "order", data=json.dumps({**payload, "key": key}),
            headers={"Content-Type": "application/json", "X-CSRFToken": self.csrf})
        sample.window = self._window(deadline, sample.started)
        in_time = sent_in_time(sample.started, deadline)
        sample.detail = {**sample.detail, "unit": unit, "payload": payload, "user": self.t.username,
                         "game": self.t.game_id, "key": key, "sent_at": sample.started, "in_time": in_time,
                         "latency": sample.latency,
                         "ok": bool(body and body.get("ok")), "filed_at": (body or {}).get("filed_at"),
                         "code": (body or {}).get("code"), "illegal": illegal, "status": status}
        if status == 200:
            sample.expected = not illegal and may_be_saved(sample.started, deadline, self.grace)
        elif status == 409:
            # Refused as late: right only for a press sent after the deadline. One sent before it and
            # refused (because it arrived after it) is an order the player lost (verify.py counts it).
            sample.expected = not in_time
        elif status == 422:
            sample.expected = illegal
        else:
            sample.expected = False
        if status == 0 or status >= 500:
            self.unknown.append(sample.detail)  # saved or not: verify.py looks the key up in the history

    async def withdraw(self, deadline: float) -> None:
        unit = self.rng.choice(self.t.units)
        url = f"{self.base}/g/{self.t.game_id}/units/{unit}/withdraw"
        status, body, sample = await _request(self.session, self.rec, "POST", url, "withdraw",
                                              headers={"X-CSRFToken": self.csrf})
        sample.window = self._window(deadline, sample.started)
        in_time = sent_in_time(sample.started, deadline)
        sample.detail = {**sample.detail, "unit": unit, "user": self.t.username, "game": self.t.game_id,
                         "sent_at": sample.started, "in_time": in_time, "status": status,
                         "ok": bool(body and body.get("ok")), "withdrawn": (body or {}).get("withdrawn")}
        sample.expected = (status == 200 and may_be_saved(sample.started, deadline, self.grace)) or (
            status == 409 and not in_time)
        if status == 0 or status >= 500:
            self.unknown.append(sample.detail)

    async def read_orders(self) -> None:
        url = f"{self.base}/g/{self.t.game_id}/factions/{self.t.faction}/orders"
        status, _body, sample = await _request(self.session, self.rec, "GET", url, "orders_list")
        sample.expected = status == 200

    async def play(self, deadline: float, stop_after: float, think: tuple[float, float],
                   burst_think: tuple[float, float], stampede_seconds: float = 1.0) -> None:
        """Steady filing with think time; faster in the last 10 s; one press in the last second(s); a few late."""
        await asyncio.sleep(self.rng.uniform(0, think[1]))
        stampede_at = deadline - self.rng.uniform(0.05, stampede_seconds)
        pressed_stampede = False
        while time.time() < stop_after and not self.rec.exhausted():
            now = time.time()
            if not pressed_stampede and now >= stampede_at - 0.01:
                pressed_stampede = True
                await self.file(deadline)
                continue
            roll = self.rng.random()
            if now >= deadline:
                await self.file(deadline)  # too late: must be refused (409) and not saved
            elif roll < 0.03:
                await self.withdraw(deadline)
            elif roll < 0.06:
                await self.file(deadline, illegal=True)
            else:
                await self.file(deadline)
                if self.rng.random() < 0.15:
                    await self.read_orders()
            lo, hi = burst_think if time.time() >= deadline - 10 else think
            pause = self.rng.uniform(lo, hi)
            if not pressed_stampede:
                pause = min(pause, max(0.0, stampede_at - time.time()))
            await asyncio.sleep(pause)


async def closed_loop(base: str, path: str, endpoint: str, concurrency: int, seconds: float,
                      rec: Recorder) -> float:
    """Requests back to back from `concurrency` connections for `seconds`; returns completed requests per second."""
    _assert_loopback(base)
    done = 0
    end = time.monotonic() + seconds
    async with aiohttp.ClientSession(timeout=TIMEOUT, connector=aiohttp.TCPConnector(limit=concurrency)) as s:
        async def one():
            nonlocal done
            while time.monotonic() < end and not rec.exhausted():
                status, _b, sample = await _request(s, rec, "GET", base + path, endpoint)
                sample.expected = status == 200
                done += status == 200
        t0 = time.monotonic()
        await asyncio.gather(*(one() for _ in range(concurrency)))
        return done / (time.monotonic() - t0)
