"""A battle of the war sent to a table: which battle of which turn, the table, and how it was converted."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from larp.tables.models import Table
from larp.turns.models import Turn


class TableBattle(models.Model):
    """The battle `battle_no` of the turn (the one awaiting its dice, R6.5) fought at `table`.

    While the table is open, and until its result is confirmed into the turn, the turn's battles are held
    (larp.battles.hooks). Cancelled: the battle went back to the autobattle. Its result is in the turn's
    `choices.outcomes` once confirmed (larp.battles.services.enter_outcome).
    """
    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="table_battles", verbose_name=_("turn"))
    battle_no = models.PositiveIntegerField(_("battle"))
    province = models.CharField(_("province"), max_length=50)
    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="war_battle", verbose_name=_("table"))
    sides = models.JSONField(default=dict, help_text=_("The table's side keys of the attacker and the defender."))
    power = models.JSONField(default=dict, help_text=_("Each side's troops' power going into the battle."))
    battle = models.JSONField(default=dict, help_text=_("The battle of the war as it was converted."))
    reason = models.TextField(_("reason"))
    cancelled = models.BooleanField(_("cancelled"), default=False)
    cancel_reason = models.TextField(blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("battle at a table")
        verbose_name_plural = _("battles at tables")
        ordering = ["turn", "battle_no", "pk"]

    def __str__(self) -> str:
        return f"{self.turn} / {self.battle_no}"
