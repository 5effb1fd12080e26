"""Every faction's board drawn once for the new state right after a phase change (issue 36).

At a phase change every tablet in the hall asks for its faction's board within a second, and each faction's
board is drawn once a state (larp.tablet.rendered). Left to the tablets, each board is drawn by the first of
its faction's tablets to ask, through a whole request (sign-in, seat, the game's rows) in whichever web process
that tablet reached, each process reading every faction's rows for itself. Instead, right after the change's
commit, the process that made it marks every faction's board as being drawn (`claim`, in the committing
thread, milliseconds after the commit: a tablet asking then waits for it instead of drawing it too), and
one thread of it draws them one after another (`draw`): the rows are read once and no request's checks are paid
for it. If the drawing fails, its marks are dropped and the tablets draw their boards themselves, as before.
Nothing here decides who sees a board: each tablet's request is checked as ever.
"""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import connections
from django.utils import translation

log = logging.getLogger(__name__)

_queues: dict[int, list] = {}  # game id -> the claims its drawing thread has yet to draw
_lock = threading.Lock()


@dataclass(frozen=True)
class Claim:
    """The boards of one state marked as being drawn here: the game, its state version, the clock's variant, the
    factions marked."""
    game_id: int
    version: str
    variant: str
    codes: tuple[str, ...]


def claim(game_id: int) -> Claim | None:
    """Mark the players' board of every faction that has a player, for the game's state and clock now, as being
    drawn (larp.tablet.rendered.mark_boards); None when nothing is kept by state (no shared cache)."""
    from larp.campaign.models import Faction, Membership
    from larp.tablet import rendered, views
    from larp.turns import clock, state_version

    if not state_version.enabled():
        return None
    version = state_version.current(game_id)
    variant = views.board_variant(Membership.PLAYER, clock.payload(game_id, fresh=True))
    codes = (Faction.objects.filter(game_id=game_id, players__role=Membership.PLAYER).order_by("code")
             .values_list("code", flat=True).distinct())
    with translation.override(settings.LANGUAGE_CODE):
        marked = rendered.mark_boards(game_id, variant, version, codes)
    return Claim(game_id, version, variant, tuple(marked))


def draw(claimed: Claim) -> int:
    """Draw and keep the boards claimed, in the hall's language; none if the state changed since (another
    change: its own claim draws). Returns how many were drawn."""
    from django.contrib.auth.models import AnonymousUser
    from django.http import HttpRequest

    from larp.campaign.models import Faction, Membership
    from larp.tablet import rendered, views
    from larp.turns import state_version

    with translation.override(settings.LANGUAGE_CODE):
        if state_version.current(claimed.game_id) != claimed.version:
            rendered.unmark_boards(claimed.game_id, claimed.variant, claimed.version, claimed.codes)
            return 0
        request = HttpRequest()  # the board reads no user (its faction's rows are read for everyone's alike)
        request.user = AnonymousUser()
        factions = {f.code: f for f in Faction.objects.filter(game_id=claimed.game_id, code__in=claimed.codes)
                    .select_related("game")}
        return rendered.draw_marked(claimed.game_id, claimed.variant, claimed.version, {
            code: (lambda extra, f=factions[code]: views.draw_board(request, f, Membership.PLAYER, extra))
            for code in claimed.codes if code in factions})


def boards(game_id: int) -> int:
    """Claim and draw now, in this thread. Returns how many boards were drawn."""
    claimed = claim(game_id)
    return draw(claimed) if claimed is not None else 0


def soon(game_id: int) -> None:
    """After a phase change's commit: the boards claimed at once, in this thread, before the tablets hear of the
    change, then drawn by a thread of this process (one a game; claims made meanwhile wait for it)."""
    from larp.turns import clock, state_version

    if not getattr(settings, "BOARDS_DRAWN_AT_CHANGE", True) or not state_version.enabled():
        return
    # The clock is dropped after commit too, by a callback that may run after this one: drop it now, so the
    # claim does not read the phase before the change (and mark the boards of a variant no tablet asks for).
    clock.invalidate(game_id)
    try:
        claimed = claim(game_id)
    except Exception:  # noqa: BLE001 - the tablets draw their boards themselves, as without this
        log.exception("the boards of game %s were not claimed after a phase change", game_id)
        return
    if claimed is None or not claimed.codes:
        return
    with _lock:
        queue = _queues.get(game_id)
        if queue is not None:
            queue.append(claimed)
            return
        _queues[game_id] = [claimed]
    threading.Thread(target=_draw, args=(game_id,), daemon=True, name=f"boards-{game_id}").start()


def _draw(game_id: int) -> None:
    try:
        while True:
            with _lock:
                queue = _queues[game_id]
                if not queue:
                    del _queues[game_id]
                    return
                claimed = queue.pop(0)
            began = time.monotonic()
            try:
                drawn = draw(claimed)
            except Exception:  # noqa: BLE001 - its boards were unmarked: the tablets draw them themselves
                log.exception("the boards of game %s were not drawn after a phase change", game_id)
                continue
            log.info("boards of game %s drawn after a phase change: %d in %.0f ms", game_id, drawn,
                     (time.monotonic() - began) * 1000)
    finally:
        connections.close_all()  # this thread's own connections


def after_phase_started(sender, instance, created: bool, **kwargs) -> None:
    """post_save of a Phase: a new phase started; its boards are claimed and drawn once the change is
    committed."""
    if not created:
        return
    from django.db import transaction

    game_id = instance.turn.game_id
    transaction.on_commit(lambda: soon(game_id))
