"""A table in the tiny game: north against south, and a player of east who is not at it."""
import pytest

from larp.campaign.services.members import create_player
from larp.tables import services


@pytest.fixture
def east_player(tiny_game):
    user, _ = create_player(tiny_game.factions.get(code="east"), "east-player", password="east-password-1")
    return user


@pytest.fixture
def table(tiny_game, moderator):
    north = tiny_game.factions.get(code="north")
    south = tiny_game.factions.get(code="south")
    return services.create_table(tiny_game, "red-plains", "Битва у брода",
                                 [("north", "Север", north), ("south", "Юг", south)], moderator, seed=77)
