"""Every Red Plains URL against the role matrix, hostile input (4xx in Russian, nothing saved) and the fog."""
import pytest
from django.urls import reverse

from larp.campaign.services.members import create_player
from larp.redplains import services
from larp.redplains import situation as sit
from larp.tables.models import Step

from .conftest import PLACES, deploy_both, give_turn_one

ROLES = ("moderator", "player", "other_player", "east_player", "stranger", None)


@pytest.fixture
def users(moderator, player, other_player, east_player, stranger):
    return {"moderator": moderator, "player": player, "other_player": other_player, "east_player": east_player,
            "stranger": stranger, None: None}


def url(name, table, *extra):
    if name == "new":
        return reverse("redplains:new", args=[table.game_id])
    return reverse(f"redplains:{name}", args=[table.game_id, table.pk, *extra])


def status_for(client_for, users, method, path, data=None):
    out = {}
    for role in ROLES:
        c = client_for(users[role])
        r = c.get(path) if method == "get" else c.post(path, data or {})
        out[role] = r.status_code
    return out


def test_pages_for_every_role(table, users, client_for):
    assert status_for(client_for, users, "get", url("new", table)) == {
        "moderator": 200, "player": 403, "other_player": 403, "east_player": 403, "stranger": 403, None: 302}
    assert status_for(client_for, users, "get", url("table", table)) == {
        "moderator": 200, "player": 200, "other_player": 200, "east_player": 403, "stranger": 403, None: 302}
    assert status_for(client_for, users, "get", url("projector", table)) == {
        "moderator": 200, "player": 403, "other_player": 403, "east_player": 403, "stranger": 403, None: 302}
    for doc in ("reference", "units", "orders"):
        assert status_for(client_for, users, "get", url("sheet", table, doc)) == {
            "moderator": 200, "player": 200, "other_player": 200, "east_player": 403, "stranger": 403, None: 302}
    assert status_for(client_for, users, "get", url("sheet", table, "protocol")) == {
        "moderator": 200, "player": 403, "other_player": 403, "east_player": 403, "stranger": 403, None: 302}


def test_moderator_only_acts_for_every_role(table, users, client_for, moderator):
    deploy_both(table, moderator)
    for action, data in (("dice", {"source": "server"}), ("execute", {}), ("undo", {"reason": "x"}),
                         ("override", {"unit": "s1", "figures": 5, "reason": "x"})):
        before = Step.objects.filter(table=table).count()
        codes = status_for(client_for, {k: v for k, v in users.items() if k != "moderator"} | {"moderator": None},
                           "post", url("act", table, action), data)
        codes.pop("moderator")
        assert codes == {"player": 403, "other_player": 403, "east_player": 403, "stranger": 403, None: 302}, action
        assert Step.objects.filter(table=table).count() == before


def test_a_side_acts_for_itself_only(table, users, client_for, moderator):
    north_cells = {f"cell_{u}": c for u, c in PLACES["north"].items()}
    path = url("act", table, "deploy")
    for role, expected in (("east_player", 403), ("stranger", 403), (None, 302)):
        assert client_for(users[role]).post(path, {"side": "north", **north_cells}).status_code == expected
    assert not Step.objects.filter(table=table).exists()
    # south's player posting for north: the post is south's own, and north's units are not its fields
    r = client_for(users["other_player"]).post(path, {"side": "north", **north_cells})
    assert r.status_code == 302
    step = Step.objects.get(table=table)
    assert step.side == "south" and step.payload == {"cells": {}}
    r = client_for(users["player"]).post(path, {"side": "south", **north_cells})
    assert r.status_code == 302
    step = Step.objects.filter(table=table).last()
    assert step.side == "north" and step.payload == {"cells": PLACES["north"]}
    assert status_for(client_for, {"moderator": moderator} | {k: None for k in ROLES if k != "moderator"},
                      "post", path, {"side": "south", **{f"cell_{u}": c for u, c in PLACES["south"].items()}}
                      )["moderator"] == 302


@pytest.mark.parametrize("action,data,words", [
    ("deploy", {"cell_n1": "C11"}, "из списка"),
    ("stake", {"stake": "all-in"}, "из списка"),
    ("roll", {"source": "hand", "dice": "7 8"}, "от 1 до 6"),
    ("roll", {"source": "hand", "dice": "5"}, "ровно"),
    ("confirm", {}, "Сначала сделайте командный бросок"),
    ("undo", {"reason": ""}, "Укажите причину"),
    ("override", {"unit": "s1", "figures": 99, "reason": "так"}, "16"),
    ("override", {"unit": "zz", "figures": 5, "reason": "так"}, "Нет такого отряда"),
    ("dice", {"source": "hand", "dice": "6 6"}, "Фаза исполнения ещё не началась"),
    ("execute", {}, "Фаза исполнения ещё не началась"),
    ("teleport", {}, "Неизвестное действие"),
])
def test_hostile_input_is_refused_in_russian_and_nothing_saved(table, moderator, client_for, action, data, words):
    if action not in ("deploy",):
        deploy_both(table, moderator)
    before = Step.objects.filter(table=table).count()
    r = client_for(moderator).post(url("act", table, action), {"side": "north", **data})
    assert 400 <= r.status_code < 500
    assert words in r.content.decode()
    assert Step.objects.filter(table=table).count() == before


def test_an_order_the_page_did_not_offer_is_refused(table, moderator, player, client_for):
    deploy_both(table, moderator)
    services.roll(table.pk, moderator, "north", hand=[6, 6])
    path = url("act", table, "orders")
    for group, detail in (("ordinary:shoot", "s1"), ("special:decisive_attack", "s2"), ("dragon:dragon", "ahead:2"),
                          ("ordinary:move", "x"), ("ordinary:move:", ""), ("special:decisive_attack", "")):
        r = client_for(player).post(path, {"o_n1_1": group, "x_n1_1": detail})
        assert r.status_code == 400 and "из списка" in r.content.decode()
    assert not Step.objects.filter(table=table, kind="orders").exists()
    r = client_for(player).post(path, {"o_n1_1": "special:decisive_attack", "x_n1_1": "s1", "o_n2_1": "ordinary:move"})
    assert r.status_code == 302
    assert Step.objects.get(table=table, kind="orders").payload["orders"][0]["type"] == "decisive_attack"


def test_a_table_of_another_game_is_not_found(table, moderator, client_for, latin_game):
    other = reverse("redplains:table", args=[latin_game.pk, table.pk])
    assert client_for(moderator).get(other).status_code in (403, 404)


def page(client, table):
    r = client.get(url("table", table))
    assert r.status_code == 200
    return r.content.decode()


def test_fog_deployment_stake_roll_and_orders(table, moderator, player, other_player, client_for):
    north, south = client_for(player), client_for(other_player)
    services.deploy(table.pk, player, "north", PLACES["north"])
    services.confirm(table.pk, player, "north")
    assert 'data-unit="n1"' in page(north, table)
    for text in (page(south, table), client_for(moderator).get(url("projector", table)).content.decode()):
        assert 'data-unit="n1"' not in text and 'data-unit="n2"' not in text
    assert 'data-unit="n1"' in page(client_for(moderator), table)
    services.deploy(table.pk, other_player, "south", PLACES["south"])
    assert 'data-unit="s1"' not in page(north, table)
    services.confirm(table.pk, other_player, "south")
    assert 'data-unit="s1"' in page(north, table) and 'data-unit="n1"' in page(south, table)
    # the command phase: north's stake, roll and orders stay north's until the turn is executed
    services.stake(table.pk, player, "north", "high")
    services.roll(table.pk, moderator, "north", hand=[6, 5])
    services.give_orders(table.pk, player, "north", [
        {"unit": "n1", "slot": 1, "kind": "special", "type": "decisive_attack", "target": "s1"}])
    mine = page(north, table)
    assert "6 + 5 = 11" in mine and "большая ставка" in mine and "rp-given" in mine
    for text in (page(south, table), client_for(moderator).get(url("projector", table)).content.decode()):
        assert "6 + 5 = 11" not in text and "большая ставка" not in text and "rp-given" not in text
        assert "✎" not in text
    assert "6 + 5 = 11" in page(client_for(moderator), table)
    # the version pages poll says nothing of either side
    r = south.get(reverse("tables:version", args=[table.game_id, table.pk]))
    assert set(r.json()) == {"version", "status"}


def test_fog_on_paper_unit_cards_and_order_sheets(table, moderator, other_player, client_for):
    from io import BytesIO

    from pypdf import PdfReader
    deploy_both(table, moderator)
    for doc in ("units", "orders"):
        r = client_for(other_player).get(url("sheet", table, doc))
        text = "".join(p.extract_text() for p in PdfReader(BytesIO(r.content)).pages)
        assert "Асигару с копьями" in text and "Конные самураи" not in text


def test_fog_forest_hides_an_enemy_until_revealed(tiny_game, moderator, player, other_player, client_for):
    north = tiny_game.factions.get(code="north")
    south = tiny_game.factions.get(code="south")
    setup = sit.make_setup({"north": [{"type": "cavalry", "figures": 8}, {"type": "cavalry", "figures": 8}],
                            "south": [{"type": "ashigaru_spears", "figures": 8}, {"type": "ashigaru_spears",
                                                                                  "figures": 8},
                                      {"type": "samurai_bows", "figures": 8}]}, forests=["C25"])
    table = services.create(tiny_game, moderator, "Лес", [("north", "Север", north), ("south", "Юг", south)], setup)
    services.deploy(table.pk, moderator, "north", {"n1": "A11", "n2": "B11"})
    services.confirm(table.pk, moderator, "north")
    services.deploy(table.pk, moderator, "south", {"s1": "C11", "s2": "D11", "s3": "C25"})
    services.confirm(table.pk, moderator, "south")
    assert 'data-unit="s3"' not in page(client_for(player), table)
    assert 'data-unit="s3"' in page(client_for(other_player), table)
    assert 'data-unit="s3"' in page(client_for(moderator), table)


def test_the_new_page_sets_up_a_battle(tiny_game, moderator, client_for):
    north = tiny_game.factions.get(code="north")
    data = {"title": "У реки", "north_name": "Журавли", "north_faction": north.pk, "south_name": "Скорпионы",
            "south_faction": "", "defender": "south", "north_messengers": 1, "south_messengers": 0,
            "hills": "C23", "forests": "", "north_type_1": "cavalry", "north_figures_1": 8,
            "north_type_2": "samurai_spears", "north_figures_2": 12, "south_type_1": "ashigaru_spears",
            "south_figures_1": 10, "south_type_2": "samurai_bows", "south_figures_2": 6, "south_shields_2": "on"}
    r = client_for(moderator).post(url("new", type("T", (), {"game_id": tiny_game.pk, "pk": 0})), data)
    assert r.status_code == 302
    table = tiny_game.tables.get()
    assert table.setup["field"]["hills"] == ["C23"] and len(table.setup["units"]) == 4
    assert table.setup["sides"]["north"]["messengers"] == 1
    assert r["Location"] == reverse("redplains:table", args=[tiny_game.pk, table.pk])
    bad = {**data, "north_figures_1": 20, "hills": "Z99"}
    r = client_for(moderator).post(url("new", table), bad)
    assert r.status_code == 400 and "На поле нет клетки «Z99»" in r.content.decode()
    assert tiny_game.tables.count() == 1


def test_a_table_without_armies_says_so(tiny_game, moderator, player, client_for):
    """A Red Plains table made elsewhere with no armies (or other side keys) is refused plainly, never a 500."""
    from larp.tables import services as tables
    table = tables.create_table(tiny_game, "red-plains", "Пустой", [
        ("north", "Север", tiny_game.factions.get(code="north")), ("east", "Восток", None)], moderator)
    for user in (moderator, player):
        r = client_for(user).get(reverse("redplains:table", args=[tiny_game.pk, table.pk]))
        assert r.status_code == 409 and "ещё нет армий" in r.content.decode()
    r = client_for(player).post(reverse("redplains:act", args=[tiny_game.pk, table.pk, "confirm"]))
    assert r.status_code == 409 and not Step.objects.filter(table=table).exists()
    assert client_for(moderator).get(reverse("redplains:projector", args=[tiny_game.pk, table.pk])).status_code == 409
