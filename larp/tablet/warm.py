"""Every faction's board drawn once for the new state right after a phase change (issue 36).

At a phase change every tablet in the hall asks for its faction's board within a second, and each faction's
board is drawn once a state (larp.tablet.rendered). Left to the tablets, each board is drawn by the first of
its faction's tablets to ask, through a whole request (sign-in, seat, the game's rows) in whichever web process
that tablet reached, each process reading every faction's rows for itself. Drawn here instead, by one thread
of the process that made the change, right after its commit, one faction after another: the rows are read once
and no request's checks are paid for it. Every board is marked as being drawn before the first is, so a tablet
asking meanwhile waits for it (a few milliseconds a board) instead of drawing it again
(`rendered.kept_boards`); if the drawing fails, the marks are dropped and the tablets draw their boards
themselves, as before. Nothing here decides who sees a board: each tablet's request is checked as ever.
"""
from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import connections
from django.utils import translation

log = logging.getLogger(__name__)

_again: dict[int, bool] = {}  # game id -> drawn again once the drawing in progress ends
_lock = threading.Lock()


def boards(game_id: int) -> int:
    """Draw and keep the players' board of every faction that has a player, for the game's state and clock now,
    in the hall's language; the tablets asking meanwhile wait for them. Returns how many were drawn (a board
    kept already, or being drawn by a tablet's request, is not drawn again)."""
    from django.contrib.auth.models import AnonymousUser
    from django.http import HttpRequest

    from larp.campaign.models import Faction, Membership
    from larp.tablet import rendered, views
    from larp.turns import clock, state_version

    if not state_version.enabled():
        return 0
    version = state_version.current(game_id)
    variant = views.board_variant(Membership.PLAYER, clock.payload(game_id))
    request = HttpRequest()  # the board reads no user (its faction's rows are read for everyone's board alike)
    request.user = AnonymousUser()
    factions = (Faction.objects.filter(game_id=game_id, players__role=Membership.PLAYER).select_related("game")
                .distinct().order_by("code"))
    with translation.override(settings.LANGUAGE_CODE):
        return rendered.kept_boards(game_id, variant, version, {
            f.code: (lambda extra, f=f: views.draw_board(request, f, Membership.PLAYER, extra)) for f in factions})


def soon(game_id: int) -> None:
    """After a phase change's commit: the boards drawn by a thread of this process (at most one a game; a
    change during a drawing has the boards drawn again once it ends)."""
    from larp.turns import clock, state_version

    if not getattr(settings, "BOARDS_DRAWN_AT_CHANGE", True) or not state_version.enabled():
        return
    # The clock is dropped after commit too, by a callback that may run after this one: drop it now, so the
    # thread does not read the phase before the change (and keep the boards of a variant no tablet asks for).
    clock.invalidate(game_id)
    with _lock:
        if game_id in _again:
            _again[game_id] = True
            return
        _again[game_id] = False
    threading.Thread(target=_draw, args=(game_id,), daemon=True, name=f"boards-{game_id}").start()


def _draw(game_id: int) -> None:
    try:
        while True:
            try:
                began = time.monotonic()
                drawn = boards(game_id)
                log.info("boards of game %s drawn after a phase change: %d in %.0f ms", game_id, drawn,
                         (time.monotonic() - began) * 1000)
            except Exception:  # noqa: BLE001 - the tablets draw their boards themselves, as without this
                log.exception("the boards of game %s were not drawn after a phase change", game_id)
            with _lock:
                if not _again.get(game_id):
                    _again.pop(game_id, None)
                    return
                _again[game_id] = False
    finally:
        connections.close_all()  # this thread's own connections


def after_phase_started(sender, instance, created: bool, **kwargs) -> None:
    """post_save of a Phase: a new phase started; its boards are drawn once the change is committed."""
    if not created:
        return
    from django.db import transaction

    game_id = instance.turn.game_id
    transaction.on_commit(lambda: soon(game_id))
