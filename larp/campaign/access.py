"""Who may see and change what. Every view and service asks here, nowhere else.

- A game's moderators (and superusers) see and change everything in it.
- A player belongs to one faction of one game and sees that faction's stacks
  and orders only (R13).
Helpers raise PermissionDenied (403) so views stay one line.
"""
from __future__ import annotations

from contextvars import ContextVar

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404

from larp.campaign.models import Faction, Game, Membership


# --- one answer a request ------------------------------------------------------------------------------
# A page asks who the user is in the game many times (the seat, the orders they may see, the dice, each unit's
# card): inside a request each question is read once (RolesOnceMiddleware). Outside one (a task, a command, a
# test calling a service) nothing is remembered. A membership saved or deleted in the request forgets it all.

_roles: ContextVar[dict | None] = ContextVar("larp_roles", default=None)


def _once(kind: str, user, game_id: int, read):
    memo = _roles.get()
    if memo is None:
        return read()
    key = (kind, user.pk, game_id)
    if key not in memo:
        memo[key] = read()
    return memo[key]


def forget_roles(**kwargs) -> None:
    """A membership changed: what this request remembered of anyone's role is read again."""
    memo = _roles.get()
    if memo is not None:
        memo.clear()


class RolesOnceMiddleware:
    """Remembers each user's role in a game for the length of one request (see `_once`)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _roles.set({})
        try:
            return self.get_response(request)
        finally:
            _roles.reset(token)


def moderated_games(user) -> QuerySet[Game]:
    if not user.is_authenticated:
        return Game.objects.none()
    if user.is_superuser:
        return Game.objects.all()
    return Game.objects.filter(memberships__user=user, memberships__role=Membership.MODERATOR)


def is_moderator(user, game: Game | int) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    game_id = game if isinstance(game, int) else game.pk
    return _once("moderator", user, game_id, lambda: Membership.objects.filter(
        user=user, game_id=game_id, role=Membership.MODERATOR).exists())


def player_faction(user, game: Game | int) -> Faction | None:
    """The faction this user plays in the game, or None."""
    if not user.is_authenticated:
        return None
    game_id = game if isinstance(game, int) else game.pk

    def read():
        membership = (
            Membership.objects.select_related("faction")
            .filter(user=user, game_id=game_id, role=Membership.PLAYER)
            .first()
        )
        return membership.faction if membership else None

    return _once("faction", user, game_id, read)


def can_see_faction(user, faction: Faction) -> bool:
    """Stacks and orders of a faction: its own players and the game's moderators (R13)."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    # One query (every order a tablet files asks this): a moderator of the game, or this faction's player.
    return Membership.objects.filter(user=user, game_id=faction.game_id).filter(
        Q(role=Membership.MODERATOR) | Q(role=Membership.PLAYER, faction_id=faction.pk)).exists()


def faction_role(user, faction: Faction) -> str | None:
    """can_see_faction and is_moderator in one query (a board's request asks both): "moderator", "player" (the
    faction's own), or None (may not see it)."""
    if not user.is_authenticated:
        return None
    if user.is_superuser:
        return Membership.MODERATOR
    roles = set(Membership.objects.filter(user=user, game_id=faction.game_id).filter(
        Q(role=Membership.MODERATOR) | Q(role=Membership.PLAYER, faction_id=faction.pk)).values_list("role", flat=True))
    return Membership.MODERATOR if Membership.MODERATOR in roles else (Membership.PLAYER if roles else None)


def require_moderator(user, game: Game | int) -> None:
    if not is_moderator(user, game):
        raise PermissionDenied("Only the game's moderators may do this.")


def require_faction(user, faction: Faction) -> None:
    if not can_see_faction(user, faction):
        raise PermissionDenied("This faction's stacks and orders are secret.")


def require_member(user, game: Game | int) -> Membership | None:
    """Any role in the game; returns the membership (None for a superuser without one)."""
    if not user.is_authenticated:
        raise PermissionDenied("Sign in first.")
    game_id = game if isinstance(game, int) else game.pk
    membership = Membership.objects.filter(user=user, game_id=game_id).select_related("faction").first()
    if membership is None and not user.is_superuser:
        raise PermissionDenied("You take no part in this game.")
    return membership


def moderator_game(user, game_id) -> Game:
    """The game a console request acts on: 404 if there is none, 403 unless the user moderates it."""
    game = get_object_or_404(Game, pk=game_id)
    require_moderator(user, game)
    return game
