"""Render once, serve many: a faction's board fragment and the map's SVG, kept per game state version
(larp.turns.state_version). At a phase change sixty tablets ask for their boards at once; each faction's
board is rendered by the first of its tablets and the others get the same text.

What differs between two tablets of a faction is put in after the cache: the CSRF token (each browser has
its own) and the form's confirmation key (one per page drawn). Who may see the board was checked before.
"""
from __future__ import annotations

import gzip
import secrets

from django.core.cache import cache
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language

from larp.turns import state_version

CSRF_MARK = "CSRF-7f3c9a1e-PLACEHOLDER"
KEY_MARK = "FORMKEY-2b8d4e6f-PLACEHOLDER"
FOCUS_MARK = "FOCUS-5e1a7c3d-PLACEHOLDER"
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


def svg(game_id: int, focus_code: str, version: str) -> bytes | None:
    """The map's SVG of exactly this version, gzipped, if made before (an SVG named by its version never
    changes)."""
    if not state_version.enabled() or not version:
        return None
    return _get(f"mapsvg:v2:{game_id}:{focus_code}:{get_language()}:{version}")


def keep_svg(game_id: int, focus_code: str, version: str, content: str) -> bytes:
    """The SVG gzipped once for all the tablets that will ask for it (kept when the cache is shared)."""
    packed = gzip.compress(content.encode(), compresslevel=6, mtime=0)
    if state_version.enabled() and version:
        _set(f"mapsvg:v2:{game_id}:{focus_code}:{get_language()}:{version}", packed, 60 * 60)
    return packed


def faction_svg(game_id: int, shared_version: str, render_shared, focus_code: str, box: str) -> str:
    """One faction's map SVG made from the drawing all factions share (rendered once per state and language,
    with FOCUS_MARK where the corner goes): its corner put in, its own flags marked."""
    if state_version.enabled():
        shared = _once(f"mapsvgall:v1:{game_id}:{get_language()}:{shared_version}", render_shared, 60 * 60)
    else:
        shared = render_shared()
    text = shared.replace(f'data-focus="{FOCUS_MARK}"', f'data-focus="{box}"' if box else "")
    if focus_code:
        text = text.replace(f'class="flag" data-faction="{focus_code}"', f'class="flag own" data-faction="{focus_code}"')
    return text


def gzipped(request, packed: bytes) -> HttpResponse:
    """The kept SVG as it is, gzipped, to a browser that takes gzip (every one); unpacked for any other."""
    if "gzip" in request.META.get("HTTP_ACCEPT_ENCODING", "").lower():
        response = HttpResponse(packed, content_type="text/html; charset=utf-8")
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(gzip.decompress(packed), content_type="text/html; charset=utf-8")
    patch_vary_headers(response, ("Accept-Encoding",))
    return response
