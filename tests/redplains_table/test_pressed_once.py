"""Each press counted once, tried the way it was found (issue 33): a page drawn, then its form posted ten times at
once, or the moderator and the side's player pressing the same roll together, against the live server. Every
dice-rolling act of Red Plains: the command roll, the messenger's re-roll, the guards' kill rolls on the last
confirmation, a sabotage's die, the execution's dice."""
import pytest
from django.urls import reverse

from larp.dice.models import Roll
from larp.redplains import services
from larp.redplains import situation as sit
from larp.tables.models import Press, Step
from tests.redplains_table.conftest import PLACES, deploy_both, give_turn_one
from tests.tables.pressing import Browser, at_once

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


def page(table):
    return reverse("redplains:table", args=[table.game_id, table.pk])


def act(table, name):
    return reverse("redplains:act", args=[table.game_id, table.pk, name])


def live(table, kind):
    return list(Step.objects.filter(table=table, kind=kind, undone=False).order_by("seq"))


def dice_of(step):
    return list(Roll.objects.filter(stream=step.table.dice, ref=step.ref).values_list("value", flat=True))


def test_ten_presses_of_the_command_roll_are_one_roll_and_the_re_roll_is_kept(live_server, table, moderator, player):
    deploy_both(table, moderator)
    services.stake(table.pk, player, "north", "low")
    tablet = Browser(live_server, player)
    form = tablet.form(page(table), act(table, "roll"), side="north")
    statuses = at_once([(tablet, act(table, "roll"), {**form, "source": "server"})] * 10)
    assert statuses == [200] * 10                            # the result page for all: one acted, nine «уже сделано»
    [roll] = live(table, "roll")
    assert len(dice_of(roll)) == 2 and Roll.objects.filter(stream=table.dice).count() == 2
    table.refresh_from_db()
    state = services.current(table)
    assert len(state["command"]["north"]["rolls"]) == 1 and state["rerolls_left"]["north"] == 1
    assert Press.objects.filter(table=table, act="roll").count() == 1
    assert not Roll.objects.filter(stream=table.dice, status=Roll.DISCARDED).exists()


def test_the_moderator_and_the_side_pressing_the_roll_together_roll_once(live_server, table, moderator, player):
    deploy_both(table, moderator)
    tablet, console = Browser(live_server, player), Browser(live_server, moderator)
    presses = []
    for _ in range(5):                                      # ten pages drawn, each with its own key
        presses.append((tablet, act(table, "roll"), {**tablet.form(page(table), act(table, "roll"), side="north"),
                                                     "source": "server"}))
        presses.append((console, act(table, "roll"), {**console.form(page(table), act(table, "roll"), side="north"),
                                                      "source": "server"}))
    statuses = at_once(presses)
    assert sorted(statuses) == [200] + [400] * 9            # the others told the roll is already made
    [roll] = live(table, "roll")
    assert len(dice_of(roll)) == 2 and Roll.objects.filter(stream=table.dice).count() == 2
    table.refresh_from_db()
    state = services.current(table)
    assert len(state["command"]["north"]["rolls"]) == 1 and state["rerolls_left"]["north"] == 1
    # the re-roll is its own act and button: now offered, the roll no longer
    drawn = tablet.get(page(table))
    assert act(table, "reroll") in drawn and f'action="{act(table, "roll")}"' not in drawn


def test_ten_presses_of_the_messengers_re_roll_are_one_re_roll(live_server, table, moderator, player):
    deploy_both(table, moderator)
    services.roll(table.pk, player, "north")
    tablet = Browser(live_server, player)
    form = tablet.form(page(table), act(table, "reroll"), side="north")
    statuses = at_once([(tablet, act(table, "reroll"), {**form, "source": "server"})] * 10)
    assert statuses == [200] * 10
    assert len(live(table, "roll")) == 2 and Roll.objects.filter(stream=table.dice).count() == 4
    assert Roll.objects.filter(stream=table.dice, status=Roll.DISCARDED).count() == 2     # the first roll, once
    table.refresh_from_db()
    state = services.current(table)
    assert len(state["command"]["north"]["rolls"]) == 2 and state["rerolls_left"]["north"] == 1


def test_ten_presses_of_the_execution_dice_are_one_step(live_server, table, moderator, player, other_player):
    deploy_both(table, moderator)
    give_turn_one(table, moderator, player, other_player)
    table.refresh_from_db()
    assert services.current(table)["phase"] == sit.EXECUTION
    console = Browser(live_server, moderator)
    form = console.form(page(table), act(table, "dice"))
    before = Roll.objects.filter(stream=table.dice).count()
    statuses = at_once([(console, act(table, "dice"), {**form, "source": "server"})] * 10)
    assert statuses == [200] * 10
    [step] = live(table, "dice")
    assert Roll.objects.filter(stream=table.dice).count() == before + len(step.payload["values"])
    assert dice_of(step) == step.payload["values"]


def test_ten_presses_of_a_sabotage_are_one_task_and_one_die(live_server, shinobi_table, moderator, player):
    from tests.redplains_table.conftest import deploy_with_shinobi
    table = shinobi_table
    deploy_with_shinobi(table, moderator)
    services.roll(table.pk, player, "north")
    tablet = Browser(live_server, player)
    form = tablet.form(page(table), act(table, "shinobi"), side="north")
    table.refresh_from_db()
    target = sit.visible_enemies(table.setup, services.current(table), "north")[0]["id"]
    before = Roll.objects.filter(stream=table.dice).count()
    statuses = at_once([(tablet, act(table, "shinobi"),
                         {**form, "task": "sabotage", "unit": target, "source": "server"})] * 10)
    assert statuses == [200] * 10
    [step] = live(table, "shinobi")
    assert len(dice_of(step)) == 1 and Roll.objects.filter(stream=table.dice).count() == before + 1


def test_ten_presses_of_the_last_confirmation_roll_the_guards_once(live_server, shinobi_table, moderator, player,
                                                                 other_player):
    table = shinobi_table
    for side, n in (("north", 1), ("south", 1)):            # one tries to get in on each side, the rest guard
        services.deploy(table.pk, moderator, side, PLACES[side], infiltrate=n)
    services.confirm(table.pk, moderator, "south")
    tablet = Browser(live_server, player)
    form = tablet.form(page(table), act(table, "confirm"), side="north")
    statuses = at_once([(tablet, act(table, "confirm"), form)] * 10)
    assert statuses == [200] * 10
    confirms = live(table, "confirm")
    assert len(confirms) == 2
    assert Roll.objects.filter(stream=table.dice).count() == len(dice_of(confirms[-1])) > 0


def test_both_sides_deploying_at_once_both_go_through(live_server, table, player, other_player):
    north, south = Browser(live_server, player), Browser(live_server, other_player)
    presses = []
    for browser, side in ((north, "north"), (south, "south")):
        form = browser.form(page(table), act(table, "deploy"), side=side)
        presses.append((browser, act(table, "deploy"),
                        {**form, **{f"cell_{u}": c for u, c in PLACES[side].items()}}))
    assert at_once(presses) == [200, 200]
    assert sorted(s.side for s in live(table, "deploy")) == ["north", "south"]
