"""The turn cycle (R3, R4): turns, their four phases with clocks, the draw, snapshots (the audit log is campaign.AuditEntry).

The server's clock decides. A phase has a start, a deadline (None while
paused), the time left when paused, and a state. Only the Strategy deadline
acts by itself (closed by a Celery task or by the next request that touches
it); the other phases' timers show overtime for moderators (R3).
"""
from datetime import timezone as dt_timezone

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from larp.campaign.models import AuditEntry, Game  # noqa: F401  (AuditEntry: its old home)


class TurnSettings(models.Model):
    """Per-game turn-cycle settings and the draw (R4), kept beside the game."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="turn_settings")
    auto_advance = models.BooleanField(
        _("advance automatically"), default=False,
        help_text=_("When the strategy deadline passes, start the movement phase at once."),
    )
    redraw_between_turns = models.BooleanField(_("redraw between turns"), default=False)
    close_when_ready = models.BooleanField(
        _("close Strategy when everyone is ready"), default=False,
        help_text=_("When every faction has marked its orders ready on the tablet, the Strategy phase closes "
                    "at once (R3)."),
    )
    draw = models.JSONField(_("draw"), default=list, blank=True, help_text=_("Faction ids in movement order (R4)."))
    draw_seed = models.BigIntegerField(_("draw seed"), null=True, blank=True)
    draw_manual = models.BooleanField(_("drawn by hand"), default=False)
    current_phase = models.ForeignKey(
        "Phase", on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("current phase")
    )

    class Meta:
        verbose_name = _("turn settings")
        verbose_name_plural = _("turn settings")

    def __str__(self) -> str:
        return str(self.game)


class Turn(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turns", verbose_name=_("game"))
    number = models.PositiveIntegerField(_("turn"))
    draw = models.JSONField(_("draw"), default=list)
    start_state = models.JSONField(
        _("state at the start of the turn"), default=dict,
        help_text=_("The rules engine's case document; orders are checked against it (R5)."),
    )
    orders_revealed = models.BooleanField(_("orders revealed"), default=False)
    started_at = models.DateTimeField(_("started"), default=timezone.now)

    class Meta:
        verbose_name = _("turn")
        verbose_name_plural = _("turns")
        ordering = ["game", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="turn_number_unique_in_game")]

    def __str__(self) -> str:
        return f"{self.game}: {self.number}"


class Phase(models.Model):
    STRATEGY = "strategy"
    MOVEMENT = "movement"
    TACTICS = "tactics"
    REGROUP = "regroup"
    KINDS = [(STRATEGY, _("Strategy")), (MOVEMENT, _("Movement")), (TACTICS, _("Tactics")), (REGROUP, _("Regroup"))]
    ORDER = [STRATEGY, MOVEMENT, TACTICS, REGROUP]

    RUNNING = "running"
    PAUSED = "paused"
    CLOSED = "closed"
    STATES = [(RUNNING, _("running")), (PAUSED, _("paused")), (CLOSED, _("closed"))]

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="phases", verbose_name=_("turn"))
    kind = models.CharField(_("phase"), max_length=10, choices=KINDS)
    state = models.CharField(_("state"), max_length=8, choices=STATES, default=RUNNING)
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    paused_remaining = models.FloatField(_("seconds left when paused"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("closed by"),
    )
    closed_how = models.CharField(_("closed how"), max_length=20, blank=True)

    class Meta:
        verbose_name = _("phase")
        verbose_name_plural = _("phases")
        ordering = ["turn", "id"]
        constraints = [
            models.UniqueConstraint(fields=["turn", "kind"], name="phase_once_per_turn"),
            models.CheckConstraint(
                condition=Q(state="paused", deadline__isnull=True, paused_remaining__isnull=False)
                | Q(state="running", deadline__isnull=False)
                | Q(state="closed"),
                name="phase_clock_consistent",
            ),
        ]
        indexes = [models.Index(fields=["state", "kind", "deadline"], name="phase_due_idx")]

    def __str__(self) -> str:
        return f"{self.turn}: {self.get_kind_display()}"

    def clock_mark(self) -> str:
        """The phase's clock as a moderator's press saw it: the deadline to the microsecond, the time left
        when paused (to the millisecond), or closed. A press carries it, so two presses made on the same
        deadline act once (larp.turns.services)."""
        if self.state == self.RUNNING and self.deadline is not None:
            return f"r{self.deadline.astimezone(dt_timezone.utc).isoformat(timespec='microseconds')}"
        if self.state == self.PAUSED and self.paused_remaining is not None:
            return f"p{round(self.paused_remaining * 1000)}"
        return "c"

    def remaining(self, now=None) -> float | None:
        """Seconds left (negative: overtime); None when closed."""
        if self.state == self.PAUSED:
            return self.paused_remaining
        if self.state == self.RUNNING and self.deadline is not None:
            return ((self.deadline - (now or timezone.now())).total_seconds())
        return None


class ReadyMark(models.Model):
    """A faction's «orders ready» in one Strategy phase, pressed on its tablet; withdrawn by deleting it."""

    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="ready_marks", verbose_name=_("phase"))
    faction = models.ForeignKey("campaign.Faction", on_delete=models.CASCADE, related_name="+",
                                verbose_name=_("faction"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                           related_name="+", verbose_name=_("marked by"))
    at = models.DateTimeField(_("marked at"), default=timezone.now)

    class Meta:
        verbose_name = _("orders ready")
        verbose_name_plural = _("orders ready")
        constraints = [models.UniqueConstraint(fields=["phase", "faction"], name="ready_once_per_phase")]


class Snapshot(models.Model):
    """The whole game state (the engine's case document) when a phase closed: any turn can be replayed."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="snapshots")
    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="snapshots")
    phase = models.CharField(max_length=10, choices=Phase.KINDS)
    taken_at = models.DateTimeField(default=timezone.now)
    state = models.JSONField()
    orders = models.JSONField(default=list)

    class Meta:
        verbose_name = _("snapshot")
        verbose_name_plural = _("snapshots")
        ordering = ["game", "taken_at"]


class WorkerHeartbeat(models.Model):
    """When the background worker last ran beat's catch-up task: the console warns moderators when it is old."""

    name = models.CharField(max_length=40, unique=True)
    beat_at = models.DateTimeField()

    class Meta:
        verbose_name = _("worker heartbeat")
        verbose_name_plural = _("worker heartbeats")

    def __str__(self) -> str:
        return f"{self.name} {self.beat_at:%H:%M:%S}"
