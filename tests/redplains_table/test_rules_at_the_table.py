"""Rules the table adds around the engine: the winner's stop (W39.3), swift horses' two moves (W21), the odds
the moderator sees before a roll."""
import pytest
from django.urls import reverse

from larp.redplains import selectors, services
from larp.redplains import situation as sit
from larp.tables import services as tables
from larp.tables.access import seat
from larp.tables.models import Table

from .conftest import deploy_both, give_turn_one


@pytest.fixture
def routed_south(tiny_game, moderator):
    """A table the bridge made: both armies placed, every southern unit has fled once and stands far away."""
    setup = sit.make_setup({"north": [{"type": "cavalry", "figures": 8}, {"type": "samurai_spears", "figures": 8}],
                            "south": [{"type": "ashigaru_spears", "figures": 6},
                                      {"type": "ashigaru_spears", "figures": 6}]})
    for u, cell in zip(setup["units"], ("A11", "B11", "C36", "D36")):
        u["cell"] = cell
        if u["side"] == "south":
            u["fled_ever"] = True
    north = tiny_game.factions.get(code="north")
    south = tiny_game.factions.get(code="south")
    return tables.create_table(tiny_game, "red-plains", "Преследование", [("north", "Север", north),
                                                                          ("south", "Юг", south)],
                               moderator, setup=setup, origin={"battle": 7, "turn": 3})


def quiet_turn(table, user):
    for side in sit.SIDES:
        services.roll(table.pk, user, side, hand=[3, 3])
        services.confirm(table.pk, user, side)
    services.execute(table.pk, user)


def test_the_winner_may_stop_the_battle(routed_south, moderator, player, other_player, client_for):
    table = routed_south
    quiet_turn(table, moderator)
    table.refresh_from_db()
    assert table.state["turns"][0]["end"]["may_stop"] == "north" and table.status == Table.PLAYING
    page = client_for(player).get(reverse("redplains:table", args=[table.game_id, table.pk])).content.decode()
    assert "data-stop" in page
    assert "data-stop" not in client_for(other_player).get(
        reverse("redplains:table", args=[table.game_id, table.pk])).content.decode()
    r = client_for(other_player).post(reverse("redplains:act", args=[table.game_id, table.pk, "stop"]))
    assert r.status_code == 400 and "не может остановить битву" in r.content.decode()
    assert "W39.3" not in r.content.decode()           # the rule numbers stay on the moderator's screen
    r = client_for(player).post(reverse("redplains:act", args=[table.game_id, table.pk, "stop"]))
    assert r.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.FINISHED
    assert table.result["winner"] == "north" and table.result["ended_by"] == "W39.3"
    assert table.state == sit.replay(table.setup, services.step_dicts(table))


def test_cavalry_may_move_twice_on_one_ordinary_order(table, moderator, player):
    deploy_both(table, moderator)
    services.roll(table.pk, moderator, "north", hand=[6, 6])
    table.refresh_from_db()
    pickers = selectors.order_pickers(table, table.state, "north")
    lookup = pickers[0]["lookup"]
    assert lookup[("ordinary:move", "")] == {"unit": "n1", "slot": 1, "kind": "ordinary", "type": "move"}
    assert lookup[("ordinary:move", "move")]["actions"] == ["move", "move"]
    services.give_orders(table.pk, player, "north", [
        {"unit": "n1", "slot": 1, "kind": "ordinary", "type": "move", "actions": ["move", "move"]}])
    table.refresh_from_db()
    assert table.state["orders_check"]["north"]["ok"]


def test_the_moderator_sees_the_exact_odds_before_the_dice(table, moderator, player, other_player):
    deploy_both(table, moderator)
    give_turn_one(table, moderator, player, other_player)
    table.refresh_from_db()
    view = selectors.execution(table, table.state)
    odds = view["awaiting"]["odds"]
    assert view["awaiting"]["count"] == 4
    # 4 dice at 5+ (Forest of spears takes the charge): P(0 hits) = (2/3)^4 = 19.8 %
    assert odds["hits"][0] == {"hits": 0, "percent": "19,8"}
    assert sum(float(h["percent"].replace(",", ".")) for h in odds["hits"]) == pytest.approx(100, abs=0.2)
    assert seat(moderator, table.game_id, table.pk).moderator


def test_the_general_retreat_is_signalled_from_turn_two_and_carried_out(tiny_game, moderator, other_player):
    setup = sit.make_setup({"north": [{"type": "cavalry", "figures": 8}, {"type": "samurai_spears", "figures": 8}],
                            "south": [{"type": "ashigaru_spears", "figures": 6},
                                      {"type": "ashigaru_spears", "figures": 6}]})
    for u, cell in zip(setup["units"], ("A31", "B31", "C11", "D11")):
        u["cell"] = cell
    south = tiny_game.factions.get(code="south")
    table = tables.create_table(tiny_game, "red-plains", "Отход", [("north", "Север", None), ("south", "Юг", south)],
                                moderator, setup=setup)
    services.roll(table.pk, moderator, "south", hand=[3, 3])
    services.give_orders(table.pk, other_player, "south", [], general_retreat=True)
    table.refresh_from_db()
    assert table.state["orders_check"]["south"]["refused"][0]["reason"] == "general_retreat_too_early"
    with pytest.raises(sit.StepRefused):
        services.confirm(table.pk, other_player, "south")
    services.give_orders(table.pk, other_player, "south", [])
    services.confirm(table.pk, other_player, "south")
    services.roll(table.pk, moderator, "north", hand=[3, 3])
    services.confirm(table.pk, moderator, "north")
    services.execute(table.pk, moderator)
    services.roll(table.pk, moderator, "south", hand=[3, 3])
    services.give_orders(table.pk, other_player, "south", [], general_retreat=True)
    services.confirm(table.pk, other_player, "south")
    services.roll(table.pk, moderator, "north", hand=[3, 3])
    services.confirm(table.pk, moderator, "north")
    services.execute(table.pk, moderator)
    table.refresh_from_db()
    assert table.state["general_retreat"] == {"north": None, "south": 2}
    retreats = [e for e in table.state["turns"][-1]["events"] if e["type"] == "retreat"]
    assert {e["unit"] for e in retreats} == {"s1", "s2"}
    assert {u["id"]: u["cell"] for u in table.state["units"]}["s1"] == "C21"
    assert table.state == sit.replay(table.setup, services.step_dicts(table))


def test_shinobi_infiltration_at_deployment(tiny_game, moderator, player, other_player, client_for):
    from larp.dice.models import Roll
    from larp.redplains.engine.modes import shinobi_mode

    from .conftest import ARMIES, PLACES
    north = tiny_game.factions.get(code="north")
    south = tiny_game.factions.get(code="south")
    table = services.create(tiny_game, moderator, "Синоби", [("north", "Север", north), ("south", "Юг", south)],
                            sit.make_setup(ARMIES, shinobi={"north": 3, "south": 2}), seed=11)
    act = reverse("redplains:act", args=[tiny_game.pk, table.pk, "deploy"])
    cells = {f"cell_{u}": c for u, c in PLACES["north"].items()}
    r = client_for(player).post(act, {**cells, "infiltrate": 4})
    assert r.status_code == 400 and "Синоби не может проникнуть больше" in r.content.decode()
    assert client_for(player).post(act, {**cells, "infiltrate": 2}).status_code == 302
    services.confirm(table.pk, player, "north")
    services.deploy(table.pk, other_player, "south", PLACES["south"], infiltrate=1)
    services.confirm(table.pk, other_player, "south")
    table.refresh_from_db()
    confirm = table.steps.filter(kind="confirm").last()
    rolled = confirm.payload["shinobi_dice"]
    assert {k: len(v) for k, v in rolled.items()} == {"north": 1, "south": 1}
    assert Roll.objects.filter(ref=confirm.ref, source=Roll.SERVER).count() == 2
    expected = shinobi_mode({"shinobi": {"infiltration": {"north": {"infiltrate": 2, "guard": 1},
                                                          "south": {"infiltrate": 1, "guard": 1}}},
                             "dice": rolled})["infiltration"]
    assert table.state["infiltration"] == expected and expected["north"]["through"] == 1
    # W6.5: north's shinobi got through, so the plan-change phase; south has nothing to change
    assert table.state["phase"] == sit.PLAN_CHANGE and table.state["confirmed"] == {"north": False, "south": True}
    scout = reverse("redplains:act", args=[tiny_game.pk, table.pk, "scout"])
    r = client_for(player).post(scout, {"cells": "C11 D11 C12"})
    assert r.status_code == 400 and "не больше двух" in r.content.decode()
    with pytest.raises(sit.StepRefused):
        services.scout(table.pk, other_player, "south", ["A11"])
    assert client_for(player).post(scout, {"cells": "c11, C21"}).status_code == 302
    table.refresh_from_db()
    assert [x["unit"] for x in table.state["scouted"]["north"]["seen"]] == ["s1"]
    mine = client_for(player).get(reverse("redplains:table", args=[tiny_game.pk, table.pk])).content.decode()
    assert "C11: Асигару с копьями, фигурок 4" in mine
    theirs = client_for(other_player).get(reverse("redplains:table", args=[tiny_game.pk, table.pk])).content.decode()
    assert "C11: Асигару с копьями" not in theirs and 'data-unit="n1"' not in theirs
    services.deploy(table.pk, player, "north", {"n1": "B11", "n2": "A11"})              # the cavalry swap places
    services.confirm(table.pk, player, "north")
    table.refresh_from_db()
    assert table.state["phase"] == sit.COMMAND and table.state["turn"] == 1
    assert sit.unit_map(table.state)["n1"]["cell"] == "B11"
    assert table.state == sit.replay(table.setup, services.step_dicts(table))
    mine = client_for(player).get(reverse("redplains:table", args=[tiny_game.pk, table.pk])).content.decode()
    theirs = client_for(other_player).get(reverse("redplains:table", args=[tiny_game.pk, table.pk])).content.decode()
    assert "проникли — 1" in mine and "проникли — 0" in theirs
    assert "проникли — 1" not in theirs and "проникли — 0" not in mine


def test_a_general_gives_an_extra_special_order_near_him(tiny_game, moderator, player, client_for):
    from .conftest import PLACES
    north = tiny_game.factions.get(code="north")
    data = {"title": "С генералом", "north_name": "Журавли", "north_faction": north.pk, "south_name": "Скорпионы",
            "defender": "south", "north_messengers": 0, "south_messengers": 0,
            "north_type_1": "cavalry", "north_figures_1": 16, "north_type_3": "cavalry", "north_figures_3": 16,
            "north_general_1": "Акодо", "north_general_unit_1": 3,
            "south_type_1": "ashigaru_spears", "south_figures_1": 4, "south_type_2": "ashigaru_spears",
            "south_figures_2": 4}
    r = client_for(moderator).post(reverse("redplains:new", args=[tiny_game.pk]), data)
    assert r.status_code == 302
    table = tiny_game.tables.get()
    assert table.setup["leaders"] == [{"name": "Акодо", "kind": "general", "unit": "n2"}]
    for side in sit.SIDES:
        services.deploy(table.pk, moderator, side, PLACES[side])
        services.confirm(table.pk, moderator, side)
    services.roll(table.pk, moderator, "north", hand=[1, 2])          # failed low stake: no special of its own
    table.refresh_from_db()
    assert table.state["command"]["north"]["result"]["extra"]["special"] == [{"general": "Акодо", "count": 1}]
    attack = {"slot": 1, "kind": "special", "type": "decisive_attack"}
    services.give_orders(table.pk, player, "north", [{**attack, "unit": "n2", "target": "s2"}])
    table.refresh_from_db()
    assert table.state["orders_check"]["north"]["ok"]
    services.give_orders(table.pk, player, "north", [{**attack, "unit": "n2", "target": "s2"},
                                                     {**attack, "unit": "n1", "target": "s1"}])
    table.refresh_from_db()
    assert [r["reason"] for r in table.state["orders_check"]["north"]["refused"]] == ["not_enough_special"]
    page = client_for(player).get(reverse("redplains:table", args=[tiny_game.pk, table.pk])).content.decode()
    assert "генерал Акодо" in page


def test_a_banner_is_raised_once_a_battle_and_hidden_until_the_turn(tiny_game, moderator, player, other_player,
                                                                      client_for):
    setup = sit.make_setup({"north": [{"type": "cavalry", "figures": 8}, {"type": "samurai_spears", "figures": 8}],
                            "south": [{"type": "ashigaru_spears", "figures": 6},
                                      {"type": "ashigaru_spears", "figures": 6}]},
                           banners={"north": {"crab": 1}})
    for u, cell in zip(setup["units"], ("A31", "B31", "C36", "D36")):
        u["cell"] = cell
    north = tiny_game.factions.get(code="north")
    south = tiny_game.factions.get(code="south")
    table = tables.create_table(tiny_game, "red-plains", "Знамя", [("north", "Север", north), ("south", "Юг", south)],
                                moderator, setup=setup)
    services.roll(table.pk, moderator, "north", hand=[3, 3])
    page = client_for(player).get(reverse("redplains:table", args=[tiny_game.pk, table.pk])).content.decode()
    assert 'name="b_n1"' in page and "Знамя Краба" in page
    r = client_for(player).post(reverse("redplains:act", args=[tiny_game.pk, table.pk, "orders"]), {"b_n1": "crab"})
    assert r.status_code == 302
    table.refresh_from_db()
    assert table.state["banners"]["north"] == [{"unit": "n1", "banner": "crab"}]
    assert "Знамя Краба" not in client_for(other_player).get(
        reverse("redplains:table", args=[tiny_game.pk, table.pk])).content.decode()
    services.confirm(table.pk, player, "north")
    services.roll(table.pk, moderator, "south", hand=[3, 3])
    services.confirm(table.pk, other_player, "south")
    services.execute(table.pk, moderator)
    table.refresh_from_db()
    assert table.state["banners_left"]["north"] == {"crab": 0}
    assert sit.unit_map(table.state)["n1"]["crab_carry"] is True          # neither fought nor shot at: it carries
    services.roll(table.pk, moderator, "north", hand=[3, 3])
    services.give_orders(table.pk, player, "north", [], banners=[{"unit": "n2", "banner": "crab"}])
    table.refresh_from_db()
    assert [r["reason"] for r in table.state["orders_check"]["north"]["refused"]] == ["banner_used_up"]
    assert table.state == sit.replay(table.setup, services.step_dicts(table))


def test_a_minor_clan_gives_an_extra_ordinary_order_to_its_units(tiny_game, moderator, player, client_for):
    armies = {"north": [{"type": "samurai_spears", "figures": 8}, {"type": "ashigaru_spears", "figures": 8,
                                                                     "minor_clan": "Икома"},
                        {"type": "samurai_bows", "figures": 8}],
              "south": [{"type": "ashigaru_spears", "figures": 6}, {"type": "ashigaru_spears", "figures": 6}]}
    setup = sit.make_setup(armies)
    for u, cell in zip(setup["units"], ("A11", "B11", "A21", "C36", "D36")):
        u["cell"] = cell
    north = tiny_game.factions.get(code="north")
    table = tables.create_table(tiny_game, "red-plains", "Икома", [("north", "Север", north), ("south", "Юг", None)],
                                moderator, setup=setup)
    services.roll(table.pk, moderator, "north", hand=[1, 2])              # failed low stake: 3 ordinary
    table.refresh_from_db()
    assert table.state["command"]["north"]["result"]["extra"]["ordinary"] == [{"minor_clan": "Икома", "count": 1}]
    wait_move = [{"slot": 1, "kind": "ordinary", "type": "wait"}, {"slot": 2, "kind": "ordinary", "type": "move"}]
    services.give_orders(table.pk, player, "north", [{**o, "unit": "n2"} for o in wait_move] +
                         [{**o, "unit": "n1"} for o in wait_move])
    table.refresh_from_db()
    assert table.state["orders_check"]["north"]["ok"]
    services.give_orders(table.pk, player, "north", [{**o, "unit": "n3"} for o in wait_move] +
                         [{**o, "unit": "n1"} for o in wait_move])
    table.refresh_from_db()
    assert [r["reason"] for r in table.state["orders_check"]["north"]["refused"]] == ["extra_order_misused"]
    page = client_for(player).get(reverse("redplains:table", args=[tiny_game.pk, table.pk])).content.decode()
    assert "клан Икома" in page and "Дополнительно: обычных 1 — отрядам клана Икома" in page


def test_a_small_unit_is_withdrawn_to_the_rear(tiny_game, moderator, player, client_for):
    setup = sit.make_setup({"north": [{"type": "samurai_spears", "figures": 8}, {"type": "samurai_spears",
                                                                                 "figures": 8}],
                            "south": [{"type": "ashigaru_spears", "figures": 6},
                                      {"type": "ashigaru_spears", "figures": 6}]})
    for u, cell in zip(setup["units"], ("A11", "B11", "C36", "D36")):
        u["cell"] = cell
    setup["units"][1]["figures"] = 3                                     # n2 has lost most of its men
    north = tiny_game.factions.get(code="north")
    table = tables.create_table(tiny_game, "red-plains", "Отвод", [("north", "Север", north), ("south", "Юг", None)],
                                moderator, setup=setup)
    services.roll(table.pk, moderator, "north", hand=[3, 3])
    page = client_for(player).get(reverse("redplains:table", args=[tiny_game.pk, table.pk])).content.decode()
    assert 'name="w_n2"' in page and 'name="w_n1"' not in page
    r = client_for(player).post(reverse("redplains:act", args=[tiny_game.pk, table.pk, "orders"]),
                                {"w_n2": "on", "w_n1": "on"})
    assert r.status_code == 302
    table.refresh_from_db()
    assert table.state["withdraw"]["north"] == ["n2"]                  # n1's box was never offered
    services.give_orders(table.pk, player, "north", [], withdraw=["n1"])
    table.refresh_from_db()
    assert [r["reason"] for r in table.state["orders_check"]["north"]["refused"]] == ["withdraw_not_allowed"]
    services.give_orders(table.pk, player, "north", [], withdraw=["n2"])
    services.confirm(table.pk, player, "north")
    services.roll(table.pk, moderator, "south", hand=[3, 3])
    services.confirm(table.pk, moderator, "south")
    services.execute(table.pk, moderator)
    table.refresh_from_db()
    assert sit.unit_map(table.state)["n2"]["status"] == "withdrawn" and sit.unit_map(table.state)["n2"]["cell"] is None


def test_the_tablet_shows_each_stakes_odds_before_the_roll(table, moderator, player, client_for):
    deploy_both(table, moderator)
    page = client_for(player).get(reverse("redplains:table", args=[table.game_id, table.pk])).content.decode()
    # one messenger: P(5+ within two rolls) = 35/36, P(8+ within two rolls) = 95/144
    assert "малая ставка — 97 %, большая — 66 %" in page


def test_the_moderator_edits_a_bridge_tables_armies_before_play(routed_south, moderator, player, client_for):
    table = routed_south
    url = reverse("redplains:act", args=[table.game_id, table.pk, "roster"])
    assert client_for(player).post(url, {"unit": "s1", "type": "cavalry", "figures": 8}).status_code == 403
    assert client_for(moderator).post(url, {"unit": "s1", "type": "samurai_spears", "figures": 10}).status_code == 302
    r = client_for(moderator).post(url, {"side": "south", "type": "samurai_bows", "figures": 6, "cell": "A11"})
    assert r.status_code == 400 and "свободную клетку" in r.content.decode()
    assert client_for(moderator).post(url, {"side": "south", "type": "samurai_bows", "figures": 6,
                                            "cell": "C12"}).status_code == 302
    assert client_for(moderator).post(url, {"unit": "s2", "remove": "on"}).status_code == 302
    table.refresh_from_db()
    units = sit.unit_map(table.state)
    assert units["s1"]["type"] == "samurai_spears" and units["s1"]["figures"] == 10
    assert units["s3"]["cell"] == "C12" and "s2" not in units
    assert table.state["start"] == {"north": 16, "south": 16} and table.status == Table.SETUP
    services.roll(table.pk, moderator, "north", hand=[3, 3])
    r = client_for(moderator).post(url, {"unit": "s1", "type": "cavalry", "figures": 8})
    assert r.status_code == 400 and "только до начала боя" in r.content.decode()
    table.refresh_from_db()
    assert table.state == sit.replay(table.setup, services.step_dicts(table))
