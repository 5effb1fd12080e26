"""The audit log's one writer: every app records its acts here (R3, R14), so it sits at the bottom."""
from __future__ import annotations

from larp.campaign.models import AuditEntry, Game


def audit(game: Game, user, action: str, detail: dict | None = None, reason: str = "") -> AuditEntry:
    """Record who did what, when and why; an anonymous or automatic act has no user."""
    return AuditEntry.objects.create(game=game, user=user if user and user.is_authenticated else None,
                                     action=action, detail=detail or {}, reason=reason or "")
