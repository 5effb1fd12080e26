"""Render once, serve many: a faction's board fragment and the map's SVG, kept per game state version
(larp.turns.state_version). At a phase change sixty tablets ask for their boards at once; each faction's
board is rendered by the first of its tablets and the others get the same text.

What differs between two tablets of a faction is put in after the cache: the CSRF token (each browser has
its own) and the form's confirmation key (one per page drawn). Who may see the board was checked before.
"""
from __future__ import annotations

import secrets

from django.core.cache import cache
from django.middleware.csrf import get_token
from django.utils.translation import get_language

from larp.turns import state_version

CSRF_MARK = "CSRF-7f3c9a1e-PLACEHOLDER"
KEY_MARK = "FORMKEY-2b8d4e6f-PLACEHOLDER"
TTL = 10 * 60


def _get(key: str):
    try:
        return cache.get(key)
    except Exception:  # noqa: BLE001 - without the cache everything is rendered, as before
        return None


def _set(key: str, value, ttl: int = TTL) -> None:
    try:
        cache.set(key, value, ttl)
    except Exception:  # noqa: BLE001
        pass


def _once(key: str, make, ttl: int = TTL):
    """The cached value, or made by one request while the others asking for it at the same moment wait for it
    (a phase change brings a faction's five tablets at once: one renders, four wait a few milliseconds)."""
    import time

    found = _get(key)
    if found is not None:
        return found
    try:
        mine = cache.add(f"{key}:making", 1, 10)
    except Exception:  # noqa: BLE001
        mine = True
    if not mine:
        until = time.monotonic() + 3
        while time.monotonic() < until:
            time.sleep(0.015)
            found = _get(key)
            if found is not None:
                return found
    value = make()
    _set(key, value, ttl)
    if mine:
        try:
            cache.delete(f"{key}:making")
        except Exception:  # noqa: BLE001
            pass
    return value


def board(request, game_id: int, faction_code: str, variant: str, render) -> str:
    """The board fragment's HTML for this request: from the cache when this faction's board was rendered for
    the same state (and language, role and whether orders are open: `variant`), else `render(context_extra)`."""
    if not state_version.enabled():
        return render({})
    key = f"board:v1:{game_id}:{faction_code}:{get_language()}:{variant}:{state_version.current(game_id)}"
    html = _once(key, lambda: render({"csrf_token": CSRF_MARK, "form_key": KEY_MARK}))
    return personalise(request, html)


def personalise(request, html: str) -> str:
    return html.replace(CSRF_MARK, get_token(request)).replace(KEY_MARK, secrets.token_urlsafe(16))


def map_context(game, focus_code: str, compute) -> dict:
    """The map's data and version for this state (computing them is most of a map request's cost)."""
    if not state_version.enabled():
        return compute()
    key = f"mapctx:v1:{game.pk}:{focus_code}:{get_language()}:{state_version.current(game.pk)}"
    return _once(key, compute)


def svg(game_id: int, focus_code: str, version: str):
    """The map's SVG of exactly this version, if rendered before (an SVG named by its version never changes)."""
    if not state_version.enabled() or not version:
        return None
    return _get(f"mapsvg:v1:{game_id}:{focus_code}:{get_language()}:{version}")


def keep_svg(game_id: int, focus_code: str, version: str, content: bytes) -> None:
    if state_version.enabled() and version:
        _set(f"mapsvg:v1:{game_id}:{focus_code}:{get_language()}:{version}", content, 60 * 60)
