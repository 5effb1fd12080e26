"""Role checks: one place (larp.campaign.access) decides; moderator, own player, other player, stranger."""
import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from larp.campaign import access
from larp.campaign.models import Membership
from larp.campaign.services.members import create_player


def test_moderator_sees_everything(tiny_game, moderator):
    assert access.is_moderator(moderator, tiny_game)
    for faction in tiny_game.factions.all():
        assert access.can_see_faction(moderator, faction)
    access.require_moderator(moderator, tiny_game)


def test_player_sees_only_own_faction(tiny_game, player, other_player):
    north = tiny_game.factions.get(code="north")
    south = tiny_game.factions.get(code="south")
    assert access.player_faction(player, tiny_game) == north
    assert access.can_see_faction(player, north)
    assert not access.can_see_faction(player, south)
    assert not access.can_see_faction(other_player, north)
    with pytest.raises(PermissionDenied):
        access.require_faction(player, south)
    with pytest.raises(PermissionDenied):
        access.require_moderator(player, tiny_game)


def test_stranger_and_anonymous_see_nothing(tiny_game, stranger):
    from django.contrib.auth.models import AnonymousUser

    north = tiny_game.factions.get(code="north")
    for user in (stranger, AnonymousUser()):
        assert not access.is_moderator(user, tiny_game)
        assert not access.can_see_faction(user, north)
        with pytest.raises(PermissionDenied):
            access.require_member(user, tiny_game)


def test_moderator_of_another_game_is_a_stranger_here(tiny_game, latin_game):
    from larp.campaign.services.members import add_moderator

    other_mod, _ = add_moderator(latin_game, "latin-mod")
    assert not access.is_moderator(other_mod, tiny_game)
    assert list(access.moderated_games(other_mod)) == [latin_game]


def test_only_moderators_create_players(tiny_game, player, moderator):
    east = tiny_game.factions.get(code="east")
    with pytest.raises(PermissionDenied):
        create_player(east, "sneaky", by=player)
    user, password = create_player(east, "east-player", by=moderator)
    assert access.player_faction(user, tiny_game) == east and len(password) >= 10
    with pytest.raises(ValidationError):
        create_player(east, "east-player", by=moderator)


def test_a_player_belongs_to_one_faction_of_one_game(tiny_game, latin_game, player):
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.create(
            user=player, game=latin_game, role=Membership.PLAYER, faction=latin_game.factions.first()
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.create(user=player, game=latin_game, role=Membership.MODERATOR,
                                  faction=latin_game.factions.first())
