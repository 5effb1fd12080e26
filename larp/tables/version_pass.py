"""A table's version, as its pages poll it about once a second, answered without sessions or queries.

- The version (and status) is kept in the shared cache, written after each change is committed (`remember`,
  from services.bump and Table's post_save) and read by the poll in the same round trip as the pass.
- The pass: after the full check (session, sign-in, join code, seat: larp.tables.access.seat) let a session
  see a table's version, that session may poll it for PASS_SECONDS without the check. Sign-out removes the
  session's passes; a revoked join code or a player moved off the table loses the version (only a number
  and «playing/finished») at the latest PASS_SECONDS later, and every page and act is checked in full as before.

Only with a cache every web process shares (Redis; `enabled`): a per-process cache
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
