"""W38.2 in the executed turn's log: what a unit unseen in a forest did reaches neither the enemy's tablet nor the
projector; its own side and the moderator read everything."""
import re

import pytest
from django.urls import reverse

from larp.redplains import labels, selectors, services
from larp.redplains import situation as sit


@pytest.fixture
def forest_table(tiny_game, moderator):
    """Both armies placed; south's bowmen s3 stand at C32, behind the forest C22 (the defender's)."""
    setup = sit.make_setup({"north": [{"type": "samurai_spears", "figures": 8}, {"type": "samurai_spears", "figures": 8}],
                            "south": [{"type": "ashigaru_spears", "figures": 8}, {"type": "ashigaru_spears", "figures": 8},
                                      {"type": "samurai_bows", "figures": 8}]}, forests=["C22"])
    for u, cell in zip(setup["units"], ("A11", "B11", "C11", "D11", "C32")):
        u["cell"] = cell
    return services.create(tiny_game, moderator, "Лесная засада", [
        ("north", "Север", tiny_game.factions.get(code="north")),
        ("south", "Юг", tiny_game.factions.get(code="south"))], setup, seed=5)


@pytest.fixture
def into_the_forest(forest_table, moderator, player, other_player):
    """Turn 1: the bowmen walk into the forest and stay unseen; the spearmen s1 hold; north gives no order."""
    services.roll(forest_table.pk, player, "north", hand=None)
    services.confirm(forest_table.pk, player, "north")
    services.roll(forest_table.pk, moderator, "south", hand=[6, 6])
    services.give_orders(forest_table.pk, other_player, "south", [
        {"unit": "s3", "slot": 1, "kind": "ordinary", "type": "move"},
        {"unit": "s1", "slot": 1, "kind": "special", "type": "hold"}])
    services.confirm(forest_table.pk, other_player, "south")
    services.execute(forest_table.pk, moderator)
    forest_table.refresh_from_db()
    return forest_table


def log_of(client, table, name="table", region="rp-log"):
    r = client.get(reverse(f"redplains:{name}", args=[table.game_id, table.pk]))
    assert r.status_code == 200
    return re.search(rf'id="{region}".*?</section>', r.content.decode(), re.S).group(0)


BOWS = "Пешие самураи с луками 3"


def test_the_turn_keeps_who_stayed_unseen_and_is_the_replay(into_the_forest):
    table = into_the_forest
    assert sit.unit_map(table.state)["s3"]["cell"] == "C22"
    assert table.state["turns"][0]["unseen"] == ["s3"]
    assert table.state == sit.replay(table.setup, services.step_dicts(table))


def test_the_enemy_and_the_hall_do_not_read_what_the_unseen_unit_did(into_the_forest, moderator, player,
                                                                     other_player, client_for):
    table = into_the_forest
    south = log_of(client_for(other_player), table)
    mod = log_of(client_for(moderator), table)
    for text in (south, mod):
        assert BOWS in text and "C32 → C22" in text
    north = log_of(client_for(player), table)
    hall = log_of(client_for(moderator), table, "projector", "rp-last")
    for text in (north, hall):
        assert BOWS not in text and "C32" not in text and "C22" not in text
        assert "Асигару с копьями 1" in text                  # what was in sight still reads in full
    # the board and the unit list of the north's tablet do not show the bowmen either
    page = client_for(player).get(reverse("redplains:table", args=[table.game_id, table.pk])).content.decode()
    assert 'data-unit="s3"' not in page and BOWS not in page
    # strangers and other factions see no page of the table at all
    assert client_for(None).get(reverse("redplains:table", args=[table.game_id, table.pk])).status_code == 302


def test_orders_of_the_unseen_unit_stay_out_of_the_enemy_s_replay(into_the_forest):
    table = into_the_forest
    north = selectors.turn_log(table.state, table.setup, "north")[0]["orders"]["south"]
    south = selectors.turn_log(table.state, table.setup, "south")[0]["orders"]["south"]
    everything = selectors.turn_log(table.state)[0]["orders"]["south"]
    assert [o["unit"] for o in north] == ["Асигару с копьями 1"]
    assert [o["unit"] for o in south] == [o["unit"] for o in everything] == [BOWS, "Асигару с копьями 1"]


def test_once_it_leaves_the_forest_the_next_turn_reads_in_full(into_the_forest, moderator, player, other_player,
                                                                client_for):
    table = into_the_forest
    services.roll(table.pk, player, "north", hand=None)
    services.confirm(table.pk, player, "north")
    services.roll(table.pk, moderator, "south", hand=[6, 6])
    services.give_orders(table.pk, other_player, "south", [{"unit": "s3", "slot": 1, "kind": "ordinary",
                                                            "type": "move"}])
    services.confirm(table.pk, other_player, "south")
    services.execute(table.pk, moderator)
    table.refresh_from_db()
    assert sit.unit_map(table.state)["s3"]["revealed"] and table.state["turns"][1]["unseen"] == []
    north = selectors.turn_log(table.state, table.setup, "north")
    assert not any("C32" in e for e in north[0]["events"])               # turn 1 stays as the north saw it
    assert any("C22 → C12" in e and BOWS in e for e in north[1]["events"])


def test_an_unseen_shooter_and_target_are_told_only_as_a_unit_in_a_forest():
    state = {"units": [{"id": "s3", "side": "south", "type": "samurai_bows"},
                       {"id": "n1", "side": "north", "type": "samurai_spears"}]}
    shot = {"type": "shoot", "at": "n1", "shots": [{"shooter": "s3", "figures_shooting": 8, "needs": 6,
                                                    "values": [6, 2, 6], "losses": 2}],
            "target": {"figures_after": 6}}
    text = labels.event_text(state, shot, {"s3"})
    assert "Отряд в лесу стреляет: потери 2" in text and "Пешие самураи с луками" not in text
    assert "6 2 6" not in text and "Пешие самураи с копьями 1" in text
    at = {**shot, "at": "s3", "shots": [{**shot["shots"][0], "shooter": "n1"}]}
    text = labels.event_text(state, at, {"s3"})
    assert text.startswith("Обстрел отряда в лесу.") and "Осталось" not in text
    assert "Пешие самураи с луками" in labels.event_text(state, shot)
