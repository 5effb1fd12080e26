"""A «Тактические правила» table in the tiny game: north against south, and a player of east who is not at it."""
import pytest
from django.urls import reverse

from larp.campaign.services.members import create_player
from larp.tactical import services


@pytest.fixture
def east_player(tiny_game):
    user, _ = create_player(tiny_game.factions.get(code="east"), "east-player", password="east-password-1")
    return user


@pytest.fixture
def table(tiny_game, moderator):
    north = tiny_game.factions.get(code="north")
    south = tiny_game.factions.get(code="south")
    return services.create(tiny_game, "Битва при Гавгамелах", [("north", "Север", north), ("south", "Юг", south)],
                           moderator, army_lists={"north": "macedonian_sample", "south": "feudal_sample"}, seed=42)


def url(table, name, *args):
    return reverse(f"tactical:{name}", args=[table.game_id, table.pk, *args])


PHALANX = {"name": "Фаланга", "entry": "phalangite", "specialty": "3", "steadiness": "3", "melee": "2",
           "weapon": "infantry_pike", "armour": "light_armour", "shield": "", "horse_armour": "",
           "formation": "very_dense", "count": "12"}
KNIGHTS = {"name": "Рыцари", "entry": "knight", "specialty": "3", "steadiness": "3", "melee": "2",
           "weapon": "cavalry_lance", "armour": "heavy_armour", "shield": "shield", "horse_armour": "",
           "formation": "dense", "count": "6"}
ARCHERS = {"name": "Арбалетчики", "entry": "crossbowman", "specialty": "3", "steadiness": "3", "melee": "2",
           "weapon": "crossbow", "armour": "", "shield": "", "horse_armour": "", "formation": "open", "count": "6"}


def add_unit(client, table, side, data):
    return client.post(url(table, "army", side, "unit"), {f"u-{side}-{k}": v for k, v in data.items()})


def add_general(client, table, side, data):
    return client.post(url(table, "army", side, "general"), {f"g-{side}-{k}": v for k, v in data.items()})


@pytest.fixture
def battle(table, moderator, player, other_player, client_for):
    """Both armies built by their players, approved and the battle started."""
    north, south, mod = client_for(player), client_for(other_player), client_for(moderator)
    assert add_unit(north, table, "north", PHALANX).status_code == 302
    table.refresh_from_db()
    phalanx = table.state["armies"]["north"]["units"][0]["id"]
    assert add_general(north, table, "north", {"name": "Парменион", "entry": "phalangite", "type": "regular",
                                               "unit": phalanx,
                                               "c_in_c": "on", "method": "roll", "dice": "2 1 6 1"}).status_code == 302
    assert add_unit(south, table, "south", KNIGHTS).status_code == 302
    assert add_unit(south, table, "south", ARCHERS).status_code == 302
    assert add_general(south, table, "south", {"name": "Бодуэн", "entry": "knight", "type": "regular", "c_in_c": "on",
                                               "method": "points", "t_steadiness": "1", "t_melee": "1",
                                               "t_specialty": "1", "dice": ""}).status_code == 302
    for side in ("north", "south"):
        assert mod.post(url(table, "approve"), {"side": side, "approve": "on"}).status_code == 302
    assert mod.post(url(table, "start")).status_code == 302
    table.refresh_from_db()
    return table
