"""An «Орда» table in the tiny game: Rus (north's players) against North Mongolia (south's), Border mode,
on the complete data set MADE UP FOR THE TESTS (tests/orda_table/data.py)."""
import pytest
from django.utils import translation

from larp.campaign.services.members import create_player
from larp.orda import services
from tests.orda_table.data import complete_data


@pytest.fixture
def east_player(tiny_game):
    user, _ = create_player(tiny_game.factions.get(code="east"), "east-player", password="east-password-1")
    return user


@pytest.fixture
def orda_data(tiny_game, moderator):
    return services.create_dataset(tiny_game, "Тестовый набор", moderator, complete_data())


@pytest.fixture
def orda_table(tiny_game, moderator, orda_data):
    with translation.override("ru"):
        return services.create(tiny_game, moderator, title="Бой у брода", data=orda_data, mode="border",
                               order=["rus", "north_mongolia"],
                               factions={"rus": tiny_game.factions.get(code="north"),
                                         "north_mongolia": tiny_game.factions.get(code="south")})
