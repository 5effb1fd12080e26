"""A faction's board and the map's SVG, as a tablet asks for them at a phase change, answered without the
middleware's whole path when they are already rendered for this state (issue 36).

At a phase change sixty tablets ask for their board and, when the map changed, its SVG. Both are rendered once
per state and kept (larp.tablet.rendered); what each tablet's request still cost was Django's way to the view:
the session, the user's row, the join code, the faction and the role. Here, after the full check of a session
(`grant`, from the views), that session holds a pass naming its user, its join code and the boards it may see;
`answer` (larp.fastlane) serves the kept board or SVG to it in a few cache round trips, and checks again, each
time, everything that can take the right away:
- the session still exists (sign-out, a flushed or expired session remove it from the cache) for the same
  user, signed in by the same join code, with the same password hash; sign-out also removes the pass;
- the join code still works (its cached check, which every revocation forgets at once; looked up in the
  database when not cached: larp.tablet.middleware._works);
- the game's memberships and the user's row are as they were when the pass was granted (a version of each,
  bumped after any of them is saved or deleted: a player moved, removed, made moderator, deactivated).
A pass lasts PASS_SECONDS at most; anything not kept, or any doubt, goes the ordinary way.

Only with a cache every web process shares (Redis) and sessions kept in it (larp.sessions), as on a game night.
"""
from __future__ import annotations

import hashlib
import re
import secrets

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.utils import translation
from django.utils.cache import add_never_cache_headers, patch_vary_headers

from larp.turns import state_version

PASS_SECONDS = 60 * 60  # every right is checked live (above); this only bounds what a lost write leaves behind
VERSION_SECONDS = 24 * 60 * 60
SESSION_KEY_FORMAT = re.compile(r"^[a-z0-9]{8,64}$")  # as Django makes them; anything else goes the ordinary way


def _pass_key(session_key: str) -> str:
    return "boardpass:v1:" + hashlib.sha256(session_key.encode()).hexdigest()[:32]


def _session_cache_key(session_key: str) -> str:
    from larp.sessions import SessionStore

    return SessionStore.cache_key_prefix + session_key


def _members_key(game_id: int) -> str:
    return f"boardpass:members:v1:{game_id}"


def _user_key(user_id) -> str:
    return f"boardpass:user:v1:{user_id}"


def changed(key: str) -> None:
    """Passes granted before no longer hold (now, and again after commit: a pass granted meanwhile read the
    rows before the change)."""
    from django.db import transaction

    def bump():
        try:
            cache.set(key, secrets.token_hex(6), VERSION_SECONDS)
        except Exception:  # noqa: BLE001 - then the version is gone, and with it every pass that named it
            try:
                cache.delete(key)
            except Exception:  # noqa: BLE001
                pass

    bump()
    transaction.on_commit(bump)


def members_changed(game_id: int) -> None:
    changed(_members_key(game_id))


def user_changed(user_id) -> None:
    changed(_user_key(user_id))


def _version(key: str) -> str:
    value = cache.get(key)
    if value is None:
        cache.add(key, secrets.token_hex(6), VERSION_SECONDS)
        value = cache.get(key)
    return value


def enabled() -> bool:
    return state_version.enabled() and settings.SESSION_ENGINE == "larp.sessions"


def grant(request, game_id: int, faction_code: str | None = None, role: str | None = None) -> None:
    """The full check just let this session see the game's map and (with a code) that faction's board as `role`
    ("moderator" or "player")."""
    from django.contrib.auth import HASH_SESSION_KEY

    from larp.tablet.middleware import SESSION_KEY as JOIN_SESSION_KEY

    session = getattr(request, "session", None)
    if not enabled() or session is None or not session.session_key or not request.user.is_authenticated:
        return
    key = _pass_key(session.session_key)
    try:
        held = cache.get(key) or {}
        fresh = {"u": str(request.user.pk), "h": session.get(HASH_SESSION_KEY), "t": session.get(JOIN_SESSION_KEY),
                 "uv": _version(_user_key(request.user.pk))}
        if any(held.get(k) != v for k, v in fresh.items()):
            held = fresh
        members = _version(_members_key(game_id))
        games = held.setdefault("g", {})
        if games.get(game_id, {}).get("mv") != members:
            games[game_id] = {"mv": members, "boards": {}}
        if faction_code:
            games[game_id]["boards"][faction_code] = role
        cache.set(key, held, PASS_SECONDS)
    except Exception:  # noqa: BLE001 - the ordinary way still answers
        pass


def revoke_session(session_key: str | None) -> None:
    if session_key:
        try:
            cache.delete(_pass_key(session_key))
        except Exception:  # noqa: BLE001
            pass


def _held(request, game_id: int, extra: list[str], then=None):
    """(the boards this session's pass lets it see in this game, the cached values of `extra`, those of the keys
    `then(boards, values of extra)` names, read in the second round trip) when it holds a pass that still holds,
    else None."""
    from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY

    from larp.tablet.middleware import SESSION_KEY as JOIN_SESSION_KEY, _key as join_key, _works

    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    if not SESSION_KEY_FORMAT.match(session_key) or not enabled():
        return None
    keys = [_pass_key(session_key), _session_cache_key(session_key), _members_key(game_id), *extra]
    try:
        found = cache.get_many(keys)
        held, session = found.get(keys[0]), found.get(keys[1])
        if not held or not session or game_id not in held.get("g", {}):
            return None
        if session.get(SESSION_KEY) != held["u"] or session.get(HASH_SESSION_KEY) != held["h"] \
                or session.get(JOIN_SESSION_KEY) != held["t"] or found.get(keys[2]) != held["g"][game_id]["mv"]:
            return None
        # The second and last round trip: the user's row and the join code, named by the pass.
        boards, values = held["g"][game_id]["boards"], [found.get(k) for k in extra]
        later = then(boards, values) if then is not None else []
        second = [_user_key(held["u"]), *later] + ([join_key(held["t"])] if held["t"] is not None else [])
        more = cache.get_many(second)
        if more.get(second[0]) != held["uv"]:
            return None
        if held["t"] is not None and not _works(held["t"], int(held["u"]), more.get(second[-1])):
            return None  # revoked (its cached check is forgotten at once) or expired: the ordinary way signs out
    except Exception:  # noqa: BLE001
        return None
    return boards, values, [more.get(k) for k in later]


def _csrf_secret(request) -> str | None:
    """The browser's CSRF secret from its cookie, when it has a well-formed one (else the ordinary way sets it)."""
    from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH

    secret = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    if len(secret) != CSRF_SECRET_LENGTH or any(c not in CSRF_ALLOWED_CHARS for c in secret):
        return None
    return secret


def _finish(request, response, language: str, *, csrf_secret: str | None = None) -> HttpResponse:
    """What the middleware below the fast lane adds to such an answer: Vary, the language, frame options, and
    the CSRF cookie renewed when its token was used."""
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    response.headers.setdefault("Content-Language", language)
    response.headers.setdefault("X-Frame-Options", getattr(settings, "X_FRAME_OPTIONS", "DENY").upper())
    if csrf_secret is not None:
        response.set_cookie(settings.CSRF_COOKIE_NAME, csrf_secret, max_age=settings.CSRF_COOKIE_AGE,
                            domain=settings.CSRF_COOKIE_DOMAIN, path=settings.CSRF_COOKIE_PATH,
                            secure=settings.CSRF_COOKIE_SECURE, httponly=settings.CSRF_COOKIE_HTTPONLY,
                            samesite=settings.CSRF_COOKIE_SAMESITE)
    return response


def board(request, game_id: int, faction_code: str):
    """A faction's board fragment (HTMX) from the kept render, or None (the ordinary way)."""
    from django.middleware.csrf import _mask_cipher_secret

    from larp.campaign.models import Membership
    from larp.tablet import rendered, selectors
    from larp.turns import clock

    secret = _csrf_secret(request)
    if secret is None:
        return None
    # First: a passed deadline is closed before the board is read. Fresh: this process's copy of the clock may
    # predate the change the tablet heard of from another process, and name a board nobody drew.
    payload = clock.payload(game_id, fresh=True)
    language = translation.get_language_from_request(request)
    with translation.override(language):
        def board_key(boards, values):  # the kept render, read with the pass's second round trip
            role, (version,) = boards.get(faction_code), values
            if role is None or version is None:
                return []
            variant = f"{'m' if role == Membership.MODERATOR else 'p'}{int(selectors.clock_open(payload))}"
            return [rendered.board_key(game_id, faction_code, variant, str(version))]

        found = _held(request, game_id, [state_version._key(game_id)], then=board_key)
        if found is None:
            return None
        boards, (version,), kept = found
        if not kept:
            return None  # no seat at this board in the pass, or no state version
        html = kept[0] if kept[0] is not None else rendered.kept(board_key(boards, [version])[0])
        if html is None:
            return None
        response = HttpResponse(rendered.fill(html, _mask_cipher_secret(secret)))
    add_never_cache_headers(response)
    return _finish(request, response, language, csrf_secret=secret)


def svg(request, game_id: int, focus_code: str, version: str):
    """The map's SVG of this version and corner, kept gzipped, to a session of this game; or None."""
    from larp.tablet import rendered

    if not focus_code or not version:
        return None
    language = translation.get_language_from_request(request)
    if _held(request, game_id, []) is None:
        return None
    kept = rendered.kept_svg(game_id, focus_code, language, version)
    if kept is None:
        return None
    response = rendered.gzipped(request, kept)
    response["Cache-Control"] = "private, max-age=31536000, immutable"
    return _finish(request, response, language)
