"""The turn cycle (R3, R4): start, pause, resume, extend, end and advance phases; the draw; closing.

Every moderator act writes an audit entry. Closing the Strategy phase is
claimed with one conditional UPDATE, so two workers (or a worker and a
request) never close it twice. Tasks are queued with transaction.on_commit.
"""
from __future__ import annotations

import hashlib
import logging
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from larp.campaign.access import require_faction, require_moderator
from larp.campaign.audit import audit  # noqa: F401  (re-exported: callers may still import it from here)
from larp.campaign.models import AuditEntry, Faction, Game
from larp.dice import services as dice_services
from larp.dice.verify import draw_seed
from larp.turns import clock
from larp.turns.models import Phase, ReadyMark, Snapshot, Turn, TurnSettings
from larp.turns.selectors import DEFAULT_PHASE_SECONDS, closing_delay, current_phase, phase_seconds  # noqa: F401
from larp.turns.situation import case_from_game

log = logging.getLogger(__name__)


class PhaseError(ValidationError):
    """A moderator act that does not fit the phase's state; the message is for the moderator."""


class StaleRequest(PhaseError):
    """The request names a phase that is no longer the current one: a double click, or a second moderator."""


class WorkPending(PhaseError):
    """The phase still has work; leaving it needs an explicit, audited skip. `pending` says what would be lost."""

    def __init__(self, pending: list[str]):
        self.pending = pending
        super().__init__([_("This phase is not finished:"), *pending,
                          _("Finish it, or skip it with a written reason.")])


# Apps that give a phase its work (battles: movement applied, battles fought, regroup applied) register a
# check here, so the turn cycle guards every phase without importing them: check(phase) -> what is unfinished.
_work_checks: list = []


def register_phase_work(check) -> None:
    if check not in _work_checks:
        _work_checks.append(check)


# Apps that act when the Strategy phase closes (orders: every unit without an order holds and the orders are
# revealed, R3) register a hook here, so the turn cycle does not import them: hook(turn) -> details for the audit.
_strategy_close_hooks: list = []


def register_strategy_close(hook) -> None:
    if hook not in _strategy_close_hooks:
        _strategy_close_hooks.append(hook)


def unfinished_work(phase: Phase) -> list[str]:
    """Sentences saying what leaving this phase now would lose (empty: nothing)."""
    if phase.kind == Phase.STRATEGY or phase.state == Phase.CLOSED:
        return []
    return [item for check in _work_checks for item in check(phase)]


def describe_phase(phase: Phase | None) -> str:
    if phase is None:
        return _("the game has not started")
    return _("turn %(turn)s, %(phase)s (%(state)s)") % {
        "turn": phase.turn.number, "phase": phase.get_kind_display(), "state": phase.get_state_display()}


def _expect_phase(phase: Phase | None, phase_id: int | None) -> None:
    """Refuse a request made for another phase than the current one (None: the caller names no phase)."""
    if phase_id is not None and (phase is None or phase.pk != phase_id):
        raise StaleRequest(_("The phase has already changed: now it is %(now)s. Nothing was done; "
                             "look at the console and decide again.") % {"now": describe_phase(phase)})


# The acts that move a phase's clock, newest first in the audit log: what a second press is told about.
CLOCK_ACTS = ("extended", "shortened", "paused", "resumed", "phase_started")


class ClockMoved(StaleRequest):
    """The press was made on a deadline that has changed since: another press already acted on it."""


def _clock_news(phase: Phase) -> str:
    """What happened to the phase's clock last, by whom and when, and where it stands now: for a second press."""
    from django.utils.dateformat import time_format
    from django.utils.formats import number_format

    from larp.campaign.people import person

    entry = (AuditEntry.objects.filter(game_id=phase.turn.game_id, action__in=CLOCK_ACTS,
                                       detail__turn=phase.turn.number, detail__phase=phase.kind)
             .select_related("user").order_by("-at", "-id").first())
    who = person(entry.user) if entry is not None and entry.user is not None else _("automatically")
    if entry is not None and entry.user is not None and not entry.user.get_full_name().strip():
        who = f"{who} {entry.user.get_username()}"  # «модератор mod-b»: which of the moderators
    at = time_format(timezone.localtime(entry.at), "H:i:s") if entry is not None else "—"
    if phase.state == Phase.RUNNING:
        now_text = _("the deadline is now %(deadline)s") % {
            "deadline": time_format(timezone.localtime(phase.deadline), "H:i:s")}
    elif phase.state == Phase.PAUSED:
        now_text = _("the phase is paused with %(minutes)s min. left") % {
            "minutes": number_format(_whole(round(phase.paused_remaining / 60, 1)))}
    else:
        now_text = _("the phase is closed")
    what = {
        "extended": _("The deadline was already extended by %(who)s at %(at)s: %(now)s."),
        "shortened": _("The deadline was already shortened by %(who)s at %(at)s: %(now)s."),
        "paused": _("The phase was already paused by %(who)s at %(at)s: %(now)s."),
        "resumed": _("The phase was already resumed by %(who)s at %(at)s: %(now)s."),
    }.get(entry.action if entry is not None else "", _("The clock has already changed: %(now)s."))
    return what % {"who": who, "at": at, "now": now_text} + " " + _("Your press did nothing; decide again.")


def _whole(x: float):
    return int(x) if float(x).is_integer() else x


def _expect_clock(phase: Phase | None, mark: str | None) -> None:
    """Refuse a press made on another clock than the phase's now (None: the caller names no clock)."""
    if mark and phase is not None and phase.clock_mark() != mark:
        raise ClockMoved(_clock_news(phase))


def _leave(phase: Phase, by, skip: bool, reason: str) -> None:
    """The guard on leaving a phase: its work is done, or the moderator skips it with a reason (audited)."""
    pending = unfinished_work(phase)
    if not pending:
        return
    if not skip:
        raise WorkPending(pending)
    if not (reason or "").strip():
        raise PhaseError(_("Write why the phase is skipped: the log keeps it."))
    audit(phase.turn.game, by, "phase_skipped", {"turn": phase.turn.number, "phase": phase.kind, "lost": pending},
          reason)


def turn_settings(game: Game) -> TurnSettings:
    ts, _created = TurnSettings.objects.get_or_create(game=game)
    return ts


# --- the draw (R4) -------------------------------------------------------------

def seeded_draw(seed: int, faction_codes: list[str]) -> list[str]:
    """The draw from a seed: factions ordered by SHA-256 of "<seed>:draw:<id>" (stable everywhere)."""
    return sorted(faction_codes, key=lambda code: (hashlib.sha256(f"{seed}:draw:{code}".encode()).digest(), code))


def _seeded_draws(game: Game) -> int:
    """How many draws by lot the game has made: the next one's number."""
    draws = AuditEntry.objects.filter(game=game, action="draw")
    return draws.count() - draws.filter(detail__manual=True).count()  # (exclude() would drop entries without the key)


def _can_draw(game: Game, ts: TurnSettings) -> None:
    phase = ts.current_phase
    if phase is None:
        return
    between_turns = phase.kind == Phase.REGROUP and phase.state == Phase.CLOSED
    if not (ts.redraw_between_turns and between_turns):
        raise PhaseError(_("The draw holds for the whole game; a redraw is allowed only between turns, "
                           "when the game allows it (R4)."))


@transaction.atomic
def make_draw(game: Game, by, seed: int | None = None) -> list[str]:
    require_moderator(by, game)
    ts = TurnSettings.objects.select_for_update().get(pk=turn_settings(game).pk)
    _can_draw(game, ts)
    detail, kept = {}, seed  # a derived draw's seed is recomputed from its number, never kept (it may be 256-bit)
    if seed is None:
        # Draw number n from the game's committed seed (0: the seed itself), so anyone can recompute every
        # draw after the reveal and count the redraws (docs/dice.md). A number is never used twice.
        number = _seeded_draws(game)
        seed = draw_seed(dice_services.closed_game_stream(game, by).seed, number)
        detail["no"] = number
    codes = list(Faction.objects.filter(game=game).order_by("code").values_list("code", flat=True))
    ts.draw, ts.draw_seed, ts.draw_manual = seeded_draw(seed, codes), kept, False
    ts.save(update_fields=["draw", "draw_seed", "draw_manual"])
    audit(game, by, "draw", {"draw": ts.draw, **detail})
    clock.invalidate_on_commit(game.pk)
    return ts.draw


@transaction.atomic
def enter_draw(game: Game, by, order: list[str]) -> list[str]:
    """A draw made by lot at the table, entered by hand."""
    require_moderator(by, game)
    ts = TurnSettings.objects.select_for_update().get(pk=turn_settings(game).pk)
    _can_draw(game, ts)
    codes = sorted(Faction.objects.filter(game=game).values_list("code", flat=True))
    if sorted(order) != codes:
        raise PhaseError(_("The draw must name every faction exactly once."))
    ts.draw, ts.draw_seed, ts.draw_manual = list(order), None, True
    ts.save(update_fields=["draw", "draw_seed", "draw_manual"])
    audit(game, by, "draw", {"draw": ts.draw, "manual": True})
    clock.invalidate_on_commit(game.pk)
    return ts.draw


# --- phases --------------------------------------------------------------------

def _locked(game: Game) -> tuple[TurnSettings, Phase | None]:
    ts = TurnSettings.objects.select_for_update().get(pk=turn_settings(game).pk)
    phase = Phase.objects.select_for_update().select_related("turn").get(pk=ts.current_phase_id) \
        if ts.current_phase_id else None
    return ts, phase


def _schedule_close(phase: Phase) -> None:
    """Queue the deadline task after commit; a broker that is down must not fail the request."""
    if phase.kind != Phase.STRATEGY or phase.deadline is None:
        return
    phase_id, eta = phase.pk, phase.deadline + closing_delay()  # presses that reached us in time still count

    def send():
        from larp.turns.tasks import close_phase_at_deadline

        try:
            close_phase_at_deadline.apply_async((phase_id,), eta=eta)
        except Exception:  # noqa: BLE001 - the beat task and the next request close it anyway
            log.warning("could not queue the deadline task for phase %s; beat or a request will close it", phase_id)

    transaction.on_commit(send)


def _start_phase(ts: TurnSettings, turn: Turn, kind: str, by) -> Phase:
    now = timezone.now()
    phase = Phase.objects.create(turn=turn, kind=kind, state=Phase.RUNNING, started_at=now,
                                 deadline=now + timedelta(seconds=phase_seconds(turn.game, kind)))
    ts.current_phase = phase
    ts.save(update_fields=["current_phase"])
    audit(turn.game, by, "phase_started", {"turn": turn.number, "phase": kind,
                                           "deadline": phase.deadline.isoformat()})
    _schedule_close(phase)
    clock.invalidate_on_commit(turn.game_id)
    return phase


def _start_turn(game: Game, ts: TurnSettings, number: int, by) -> Phase:
    turn = Turn.objects.create(game=game, number=number, draw=list(ts.draw), start_state=case_from_game(game, draw=list(ts.draw)))
    return _start_phase(ts, turn, Phase.STRATEGY, by)


@transaction.atomic
def start_game(game: Game, by) -> Phase:
    require_moderator(by, game)
    ts, phase = _locked(game)
    if phase is not None:
        raise PhaseError(_("The game has already started."))
    stream = dice_services.closed_game_stream(game, by)  # the players' contributions close at the start
    if not ts.draw:
        codes = list(Faction.objects.filter(game=game).order_by("code").values_list("code", flat=True))
        number = _seeded_draws(game)
        seed = draw_seed(stream.seed, number)
        ts.draw, ts.draw_seed = seeded_draw(seed, codes), None  # recomputed from its number (docs/dice.md)
        ts.save(update_fields=["draw", "draw_seed"])
        audit(game, by, "draw", {"draw": ts.draw, "no": number})
    audit(game, by, "game_started")
    return _start_turn(game, ts, 1, by)


def _closed_if_past_deadline(phase: Phase) -> bool:
    """A Strategy phase whose deadline has passed is closed by whoever touches it first, never paused or
    extended. The caller holds the phase row locked, which is the claim: the worker's conditional update
    waits for it and then finds the phase closed."""
    if phase.kind != Phase.STRATEGY or phase.state != Phase.RUNNING or phase.deadline is None \
            or phase.deadline > timezone.now():
        return False
    if phase.deadline + closing_delay() > timezone.now():
        # Past the deadline players see, inside the grace: orders pressed before it are still coming in.
        raise PhaseError(_("The deadline has passed: orders sent before it are still being received, and "
                           "the phase closes in a moment. Nothing was changed."))
    _close(phase, None, "deadline")
    return True


def _refuse_if_closed_at_deadline(phase: Phase) -> Phase:
    """After the transaction that closed it has committed: tell the moderator why nothing was paused or extended."""
    if phase.state == Phase.CLOSED:
        raise PhaseError(_("The phase deadline had already passed: the phase is closed and no more orders "
                           "are accepted. Start the next phase."))
    return phase


def pause(game: Game, by, reason: str = "", *, phase_id: int | None = None, on_clock: str | None = None) -> Phase:
    return _refuse_if_closed_at_deadline(_pause(game, by, reason, phase_id=phase_id, on_clock=on_clock))


@transaction.atomic
def _pause(game: Game, by, reason: str = "", *, phase_id: int | None = None, on_clock: str | None = None) -> Phase:
    require_moderator(by, game)
    _ts, phase = _locked(game)
    _expect_phase(phase, phase_id)
    _expect_clock(phase, on_clock)
    if phase is not None and _closed_if_past_deadline(phase):
        return phase
    if phase is None or phase.state != Phase.RUNNING:
        raise PhaseError(_("Only a running phase can be paused."))
    remaining = phase.remaining()
    phase.state, phase.deadline, phase.paused_remaining = Phase.PAUSED, None, remaining
    phase.save(update_fields=["state", "deadline", "paused_remaining"])
    audit(game, by, "paused", {"turn": phase.turn.number, "phase": phase.kind, "remaining": round(remaining, 3)}, reason)
    clock.invalidate_on_commit(game.pk)
    return phase


@transaction.atomic
def resume(game: Game, by, reason: str = "", *, phase_id: int | None = None, on_clock: str | None = None) -> Phase:
    require_moderator(by, game)
    _ts, phase = _locked(game)
    _expect_phase(phase, phase_id)
    _expect_clock(phase, on_clock)
    if phase is None or phase.state != Phase.PAUSED:
        raise PhaseError(_("Only a paused phase can be resumed."))
    phase.state = Phase.RUNNING
    phase.deadline = timezone.now() + timedelta(seconds=phase.paused_remaining)
    remaining, phase.paused_remaining = phase.paused_remaining, None
    phase.save(update_fields=["state", "deadline", "paused_remaining"])
    audit(game, by, "resumed", {"turn": phase.turn.number, "phase": phase.kind, "remaining": round(remaining, 3),
                                "deadline": phase.deadline.isoformat()}, reason)
    _schedule_close(phase)
    clock.invalidate_on_commit(game.pk)
    return phase


def _clock_change(game: Game, by, minutes, phase_id: int | None, on_clock: str | None, not_a_number: str,
                  out_of_range: str) -> tuple[float, Phase | None, bool]:
    """The checks an extension and a shortening share, inside the game's lock: (minutes, the phase, whether it
    has just closed at its passed deadline, so nothing else is to be done)."""
    require_moderator(by, game)
    try:
        minutes = float(minutes)
    except (TypeError, ValueError):
        raise PhaseError(not_a_number) from None
    if not 0 < minutes <= 120:
        raise PhaseError(out_of_range)
    _ts, phase = _locked(game)
    _expect_phase(phase, phase_id)
    if phase is not None and _closed_if_past_deadline(phase):
        return minutes, phase, True
    if phase is None or phase.state == Phase.CLOSED:
        raise PhaseError(_("The phase is closed; start the next one instead."))
    _expect_clock(phase, on_clock)
    return minutes, phase, False


def extend(game: Game, by, minutes: float, reason: str = "", *, phase_id: int | None = None,
           on_clock: str | None = None) -> Phase:
    """Add minutes to the phase's clock. `on_clock` is the clock mark the press was made on (Phase.clock_mark):
    a second press made on the same deadline finds it moved and is refused, saying by whom and to when."""
    return _refuse_if_closed_at_deadline(_extend(game, by, minutes, reason, phase_id=phase_id, on_clock=on_clock))


@transaction.atomic
def _extend(game: Game, by, minutes: float, reason: str = "", *, phase_id: int | None = None,
            on_clock: str | None = None) -> Phase:
    minutes, phase, closed = _clock_change(game, by, minutes, phase_id, on_clock,
                                           _("Give the extension in minutes, e.g. 2."),
                                           _("An extension must be between 0 and 120 minutes."))
    if closed:
        return phase
    if phase.state == Phase.RUNNING:
        phase.deadline += timedelta(minutes=minutes)
        phase.save(update_fields=["deadline"])
        _schedule_close(phase)
    else:
        phase.paused_remaining += minutes * 60
        phase.save(update_fields=["paused_remaining"])
    audit(game, by, "extended", {"turn": phase.turn.number, "phase": phase.kind, "minutes": minutes}, reason)
    clock.invalidate_on_commit(game.pk)
    return phase


def shorten(game: Game, by, minutes: float, reason: str = "", *, phase_id: int | None = None,
            on_clock: str | None = None) -> Phase:
    """Take minutes off the phase's clock, never below now (then the deadline is now); audited like an
    extension, and carrying the clock mark it was pressed on like one."""
    return _refuse_if_closed_at_deadline(_shorten(game, by, minutes, reason, phase_id=phase_id, on_clock=on_clock))


@transaction.atomic
def _shorten(game: Game, by, minutes: float, reason: str = "", *, phase_id: int | None = None,
             on_clock: str | None = None) -> Phase:
    minutes, phase, closed = _clock_change(game, by, minutes, phase_id, on_clock,
                                           _("Give in minutes how much to take off, e.g. 2."),
                                           _("A phase can be shortened by 0 to 120 minutes."))
    if closed:
        return phase
    now = timezone.now()
    if phase.state == Phase.RUNNING:
        before = phase.deadline
        phase.deadline = max(now, phase.deadline - timedelta(minutes=minutes))
        taken = (before - phase.deadline).total_seconds()
        phase.save(update_fields=["deadline"])
        _schedule_close(phase)
    else:
        before = phase.paused_remaining
        phase.paused_remaining = max(0.0, phase.paused_remaining - minutes * 60)
        taken = before - phase.paused_remaining
        phase.save(update_fields=["paused_remaining"])
    detail = {"turn": phase.turn.number, "phase": phase.kind, "minutes": minutes,
              "taken_minutes": round(taken / 60, 3), "to_now": taken < minutes * 60 - 0.001}
    if phase.deadline is not None:
        detail["deadline"] = phase.deadline.isoformat()
    audit(game, by, "shortened", detail, reason)
    clock.invalidate_on_commit(game.pk)
    return phase


@transaction.atomic
def end_now(game: Game, by, reason: str = "", *, phase_id: int | None = None, skip: bool = False,
            on_clock: str | None = None) -> Phase:
    """Close the current phase now; a phase with unfinished work only with an explicit skip (audited)."""
    require_moderator(by, game)
    _ts, phase = _locked(game)
    _expect_phase(phase, phase_id)
    if phase is None or phase.state == Phase.CLOSED:
        raise PhaseError(_("The phase is already closed."))
    _expect_clock(phase, on_clock)
    _leave(phase, by, skip, reason)
    _close(phase, by, "moderator", reason)
    return phase


@transaction.atomic
def next_phase(game: Game, by, reason: str = "", *, phase_id: int | None = None, skip: bool = False) -> Phase:
    """Close the current phase if it is open, then start the next (after Regroup: a new turn).

    A phase with unfinished work (movement not applied, a battle awaiting dice, regroup not applied) is
    left only with skip=True and a reason, audited with what is lost. `phase_id` names the phase the
    request was made for: a second press of the same button finds another phase and is refused.
    """
    require_moderator(by, game)
    ts, phase = _locked(game)
    if phase is None:
        raise PhaseError(_("Start the game first."))
    _expect_phase(phase, phase_id)
    _leave(phase, by, skip, reason)
    if phase.state != Phase.CLOSED:
        _close(phase, by, "moderator", reason)
        ts.refresh_from_db()
        if ts.current_phase_id != phase.pk:  # auto-advance already started the next phase
            return ts.current_phase
    if phase.kind == Phase.REGROUP:
        return _start_turn(game, ts, phase.turn.number + 1, by)
    following = Phase.ORDER[Phase.ORDER.index(phase.kind) + 1]
    return _start_phase(ts, phase.turn, following, by)


def _close(phase: Phase, by, how: str, reason: str = "") -> None:
    """Close a phase whose row this transaction holds locked."""
    now = timezone.now()
    phase.state, phase.closed_at, phase.closed_how = Phase.CLOSED, now, how
    phase.closed_by = by if by is not None and by.is_authenticated else None
    phase.save(update_fields=["state", "closed_at", "closed_how", "closed_by"])
    _after_close(phase, by, reason)


def _after_close(phase: Phase, by, reason: str = "") -> None:
    turn = phase.turn
    game = turn.game
    detail = {"turn": turn.number, "phase": phase.kind, "how": phase.closed_how}
    if phase.kind == Phase.STRATEGY:
        for hook in _strategy_close_hooks:
            detail.update(hook(turn))
        if phase.deadline is not None:
            # How late the close came after the moment it was due (deadline + grace + settle), and that delay.
            # how many orders came in it are kept beside it.
            due = phase.deadline + closing_delay()
            detail["late_ms"] = round((phase.closed_at - due).total_seconds() * 1000, 1)
            detail["closing_delay_s"] = closing_delay().total_seconds()
    state = case_from_game(game, draw=list(turn.draw))
    orders = [o.payload for o in turn.orders.order_by("faction__code", "army__number", "fleet__number")]
    Snapshot.objects.create(game=game, turn=turn, phase=phase.kind, taken_at=phase.closed_at, state=state,
                            orders=orders)
    audit(game, by, "phase_closed", detail, reason)
    clock.invalidate_on_commit(game.pk)
    ts = turn_settings(game)
    # The worker's close ("deadline") and a request's that found the deadline passed first ("request") are
    # the same event: the hard deadline. Auto-advance follows either, or a late worker would stall the turn;
    # and the close when every faction is ready ("ready"), which stands for the deadline.
    if phase.kind == Phase.STRATEGY and phase.closed_how in ("deadline", "request", "ready") and ts.auto_advance:
        _start_phase(ts, turn, Phase.MOVEMENT, None)


def close_if_due(phase_id: int, how: str = "deadline") -> bool:
    """Claim a due Strategy phase with one conditional UPDATE and close it; False if not due or already closed."""
    with transaction.atomic():
        now = timezone.now()
        claimed = Phase.objects.filter(
            pk=phase_id, kind=Phase.STRATEGY, state=Phase.RUNNING, deadline__lte=now - closing_delay()
        ).update(state=Phase.CLOSED, closed_at=now, closed_how=how)
        if claimed != 1:
            return False
        phase = Phase.objects.select_related("turn__game").get(pk=phase_id)
        _after_close(phase, None)
        return True


def due_phase_ids(game_id: int | None = None) -> list[int]:
    qs = Phase.objects.filter(kind=Phase.STRATEGY, state=Phase.RUNNING, deadline__lte=timezone.now() - closing_delay())
    if game_id is not None:
        qs = qs.filter(turn__game_id=game_id)
    return list(qs.values_list("pk", flat=True))


def close_due(game_id: int | None = None, how: str = "deadline") -> int:
    """Close every due Strategy phase (of one game, or all); the beat task and lazy requests call this."""
    return sum(close_if_due(pk, how) for pk in due_phase_ids(game_id))


# --- «orders ready»: close Strategy when every faction has filed (R3) -----------------------------------


def factions_to_file(turn: Turn) -> list[str]:
    """The factions that give orders this turn: those with an army or fleet on the map at its start."""
    from larp.turns import situation

    return sorted({unit["faction"] for unit in situation.start_units(turn)})


def ready_marks(phase: Phase) -> dict[str, ReadyMark]:
    """The factions that marked their orders ready in this phase: code -> mark."""
    return {m.faction.code: m for m in ReadyMark.objects.filter(phase=phase).select_related("faction", "by")}


def _all_ready(phase: Phase) -> bool:
    needed = factions_to_file(phase.turn)
    return bool(needed) and set(needed) <= set(ready_marks(phase))


def _close_if_all_ready(ts: TurnSettings, phase: Phase) -> bool:
    """With the game's option on, close an open Strategy phase whose factions are all ready (rows locked)."""
    if not ts.close_when_ready or phase.kind != Phase.STRATEGY or phase.state == Phase.CLOSED:
        return False
    if not _all_ready(phase):
        return False
    _close(phase, None, "ready")
    return True


def _orders_open(phase: Phase | None) -> bool:
    if phase is None or phase.kind != Phase.STRATEGY or phase.state == Phase.CLOSED:
        return False
    return phase.state == Phase.PAUSED or timezone.now() < phase.deadline


@transaction.atomic
def mark_ready(user, faction: Faction, ready: bool = True) -> Phase:
    """A faction's player says its orders are final («Приказы готовы»), or takes it back; audited. When the
    game closes Strategy once everyone is ready and this was the last faction, the phase closes at once."""
    require_faction(user, faction)
    ts, phase = _locked(faction.game)
    if not _orders_open(phase):
        raise PhaseError(_("Orders are closed: there is nothing to mark ready now."))
    mark = ReadyMark.objects.filter(phase=phase, faction=faction).first()
    if ready and mark is None:
        ReadyMark.objects.create(phase=phase, faction=faction, by=user if user.is_authenticated else None)
        audit(faction.game, user, "orders_ready", {"turn": phase.turn.number, "faction": faction.code})
    elif not ready and mark is not None:
        mark.delete()
        audit(faction.game, user, "orders_not_ready", {"turn": phase.turn.number, "faction": faction.code})
    clock.invalidate_on_commit(faction.game_id)
    if ready:
        _close_if_all_ready(ts, phase)
    return phase


@transaction.atomic
def set_close_when_ready(game: Game, by, on: bool) -> TurnSettings:
    """The game's option: close Strategy as soon as every faction is ready (off by default); audited. Turned on
    when everyone is already ready, it closes the phase at once."""
    require_moderator(by, game)
    ts, phase = _locked(game)
    if ts.close_when_ready != bool(on):
        ts.close_when_ready = bool(on)
        ts.save(update_fields=["close_when_ready"])
        audit(game, by, "close_when_ready", {"on": bool(on)})
    if phase is not None and _orders_open(phase):
        _close_if_all_ready(ts, phase)
    return ts
