"""The console's «Репетиция»: a rehearsal copy of a game, played by bots in the background, and deleted in one
click (docs/rehearsal.md, "From the console").

A copy is made through the game file with its accounts left out (a player belongs to one game; the bots get
seats of their own) and is marked `Game.rehearsal_of`: every page of it says «Репетиция» and it is never listed
as a real game. Its run lives on the copy (`Game.rehearsal`): the options, the state (queued, running, done,
failed), the progress and, once done, the report. One rehearsal of a game runs at a time.
"""
from __future__ import annotations

import threading
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from larp.campaign.models import Game, Membership

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
ACTIVE = (QUEUED, RUNNING)
STALE_SECONDS = 600        # a run with no news for this long is taken as stopped (its worker died)
PROGRESS_EVERY = 2.0       # seconds between the progress written while the bots play
MAX_TURNS, MAX_TABLETS = 12, 5


class RehearsalError(Exception):
    """A rehearsal that cannot start as asked; the message is in the user's language."""


class AlreadyRunning(RehearsalError):
    def __init__(self, copy: Game):
        super().__init__(_("A rehearsal of this game is already running."))
        self.copy = copy


def make_copy(original: Game, title: str, by=None) -> Game:
    """The game copied through its game file without its accounts, marked as its rehearsal copy; `by` (a
    moderator) may run the copy's console."""
    from larp.gamefile import services as gamefile

    with transaction.atomic():
        data = gamefile.without_accounts(gamefile.loads(gamefile.dumps(gamefile.export_game(original))))
        game = gamefile.restore(data, title=title, by=by).game
        game.rehearsal_of = original
        game.save(update_fields=["rehearsal_of"])
        if by is not None and by.is_authenticated:
            Membership.objects.get_or_create(user=by, game=game, defaults={"role": Membership.MODERATOR})
    return game


def real_games():
    """Games that are not rehearsal copies (where games are listed or chosen)."""
    return Game.objects.filter(rehearsal_of__isnull=True)


def state(copy: Game) -> str:
    """The run's state; a queued or running one with no news for STALE_SECONDS is `failed` (its worker died)."""
    run = copy.rehearsal or {}
    found = run.get("state", "")
    if found in ACTIVE and time.time() - float(run.get("heartbeat", 0)) > STALE_SECONDS:
        return FAILED
    return found


def running_copy(original: Game) -> Game | None:
    for copy in original.rehearsals.order_by("-pk"):
        if state(copy) in ACTIVE:
            return copy
    return None


def _title(original: Game) -> str:
    stamp = timezone.localtime().strftime("%Y-%m-%d %H:%M")
    n = original.rehearsals.count() + 1
    while Game.objects.filter(title=f"{_('Rehearsal')} {n}: {original.title[:150]} · {stamp}").exists():
        n += 1
    return f"{_('Rehearsal')} {n}: {original.title[:150]} · {stamp}"


def start(original: Game, by, *, turns: int, tablets: int, tables: list[str], fast: bool, seed: int,
          url: str) -> Game:
    """Copy the game and queue its rehearsal (after the commit); AlreadyRunning while one runs."""
    from larp.rehearsal.tables import SYSTEMS

    if original.rehearsal_of_id is not None:
        raise RehearsalError(_("This is a rehearsal copy: rehearse the game itself."))
    if not (1 <= turns <= MAX_TURNS and 1 <= tablets <= MAX_TABLETS) or any(t not in SYSTEMS for t in tables):
        raise RehearsalError(_("Choose from 1 to %(turns)d turns and from 1 to %(tablets)d tablets per faction.")
                             % {"turns": MAX_TURNS, "tablets": MAX_TABLETS})
    with transaction.atomic():
        Game.objects.select_for_update().filter(pk=original.pk).first()  # one start of a game at a time
        running = running_copy(original)
        if running is not None:
            raise AlreadyRunning(running)
        copy = make_copy(original, _title(original), by)
        copy.rehearsal = {
            "state": QUEUED, "heartbeat": time.time(), "started": timezone.now().isoformat(), "url": url,
            "options": {"turns": turns, "tablets": tablets, "tables": list(tables), "fast": bool(fast), "seed": seed},
            "progress": {"turn": 1, "turns": turns, "done": 0, "acts": 0, "failing": 0, "checks": []},
        }
        copy.save(update_fields=["rehearsal"])
        from larp.rehearsal.tasks import run_rehearsal

        transaction.on_commit(lambda: run_rehearsal.delay(copy.pk))
    return copy


def _write(copy_id: int, run: dict) -> bool:
    """The run as it stands (False when the copy was deleted meanwhile)."""
    return Game.objects.filter(pk=copy_id, rehearsal_of__isnull=False).update(
        rehearsal={**run, "heartbeat": time.time()}) == 1


def _progress(rehearsal, turns: int) -> dict:
    night = rehearsal.night
    failing = sorted({v.check for v in list(night.checks.violations)})
    return {"turn": min(turns, night.turns_played + 1), "turns": turns, "done": night.turns_played,
            "acts": len(night.log.acts), "failing": len(night.checks.violations), "checks": failing}


def run(copy_id: int) -> str:
    """Play the copy's rehearsal (the Celery task's body): the bots against the server at the run's address
    (settings.REHEARSAL_URL, else the address the moderator's page was served from), progress written every
    PROGRESS_EVERY seconds, the report kept at the end. A copy not queued (run already, or deleted) is left."""
    from larp.rehearsal import report
    from larp.rehearsal.runner import Options, Rehearsal

    with transaction.atomic():
        copy = Game.objects.select_for_update().filter(pk=copy_id, rehearsal_of__isnull=False).first()
        if copy is None:
            return "gone"
        run = dict(copy.rehearsal or {})
        if run.get("state") != QUEUED:
            if run.get("state") == RUNNING:  # delivered again after its worker stopped mid-run
                run.update(state=FAILED, error=_("The worker stopped during the rehearsal."))
                _write(copy_id, run)
            return run.get("state", "")
        run["state"] = RUNNING
        _write(copy_id, run)
    o = run["options"]
    if o["fast"]:
        _short_open_strategy(copy_id, o["tablets"])
    options = Options(turns=o["turns"], tablets=o["tablets"], tables=list(o["tables"]), seed=o["seed"],
                      fast=o["fast"], url=settings.REHEARSAL_URL or run.get("url", ""), prepared=copy_id)
    rehearsal = Rehearsal(options)
    stop = threading.Event()

    def beat():
        try:
            while not stop.wait(PROGRESS_EVERY):
                _write(copy_id, {**run, "progress": _progress(rehearsal, o["turns"])})
        finally:
            connection.close()

    watcher = threading.Thread(target=beat, daemon=True)
    watcher.start()
    try:
        night = rehearsal.run()
    except Exception as exc:  # noqa: BLE001 - the page says what stopped it; the worker goes on
        stop.set()
        watcher.join()
        run.update(state=FAILED, progress=_progress(rehearsal, o["turns"]), error=f"{type(exc).__name__}: {exc}")
        _write(copy_id, run)
        return FAILED
    stop.set()
    watcher.join()
    data = report.as_data(night)
    data.pop("log", None)
    run.update(state=DONE, progress=_progress(rehearsal, o["turns"]), report=data, text=report.as_text(night),
               finished=timezone.now().isoformat())
    _write(copy_id, run)
    return DONE


def _short_open_strategy(copy_id: int, tablets: int) -> None:
    """A copy of a game in its Strategy phase (running or paused) would wait for the original's deadline: with
    short phases, it runs and ends as a short phase would (the runner shortens the phases still to come)."""
    from datetime import timedelta

    from larp.rehearsal.runner import FAST_SECONDS_PER_UNIT, FAST_STRATEGY_MIN
    from larp.turns import clock
    from larp.turns.models import Phase

    phase = Phase.objects.filter(turn__game_id=copy_id, kind=Phase.STRATEGY).exclude(state=Phase.CLOSED).first()
    if phase is None:
        return
    game = phase.turn.game
    units = game.armies.count() + game.fleets.count()
    seconds = FAST_STRATEGY_MIN + FAST_SECONDS_PER_UNIT * units * max(1, tablets)
    Phase.objects.filter(pk=phase.pk).update(state=Phase.RUNNING, paused_remaining=None,
                                             deadline=timezone.now() + timedelta(seconds=seconds))
    clock.invalidate(copy_id)


def bot_accounts(copy: Game):
    """The accounts the rehearsal made for the copy's bots (its moderator bot and its tablets)."""
    from django.db.models import Q

    return get_user_model().objects.filter(Q(username=f"rehearsal-mod-{copy.pk}")
                                           | Q(username__startswith=f"rehearsal-{copy.pk}-"))


def delete(copy: Game) -> int:
    """The copy and everything of it: its rows, its bots' accounts, their tablets' sign-ins. The original's
    id (where the moderator goes back to)."""
    from larp.tables.models import Table
    from larp.tablet.middleware import forget
    from larp.tablet.models import JoinToken

    if copy.rehearsal_of_id is None:
        raise RehearsalError(_("Only a rehearsal copy can be deleted here."))
    original = copy.rehearsal_of_id
    with transaction.atomic():
        forget(list(JoinToken.objects.filter(game=copy).values_list("pk", flat=True)))
        accounts = list(bot_accounts(copy).values_list("pk", flat=True))
        Table.objects.filter(game=copy).delete()   # a table's dice stream is protected while the table exists
        Game.objects.filter(pk=copy.pk).delete()
        get_user_model().objects.filter(pk__in=accounts).delete()
    return original
