"""How people are named on screen and paper: never by their login.

A player is called by the full name a moderator gave them, else by their faction
(«игрок фракции «Болгария»»); a moderator by name, else «модератор». The login is
a credential, shown only where a moderator hands it out (the players' page).
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from larp.campaign.models import Membership


def person(user) -> str:
    if user is None:
        return "—"
    name = (user.get_full_name() or "").strip()
    if name:
        return name
    memberships = list(user.memberships.all()) if hasattr(user, "memberships") else []
    for m in memberships:
        if m.role == Membership.PLAYER and m.faction_id:
            return _("player of the faction «%(faction)s»") % {"faction": m.faction.name}
    if memberships or user.is_staff or user.is_superuser:
        return _("moderator")
    return user.get_username()
