"""A player's or moderator's saved armies for «Тактические правила» (per game): rosters that outlive one table.

`army` is the army document as the builder stores it at a table (docs/tactical-rules.md, «Saved armies and
files»): the army list, the units and the generals. Loading one into a table's builder validates it exactly as
the builder validates what is typed in (larp/tactical/rosters.py)."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from larp.campaign.models import Game


class Roster(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tactical_rosters",
                              verbose_name=_("owner"))
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="tactical_rosters", verbose_name=_("game"))
    name = models.CharField(_("name"), max_length=80)
    army = models.JSONField(_("army"), default=dict)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [models.UniqueConstraint(fields=["owner", "game", "name"], name="tactical_roster_unique_name")]
        verbose_name = _("saved army")
        verbose_name_plural = _("saved armies")

    def __str__(self) -> str:
        return self.name
