"""A table's version, as its pages poll it or follow its stream, answered without sessions or queries.

- The version (and status) is kept in the shared cache, written after each change is committed (`remember`,
  from services.bump and Table's post_save) and read by the poll in the same round trip as the pass.
- The pass: after the full check (session, sign-in, join code, seat: larp.tables.access.seat) let a session
  see a table's version, that session may poll it for PASS_SECONDS without the check. Sign-out removes the
  session's passes; a revoked join code or a player moved off the table loses the version (only a number
  and «playing/finished») at the latest PASS_SECONDS later, and every page and act is checked in full as before.

The stream (`stream`, server-sent events) is let in the same way: by a pass in the fast lane, or by the full
check in the ordinary view, which grants the pass. Its streams in a process share one read of the cached version
a tick (larp.streams).

The fast lane and the pass only with a cache every web process shares (Redis; `enabled`): a per-process cache
could not be told of a change made in another process.
"""
from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse

PASS_SECONDS = 20
VERSION_SECONDS = 120  # a version a lost write left behind lasts at most this long


def _version_key(table_id: int) -> str:
    return f"tablever:v1:{table_id}"


def _pass_key(session_key: str) -> str:
    return "tablepass:v1:" + hashlib.sha256(session_key.encode()).hexdigest()[:32]


def enabled() -> bool:
    """As larp.turns.state_version.enabled(): only with a cache every web process shares, or when forced."""
    forced = getattr(settings, "STATE_CACHE", None)
    if forced is not None:
        return bool(forced)
    return "redis" in settings.CACHES["default"]["BACKEND"].lower()


def answer(request, game_id: int, table_id: int):
    """The poll's answer when this session holds a pass for the table and its version is cached, else None."""
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not session_key or not enabled():
        return None
    keys = [_pass_key(session_key), _version_key(table_id)]
    try:
        found = cache.get_many(keys)
    except Exception:  # noqa: BLE001 - the ordinary way still answers
        return None
    passes, version = found.get(keys[0]) or {}, found.get(keys[1])
    if version is None or passes.get(table_id) != game_id or version[0] != game_id:
        return None
    response = HttpResponse(json.dumps({"version": version[1], "status": version[2]}),
                            content_type="application/json")
    response["Cache-Control"] = "no-store"
    return response


def grant(request, table) -> None:
    """The full check just let this session see the table's version: its pass, and the version cached."""
    if not enabled() or not request.session.session_key:
        return
    key = _pass_key(request.session.session_key)
    try:
        passes = cache.get(key) or {}
        passes[table.pk] = table.game_id
        cache.set(key, passes, PASS_SECONDS)
        # add, not set: a change committed meanwhile has written its own, newer version (`remember`)
        cache.add(_version_key(table.pk), (table.game_id, table.version, table.status), VERSION_SECONDS)
    except Exception:  # noqa: BLE001
        pass


def revoke_session(session_key: str | None) -> None:
    if session_key:
        try:
            cache.delete(_pass_key(session_key))
        except Exception:  # noqa: BLE001
            pass


def remember(table_id: int) -> None:
    """After the change is committed: the table's version as now saved (one query per act, not per poll)."""
    def write():
        from larp.tables.models import Table

        row = Table.objects.filter(pk=table_id).values_list("game_id", "version", "status").first()
        try:
            if row is None:
                cache.delete(_version_key(table_id))
            else:
                cache.set(_version_key(table_id), tuple(row), VERSION_SECONDS)
        except Exception:  # noqa: BLE001 - polls go the ordinary way meanwhile
            try:
                cache.delete(_version_key(table_id))
            except Exception:  # noqa: BLE001
                pass

    if enabled():
        transaction.on_commit(write)


def has_pass(request, game_id: int, table_id: int) -> bool:
    """Whether this session holds a pass for the table (the fast lane may open its stream without the check)."""
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not session_key or not enabled():
        return False
    try:
        passes = cache.get(_pass_key(session_key)) or {}
    except Exception:  # noqa: BLE001 - the ordinary way still answers
        return False
    return passes.get(table_id) == game_id


def current(game_id: int, table_id: int) -> tuple[int, str]:
    """The table's version and status as the shared cache has them; from the database when it has none (the
    cached one expired, or a cache each process has of its own), cached again then."""
    from larp import streams

    found = None
    if enabled():
        try:
            found = cache.get(_version_key(table_id))
        except Exception:  # noqa: BLE001 - the database answers
            found = None
    if found is None:
        from larp.tables.models import Table

        row = Table.objects.filter(pk=table_id).values_list("game_id", "version", "status").first()
        if row is None:
            raise streams.Ended(f"table {table_id} is gone")
        found = tuple(row)
        if enabled():
            try:  # add, not set: a change committed meanwhile has written its own, newer version (`remember`)
                cache.add(_version_key(table_id), found, VERSION_SECONDS)
            except Exception:  # noqa: BLE001
                pass
    if found[0] != game_id:
        raise streams.Ended(f"table {table_id} is not of game {game_id}")
    return found[1], found[2]


def _fresh(game_id: int, table_id: int) -> tuple[str, dict]:
    version, status = current(game_id, table_id)
    return f"{version}:{status}", {"version": version, "status": status}


def stream(game_id: int, table_id: int, seconds: float, tick: float = 0.25, heartbeat: float = 15.0, left=None):
    """Server-sent events of a table's version: {"version", "status"} now, then whenever either changes; a
    heartbeat ({"beat": 1}) when nothing did; the end after `seconds`. The streams of a table in one process
    share one reader (larp.streams): each tick one of them reads the cached version. A stream was let in by
    the seat check or a pass, as a poll is, and lasts `seconds` at most: a player moved off the table or
    signed out is shown the version that much longer at the latest, then its page reconnects through the
    check."""
    from larp import streams

    yield from streams.events(("table", game_id, table_id), lambda: _fresh(game_id, table_id), seconds, tick=tick,
                              heartbeat=heartbeat, event=lambda read: read, beat=lambda: {"beat": 1},
                              what=f"stream of table {table_id}", left=left)


def streamed(request, game_id: int, table_id: int):
    """The response of a table's stream (204 when this web worker has no stream slot free)."""
    from larp import streams

    return streams.respond(lambda: stream(game_id, table_id, settings.CLOCK_STREAM_SECONDS,
                                          left=streams.gone(request)))


def may_stream(request, game_id: int, table_id: int) -> bool:
    """The fast lane's: whether streams are on and this session holds a pass for the table (if not, the ordinary
    view checks the seat in full and grants the pass, or answers 404 when streams are off)."""
    return bool(settings.CLOCK_STREAM and settings.TABLE_STREAM) and has_pass(request, game_id, table_id)
