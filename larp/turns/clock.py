"""The clock that tablets and the projector poll every second: cheap, cached, server time.

The cached part (phase, turn, deadline) changes only when a moderator acts or
a phase closes, and is invalidated then; the seconds left are computed per
request from the server's clock. A cache that is down (Redis stopped) only
costs a database query: the clock keeps answering.

With a shared cache (Redis), each web process also keeps what it read for
LOCAL_TTL seconds, so most polls touch neither Redis nor the database (sixty
tablets poll every second). A change made in another process shows there at
most LOCAL_TTL later; the seconds left never go stale (computed per request),
and a deadline that looks passed is always checked against the database
before closing. A per-process cache (locmem, when there is no Redis) cannot
be invalidated from other processes, so entries live only a second there.
"""
from __future__ import annotations

import logging
import math
import secrets
import time
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from larp import streams

log = logging.getLogger(__name__)
TTL = 30  # seconds; changes invalidate it at once, this only bounds a missed invalidation
LOCAL_TTL = 0.5  # seconds a web process reuses what it read (see the module's docstring)
UNSHARED_TTL = 1  # seconds, when the cache is each process's own
GENERATION_TTL = 24 * 60 * 60  # a generation lost (evicted) only makes the next poll read the database
_local: dict[int, tuple[float, dict]] = {}


def _shared() -> bool:
    return "redis" in settings.CACHES["default"]["BACKEND"].lower()


def _key(game_id: int) -> str:
    return f"clock:v2:{game_id}"


def _generation_key(game_id: int) -> str:
    return f"clock:gen:v1:{game_id}"


def invalidate(game_id: int) -> None:
    """What any process kept of this game's clock no longer holds. A new generation, not only a deletion: a poll
    that read the database before the change and writes its copy after this (its read raced the change's
    commit) wrote it under the generation it saw before reading, so nobody takes it (`state`). Deleting alone
    left such a copy, the phase before the change, served to every tablet for TTL seconds."""
    _local.pop(game_id, None)
    try:
        cache.set(_generation_key(game_id), secrets.token_hex(6), GENERATION_TTL)
        cache.delete(_key(game_id))
    except Exception:  # noqa: BLE001
        log.warning("cache unavailable; clock of game %s expires by TTL", game_id)


def invalidate_on_commit(game_id: int) -> None:
    """Drop the cached clock now and again after commit (a poll between the two re-caches old data)."""
    invalidate(game_id)
    transaction.on_commit(lambda: invalidate(game_id))


def _from_db(game_id: int) -> dict:
    from larp.turns.models import TurnSettings

    ts = TurnSettings.objects.filter(game_id=game_id).select_related("current_phase__turn").first()
    phase = ts.current_phase if ts else None
    if phase is None:
        return {"turn": None, "phase": None, "state": "not_started", "deadline": None, "paused_remaining": None,
                "draw": list(ts.draw) if ts else []}
    return {
        "turn": phase.turn.number, "phase": phase.kind, "state": phase.state, "phase_id": phase.pk,
        "deadline": phase.deadline.timestamp() if phase.deadline else None,
        "paused_remaining": phase.paused_remaining, "draw": list(ts.draw),
    }


def state(game_id: int, fresh: bool = False) -> dict:
    """The game's clock as the shared cache (or the database) has it; this process's own copy of the last
    LOCAL_TTL seconds unless `fresh` (which a faction's board asks: the copy may predate a change another
    process made, and a board of the wrong clock is drawn again for nothing)."""
    now, shared = time.monotonic(), _shared()
    local = _local.get(game_id) if shared and not fresh else None
    if local is not None and now - local[0] < LOCAL_TTL:
        return local[1]
    key, generation_key = _key(game_id), _generation_key(game_id)
    try:
        found = cache.get_many([key, generation_key])  # one round trip
    except Exception:  # noqa: BLE001
        found = {}
    generation = found.get(generation_key)
    kept = found.get(key)
    cached = kept["clock"] if isinstance(kept, dict) and kept.get("generation") == generation \
        and "clock" in kept else None
    if cached is None:
        cached = _from_db(game_id)  # read after the generation: a change committed meanwhile makes it a new one
        try:
            cache.set(key, {"clock": cached, "generation": generation}, TTL if shared else UNSHARED_TTL)
        except Exception:  # noqa: BLE001
            pass
    if shared:
        if len(_local) > 1000:
            _local.clear()
        _local[game_id] = (now, cached)
    return cached


def payload(game_id: int, now: datetime | None = None, fresh: bool = False) -> dict:
    """What a tablet shows: phase, turn, server time, deadline, seconds left (negative: overtime), paused."""
    now = now or timezone.now()
    data = state(game_id, fresh)
    if data["phase"] == "strategy" and data["state"] == "running" and data["deadline"] is not None \
            and data["deadline"] + _closing_delay_seconds() <= now.timestamp():
        # The hard deadline, its grace and the settle passed: the first request that notices closes the phase
        # (no worker needed). Players are shown the deadline itself: the grace is for presses on their way.
        from larp.turns.services import close_due

        close_due(game_id, how="request")
        invalidate(game_id)
        data = state(game_id)
    remaining = None
    if data["state"] == "running" and data["deadline"] is not None:
        remaining = data["deadline"] - now.timestamp()
    elif data["state"] == "paused":
        remaining = data["paused_remaining"]
    return {
        "turn": data["turn"], "phase": data["phase"], "state": data["state"],
        "server_time": now.timestamp(), "deadline": data["deadline"],
        "remaining": None if remaining is None else round(remaining, 3),
        "paused": data["state"] == "paused", "draw": data.get("draw", []),
    }


def _feed(game_id: int):
    """The game's clock as this process's open streams share it (larp.streams.Feed)."""
    return streams.feed(("clock", game_id))


def _read(game_id: int, feed, tick: float) -> None:
    """At most once a tick per process: the clock from the shared cache; the streams are woken if it changed."""
    streams.read(feed, tick, lambda: _fresh(game_id))


def _fresh(game_id: int) -> tuple[str, dict]:
    _local.pop(game_id, None)  # the shared cache itself, not this process's half-second copy
    current = payload(game_id)
    return etag(current), current


def _as_of_now(read: dict) -> dict:
    """A clock read a moment (or long) ago, with the server's time and the seconds left as of now."""
    now = time.time()
    out = dict(read, server_time=now)
    if read.get("state") == "running" and read.get("deadline") is not None:
        out["remaining"] = round(read["deadline"] - now, 3)
    return out


def stream(game_id: int, seconds: float, tick: float = 0.25, heartbeat: float = 15.0, left=None):
    """Server-sent events of the clock: the payload now, then whenever its tag changes; a heartbeat with the
    server's time when nothing did. The streams of a game in one process share one reader (larp.streams): each
    tick one of them reads the cached clock and wakes the others when it changed, so sixty open streams cost
    about what one does, and a change shows within a tick."""
    yield from streams.events(("clock", game_id), lambda: _fresh(game_id), seconds, tick=tick, heartbeat=heartbeat,
                              event=_as_of_now, beat=lambda: {"server_time": time.time(), "beat": 1},
                              what=f"clock stream of game {game_id}", left=left)


def etag(payload: dict) -> str:
    """The clock's entity tag: what a tablet shows apart from the seconds ticking (it counts those itself)."""
    import hashlib
    import json

    kept = {k: payload.get(k) for k in ("turn", "phase", "state", "deadline", "paused", "draw")}
    kept["remaining"] = payload.get("remaining") if payload.get("state") == "paused" else None
    return '"' + hashlib.sha1(json.dumps(kept, sort_keys=True).encode()).hexdigest()[:16] + '"'


def _closing_delay_seconds() -> float:
    from larp.turns.selectors import closing_delay

    return closing_delay().total_seconds()


def clock_face(payload: dict) -> dict:
    """What the clock shows before the script's first tick: time text, note, css class (same rules as tablet.js);
    for the tablets, the console and the projector alike."""
    from larp.turns.models import Phase

    phase, state, left = payload.get("phase"), payload.get("state"), payload.get("remaining")
    if left is None:
        text = "00:00" if phase == Phase.STRATEGY and state == Phase.CLOSED else "--:--"
    else:
        shown = max(0.0, left) if phase == Phase.STRATEGY else left
        s = math.ceil(abs(shown)) if shown >= 0 else math.floor(abs(shown))
        text = ("+" if shown < 0 else "") + f"{s // 60:02d}:{s % 60:02d}"
    if not phase:
        note, css = "", "closed"  # the clock's phase line says the game has not started: once
    elif state == Phase.CLOSED:
        note = _("The Strategy phase is closed: orders are not accepted.") if phase == Phase.STRATEGY \
            else _("The phase is closed; wait for the moderators.")
        css = "closed"
    elif state == Phase.PAUSED:
        note, css = _("Paused by the moderators: the clock is stopped."), "paused"
    elif phase == Phase.STRATEGY:
        if left is not None and left <= 0:
            note, css = _("Time is up: orders are no longer accepted."), "over"
        else:
            note, css = _("File your orders before the clock runs out."), "urgent" if left is not None and left <= 30 else ""
    else:
        note, css = _("Orders open again in the next Strategy phase."), "over" if left is not None and left < 0 else ""
    from django.conf import settings

    return {"time": text, "note": note, "css": css, "stream": settings.CLOCK_STREAM}
