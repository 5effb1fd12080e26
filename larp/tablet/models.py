"""Players' tablets: passwordless join tokens and spy reports (R13).

A join token is a signed, expiring link a moderator prints as a QR code; the
signature proves the server issued it, the row lets a moderator revoke it.
A spy report is a dated snapshot of one enemy stack shown to one faction:
the only way a player sees inside another faction's stack (R13).
"""
from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from larp.campaign.models import Faction, Game


class JoinToken(models.Model):
    key = models.CharField(_("token id"), max_length=32, unique=True)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="join_tokens", verbose_name=_("game"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="join_tokens",
                             verbose_name=_("player"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("issued by"))
    created_at = models.DateTimeField(_("issued"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("revoked by"))
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    uses = models.PositiveIntegerField(_("sign-ins"), default=0)

    class Meta:
        verbose_name = _("join code")
        verbose_name_plural = _("join codes")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.user} ({self.created_at:%Y-%m-%d %H:%M})"

    def is_active(self, now=None) -> bool:
        return self.revoked_at is None and (now or timezone.now()) < self.expires_at


class SpyReport(models.Model):
    """What a spy saw (R13): one enemy stack's contents at the moment a moderator granted it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="spy_reports", verbose_name=_("game"))
    to_faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="spy_reports",
                                   verbose_name=_("shown to"))
    subject_faction = models.ForeignKey(Faction, on_delete=models.CASCADE, null=True, blank=True, related_name="+",
                                        verbose_name=_("whose stack"))
    stack = models.CharField(_("stack"), max_length=80, help_text=_("army:<id>, fleet:<id> or garrison:<province id>"))
    content = models.JSONField(_("what the spy saw"), default=dict)
    granted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("granted by"))
    granted_at = models.DateTimeField(_("granted"), default=timezone.now)

    class Meta:
        verbose_name = _("spy report")
        verbose_name_plural = _("spy reports")
        ordering = ["-granted_at", "-id"]

    def __str__(self) -> str:
        return f"{self.to_faction}: {self.stack} ({self.granted_at:%Y-%m-%d %H:%M})"
