"""W11.3, W41.3 at the table: a general or the commander may be a Brawler or have Charisma, with the values the
moderator enters (the rules give none, W40); the table sends them to the engine as modifiers with `source`
"brawler" / "charisma" on the unit the leader rides in; a leader whose unit is out of the battle gives none
(W11.2); a signals report says whether such a leader is with the unit (W10.2); the enemy does not learn the traits."""
import copy

import pytest
from django.urls import reverse

from larp.redplains import selectors, services
from larp.redplains import situation as sit
from larp.redplains.engine.turn import turn_mode
from larp.tables.models import Step, Table

from .conftest import ARMIES

CHARISMA = {"charisma": {"impetus": 2}}
BRAWLER = {"brawler": {"steadiness": 1}}
CELLS = {"n1": "A11", "n2": "B11", "s1": "C11", "s2": "D11"}


def leaders_setup(placed=True, shinobi=None):
    setup = sit.make_setup(ARMIES, generals={"north": [("Акодо", 1, CHARISMA)]},
                           commanders={"south": ("Баян", 2, BRAWLER)}, shinobi=shinobi)
    if placed:
        for u in setup["units"]:
            u["cell"] = CELLS[u["id"]]
    return setup


@pytest.fixture
def placed(tiny_game, moderator):
    north = tiny_game.factions.get(code="north")
    south = tiny_game.factions.get(code="south")
    return services.create(tiny_game, moderator, "Харизма у брода", [("north", "Клан Журавля", north),
                                                                      ("south", "Клан Скорпиона", south)],
                           leaders_setup(), seed=12)


def attack(table, moderator, player, other_player):
    """North's n1 (with the charismatic general) moves into s1; south holds with s1; the dice by the server."""
    services.roll(table.pk, player, "north", hand=None)
    services.give_orders(table.pk, player, "north", [{"unit": "n1", "slot": 1, "kind": "ordinary", "type": "move"}])
    services.confirm(table.pk, player, "north")
    services.roll(table.pk, moderator, "south", hand=[6, 6])
    services.give_orders(table.pk, other_player, "south", [{"unit": "s1", "slot": 1, "kind": "special",
                                                            "type": "hold"}])
    services.confirm(table.pk, other_player, "south")
    for _ in range(30):
        table.refresh_from_db()
        if sit.preview(table.setup, table.state)["complete"]:
            break
        services.execution_dice(table.pk, moderator)
    table.refresh_from_db()
    return table


def test_the_setup_keeps_the_traits_as_entered():
    setup = leaders_setup(placed=False)
    assert setup["leaders"] == [{"name": "Акодо", "kind": "general", "unit": "n1", "traits": CHARISMA},
                                {"name": "Баян", "kind": "commander", "unit": "s2", "traits": BRAWLER}]
    assert sit.leader("Тогаси", "commander", "n2", {"charisma": {"impetus": 0}}) == \
        {"name": "Тогаси", "kind": "commander", "unit": "n2", "traits": {"charisma": {}}}
    for bad in ({"wisdom": {}}, {"charisma": {"luck": 1}}, {"charisma": {"impetus": 9}}, {"brawler": {"armour": "1"}},
                ["charisma"]):
        with pytest.raises(sit.StepRefused):
            sit.clean_traits(bad)


def test_the_engine_takes_the_traits_as_modifiers_of_the_leader_s_unit(placed, moderator, player, other_player):
    table = attack(placed, moderator, player, other_player)
    case = sit.turn_case(table.setup, table.state)
    units = {u["id"]: u for u in case["units"]}
    assert units["n1"]["modifiers"] == [{"stat": "impetus", "value": 2, "source": "charisma", "reason": "Акодо",
                                         "_leader": 0}]
    assert units["s2"]["modifiers"] == [{"stat": "steadiness", "value": 1, "source": "brawler", "reason": "Баян",
                                         "_leader": 1}]
    assert "modifiers" not in units["n2"] and "modifiers" not in units["s1"]
    assert all("modifiers" not in u for u in table.state["units"])        # nothing of it is stored in the state
    with_traits = turn_mode(case)
    plain = copy.deepcopy(case)
    for u in plain["units"]:
        u.pop("modifiers", None)
    without = turn_mode(plain)
    melee = next(e for e in with_traits["events"] if e["type"] == "melee")
    bare = next(e for e in without["events"] if e["type"] == "melee")
    assert melee["units"]["n1"]["impetus"] == bare["units"]["n1"]["impetus"] + 2
    # the moderator's execution panel names the modifier; the melee line shows the impetus the engine used
    moderator_view = selectors.execution(table, table.state)
    assert moderator_view["traits"] == ["Харизма — генерал Акодо, отряд «Конные самураи 1»: натиск +2",
                                        "Рубака — полководец Баян, отряд «Асигару с копьями 2»: стойкость +1"]
    assert any(f"натиск {melee['units']['n1']['impetus']}" in e for e in moderator_view["events"])
    services.execute(table.pk, moderator)
    table.refresh_from_db()
    assert table.state["turns"][0]["events"] == with_traits["events"]
    assert table.state == sit.replay(table.setup, services.step_dicts(table))


def test_the_modifier_follows_the_leader_s_move(placed, moderator, player):
    services.roll(placed.pk, player, "north", hand=None)
    services.move_leader(placed.pk, player, "north", 0, "n2")
    placed.refresh_from_db()
    mods = sit.trait_modifiers(placed.setup, placed.state)
    assert set(mods) == {"n2", "s2"} and mods["n2"][0]["source"] == "charisma"


def test_a_leader_whose_unit_is_out_of_the_battle_gives_none(placed, moderator):
    """W11.2: the commander's unit destroyed, he keeps his life but not his Brawler."""
    services.override(placed.pk, moderator, "s2", {"status": "destroyed"}, "отряд разбит")
    placed.refresh_from_db()
    assert set(sit.trait_modifiers(placed.setup, placed.state)) == {"n1"}
    rows = selectors.leader_rows(placed.setup, placed.state, "south")
    assert rows[0]["traits"] == "Рубака (стойкость +1)" and "больше не действуют" in rows[0]["fate"]


def test_a_signals_report_names_the_charismatic_leader(tiny_game, moderator, player, other_player):
    north = tiny_game.factions.get(code="north")
    south = tiny_game.factions.get(code="south")
    table = services.create(tiny_game, moderator, "Сигналы", [("north", "Клан Журавля", north),
                                                              ("south", "Клан Скорпиона", south)],
                            leaders_setup(placed=False, shinobi={"north": 0, "south": 1}), seed=3)
    for side in sit.SIDES:
        services.deploy(table.pk, moderator, side, {k: v for k, v in CELLS.items() if k[0] == side[0]},
                        infiltrate=1 if side == "south" else 0)
    for side in sit.SIDES:
        services.confirm(table.pk, moderator, side)
    services.confirm(table.pk, moderator, "south")                      # the plan-change phase, without scouting
    services.roll(table.pk, moderator, "north", hand=[6, 6])
    services.roll(table.pk, moderator, "south", hand=[6, 6])
    services.shinobi(table.pk, other_player, "south", "signals", "n1")
    services.confirm(table.pk, player, "north")
    services.confirm(table.pk, other_player, "south")
    table.refresh_from_db()
    report = sit.tasks(table.state, "south")[0]["report"]
    assert report["leaders"] == ["charisma"]
    from larp.redplains import labels
    assert "При отряде: военачальник с Харизмой" in labels.report_lines(table.state, report)


def test_the_enemy_does_not_learn_the_traits(placed, player, other_player, moderator, client_for):
    url = reverse("redplains:table", args=[placed.game_id, placed.pk])
    mine = client_for(player).get(url).content.decode()
    assert "генерал Акодо, Харизма (натиск +2)" in mine
    theirs = client_for(other_player).get(url).content.decode()
    assert "генерал Акодо" in theirs and "Харизма (натиск" not in theirs
    assert "Рубака (стойкость +1)" in theirs and "Рубака (стойкость" not in mine
    hall = client_for(moderator).get(reverse("redplains:projector", args=[placed.game_id, placed.pk])).content.decode()
    assert "Харизма (натиск" not in hall and "Рубака (стойкость" not in hall


# ---------------------------------------------------------------------------- the «new battle» page
def new_battle(tiny_game, **extra):
    data = {"title": "Новая битва", "north_name": "Север", "south_name": "Юг", "defender": "south",
            "north_messengers": 1, "south_messengers": 1,
            "north_type_1": "cavalry", "north_figures_1": 8, "north_type_2": "samurai_spears", "north_figures_2": 8,
            "south_type_1": "ashigaru_spears", "south_figures_1": 8, "south_type_2": "ashigaru_spears",
            "south_figures_2": 8}
    data.update(extra)
    return data


def test_the_new_battle_page_sets_the_leaders_traits(tiny_game, moderator, client_for):
    r = client_for(moderator).post(reverse("redplains:new", args=[tiny_game.pk]), new_battle(
        tiny_game, north_general_1="Акодо", north_general_unit_1="2", north_general_1_charisma="on",
        north_general_1_charisma_impetus="1", north_general_1_charisma_steadiness="1",
        south_commander="Баян", south_commander_unit="1", south_commander_brawler="on"))
    assert r.status_code == 302
    table = Table.objects.get(game=tiny_game, title="Новая битва")
    assert table.setup["leaders"] == [
        {"name": "Акодо", "kind": "general", "unit": "n2", "traits": {"charisma": {"steadiness": 1, "impetus": 1}}},
        {"name": "Баян", "kind": "commander", "unit": "s1", "traits": {"brawler": {}}}]


@pytest.mark.parametrize("extra,words", [
    ({"north_general_1": "Акодо", "north_general_unit_1": "1", "north_general_1_charisma": "on",
      "north_general_1_charisma_impetus": "9"}, "меньше либо равно 5"),
    ({"north_general_1": "Акодо", "north_general_unit_1": "1", "north_general_1_brawler_armour": "1"},
     "Отметьте черту"),
    ({"north_general_1_charisma": "on"}, "Назовите военачальника"),
    ({"north_general_1": "Акодо", "north_general_unit_1": "1", "north_general_1_charisma": "on",
      "north_general_1_charisma_impetus": "много"}, "Введите целое число"),
])
def test_the_new_battle_page_refuses_bad_traits_in_russian(tiny_game, moderator, client_for, extra, words):
    r = client_for(moderator).post(reverse("redplains:new", args=[tiny_game.pk]), new_battle(tiny_game, **extra))
    assert r.status_code == 400
    assert words in r.content.decode()
    assert not Table.objects.filter(game=tiny_game).exists()


# ---------------------------------------------------------------------------- before play, on the moderator's page
def traits_url(table):
    return reverse("redplains:act", args=[table.game_id, table.pk, "traits"])


@pytest.fixture
def unplaced(tiny_game, moderator):
    north = tiny_game.factions.get(code="north")
    south = tiny_game.factions.get(code="south")
    return services.create(tiny_game, moderator, "До начала", [("north", "Клан Журавля", north),
                                                               ("south", "Клан Скорпиона", south)],
                           leaders_setup(placed=False), seed=8)


def test_the_moderator_edits_the_traits_before_play(unplaced, moderator, player, other_player, east_player, stranger,
                                                    client_for):
    table = unplaced
    data = {"leader": "0", "brawler": "on", "brawler_impetus": "1", "charisma": "on", "charisma_steadiness": "2"}
    for user, code in ((player, 403), (other_player, 403), (east_player, 403), (stranger, 403), (None, 302)):
        assert client_for(user).post(traits_url(table), data).status_code == code
    assert not Step.objects.filter(table=table).exists()
    page = client_for(moderator).get(reverse("redplains:table", args=[table.game_id, table.pk])).content.decode()
    assert "Генерал Акодо (Клан Журавля, Конные самураи 1)" in page and "Харизма (натиск +2)" in page
    assert client_for(moderator).post(traits_url(table), data).status_code == 302
    table.refresh_from_db()
    assert table.state["leaders"][0]["traits"] == {"brawler": {"impetus": 1}, "charisma": {"steadiness": 2}}
    assert table.setup["leaders"][0]["traits"] == CHARISMA                # the setup stays as made; the log edits
    assert table.status == Table.SETUP
    step = Step.objects.get(table=table, kind="roster")
    assert step.payload == {"leader": 0, "traits": {"brawler": {"impetus": 1}, "charisma": {"steadiness": 2}}}
    assert table.state == sit.replay(table.setup, services.step_dicts(table))
    # taking the traits away: no box ticked
    assert client_for(moderator).post(traits_url(table), {"leader": "0"}).status_code == 302
    table.refresh_from_db()
    assert "traits" not in table.state["leaders"][0]


@pytest.mark.parametrize("data,words", [
    ({"leader": "7", "charisma": "on"}, "из списка"),
    ({"leader": "0", "charisma": "on", "charisma_impetus": "-6"}, "больше либо равно -5"),
    ({"leader": "0", "charisma_impetus": "1"}, "Отметьте черту"),
    ({"charisma": "on"}, "Выберите из списка"),
])
def test_hostile_trait_posts_are_refused_in_russian(unplaced, moderator, client_for, data, words):
    r = client_for(moderator).post(traits_url(unplaced), data)
    assert r.status_code == 400 and words in r.content.decode()
    assert not Step.objects.filter(table=unplaced).exists()


def test_no_trait_editing_once_play_began(placed, moderator, client_for):
    services.roll(placed.pk, moderator, "north", hand=[6, 6])
    r = client_for(moderator).post(traits_url(placed), {"leader": "0", "brawler": "on"})
    assert r.status_code == 400 and "только до начала" in r.content.decode()
    assert not Step.objects.filter(table=placed, kind="roster").exists()


def test_the_protocol_prints_the_traits_and_the_cunning_plan(placed, moderator, player, other_player, client_for):
    from .test_printing import pdf_text
    services.roll(placed.pk, moderator, "north", hand=[1, 1])
    services.cunning_plan(placed.pk, moderator, "north", "special", 1, "хитрость")
    services.confirm(placed.pk, player, "north")
    services.roll(placed.pk, moderator, "south", hand=[6, 6])
    services.confirm(placed.pk, other_player, "south")
    services.execute(placed.pk, moderator)
    text = pdf_text(client_for(moderator), placed, "protocol").replace("\n", " ")
    for words in ("Генерал Акодо (Клан Журавля): Харизма (натиск +2)",
                  "Полководец Баян (Клан Скорпиона): Рубака (стойкость +1)",
                  "особых 1 по Хитрому плану", "особых 1 от генерала Акодо"):
        assert words in text, words
