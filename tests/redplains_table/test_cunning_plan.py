"""W9.3 at the table: the moderator grants a side extra orders of a stated kind and number for the turn (a step with
a reason, audited, undoable); the command result counts them, `validate` pays with them, the side's tablet lists them
with its order count. W10.2: a signals report names the Cunning plan's order for next turn the moderator noted."""
import pytest
from django.urls import reverse

from larp.campaign.models import AuditEntry
from larp.redplains import selectors, services
from larp.redplains import situation as sit
from larp.redplains.engine.modes import command_mode
from larp.tables.models import Step

from .conftest import deploy_both, deploy_with_shinobi

HOLD = [{"unit": "n1", "slot": 1, "kind": "special", "type": "hold"},
        {"unit": "n2", "slot": 1, "kind": "special", "type": "hold"}]


@pytest.fixture
def failed_roll(table, moderator, player):
    """Turn 1: north failed its low stake (1 + 1): three ordinary orders and no special; it files two Holds."""
    deploy_both(table, moderator)
    services.roll(table.pk, moderator, "north", hand=[1, 1])
    services.give_orders(table.pk, player, "north", HOLD)
    table.refresh_from_db()
    assert not table.state["orders_check"]["north"]["ok"]
    return table


def plan_url(table):
    return reverse("redplains:act", args=[table.game_id, table.pk, "plan"])


def test_the_command_result_counts_the_plan_and_the_orders_are_paid_again(failed_roll, moderator):
    table = failed_roll
    services.cunning_plan(table.pk, moderator, "north", "special", 2, "хитрый план князя")
    table.refresh_from_db()
    state = table.state
    result = state["command"]["north"]["result"]
    assert result["extra"]["cunning_plan"] == {"special": 2, "ordinary": 0}
    assert result == command_mode({"command": {"side": "north", "turn": 1, "stake": "low", "rolls": [[1, 1]],
                                               "rerolls_left": 1, "cunning_plan": {"special": 2}}})
    check = state["orders_check"]["north"]
    assert check["ok"] and check["paid"] == {"special": 2, "ordinary": 0}
    step = Step.objects.get(table=table, kind="plan")
    assert step.side == "north" and step.payload == {"kind": "special", "count": 2}
    assert step.reason == "хитрый план князя" and step.user == moderator
    entry = AuditEntry.objects.filter(action="table_step", detail__seq=step.seq).get()
    assert entry.reason == "хитрый план князя"
    assert entry.detail["summary"] == "Мастер дал стороне «Клан Журавля» по Хитрому плану особых приказов: 2 (W9.3)."
    assert state == sit.replay(table.setup, services.step_dicts(table))


def test_grants_add_up_and_undo_takes_the_last_back(failed_roll, moderator):
    table = failed_roll
    services.cunning_plan(table.pk, moderator, "north", "special", 1, "первый")
    services.cunning_plan(table.pk, moderator, "north", "ordinary", 2, "второй")
    table.refresh_from_db()
    assert table.state["command"]["north"]["result"]["extra"]["cunning_plan"] == {"special": 1, "ordinary": 2}
    assert not table.state["orders_check"]["north"]["ok"]                 # one special is still one short
    services.undo(table.pk, moderator, "ошибся")
    services.undo(table.pk, moderator, "ошибся снова")
    table.refresh_from_db()
    assert table.state["command"]["north"]["result"]["extra"]["cunning_plan"] == {"special": 0, "ordinary": 0}
    assert table.state == sit.replay(table.setup, services.step_dicts(table))


def test_a_plan_before_the_roll_is_counted_by_the_roll_and_lasts_one_turn(table, moderator, player, other_player):
    deploy_both(table, moderator)
    services.cunning_plan(table.pk, moderator, "south", "ordinary", 1, "засада")
    services.roll(table.pk, moderator, "south", hand=[6, 6])
    table.refresh_from_db()
    assert table.state["command"]["south"]["result"]["extra"]["cunning_plan"] == {"special": 0, "ordinary": 1}
    services.roll(table.pk, moderator, "north", hand=[6, 6])
    services.confirm(table.pk, player, "north")
    services.confirm(table.pk, other_player, "south")
    services.execute(table.pk, moderator)
    table.refresh_from_db()
    assert (table.state["phase"], table.state["turn"]) == (sit.COMMAND, 2)    # nobody moved: turn 2 begins
    assert sit.cunning_plan(table.state, "south") == {"special": 0, "ordinary": 0}
    assert table.state["turns"][0]["command"]["south"]["result"]["extra"]["cunning_plan"]["ordinary"] == 1


@pytest.mark.parametrize("payload,code", [
    ({"kind": "special", "count": 6}, "bad_plan"),
    ({"kind": "secret", "count": 1}, "bad_plan"),
    ({"kind": "special", "count": -1}, "bad_plan"),
    ({"kind": "special", "count": True}, "bad_plan"),
    ({}, "bad_plan"),
    ({"unit": "s1", "next": "в атаку"}, "bad_plan"),
    ({"unit": "n1", "next": 5}, "bad_plan"),
])
def test_the_rules_refuse_a_plan_that_is_not_one(failed_roll, payload, code):
    with pytest.raises(sit.StepRefused) as error:
        sit.apply(failed_roll.setup, failed_roll.state, "plan", "north", payload)
    assert error.value.code == code


def test_no_plan_in_the_deployment_nor_for_a_side_that_confirmed(table, moderator, player):
    with pytest.raises(sit.StepRefused) as error:
        services.cunning_plan(table.pk, moderator, "north", "special", 1, "рано")
    assert error.value.code == "plan_now"
    deploy_both(table, moderator)
    services.roll(table.pk, moderator, "north", hand=[6, 6])
    services.confirm(table.pk, player, "north")
    with pytest.raises(sit.StepRefused) as error:
        services.cunning_plan(table.pk, moderator, "north", "special", 1, "поздно")
    assert error.value.code == "already_confirmed"
    assert not Step.objects.filter(table=table, kind="plan").exists()


def test_the_side_s_tablet_lists_the_plan_with_its_order_count(failed_roll, moderator, player, other_player,
                                                               client_for):
    table = failed_roll
    services.cunning_plan(table.pk, moderator, "north", "special", 2, "хитрый план")
    url = reverse("redplains:table", args=[table.game_id, table.pk])
    mine = client_for(player).get(url).content.decode()
    assert "Приказов на этот ход: особых 0, обычных 3." in mine
    assert "особых 2 по Хитрому плану (от мастера)" in mine and "W9.3" not in mine   # no rule codes for players
    assert "data-plan-panel" not in mine                                  # the grant is the moderator's
    theirs = client_for(other_player).get(url).content.decode()
    assert "Хитрому плану" not in theirs
    hall = client_for(moderator).get(reverse("redplains:projector", args=[table.game_id, table.pk])).content.decode()
    assert "Хитрому плану" not in hall
    assert "Хитрому плану" in client_for(moderator).get(url).content.decode()


ROLES = ("moderator", "player", "other_player", "east_player", "stranger", None)


@pytest.fixture
def users(moderator, player, other_player, east_player, stranger):
    return {"moderator": moderator, "player": player, "other_player": other_player, "east_player": east_player,
            "stranger": stranger, None: None}


def test_only_the_moderator_grants_a_plan(failed_roll, users, client_for):
    table = failed_roll
    expected = {"moderator": 302, "player": 403, "other_player": 403, "east_player": 403, "stranger": 403,
                None: 302}
    for role in ROLES:
        r = client_for(users[role]).post(plan_url(table), {"side": "north", "kind": "special", "count": "1",
                                                           "reason": "план"})
        assert r.status_code == expected[role], role
        if role is None:
            assert "/login/" in r["Location"]
    assert Step.objects.filter(table=table, kind="plan").count() == 1
    table.refresh_from_db()
    assert table.state["orders_check"]["north"]["paid"]["special"] == 1


@pytest.mark.parametrize("data,words", [
    ({"side": "north", "kind": "special", "count": "1"}, "Укажите причину"),
    ({"side": "north", "kind": "special", "count": "9", "reason": "r"}, "от 1 до 5"),
    ({"side": "north", "kind": "special", "count": "два", "reason": "r"}, "от 1 до 5"),
    ({"side": "north", "count": "1", "reason": "r"}, "Выберите вид"),
    ({"side": "north", "kind": "secret", "count": "1", "reason": "r"}, "из списка"),
    ({"side": "north", "unit": "s1", "next": "в атаку", "reason": "r"}, "из списка"),
    ({"side": "north", "unit": "n1", "reason": "r"}, "Впишите приказ"),
    ({"side": "north", "reason": "r"}, "Укажите число"),
    ({"side": "west", "kind": "special", "count": "1", "reason": "r"}, "из списка"),
    ({"kind": "special", "count": "1", "reason": "r"}, "Неизвестное действие"),
])
def test_hostile_plan_posts_are_refused_in_russian_and_nothing_saved(failed_roll, moderator, client_for, data, words):
    table = failed_roll
    before = Step.objects.filter(table=table).count()
    r = client_for(moderator).post(plan_url(table), data)
    assert r.status_code == 400
    assert words in r.content.decode()
    assert Step.objects.filter(table=table).count() == before


def test_a_signals_report_names_the_plan_s_order_for_next_turn(shinobi_table, moderator, player, other_player,
                                                               client_for):
    """W10.2: north signals about s1; the moderator noted south's Cunning-plan order for s1 next turn."""
    table = shinobi_table
    deploy_with_shinobi(table, moderator)
    services.roll(table.pk, moderator, "north", hand=[6, 6])
    services.roll(table.pk, moderator, "south", hand=[6, 6])
    services.cunning_plan(table.pk, moderator, "south", None, 0, "план князя", unit="s1",
                          note="ударить во фланг у брода")
    services.shinobi(table.pk, player, "north", "signals", "s1")
    services.confirm(table.pk, player, "north")
    services.confirm(table.pk, other_player, "south")
    table.refresh_from_db()
    report = sit.tasks(table.state, "north")[0]["report"]
    assert report["plan_next"] == "ударить во фланг у брода" and report["leaders"] == []
    url = reverse("redplains:table", args=[table.game_id, table.pk])
    mine = client_for(player).get(url).content.decode()
    assert "Приказ по Хитрому плану на следующий ход: ударить во фланг у брода" in mine
    assert "Ни Рубаки, ни военачальника с Харизмой при отряде нет." in mine
    theirs = client_for(other_player).get(url).content.decode()          # south's own note, on south's panel
    assert "ударить во фланг у брода" in theirs and "Сигналы об отряде" not in theirs
    step = Step.objects.get(table=table, kind="plan")
    assert step.payload == {"unit": "s1", "next": "ударить во фланг у брода"}
    assert selectors.turn_log(table.state, table.setup, "north") == []
