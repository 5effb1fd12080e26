"""«Орда»'s own state beyond the shared Table/Side/Step: the data a moderator transcribes (O23).

A `DataSet` belongs to a game and holds what the source lost: the tokens'
printed numbers, the board (hexes, capitals, cities, border lines), the
cities' durability, the summon indicator's length, the event cards' texts.
Its `data` is the document `larp.orda.dataset` defines (the YAML export is the
same document). A value not yet entered is null; a table cannot start while
a value it needs is null.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from larp.campaign.models import Game


class DataSet(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="orda_data", verbose_name=_("game"))
    title = models.CharField(_("title"), max_length=200)
    data = models.JSONField(_("data"), default=dict, blank=True)
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("Orda data set")
        verbose_name_plural = _("Orda data sets")
        ordering = ["game", "title", "pk"]

    def __str__(self) -> str:
        return self.title
