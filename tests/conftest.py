"""Shared fixtures: games from the shipped scenarios and one user per role.

Every view is tested for the moderator, the faction's player, another
faction's player and a stranger (healthchecks' BaseTestCase, as fixtures).
"""
import pytest
from django.contrib.auth import get_user_model

from larp.campaign.services.members import add_moderator, create_player
from larp.campaign.services.scenario import load_scenario


@pytest.fixture
def tiny_game(db):
    return load_scenario("tiny", title="Tiny test game", seed=1204)


@pytest.fixture
def latin_game(db):
    return load_scenario("latin-east-1204", title="Latin East test game", seed=1204)


@pytest.fixture
def moderator(tiny_game):
    user, _ = add_moderator(tiny_game, "mod", password="mod-password-1")
    return user


@pytest.fixture
def player(tiny_game):
    user, _ = create_player(tiny_game.factions.get(code="north"), "north-player", password="north-password-1")
    return user


@pytest.fixture
def other_player(tiny_game):
    user, _ = create_player(tiny_game.factions.get(code="south"), "south-player", password="south-password-1")
    return user


@pytest.fixture
def stranger(db):
    return get_user_model().objects.create_user("stranger", password="stranger-password-1")


@pytest.fixture
def client_for(client):
    """client_for(user) -> a test client signed in as that user (None: anonymous)."""
    from django.test import Client

    def make(user):
        c = Client()
        if user is not None:
            c.force_login(user)
        return c

    return make
