"""W10 through the pages: who may give a shinobi task, hostile posts (4xx in Russian, nothing saved), and the fog —
the enemy never learns a sabotage or panic target before the turn is executed, a signals report is the
signalling side's only, and the hall's projector shows none of it."""
import pytest
from django.urls import reverse

from larp.dice.models import Roll
from larp.redplains import services
from larp.redplains import situation as sit
from larp.tables.models import Step

from .conftest import deploy_with_shinobi

ROLES = ("moderator", "player", "other_player", "east_player", "stranger", None)


@pytest.fixture
def users(moderator, player, other_player, east_player, stranger):
    return {"moderator": moderator, "player": player, "other_player": other_player, "east_player": east_player,
            "stranger": stranger, None: None}


@pytest.fixture
def rolled(shinobi_table, moderator):
    """Turn 1's command phase, both sides have rolled."""
    deploy_with_shinobi(shinobi_table, moderator)
    services.roll(shinobi_table.pk, moderator, "north", hand=[6, 6])
    services.roll(shinobi_table.pk, moderator, "south", hand=[4, 4])
    return shinobi_table


def act(table):
    return reverse("redplains:act", args=[table.game_id, table.pk, "shinobi"])


def page(client, table, name="table"):
    r = client.get(reverse(f"redplains:{name}", args=[table.game_id, table.pk]))
    assert r.status_code == 200
    return r.content.decode()


def test_a_shinobi_task_for_every_role(rolled, users, client_for):
    table = rolled
    expected = {"moderator": 302, "player": 302, "other_player": 302, "east_player": 403, "stranger": 403, None: 302}
    for role in ROLES:
        before = Step.objects.filter(table=table).count()
        r = client_for(users[role]).post(act(table), {"side": "north", "task": "panic", "unit": "s1"}
                                          if role != "other_player" else {"task": "panic", "unit": "n1"})
        assert r.status_code == expected[role], role
        saved = Step.objects.filter(table=table).count() - before
        assert saved == (1 if role in ("moderator", "player", "other_player") else 0), role
        if role is None:
            assert "/login/" in r["Location"]
    table.refresh_from_db()
    state = services.current(table)
    assert [t["unit"] for t in sit.tasks(state, "north")] == ["s1", "s1"]
    assert [t["unit"] for t in sit.tasks(state, "south")] == ["n1"]


def test_a_player_acts_for_his_own_side_only(rolled, player, client_for):
    """North's player posting for south with a southern target: the post is north's, and n1 is no enemy of north."""
    table = rolled
    r = client_for(player).post(act(table), {"side": "south", "task": "panic", "unit": "n1"})
    assert r.status_code == 400 and "из списка" in r.content.decode()
    assert not Step.objects.filter(table=table, kind="shinobi").exists()


@pytest.mark.parametrize("who,data,status,words", [
    ("player", {"task": "poison", "unit": "s1"}, 400, "из списка"),
    ("player", {"task": "sabotage", "unit": "n1"}, 400, "из списка"),
    ("player", {"task": "sabotage", "unit": "s9"}, 400, "из списка"),
    ("player", {"task": "panic"}, 400, "Выберите вражеский отряд"),
    ("player", {"task": "sabotage", "unit": "s1", "source": "hand", "dice": "6"}, 403, ""),
    ("moderator", {"side": "north", "task": "sabotage", "unit": "s1", "source": "hand", "dice": "9"}, 400,
     "от 1 до 6"),
    ("moderator", {"side": "north", "task": "sabotage", "unit": "s1", "source": "hand", "dice": "3 4"}, 400,
     "ровно"),
    ("moderator", {"side": "west", "task": "panic", "unit": "s1"}, 400, "из списка"),
])
def test_hostile_shinobi_posts_are_refused_and_nothing_saved(rolled, users, client_for, who, data, status, words):
    table = rolled
    steps, dice = Step.objects.filter(table=table).count(), Roll.objects.filter(stream=table.dice).count()
    r = client_for(users[who]).post(act(table), data)
    assert r.status_code == status
    assert words in r.content.decode()
    assert Step.objects.filter(table=table).count() == steps
    assert Roll.objects.filter(stream=table.dice).count() == dice


def test_a_spent_side_is_told_so_in_russian(rolled, moderator, other_player, client_for):
    table = rolled
    for _ in range(2):
        services.shinobi(table.pk, moderator, "south", "panic", "n1")
    r = client_for(other_player).post(act(table), {"task": "panic", "unit": "n2"})
    assert r.status_code == 400 and "не осталось синоби" in r.content.decode()
    assert Step.objects.filter(table=table, kind="shinobi").count() == 2


def test_fog_sabotage_and_panic_targets_stay_with_their_side_until_the_turn_is_executed(
        rolled, moderator, player, other_player, client_for):
    table = rolled
    services.shinobi(table.pk, player, "north", "sabotage", "s1")
    services.shinobi(table.pk, player, "north", "panic", "s2")
    services.shinobi(table.pk, player, "north", "interception")
    mine = page(client_for(player), table)
    assert "синоби устраивает саботаж в отряде «Асигару с копьями 1»" in mine
    assert "синоби сеет панику в отряде «Асигару с копьями 2»" in mine
    theirs = page(client_for(other_player), table)
    hall = page(client_for(moderator), table, "projector")
    for text in (theirs, hall):
        assert "саботаж в отряде" not in text and "сеет панику" not in text and "data-shinobi-tasks" not in text
        assert "data-shinobi-turn" not in text and "бросок саботажа" not in text
    # the interception's effect on south is south's to know (W10.5); who did what stays hidden
    assert "Вражеский синоби убил одного из ваших гонцов" in theirs
    assert "Вражеский синоби" not in mine and "Вражеский синоби" not in hall
    moderator_page = page(client_for(moderator), table)
    assert "data-shinobi-turn" in moderator_page and "саботаж в отряде «Асигару с копьями 1»" in moderator_page
    assert "против нынешних приказов отряда" in moderator_page
    # once the turn is executed, the log tells everyone what each shinobi did
    for side in sit.SIDES:
        services.confirm(table.pk, moderator, side)
    for _ in range(100):
        table.refresh_from_db()
        if sit.preview(table.setup, table.state)["complete"]:
            break
        services.execution_dice(table.pk, moderator)
    services.execute(table.pk, moderator)
    for text in (page(client_for(other_player), table), page(client_for(player), table)):
        assert "data-shinobi-done" in text and "саботаж в отряде «Асигару с копьями 1»" in text


def test_fog_a_signals_report_is_the_signalling_sides_only(rolled, moderator, player, other_player, client_for):
    table = rolled
    services.give_orders(table.pk, moderator, "south", [{"unit": "s1", "slot": 1, "kind": "special",
                                                         "type": "hold"}])
    services.shinobi(table.pk, player, "north", "signals", "s1")
    theirs = page(client_for(other_player), table)
    assert "сигналы об отряде" not in theirs and "data-report" not in theirs
    for side in sit.SIDES:
        services.confirm(table.pk, moderator, side)
    mine = page(client_for(player), table)
    assert "Фаза изменения плана" in mine and "data-report" in mine and "data-plan-change" in mine
    assert "Приказ 1: Держать позицию! (особый)" in mine
    assert 'act/orders" class="rp-orders"' in mine                      # north's order form is open again
    theirs = page(client_for(other_player), table)
    hall = page(client_for(moderator), table, "projector")
    for text in (theirs, hall):
        assert "data-report" not in text and "Держать позицию!" not in text and "сигналы об отряде" not in text
    assert 'act/orders" class="rp-orders"' not in theirs and "Фаза изменения плана" in theirs
    assert "Приказ 1: Держать позицию! (особый)" in page(client_for(moderator), table)
    # the side that gave no signals may not change its orders now
    r = client_for(other_player).post(reverse("redplains:act", args=[table.game_id, table.pk, "orders"]), {})
    assert r.status_code == 400 and "подали сигналы" in r.content.decode()
    # north changes its plan through the page and confirms: the execution begins
    r = client_for(player).post(reverse("redplains:act", args=[table.game_id, table.pk, "orders"]),
                                {"o_n2_1": "ordinary:move"})
    assert r.status_code == 302
    r = client_for(player).post(reverse("redplains:act", args=[table.game_id, table.pk, "confirm"]))
    assert r.status_code == 302
    table.refresh_from_db()
    assert table.state["phase"] == sit.EXECUTION and table.state["orders"]["north"][0]["unit"] == "n2"
