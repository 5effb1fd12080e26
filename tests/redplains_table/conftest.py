"""A Red Plains table in the tiny game: north (the north faction) against south, and an east player not at it."""
import pytest

from larp.campaign.services.members import create_player
from larp.redplains import services
from larp.redplains import situation as sit

# Two heavy cavalry units against two small bands of spearmen: a battle decided in one turn.
ARMIES = {"north": [{"type": "cavalry", "figures": 16}, {"type": "cavalry", "figures": 16}],
          "south": [{"type": "ashigaru_spears", "figures": 4}, {"type": "ashigaru_spears", "figures": 4}]}
PLACES = {"north": {"n1": "A11", "n2": "B11"}, "south": {"s1": "C11", "s2": "D11"}}


@pytest.fixture
def east_player(tiny_game):
    user, _ = create_player(tiny_game.factions.get(code="east"), "east-player", password="east-password-1")
    return user


@pytest.fixture
def table(tiny_game, moderator):
    north = tiny_game.factions.get(code="north")
    south = tiny_game.factions.get(code="south")
    return services.create(tiny_game, moderator, "Битва на Красной равнине",
                           [("north", "Клан Журавля", north), ("south", "Клан Скорпиона", south)],
                           sit.make_setup(ARMIES, messengers={"north": 1, "south": 0}), seed=4242)


def deploy_both(table, moderator):
    for side in sit.SIDES:
        services.deploy(table.pk, moderator, side, PLACES[side])
        services.confirm(table.pk, moderator, side)


def give_turn_one(table, moderator, player, other_player):
    """North attacks with both cavalry units (ordinary moves into the enemy's cells); south gives no order."""
    services.stake(table.pk, player, "north", "low")
    services.roll(table.pk, player, "north")
    services.give_orders(table.pk, player, "north", [
        {"unit": "n1", "slot": 1, "kind": "ordinary", "type": "move"},
        {"unit": "n2", "slot": 1, "kind": "ordinary", "type": "move"}])
    services.confirm(table.pk, player, "north")
    services.roll(table.pk, moderator, "south", hand=[3, 4])
    services.confirm(table.pk, other_player, "south")


@pytest.fixture
def shinobi_table(tiny_game, moderator):
    """North has 3 shinobi and 1 messenger, south 2 shinobi and 1 messenger; all try to get in, none guard."""
    north = tiny_game.factions.get(code="north")
    south = tiny_game.factions.get(code="south")
    return services.create(tiny_game, moderator, "Ночь синоби",
                           [("north", "Клан Журавля", north), ("south", "Клан Скорпиона", south)],
                           sit.make_setup(ARMIES, messengers={"north": 1, "south": 1},
                                          shinobi={"north": 3, "south": 2}), seed=77)


def deploy_with_shinobi(table, moderator):
    """Both sides deploy and send every shinobi in (no guards: all get through); the plan-change phase is
    confirmed without scouting, and turn 1 begins."""
    for side, n in (("north", 3), ("south", 2)):
        services.deploy(table.pk, moderator, side, PLACES[side], infiltrate=n)
    for side in sit.SIDES:
        services.confirm(table.pk, moderator, side)
    for side in sit.SIDES:
        services.confirm(table.pk, moderator, side)
