"""A game's state version: one number that changes whenever anything a tablet's board or the map shows may
have changed, so what is rendered for it can be rendered once and served to many (issue 36: sixty tablets
fetch their boards and the map together at a phase change).

Bumped after commit by any save or delete of a row that belongs to a game (it has a `game_id`, or is a
phase, a «ready» mark): orders and their history, units, provinces, turns, phases, audit entries (every
moderator act writes one), spy reports. Kept in the shared cache (Redis); when the cache is each process's
own (no Redis), nothing is cached by version at all (`enabled()`), since another process could not tell
this one that the state changed.
"""
from __future__ import annotations

import logging
import secrets

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save

log = logging.getLogger(__name__)
APPS = {"campaign", "forces", "orders", "turns", "battles", "tablet"}
TTL = 24 * 60 * 60


def enabled() -> bool:
    """Render once, serve many: only with a cache every web process shares (or when settings force it)."""
    forced = getattr(settings, "STATE_CACHE", None)
    if forced is not None:
        return bool(forced)
    return "redis" in settings.CACHES["default"]["BACKEND"].lower()


def _key(game_id: int) -> str:
    return f"state:v1:{game_id}"


def current(game_id: int) -> str:
    """The game's state version now (a fresh random one after the cache lost it: everything renders anew)."""
    try:
        value = cache.get(_key(game_id))
        if value is None:
            value = secrets.token_hex(6)
            if not cache.add(_key(game_id), value, TTL):
                value = cache.get(_key(game_id)) or value
        return str(value)
    except Exception:  # noqa: BLE001 - without the cache nothing is shared: a version nobody has
        return secrets.token_hex(6)


def bump(game_id: int) -> None:
    try:
        cache.set(_key(game_id), secrets.token_hex(6), TTL)
    except Exception:  # noqa: BLE001
        log.warning("cache unavailable: the state version of game %s is not bumped", game_id)


def _game_of(instance) -> int | None:
    game_id = getattr(instance, "game_id", None)
    if game_id is not None:
        return game_id
    label = instance._meta.label_lower
    if label == "turns.phase":
        return instance.turn.game_id if instance.turn_id else None
    if label == "turns.readymark":
        return instance.faction.game_id if instance.faction_id else None
    return None


def _changed(sender, instance, **kwargs) -> None:
    if sender._meta.app_label not in APPS:
        return
    try:
        game_id = _game_of(instance)
    except Exception:  # noqa: BLE001 - a row whose game cannot be read changes no board
        return
    if game_id is None:
        return
    connection = transaction.get_connection()
    if connection.in_atomic_block:
        # One bump per transaction, however many of the game's rows it saves (a phase change saves hundreds,
        # and every bump made the tablets asking meanwhile render their boards anew): already registered in
        # this block or one enclosing it, the after-commit bump covers this row too.
        active = set(connection.savepoint_ids)
        if any(getattr(func, "state_version_of", None) == game_id and sids <= active
               for sids, func, *_rest in connection.run_on_commit):
            return
    bump(game_id)  # at once, and again after commit: a render in between is of the old state, and its

    def after_commit():  # version is replaced when the new state is visible
        bump(game_id)

    after_commit.state_version_of = game_id
    transaction.on_commit(after_commit)


def connect() -> None:
    post_save.connect(_changed, dispatch_uid="state-version-save")
    post_delete.connect(_changed, dispatch_uid="state-version-delete")
