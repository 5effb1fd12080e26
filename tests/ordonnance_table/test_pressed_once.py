"""Each press counted once (issue 33), against the live server: the moderator's «Раздать» (the lot and the
shuffle, every position a server die) and the lot of a physical table pressed ten times at once, two moderators
drawing the lot together, and the side's player and the moderator laying the same card together."""
import pytest
from django.urls import reverse

from larp.campaign.services.members import add_moderator
from larp.dice.models import Roll
from larp.ordonnance import services
from larp.tables.models import Press, Step
from tests.tables.pressing import Browser, at_once

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


def page(table):
    return reverse("ordonnance:table", args=[table.game_id, table.pk])


def act(table, name):
    return reverse(f"ordonnance:{name}", args=[table.game_id, table.pk])


def test_ten_presses_of_the_deal_deal_once(live_server, virtual, moderator):
    console = Browser(live_server, moderator)
    form = console.form(page(virtual), act(virtual, "lot"))
    assert at_once([(console, act(virtual, "lot"), {**form, "first_player": ""})] * 10) == [200] * 10
    [deal] = Step.objects.filter(table=virtual, kind="deal")
    assert Roll.objects.filter(stream=virtual.dice).count() == 1 + len(virtual.setup["deck"]) - 1
    assert Roll.objects.filter(stream=virtual.dice, ref=deal.ref).count() == Roll.objects.filter(
        stream=virtual.dice).count()
    assert Press.objects.filter(table=virtual).count() == 1


def test_two_moderators_drawing_the_lot_together_draw_it_once(live_server, physical, moderator, tiny_game):
    second, _ = add_moderator(tiny_game, "mod2", password="mod2-password-1")
    one, two = Browser(live_server, moderator), Browser(live_server, second)
    presses = []
    for _ in range(5):                                      # ten pages drawn, each with its own key
        for browser in (one, two):
            form = browser.form(page(physical), act(physical, "lot"))
            presses.append((browser, act(physical, "lot"), {**form, "first_player": ""}))
    statuses = at_once(presses)
    assert sorted(statuses) == [200] + [409] * 9
    assert Step.objects.filter(table=physical, kind="lot").count() == 1
    assert Roll.objects.filter(stream=physical.dice).count() == 1


def test_the_player_and_the_moderator_laying_the_same_card_together_lay_it_once(live_server, virtual, moderator,
                                                                               player, other_player):
    state = services.deal(virtual.pk, moderator)
    mover = state["to_move"]
    tablet = Browser(live_server, player if mover == "p1" else other_player)
    console = Browser(live_server, moderator)
    card = state["hands"][mover][0]
    mine = {**tablet.form(page(virtual), act(virtual, "play")), "card": card, "territory": 1}
    theirs = {**console.form(page(virtual), act(virtual, "play"), player=mover), "card": card, "territory": 1}
    statuses = at_once([(tablet, act(virtual, "play"), mine)] * 5 + [(console, act(virtual, "play"), theirs)] * 5)
    assert statuses.count(200) >= 2 and set(statuses) <= {200, 409}
    assert Step.objects.filter(table=virtual, kind="play").count() == 1
