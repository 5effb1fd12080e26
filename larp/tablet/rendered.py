"""Render once, serve many: a faction's board fragment and the map's SVG, kept per game state version
(larp.turns.state_version). At a phase change sixty tablets ask for their boards at once; each faction's
board is rendered by the first of its tablets and the others get the same text.

What differs between two tablets of a faction is put in after the cache: the CSRF token (each browser has
its own) and the form's confirmation key (one per page drawn). Who may see the board was checked before.
"""
from __future__ import annotations

import gzip
import secrets
import threading
import time

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


class _Wait:
    def __init__(self):
        self.done = threading.Event()
        self.value = None


_waits: dict[str, _Wait] = {}
_waits_lock = threading.Lock()


def _wait_for(key: str, seconds: float = 3):
    """The value another request is making, once it is kept (None after `seconds`). One thread of this process
    asks the cache for it; the others asking meanwhile wait for that one (at a phase change a process holds
    several of a faction's tablets; each asking Redis every few milliseconds cost more than the wait)."""
    with _waits_lock:
        wait = _waits.get(key)
        mine = wait is None
        if mine:
            wait = _waits[key] = _Wait()
    if not mine:
        wait.done.wait(seconds)
        return wait.value
    try:
        until = time.monotonic() + seconds
        redis, done = _redis_and_key(f"{key}:done")
        while wait.value is None and not wait.done.is_set() and time.monotonic() < until:
            wait.value = _get(key)
            if wait.value is not None:
                break
            if redis is None:  # a cache without blocking reads (tests' local memory): asked every few ms
                wait.done.wait(0.015)  # or made in this process meanwhile: `_made` handed it over
                continue
            try:  # blocked in Redis until the maker says it is kept (`_announce`), not asking every few ms
                if redis.blpop([done], timeout=BLOCK_SECONDS):
                    redis.rpush(done, 1)  # and the next process's waiter is woken in turn
            except Exception:  # noqa: BLE001
                time.sleep(0.015)
    finally:
        with _waits_lock:
            _waits.pop(key, None)
        wait.done.set()
    return wait.value


BLOCK_SECONDS = 0.3  # under the cache's socket timeout (larp/settings.py: 0.5 s)


def _redis_and_key(key: str):
    """(the Redis client of the shared cache, `key` as it names it there), or (None, None) for another cache."""
    try:
        full = cache.make_and_validate_key(key)
        return cache._cache.get_client(full, write=True), full
    except Exception:  # noqa: BLE001 - not Django's Redis cache
        return None, None


def _announce(key: str) -> None:
    """The value of `key` is kept: the requests of other processes blocked waiting for it (`_wait_for`) wake."""
    redis, done = _redis_and_key(f"{key}:done")
    if redis is not None:
        try:
            redis.rpush(done, 1)
            redis.expire(done, 10)
        except Exception:  # noqa: BLE001 - they find it at their next look, within BLOCK_SECONDS
            pass


def _made(key: str, value) -> None:
    """Hand a value just made to the requests of this process waiting for it."""
    with _waits_lock:
        wait = _waits.get(key)
    if wait is not None:
        wait.value = value
        wait.done.set()


def _once(key: str, make, ttl: int = TTL):
    """The cached value, or made by one request while the others asking for it at the same moment wait for it
    (a phase change brings a faction's five tablets at once: one renders, four wait a few milliseconds)."""
    found = _get(key)
    if found is not None:
        return found
    try:
        mine = cache.add(f"{key}:making", 1, 10)
    except Exception:  # noqa: BLE001
        mine = True
    if not mine:
        found = _wait_for(key)
        if found is not None:
            return found
    value = make()
    _keep(key, value, ttl, marked=mine)  # made after waiting in vain: the mark is left to whoever holds it
    return value


def _keep(key: str, value, ttl: int = TTL, marked: bool = True) -> None:
    """A value made: kept, handed to those of this process waiting for it, the others woken, and the mark this
    request holds (`cache.add(key + ":making")`, when `marked`) dropped."""
    _set(key, value, ttl)
    _made(key, value)
    _announce(key)
    if marked:
        try:
            cache.delete(f"{key}:making")
        except Exception:  # noqa: BLE001
            pass


def _kept_or_coming(key: str):
    """The value kept under `key`; or, while another request is making it, that value once made; else None."""
    try:
        found = cache.get_many([key, f"{key}:making"])
    except Exception:  # noqa: BLE001
        return None
    if key in found:
        return found[key]
    return _wait_for(key) if f"{key}:making" in found else None


def board(request, game_id: int, faction_code: str, variant: str, render) -> str:
    """The board fragment's HTML for this request: from the cache when this faction's board was rendered for
    the same state (and language, role and whether orders are open: `variant`), else `render(context_extra)`."""
    if not state_version.enabled():
        return render({})
    version = state_version.current(game_id)
    html = _once(board_key(game_id, faction_code, variant, version), lambda: _drawn(game_id, version, render))
    return personalise(request, html)


def _drawn(game_id: int, version: str, render) -> str:
    """A board as every tablet of its faction gets it (CSRF_MARK and KEY_MARK in place of what differs per
    browser), drawn with what boards of the same state share (`shared`)."""
    _scope.game_id, _scope.version = game_id, version
    try:
        return render({"csrf_token": CSRF_MARK, "form_key": KEY_MARK})
    finally:
        _scope.game_id = _scope.version = None


def mark_boards(game_id: int, variant: str, version: str, codes) -> list[str]:
    """Mark the boards of these factions of one state as being drawn, before their tablets ask: those asking then
    wait for them (`_kept_or_coming`, `_once`) instead of drawing them too (larp.tablet.warm). Returns the codes
    marked here: not those kept already or marked by another request."""
    mine = []
    try:
        for code in codes:
            key = board_key(game_id, code, variant, version)
            if _get(key) is None and cache.add(f"{key}:making", 1, 10):
                mine.append(code)
    except Exception:  # noqa: BLE001 - without the cache each tablet draws its own, as before
        unmark_boards(game_id, variant, version, mine)
        return []
    return mine


def unmark_boards(game_id: int, variant: str, version: str, codes) -> None:
    """Marks dropped for boards that will not be drawn: their tablets draw them at once, not after waiting."""
    for code in codes:
        try:
            cache.delete(f"{board_key(game_id, code, variant, version)}:making")
        except Exception:  # noqa: BLE001 - the mark lapses within seconds
            pass


def draw_marked(game_id: int, variant: str, version: str, renders: dict) -> int:
    """Draw the boards `mark_boards` marked (`renders`: faction code -> render(context_extra)), one after
    another, each kept as soon as drawn; any not drawn (an error) unmarked. Returns how many were drawn."""
    left = list(renders)
    try:
        for code in list(left):
            _keep(board_key(game_id, code, variant, version), _drawn(game_id, version, renders[code]))
            left.remove(code)
    finally:
        unmark_boards(game_id, variant, version, left)
    return len(renders) - len(left)


_scope = threading.local()  # the game and state version whose board this thread renders now
_shared: dict = {}  # game id -> (state version, {(language, name): value}): one version a game is kept
_shared_lock = threading.Lock()


def sharing(game_id: int) -> bool:
    """Whether a board of this game is being rendered for a state version in this thread (`shared` keeps)."""
    return getattr(_scope, "version", None) is not None and _scope.game_id == game_id


def shared(game_id: int, name: str, compute):
    """While a board of this game is rendered for a state version: what every faction's board of that state
    reads alike (the places' names, the current phase, every faction's stacks and orders), computed once in
    this process instead of once per faction. Outside such a render: `compute()`. Read only: one object serves
    every board. Only the latest version rendered is kept (a new one replaces the game's entries)."""
    if not sharing(game_id):
        return compute()
    version, key = _scope.version, (get_language(), name)
    with _shared_lock:
        kept = _shared.get(game_id)
        if kept is None or kept[0] != version:
            kept = _shared[game_id] = (version, {})
        found = kept[1].get(key)
    if found is None:
        found = compute()
        with _shared_lock:
            kept[1][key] = found
    return found


def board_key(game_id: int, faction_code: str, variant: str, version: str) -> str:
    return f"board:v1:{game_id}:{faction_code}:{get_language()}:{variant}:{version}"


def kept(key: str) -> str | None:
    """The board rendered under this key (`board_key`), if it was or is being rendered now (larp.tablet.board_pass
    serves it)."""
    return _kept_or_coming(key)


def personalise(request, html: str) -> str:
    return fill(html, get_token(request))


def fill(html: str, csrf_token: str) -> str:
    """The kept board made this browser's: its CSRF token and a new form key."""
    return html.replace(CSRF_MARK, csrf_token).replace(KEY_MARK, secrets.token_urlsafe(16))


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
    return _get(svg_key(game_id, focus_code, get_language(), version))


def svg_key(game_id: int, focus_code: str, language: str, version: str) -> str:
    return f"mapsvg:v2:{game_id}:{focus_code}:{language}:{version}"


def keep_svg(game_id: int, focus_code: str, version: str, make) -> bytes:
    """The SVG `make()` gives, gzipped once for all the tablets that will ask for it (kept when the cache is
    shared; the tablets asking while it is made wait for it)."""
    def packed() -> bytes:
        return gzip.compress(make().encode(), compresslevel=6, mtime=0)

    if state_version.enabled() and version:
        return _once(svg_key(game_id, focus_code, get_language(), version), packed, 60 * 60)
    return packed()


def kept_svg(game_id: int, focus_code: str, language: str, version: str) -> bytes | None:
    """The SVG of this version kept gzipped, or being made now (larp.tablet.board_pass serves it)."""
    return _kept_or_coming(svg_key(game_id, focus_code, language, version))


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
