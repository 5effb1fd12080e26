"""Each press counted once (issue 33), against the live server, for the tactical rules' dice-rolling acts: the
moderator's «Решить» with the server's dice, the roll-off for the first move and the deal of the operational cards
pressed ten times at once; the side's player and the moderator rolling the same side's marches together."""
import pytest
from django.urls import reverse

from larp.dice.models import Roll
from larp.tables.models import Press, Step
from tests.tables.pressing import Browser, at_once

from .conftest import url
from .test_manoeuvre_players import mapped  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


def dice_of(table, step) -> int:
    return Roll.objects.filter(stream=table.dice, ref=step.ref).count()


def test_ten_presses_of_resolve_roll_once(live_server, battle, moderator):
    console = Browser(live_server, moderator)
    page, act = url(battle, "table"), url(battle, "act")
    form = console.form(page, page)                 # «Решить» posts the odds form to the act's address
    assert form.get("act_key")
    before, rolls = Step.objects.filter(table=battle).count(), Roll.objects.filter(stream=battle.dice).count()
    data = {**form, "kind": "test", "test_kind": "initiative", "server_rest": "on"}
    assert at_once([(console, act, data)] * 10) == [200] * 10
    assert Step.objects.filter(table=battle).count() == before + 1
    step = Step.objects.filter(table=battle).order_by("-seq").first()
    assert Roll.objects.filter(stream=battle.dice).count() - rolls == dice_of(battle, step) >= 1
    assert Press.objects.filter(table=battle, act="act").count() == 1


@pytest.mark.parametrize("op", ["first", "deal"])
def test_ten_presses_of_the_moderators_map_rolls_roll_once(live_server, table, moderator, op):
    console = Browser(live_server, moderator)
    page, act = url(table, "manoeuvre"), url(table, "manoeuvre_act", op)
    form = console.form(page, act)
    before = Step.objects.filter(table=table).count()
    rolls = Roll.objects.filter(stream=table.dice).count()
    assert at_once([(console, act, {**form, "side": ""})] * 10) == [200] * 10
    assert Step.objects.filter(table=table).count() == before + 1
    step = Step.objects.filter(table=table).order_by("-seq").first()
    assert Roll.objects.filter(stream=table.dice).count() - rolls == dice_of(table, step) >= 1
    assert Press.objects.filter(table=table, act=f"map-{op}").count() == 1


def test_the_player_and_the_moderator_rolling_the_marches_together_roll_once(live_server, mapped, moderator,
                                                                              player, client_for):
    table = mapped
    table.refresh_from_db()
    parmenion = next(c["id"] for c in table.state["strategic"]["corps"] if c["name"] == "Парменион")
    assert client_for(player).post(url(table, "manoeuvre_side", "north", "target"),
                                   {"t-corps": parmenion, "t-steps": "C4"}).status_code == 302
    tablet, console = Browser(live_server, player), Browser(live_server, moderator)
    act, page = url(table, "manoeuvre_side", "north", "roll"), url(table, "manoeuvre")
    presses = [(tablet, act, tablet.form(page, act)) for _ in range(5)] + \
              [(console, act, console.form(page, act)) for _ in range(5)]
    rolls = Roll.objects.filter(stream=table.dice).count()
    statuses = at_once(presses)
    assert statuses.count(200) >= 1 and set(statuses) <= {200, 400}
    [march] = Step.objects.filter(table=table, kind="march")
    assert Roll.objects.filter(stream=table.dice).count() - rolls == dice_of(table, march) >= 1
    assert Press.objects.filter(table=table, act="move-roll").count() == 1
