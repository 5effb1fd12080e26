"""A faction's board and the map's SVG, as a tablet asks for them at a phase change, answered without the
middleware's whole path when they are already rendered for this state (issue 36).

At a phase change sixty tablets ask for their board and, when the map changed, its SVG. Both are rendered once
per state and kept (larp.tablet.rendered); what each tablet's request still cost was Django's way to the view:
the session, the user's row, the join code, the faction and the role. Here, after the full check of a session
(`grant`, from the views), that session holds a pass for PASS_SECONDS naming its user, its join code and the
boards it may see; `answer` (larp.fastlane) serves the kept board or SVG to it in a few cache round trips, and
checks again each time what can be withdrawn at once:
- the session still exists (sign-out and a flushed session remove it) and is the same user's, signed in by the
  same join code, with the same password hash;
- the join code still works (its cached check, which every revocation forgets: larp.tablet.middleware);
- sign-out removes the pass too.
A player moved to another faction or removed from the game loses the pass at the latest PASS_SECONDS later
(as a table's version pass: larp.tables.version_pass). Anything not kept, or any doubt, goes the ordinary way.

Only with a cache every web process shares (Redis), as the rendered boards themselves.
"""
from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.utils import timezone, translation
from django.utils.cache import add_never_cache_headers, patch_vary_headers

from larp.turns import state_version

PASS_SECONDS = 30


def _pass_key(session_key: str) -> str:
    return "boardpass:v1:" + hashlib.sha256(session_key.encode()).hexdigest()[:32]


def _session_cache_key(session_key: str) -> str:
    from larp.sessions import SessionStore

    return SessionStore.cache_key_prefix + session_key


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
        fresh = {"u": str(request.user.pk), "h": session.get(HASH_SESSION_KEY), "t": session.get(JOIN_SESSION_KEY)}
        if any(held.get(k) != v for k, v in fresh.items()):
            held = fresh
        games = held.setdefault("g", {})
        boards = games.setdefault(game_id, {})
        if faction_code:
            boards[faction_code] = role
        cache.set(key, held, PASS_SECONDS)
    except Exception:  # noqa: BLE001 - the ordinary way still answers
        pass


def revoke_session(session_key: str | None) -> None:
    if session_key:
        try:
            cache.delete(_pass_key(session_key))
        except Exception:  # noqa: BLE001
            pass


def _held(request, game_id: int, extra: list[str]):
    """(the pass's boards of this game, the cached values of `extra`) when this session holds a valid pass, else
    None."""
    from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY

    from larp.tablet.middleware import SESSION_KEY as JOIN_SESSION_KEY, _key as join_key

    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not session_key or not enabled():
        return None
    keys = [_pass_key(session_key), _session_cache_key(session_key), *extra]
    try:
        found = cache.get_many(keys)
        held, session = found.get(keys[0]), found.get(keys[1])
        if not held or not session or game_id not in held.get("g", {}):
            return None
        if session.get(SESSION_KEY) != held["u"] or session.get(HASH_SESSION_KEY) != held["h"] \
                or session.get(JOIN_SESSION_KEY) != held["t"]:
            return None
        if held["t"] is not None:
            known = cache.get(join_key(held["t"]))
            if known is None or str(known[0]) != held["u"] or known[1] <= timezone.now():
                return None  # revoked (forgotten at once), expired, or not checked lately: the ordinary way
    except Exception:  # noqa: BLE001
        return None
    return held["g"][game_id], [found.get(k) for k in extra]


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
    payload = clock.payload(game_id)  # first: a passed deadline is closed before the board is read
    found = _held(request, game_id, [state_version._key(game_id)])
    if found is None:
        return None
    boards, (version,) = found
    role = boards.get(faction_code)
    if role is None or version is None:
        return None
    language = translation.get_language_from_request(request)
    with translation.override(language):
        variant = f"{'m' if role == Membership.MODERATOR else 'p'}{int(selectors.clock_open(payload))}"
        html = rendered.kept_board(game_id, faction_code, variant, str(version))
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
    key = rendered.svg_key(game_id, focus_code, language, version)
    found = _held(request, game_id, [key])
    if found is None or found[1][0] is None:
        return None
    response = rendered.gzipped(request, found[1][0])
    response["Cache-Control"] = "private, max-age=31536000, immutable"
    return _finish(request, response, language)
