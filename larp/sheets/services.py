"""Printing: which documents exist, their parameters, rendering, and print jobs for the Celery worker.

`render_document` is the one way to make a document (the worker, the command
and the benchmark call it). `request_print` files a job and queues it once
the transaction commits; an identical job still queued or running is returned
instead of a second one (a double click). `run_job` is what the task does.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from larp.battles.selectors import turn_result
from larp.campaign.access import require_moderator
from larp.campaign.models import Faction, Game
from larp.sheets import selectors
from larp.sheets.models import PrintJob
from larp.sheets.renderers import (
    BattleSheetRenderer,
    MapRenderer,
    OrderFormRenderer,
    ProtocolRenderer,
    TurnResultsRenderer,
)

log = logging.getLogger(__name__)

KINDS = [kind for kind, _label in PrintJob.KINDS]
# The parameters each document reads; anything else is dropped so equal requests look equal.
PARAMS = {
    PrintJob.BATTLE_SHEETS: ("paper", "faction"),
    PrintJob.ORDER_FORMS: ("paper", "faction", "turn"),
    PrintJob.PROTOCOLS: ("paper", "turn", "battle"),
    PrintJob.TURN_RESULTS: ("paper", "turn"),
    # No turn: the map as it stands; a turn: its start; `after` (of a turn, the current one by default): the
    # state its regroup left.
    PrintJob.MAP: ("paper", "turn", "after"),
    PrintJob.FACTION_MAP: ("paper", "faction", "turn", "after"),
}
RENDERERS = {PrintJob.BATTLE_SHEETS: BattleSheetRenderer, PrintJob.ORDER_FORMS: OrderFormRenderer,
             PrintJob.PROTOCOLS: ProtocolRenderer, PrintJob.TURN_RESULTS: TurnResultsRenderer,
             PrintJob.MAP: MapRenderer, PrintJob.FACTION_MAP: MapRenderer}
NEEDS_RESULTS = {PrintJob.PROTOCOLS, PrintJob.TURN_RESULTS}
MAPS = {PrintJob.MAP, PrintJob.FACTION_MAP}
# A running job that has not progressed for settings.PRINT_STALL_SECONDS (a worker killed mid-way; a page
# takes well under a second) is given up as failed, and a queued job that no worker has started in three
# times that: the status page says so and the print button makes it afresh.
QUEUED_STALL_FACTOR = 3


class PrintError(ValidationError):
    """A request that cannot be printed; the message is for the moderator."""


def _int(value, field: str) -> int | None:
    if value in (None, ""):
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise PrintError(_("%(field)s must be a number, not %(value)r.") % {"field": field, "value": value}) from None
    if number < 1:
        raise PrintError(_("%(field)s must be 1 or more.") % {"field": field})
    return number


def _yes(value) -> bool:
    return str(value).strip().lower() in ("1", "true", "on", "yes")


def clean_params(game: Game, kind: str, raw: dict) -> dict:
    """The parameters of one document, checked and normalised (ids as numbers, paper in lower case)."""
    if kind not in PARAMS:
        raise PrintError(_("Unknown document %(kind)r: choose one of %(kinds)s.")
                         % {"kind": kind, "kinds": ", ".join(KINDS)})
    raw = raw or {}
    params: dict = {}
    paper = str(raw.get("paper") or "a4").strip().lower()
    papers = RENDERERS[kind].papers
    if paper not in papers:
        raise PrintError(_("Paper must be one of %(papers)s.") % {"papers": ", ".join(p.upper() for p in papers)})
    params["paper"] = paper
    wanted = PARAMS[kind]
    if "faction" in wanted and raw.get("faction") not in (None, ""):
        value = raw["faction"]
        faction = Faction.objects.filter(game=game, code=str(value)).first()
        if faction is None and str(value).isascii() and str(value).isdigit():
            faction = Faction.objects.filter(game=game, pk=int(value)).first()
        if faction is None:
            raise PrintError(_("This game has no faction %(faction)s.") % {"faction": value})
        params["faction"] = faction.pk
    if "turn" in wanted:
        turn = _int(raw.get("turn"), _("Turn"))
        if turn is None and kind in NEEDS_RESULTS:
            turn = selectors.current_turn_number(game)
            if turn is None:
                raise PrintError(_("The game has not started: there are no results to print yet."))
        if turn is not None:
            params["turn"] = turn
    if "battle" in wanted:
        battle = _int(raw.get("battle"), _("Battle"))
        if battle is not None:
            params["battle"] = battle
    if "after" in wanted and _yes(raw.get("after")):
        params["after"] = True
        if params.get("turn") is None:
            params["turn"] = selectors.current_turn_number(game)
    if kind in MAPS and params.get("turn") is not None:
        try:
            selectors.map_state(game, params["turn"], params.get("after", False))
        except selectors.NoResults as exc:
            raise PrintError(str(exc)) from None
    elif kind in MAPS and params.get("after"):
        raise PrintError(_("The game has not started: there is no turn to draw the map of yet."))
    if kind in NEEDS_RESULTS and turn_result(game, params["turn"]) is None:
        raise PrintError(_("Turn %(turn)s has no results yet: resolve its battles in the console first.")
                         % {"turn": params["turn"]})
    return params


def render_document(game: Game, kind: str, params: dict,
                    progress: Callable[[int], None] | None = None) -> tuple[str, str, bytes]:
    """(filename, mimetype, bytes) of one document, in the active language."""
    params = clean_params(game, kind, params)
    paper = params["paper"]
    try:
        if kind == PrintJob.BATTLE_SHEETS:
            renderer = BattleSheetRenderer(selectors.battle_sheets(game, params.get("faction")), paper=paper,
                                           progress=progress)
        elif kind == PrintJob.ORDER_FORMS:
            renderer = OrderFormRenderer(selectors.order_forms(game, params.get("faction"), params.get("turn")),
                                         paper=paper, progress=progress)
        elif kind in MAPS:
            label_px = MapRenderer.label_px(paper, *selectors.map_extent(game))
            moment = {"turn": params.get("turn"), "after": params.get("after", False), "label_px": label_px}
            pages = (selectors.moderators_map(game, **moment) if kind == PrintJob.MAP
                     else selectors.faction_maps(game, params.get("faction"), **moment))
            renderer = MapRenderer(pages, paper=paper, progress=progress)
        elif kind == PrintJob.PROTOCOLS:
            renderer = ProtocolRenderer(selectors.turn_protocols(game, params["turn"], params.get("battle")),
                                        paper=paper, progress=progress)
        else:
            renderer = TurnResultsRenderer(selectors.turn_results(game, params["turn"]), paper=paper,
                                           progress=progress)
    except selectors.NoResults as exc:
        raise PrintError(str(exc)) from None
    filename, mimetype, content = renderer.generate()
    return f"game{game.pk}-{filename}", mimetype, content


# --- print jobs ----------------------------------------------------------------

def dedup_key(kind: str, params: dict, language: str) -> str:
    return json.dumps({"kind": kind, "language": language, "params": params}, sort_keys=True, separators=(",", ":"))


def request_print(game: Game, kind: str, raw_params: dict, user) -> tuple[PrintJob, bool]:
    """File a print job (moderators only) and queue it after commit; (job, created).

    The same document asked for again while it is queued or running returns
    that job: the partial unique constraint makes this hold under a race too.
    """
    require_moderator(user, game)
    params = clean_params(game, kind, raw_params)
    language = translation.get_language() or "ru"
    key = dedup_key(kind, params, language)
    with transaction.atomic():
        existing = _active(game, key)
        if existing is not None and not give_up_if_stalled(existing):
            return existing, False
        try:
            with transaction.atomic():
                job = PrintJob.objects.create(game=game, kind=kind, params=params, language=language, dedup_key=key,
                                              requested_by=user if user.is_authenticated else None)
        except IntegrityError:
            existing = _active(game, key)
            if existing is None:
                raise
            return existing, False
    transaction.on_commit(lambda: enqueue(job.pk))
    return job, True


def _stall_limits() -> tuple[timedelta, timedelta]:
    running = timedelta(seconds=settings.PRINT_STALL_SECONDS)
    return running, running * QUEUED_STALL_FACTOR


def give_up_if_stalled(job: PrintJob) -> bool:
    """Mark a job that stopped moving as failed, with the reason for the moderator; True if it is (now) failed.

    Conditional on the job being exactly as seen (state and progress), so a worker that moves it on
    meanwhile wins and nothing is failed twice."""
    if job.state not in PrintJob.ACTIVE:
        return job.state == PrintJob.FAILED
    now = timezone.now()
    running_limit, queued_limit = _stall_limits()
    if job.state == PrintJob.RUNNING:
        if now - (job.progressed_at or job.started_at or job.created_at) < running_limit:
            return False
        error = _("printing stopped at %(progress)s %% — its background task died. Print it again.") % {
            "progress": job.progress}
    else:
        if now - job.created_at < queued_limit:
            return False
        error = _("printing did not start — background tasks are not running. Print it again.")
    failed = PrintJob.objects.filter(pk=job.pk, state=job.state, progress=job.progress).update(
        state=PrintJob.FAILED, error=error, finished_at=now)
    if failed:
        log.warning("print job %s given up: no progress since %s", job.pk, job.progressed_at or job.created_at)
        job.state, job.error, job.finished_at = PrintJob.FAILED, error, now
    else:
        job.refresh_from_db(fields=["state", "progress", "error", "finished_at", "progressed_at"])
    return job.state == PrintJob.FAILED


def _active(game: Game, key: str) -> PrintJob | None:
    return PrintJob.objects.filter(game=game, dedup_key=key, state__in=PrintJob.ACTIVE).order_by("-id").first()


def enqueue(job_id: int) -> None:
    """Hand the job to a worker; if the broker is down, make it here and now (paper must not wait)."""
    from larp.sheets.tasks import generate_print_job

    try:
        generate_print_job.delay(job_id)
    except Exception:
        log.warning("could not queue print job %s; generating it in this process", job_id)
        run_job(job_id)


def run_job(job_id: int) -> str:
    """Claim a queued job (one conditional UPDATE, so two workers never make it twice), make it, store it."""
    now = timezone.now()
    claimed = PrintJob.objects.filter(pk=job_id, state=PrintJob.QUEUED).update(
        state=PrintJob.RUNNING, started_at=now, progressed_at=now, progress=1)
    if not claimed:
        # A worker killed mid-job leaves it running; acks_late redelivers the task: take it over when stalled.
        claimed = PrintJob.objects.filter(pk=job_id, state=PrintJob.RUNNING,
                                          progressed_at__lt=now - _stall_limits()[0]).update(
            started_at=now, progressed_at=now, progress=1)
    if not claimed:
        return PrintJob.objects.filter(pk=job_id).values_list("state", flat=True).first() or "missing"
    job = PrintJob.objects.select_related("game").get(pk=job_id)

    def progress(percent: int) -> None:
        PrintJob.objects.filter(pk=job_id, state=PrintJob.RUNNING).update(progress=max(1, min(percent, 99)),
                                                                          progressed_at=timezone.now())

    try:
        with translation.override(job.language):
            filename, mimetype, content = render_document(job.game, job.kind, job.params, progress=progress)
    except PrintError as exc:
        _fail(job_id, " ".join(exc.messages))
        return PrintJob.FAILED
    except Exception as exc:
        log.exception("print job %s failed", job_id)
        _fail(job_id, f"{type(exc).__name__}: {exc}")
        return PrintJob.FAILED
    PrintJob.objects.filter(pk=job_id).update(state=PrintJob.DONE, progress=100, filename=filename,
                                              mimetype=mimetype, content=content, finished_at=timezone.now(),
                                              error="")
    return PrintJob.DONE


def _fail(job_id: int, error: str) -> None:
    PrintJob.objects.filter(pk=job_id).update(state=PrintJob.FAILED, error=error[:2000], finished_at=timezone.now())


def recent_jobs(game: Game, limit: int = 8) -> list[PrintJob]:
    jobs = list(PrintJob.objects.filter(game=game).defer("content").order_by("-created_at", "-id")[:limit])
    for job in jobs:
        give_up_if_stalled(job)
    return jobs


def job_status(game: Game, job_id: int) -> PrintJob | None:
    """The job as the status page shows it: given up first if it has stalled."""
    job = PrintJob.objects.filter(pk=job_id, game=game).defer("content").first()
    if job is not None:
        give_up_if_stalled(job)
    return job
