"""Accounts: moderators create player accounts per faction (Membership)."""
from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from larp.campaign.access import require_moderator
from larp.campaign.models import Faction, Game, Membership


def new_password() -> str:
    # Short enough to read aloud across a hall, long enough not to guess.
    return secrets.token_urlsafe(9)


@transaction.atomic
def add_moderator(game: Game, username: str, password: str | None = None, name: str = "") -> tuple[object, str]:
    User = get_user_model()
    password = password or new_password()
    user, created = User.objects.get_or_create(username=username)
    if name:
        user.first_name = name[:150]
    if created or password:
        user.set_password(password)
    user.is_staff = True  # moderators use the admin
    user.save()
    Membership.objects.update_or_create(user=user, game=game, defaults={"role": Membership.MODERATOR, "faction": None})
    return user, password


@transaction.atomic
def create_player(faction: Faction, username: str, *, by=None, password: str | None = None,
                  name: str = "") -> tuple[object, str]:
    """A player account for one faction. `by` (a moderator) is checked when given; `name` is how people see them."""
    if by is not None:
        require_moderator(by, faction.game_id)
    User = get_user_model()
    if User.objects.filter(username=username).exists():
        raise ValidationError(_("The login %(username)s is taken; choose another.") % {"username": username})
    password = password or new_password()
    user = User.objects.create_user(username=username, password=password, first_name=(name or "").strip()[:150])
    Membership.objects.create(user=user, game_id=faction.game_id, role=Membership.PLAYER, faction=faction)
    return user, password
