"""Each press counted once (issue 33), against the live server: the attack's dice pressed ten times at once by
the attacker's player, the attacker's player and the moderator rolling the same attack together, and the
moderator's roll-off for the turn order pressed ten times at once."""
import pytest
from django.urls import reverse

from larp.dice.models import Roll
from larp.orda import services
from larp.tables.access import seat
from larp.tables.models import Press, Step
from tests.orda_table.test_table_acts_views import arranged
from tests.tables.pressing import Browser, at_once

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


def page(table):
    return reverse("orda:table", args=[table.game_id, table.pk])


def act(table, name):
    return reverse("orda:act", args=[table.game_id, table.pk, name])


@pytest.fixture
def countered(tiny_game, moderator, player, other_player):
    """China's crossbowman shoots North Mongolia's raider, which chose its defence: the dice await."""
    t = arranged(tiny_game, moderator)
    cn, nm = seat(player, tiny_game.pk, t.pk), seat(other_player, tiny_game.pk, t.pk)
    services.act(t.pk, player, cn, "turn_start", {})
    services.act(t.pk, player, cn, "declare", {"attacker": "cn-crossbowman-1", "target": "nm-raider-1"})
    services.act(t.pk, other_player, nm, "counter", {"counter": "defence"})
    return t


def test_ten_presses_of_the_attacks_dice_roll_them_once(live_server, countered, player):
    tablet = Browser(live_server, player)
    form = tablet.form(page(countered), act(countered, "attack"))
    before = Roll.objects.filter(stream=countered.dice).count()
    assert at_once([(tablet, act(countered, "attack"), {**form, "how": "server"})] * 10) == [200] * 10
    [attack] = Step.objects.filter(table=countered, kind="attack")
    assert Roll.objects.filter(stream=countered.dice).count() - before == \
        Roll.objects.filter(stream=countered.dice, ref=attack.ref).count() > 0
    assert Press.objects.filter(table=countered, act="attack").count() == 1


def test_the_attacker_and_the_moderator_rolling_together_roll_once(live_server, countered, player, moderator):
    tablet, console = Browser(live_server, player), Browser(live_server, moderator)
    presses = []
    for _ in range(5):                                      # ten pages drawn, each with its own key
        for browser in (tablet, console):
            form = browser.form(page(countered), act(countered, "attack"))
            presses.append((browser, act(countered, "attack"), {**form, "how": "server"}))
    statuses = at_once(presses)
    assert sorted(statuses) == [200] + [400] * 9
    assert Step.objects.filter(table=countered, kind="attack").count() == 1


def test_ten_presses_of_the_rolloff_roll_one_round(live_server, tiny_game, moderator):
    t = arranged(tiny_game, moderator, rolloff=True)
    console = Browser(live_server, moderator)
    form = console.form(page(t), act(t, "rolloff"))
    assert at_once([(console, act(t, "rolloff"), {**form, "how": "server"})] * 10) == [200] * 10
    [rolloff] = Step.objects.filter(table=t, kind="rolloff")
    assert Roll.objects.filter(stream=t.dice).count() == Roll.objects.filter(stream=t.dice, ref=rolloff.ref).count() == 2
