"""A table: one battle or contest of a further rule system, run by a game's moderators (docs/tables.md).

What every system's table shares lives here: the table itself (its game, its
system, its sides and their factions, its committed dice stream), and its log
of steps. The log is the truth: each step is one act (a deployment, an order,
a roll, a resolution, an override) with its payload and the result the engine
gave; undo marks the last live step undone and never deletes it. A system's
current state is the engine's replay of the live steps; `Table.state` caches it.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from larp.campaign.models import Faction, Game
from larp.dice.models import Stream

SYSTEM_CHOICES = [
    ("red-plains", "Warlords: Battle of Red Plains"),
    ("tactical", "Тактические правила"),
    ("orda", "Орда"),
    ("ordonnance", "Ордонанс"),
]


class Table(models.Model):
    SETUP, PLAYING, FINISHED, CANCELLED = "setup", "playing", "finished", "cancelled"
    STATUSES = [(SETUP, _("being set up")), (PLAYING, _("in play")), (FINISHED, _("finished")),
                (CANCELLED, _("cancelled"))]

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="tables", verbose_name=_("game"))
    system = models.CharField(_("rule system"), max_length=20, choices=SYSTEM_CHOICES)
    title = models.CharField(_("title"), max_length=200)
    status = models.CharField(_("status"), max_length=10, choices=STATUSES, default=SETUP)
    dice = models.OneToOneField(Stream, on_delete=models.PROTECT, related_name="table")
    setup = models.JSONField(_("setup"), default=dict, blank=True,
                             help_text=_("The system's starting situation (engine data)."))
    state = models.JSONField(_("state"), default=dict, blank=True,
                             help_text=_("Cache: the engine's replay of the live steps."))
    result = models.JSONField(_("result"), default=dict, blank=True)
    origin = models.JSONField(default=dict, blank=True, help_text=_("Where the table came from, e.g. a war's battle."))
    version = models.PositiveIntegerField(default=0, help_text=_("Bumped on every change; pages poll it."))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["game", "-created_at", "-pk"]

    def __str__(self) -> str:
        return self.title

    @property
    def is_open(self) -> bool:
        return self.status in (self.SETUP, self.PLAYING)


class Side(models.Model):
    """One side of a table: the engine's key for it, its name, and the faction whose players act for it."""
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="sides")
    key = models.CharField(_("key"), max_length=40, help_text=_("The engine's id of the side."))
    name = models.CharField(_("name"), max_length=120)
    faction = models.ForeignKey(Faction, on_delete=models.SET_NULL, null=True, blank=True, related_name="table_sides",
                                verbose_name=_("faction"))
    position = models.PositiveSmallIntegerField(default=0)
    confirmed = models.BooleanField(default=False, help_text=_("Has confirmed the current hidden choice."))

    class Meta:
        ordering = ["table", "position", "pk"]
        constraints = [models.UniqueConstraint(fields=["table", "key"], name="tables_side_unique_key")]

    def __str__(self) -> str:
        return self.name


class Step(models.Model):
    """One act at the table, in order. `payload` is what was asked, `outcome` what the engine gave."""
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="steps")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=40)
    side = models.CharField(max_length=40, blank=True, help_text=_("The side that acted, if a side did."))
    payload = models.JSONField(default=dict, blank=True)
    outcome = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True, help_text=_("Why (overrides, undo)."))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    undone = models.BooleanField(default=False)
    undone_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [models.UniqueConstraint(fields=["table", "seq"], name="tables_step_unique_seq")]

    @property
    def ref(self) -> str:
        return f"table-{self.table_id}:step-{self.seq}"


class Press(models.Model):
    """A press of an act that went through, by the one-time key its form carried (made when the page drew it):
    the same key pressed again (a double click, a retry, ten at once) is answered «already done», never acted."""
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="presses")
    key = models.CharField(max_length=64)
    act = models.CharField(max_length=40)
    side = models.CharField(max_length=40, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "key"], name="tables_press_unique_key")]
