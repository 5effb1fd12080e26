"""A scenario being written in the browser, before it is a game."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ScenarioDraft(models.Model):
    """The scenario's data in the scenario schema (docs/scenarios.md) and its map picture.

    `version` grows by one with every saved change: an act names the version it was made on, and an act made on
    an older one is refused (two moderators, a double click, a resent request), so nothing is applied twice or
    over someone else's change unseen.
    """

    title = models.CharField(_("title"), max_length=200)
    data = models.JSONField(default=dict)
    picture = models.BinaryField(null=True, blank=True, editable=False)
    picture_type = models.CharField(max_length=8, blank=True, default="")  # png, jpeg or svg
    picture_width = models.PositiveIntegerField(default=0)
    picture_height = models.PositiveIntegerField(default=0)
    picture_key = models.CharField(max_length=16, blank=True, default="")  # names the picture's bytes (caching)
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return self.title

    @property
    def size(self) -> tuple[int, int]:
        """The drawing's size in its pixels: the picture's, or a blank sheet's."""
        if self.picture_width and self.picture_height:
            return self.picture_width, self.picture_height
        return 1000, 700
