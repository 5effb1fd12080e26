"""A turn's resolution: movement, battles (with every roll stored), regroup (R6-R12).

The console stores what moderators enter (dice, choices) and keeps the
engine's latest result for the turn; the result is recomputed from the
turn-start state + dice + choices, so undo is dropping the last roll.
"""
from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from larp.turns.models import Turn


class TurnResolution(models.Model):
    turn = models.OneToOneField(Turn, on_delete=models.CASCADE, related_name="resolution", verbose_name=_("turn"))
    dice = models.JSONField(_("dice"), default=list, help_text=_("One entry per autobattle, in the order fought."))
    choices = models.JSONField(_("choices"), default=dict, blank=True)
    result = models.JSONField(_("engine result"), default=dict, blank=True)
    news = models.TextField(_("news of other modules"), blank=True)
    movement_applied_at = models.DateTimeField(_("movement applied"), null=True, blank=True)
    applied_at = models.DateTimeField(_("applied"), null=True, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("turn resolution")
        verbose_name_plural = _("turn resolutions")


class DiceRoll(models.Model):
    """Every roll, entered by hand or rolled by the server from the seed, kept even after an undo."""

    resolution = models.ForeignKey(TurnResolution, on_delete=models.CASCADE, related_name="rolls")
    battle_no = models.PositiveIntegerField(_("battle"))
    attacker = models.JSONField(_("attacker's dice"))
    defender = models.JSONField(_("defender's dice"))
    source = models.CharField(_("source"), max_length=10, choices=[("hand", _("by hand")), ("server", _("server"))])
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                           related_name="+")
    at = models.DateTimeField(default=timezone.now)
    undone = models.BooleanField(_("undone"), default=False)
    counter = models.PositiveIntegerField(null=True, blank=True, help_text=_(
        "Server dice: the turn's counter of the first die (the attacker's dice, then the defender's)."))

    class Meta:
        ordering = ["resolution", "at", "id"]

    @property
    def counters(self) -> tuple[int, int] | None:
        """The first and last counter of a server roll's dice on the turn's stream."""
        if self.counter is None:
            return None
        return self.counter, self.counter + len(self.attacker) + len(self.defender) - 1
