"""The pages of the commands beyond the plain orders (cavalry's pairs, W16.5, the Dragon move, the leaders' moves):
the role matrix, hostile input (4xx in Russian, nothing saved) and the fog."""
import pytest
from django.urls import reverse

from larp.redplains import services
from larp.redplains import situation as sit
from larp.tables.models import Step

from .test_commands_at_the_table import make_setup


@pytest.fixture
def placed(tiny_game, moderator):
    """Both armies placed (as a table made from a battle of the war): turn 1's command phase."""
    north = tiny_game.factions.get(code="north")
    south = tiny_game.factions.get(code="south")
    return services.create(tiny_game, moderator, "Бой у брода", [("north", "Клан Журавля", north),
                                                                  ("south", "Клан Скорпиона", south)],
                           make_setup(), seed=77)


@pytest.fixture
def rolled(placed, moderator):
    services.roll(placed.pk, moderator, "north", hand=[6, 6])
    services.roll(placed.pk, moderator, "south", hand=[3, 3])
    return placed


def act(table, action):
    return reverse("redplains:act", args=[table.game_id, table.pk, action])


def page(client, table):
    r = client.get(reverse("redplains:table", args=[table.game_id, table.pk]))
    assert r.status_code == 200
    return r.content.decode()


def steps(table, kind):
    return list(Step.objects.filter(table=table, kind=kind).order_by("seq"))


def test_a_leader_move_for_every_role(placed, moderator, player, other_player, east_player, stranger, client_for):
    data = {"side": "north", "leader": 0, "unit": "n3"}
    for user, code in ((east_player, 403), (stranger, 403), (None, 302)):
        assert client_for(user).post(act(placed, "leader"), data).status_code == code
    # south's player posts for south whatever the form says: north's leaders are not south's to move
    r = client_for(other_player).post(act(placed, "leader"), data)
    assert r.status_code == 400 and "выберите из списка" in r.content.decode()
    assert not steps(placed, "leader")
    assert client_for(player).post(act(placed, "leader"), data).status_code == 302
    assert client_for(moderator).post(act(placed, "leader"), {**data, "leader": 1}).status_code == 302
    saved = steps(placed, "leader")
    assert [(s.side, s.payload) for s in saved] == [("north", {"leader": 0, "unit": "n3"}),
                                                     ("north", {"leader": 1, "unit": "n3"})]
    placed.refresh_from_db()
    assert placed.state["leader_moves"]["north"] == {"0": "n3", "1": "n3"}


@pytest.mark.parametrize("data,words", [
    ({"leader": "x", "unit": "n3"}, "выберите из списка"),
    ({"leader": 0, "unit": "n7"}, "выберите из списка"),          # two cells away
    ({"leader": 0, "unit": "n4"}, "выберите из списка"),          # a minor clan's unit
    ({"leader": 0, "unit": "s3"}, "выберите из списка"),          # an enemy unit
    ({"leader": 9, "unit": "n3"}, "выберите из списка"),
    ({"leader": 0}, "Выберите из списка"),
])
def test_hostile_leader_moves_are_refused_in_russian(placed, player, client_for, data, words):
    r = client_for(player).post(act(placed, "leader"), data)
    assert r.status_code == 400 and words in r.content.decode()
    assert not steps(placed, "leader")


def test_no_leader_move_once_the_side_confirmed(rolled, player, client_for):
    services.confirm(rolled.pk, player, "north")
    r = client_for(player).post(act(rolled, "leader"), {"leader": 0, "unit": "n3"})
    assert r.status_code == 400 and "не ваша фаза командования" in r.content.decode()
    assert not steps(rolled, "leader")


def test_the_picker_files_a_cavalry_pair_an_ordinary_order_as_special_and_the_dragon_move(rolled, player, client_for):
    text = page(client_for(player), rolled)
    for words in ("Перестроение налево (обычный)", "затем перемещение", "Знамя Дракона",
                  "прямо, до 2 клеток вперёд", "вместо особого, исполняется как особый", "Генералы и полководец"):
        assert words in text, words
    assert "(W12.4)" not in text and "(W11.1)" not in text             # rule numbers stay off a player's tablet
    r = client_for(player).post(act(rolled, "orders"), {
        "o_n2_1": "dragon:dragon", "x_n2_1": "left:2",
        "o_n1_1": "ordinary:reform_left", "x_n1_1": "move",
        "o_n3_1": "special+special:reform", "x_n3_1": "left",
        "o_n6_1": "ordinary:move"})                                    # one choice: the second select may stay empty
    assert r.status_code == 302
    payload = steps(rolled, "orders")[-1].payload
    assert payload["orders"] == [
        {"unit": "n1", "slot": 1, "kind": "ordinary", "type": "move", "actions": ["reform_left", "move"]},
        {"unit": "n2", "slot": 1, "kind": "special", "type": "dragon", "dir": "left", "moves": 2},
        {"unit": "n3", "slot": 1, "kind": "special", "type": "reform", "timing": "special", "dir": "left"},
        {"unit": "n6", "slot": 1, "kind": "ordinary", "type": "move"}]
    assert payload["banners"] == [{"unit": "n2", "banner": "dragon"}]
    rolled.refresh_from_db()
    assert rolled.state["orders_check"]["north"]["ok"]
    text = page(client_for(player), rolled)
    assert "Бросок Дракона, с поворотом налево, до 2 клеток вперёд" in text
    assert "Перестроение налево, затем перемещение" in text


@pytest.mark.parametrize("data", [
    {"o_n2_2": "dragon:dragon", "x_n2_2": "ahead:2"},                  # the Dragon move only as the first order
    {"o_n3_1": "dragon:dragon", "x_n3_1": "ahead:2"},                  # infantry goes one cell
    {"o_n8_1": "ordinary:reform_left", "x_n8_1": "move"},              # no reform in a forest (greyed)
    {"o_n2_1": "ordinary:move", "x_n2_1": "<script>"},
    {"o_n2_1": "ordinary:move:", "x_n2_1": ""},
    {"o_n2_1": "special:decisive_attack", "x_n2_1": "s2"},             # not in front
    {"o_n3_1": "special+special:reform", "x_n3_1": "up"},
])
def test_orders_the_picker_did_not_offer_are_refused(rolled, player, client_for, data):
    r = client_for(player).post(act(rolled, "orders"), data)
    assert r.status_code == 400 and "выберите из списка" in r.content.decode()
    assert not steps(rolled, "orders")


def test_south_owning_no_dragon_banner_is_offered_no_dragon_move(rolled, other_player, client_for):
    assert "Знамя Дракона" not in page(client_for(other_player), rolled)
    r = client_for(other_player).post(act(rolled, "orders"), {"o_s1_1": "dragon:dragon", "x_s1_1": "ahead:1"})
    assert r.status_code == 400 and not steps(rolled, "orders")


def test_fog_the_enemy_learns_the_leader_moves_and_the_dragon_when_the_turn_is_executed(
        rolled, moderator, player, other_player, client_for):
    services.move_leader(rolled.pk, player, "north", 0, "n5")
    services.give_orders(rolled.pk, player, "north", [
        {"unit": "n2", "slot": 1, "kind": "special", "type": "dragon", "moves": 2}],
        banners=[{"unit": "n2", "banner": "dragon"}])
    north, south = page(client_for(player), rolled), page(client_for(other_player), rolled)
    assert "с копьями 5 — генерал Акодо" in north and "самураи 1 — генерал Акодо" not in north
    assert "самураи 1 — генерал Акодо" in south and "с копьями 5 — генерал Акодо" not in south
    assert "Бросок Дракона" in north and "Бросок Дракона" not in south and "Знамя Дракона" not in south
    assert "Акодо перешёл" not in south
    moderator_page = page(client_for(moderator), rolled)
    assert "с копьями 5 — генерал Акодо" in moderator_page and "Бросок Дракона" in moderator_page
    # executed: the hall learns where the general went, and the table replays from its log
    services.confirm(rolled.pk, player, "north")
    services.confirm(rolled.pk, other_player, "south")
    for _ in range(100):
        rolled.refresh_from_db()
        if sit.preview(rolled.setup, rolled.state)["complete"]:
            break
        services.execution_dice(rolled.pk, moderator)
    services.execute(rolled.pk, moderator)
    rolled.refresh_from_db()
    south = page(client_for(other_player), rolled)
    assert "Генерал Акодо перешёл: Конные самураи 1 → Пешие самураи с копьями 5." in south and "(W11.1)" not in south
    assert "с копьями 5 — генерал Акодо" in south
    assert rolled.state == sit.replay(rolled.setup, services.step_dicts(rolled))


def test_the_new_battle_page_sets_the_commander_and_the_dragon_banner(tiny_game, moderator, client_for):
    data = {"title": "У моста", "north_name": "Журавли", "north_faction": "", "south_name": "Скорпионы",
            "south_faction": "", "defender": "south", "north_messengers": 0, "south_messengers": 0,
            "north_type_1": "cavalry", "north_figures_1": 8, "north_type_2": "samurai_spears", "north_figures_2": 8,
            "south_type_1": "ashigaru_spears", "south_figures_1": 8, "south_type_2": "samurai_bows",
            "south_figures_2": 8, "north_general_1": "Акодо", "north_general_unit_1": 2,
            "north_commander": "Тогаси", "north_banner_dragon": "on"}
    new = reverse("redplains:new", args=[tiny_game.pk])
    page_text = client_for(moderator).get(new).content.decode()
    assert "Полководец (если едет в отряде)" in page_text and "Знамя Дракона" in page_text
    r = client_for(moderator).post(new, data)                      # a commander without his unit
    assert r.status_code == 400 and "в котором едет полководец" in r.content.decode()
    assert not tiny_game.tables.exists()
    r = client_for(moderator).post(new, {**data, "north_commander_unit": 1})
    assert r.status_code == 302
    setup = tiny_game.tables.get().setup
    assert setup["leaders"] == [{"name": "Акодо", "kind": "general", "unit": "n2"},
                                {"name": "Тогаси", "kind": "commander", "unit": "n1"}]
    assert setup["sides"]["north"]["banners"] == {"dragon": 1}
