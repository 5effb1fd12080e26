"""W38.2 ruling at the table: a unit in a forest is hidden from its enemy until revealed (a melee, leaving the forest —
the engine's `revealed`) or *while an enemy is adjacent to its cell, diagonals included* (the table's own check,
situation.unseen). Then the enemy's board, unit list, order picker and the turn log show it; the hall as well."""
import re

import pytest
from django.urls import reverse

from larp.redplains import selectors, services
from larp.redplains import situation as sit

BOWS = "Пешие самураи с луками 3"


@pytest.fixture
def forest(tiny_game, moderator):
    """South's bowmen s3 stand unrevealed in the forest C22; north's spearmen at A11 and B11, far from it."""
    setup = sit.make_setup({"north": [{"type": "samurai_spears", "figures": 8}, {"type": "samurai_spears", "figures": 8}],
                            "south": [{"type": "ashigaru_spears", "figures": 8}, {"type": "ashigaru_spears", "figures": 8},
                                      {"type": "samurai_bows", "figures": 8}]}, forests=["C22"])
    for u, cell in zip(setup["units"], ("A11", "B11", "C11", "D11", "C22")):
        u["cell"] = cell
    return services.create(tiny_game, moderator, "Лес у дороги", [
        ("north", "Север", tiny_game.factions.get(code="north")),
        ("south", "Юг", tiny_game.factions.get(code="south"))], setup, seed=5)


def next_to_the_forest(table, moderator, cell="C12"):
    """The moderator sets north's n2 down next to the forest (C12 touches C22 on its side; C13 on its corner)."""
    services.override(table.pk, moderator, "n2", {"cell": cell}, "отряд подошёл к лесу")
    table.refresh_from_db()


def html(client, table, name="table"):
    r = client.get(reverse(f"redplains:{name}", args=[table.game_id, table.pk]))
    assert r.status_code == 200
    return r.content.decode()


def test_unseen_until_an_enemy_stands_next_to_the_forest(forest, moderator):
    assert sit.unseen(forest.setup, forest.state) == ["s3"]
    next_to_the_forest(forest, moderator, "C13")                           # a corner is enough (diagonals too)
    assert sit.unseen(forest.setup, forest.state) == []
    assert "s3" in {u["id"] for u in sit.visible_enemies(forest.setup, forest.state, "north")}
    services.undo(forest.pk, moderator, "не туда")
    forest.refresh_from_db()
    assert sit.unseen(forest.setup, forest.state) == ["s3"]
    # the unit's own side and a unit out of the battle do not count
    state = {**forest.state, "units": [dict(u, cell="C12", status="destroyed") if u["id"] == "n2" else u
                                       for u in forest.state["units"]]}
    assert sit.unseen(forest.setup, state) == ["s3"]


def test_every_role_sees_what_the_ruling_lets_it(forest, moderator, player, other_player, east_player, stranger,
                                                  client_for):
    north, south, mod = client_for(player), client_for(other_player), client_for(moderator)
    before = html(north, forest)
    assert 'data-unit="s3"' not in before and BOWS not in before and 'value="s3"' not in before
    assert 'data-unit="s3"' not in html(mod, forest, "projector")
    for c in (south, mod):
        assert 'data-unit="s3"' in html(c, forest)
    next_to_the_forest(forest, moderator)
    # a roll that gives a special order: with none, no attack (a special order) is offered to name a target by
    services.roll(forest.pk, moderator, "north", hand=[6, 6])
    after = html(north, forest)
    assert 'data-unit="s3"' in after and BOWS in after                    # the board and the unit list
    picker = re.search(r'data-picker="n2".*?</div>\s*</div>', after, re.S).group(0)
    assert 'value="s3"' in picker                                         # it may be named as a target now
    assert 'data-unit="s3"' in html(mod, forest, "projector")             # the hall sees what the enemy sees
    for user, code in ((east_player, 403), (stranger, 403)):
        assert client_for(user).get(reverse("redplains:table", args=[forest.game_id, forest.pk])).status_code == code
    assert client_for(None).get(reverse("redplains:table", args=[forest.game_id, forest.pk])).status_code == 302
    assert client_for(player).get(reverse("redplains:projector", args=[forest.game_id, forest.pk])).status_code == 403


def test_the_log_reads_in_full_while_an_enemy_is_next_to_the_forest(forest, moderator, player, other_player,
                                                                    client_for):
    """With n2 next to the forest, south's bowmen hold in the forest; the turn's log tells north all of it."""
    next_to_the_forest(forest, moderator)
    services.roll(forest.pk, player, "north", hand=None)
    services.confirm(forest.pk, player, "north")
    services.roll(forest.pk, moderator, "south", hand=[6, 6])
    services.give_orders(forest.pk, other_player, "south", [{"unit": "s3", "slot": 1, "kind": "special",
                                                             "type": "hold"}])
    services.confirm(forest.pk, other_player, "south")
    services.execute(forest.pk, moderator)
    forest.refresh_from_db()
    turn = forest.state["turns"][0]
    assert turn["unseen"] == [] and not sit.unit_map(forest.state)["s3"].get("revealed")
    north = selectors.turn_log(forest.state, forest.setup, "north")[0]
    assert any(BOWS in e for e in north["events"]) and [o["unit"] for o in north["orders"]["south"]] == [BOWS]
    log = re.search(r'id="rp-log".*?</section>', html(client_for(player), forest), re.S).group(0)
    assert BOWS in log
    assert forest.state == sit.replay(forest.setup, services.step_dicts(forest))
    # once north's unit has gone, the bowmen hide again: the next turn keeps them unseen
    services.override(forest.pk, moderator, "n2", {"cell": "B11"}, "отряд отошёл")
    forest.refresh_from_db()
    assert sit.unseen(forest.setup, forest.state) == ["s3"]
    assert 'data-unit="s3"' not in html(client_for(player), forest)
