"""The tablet's three forms at the door (order, add player, spy report): hostile input gets a clear 4xx in
Russian and changes nothing, never a 500."""
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from larp.campaign.models import Membership
from larp.orders.models import Order, OrderEvent
from larp.tablet.models import SpyReport

HTMX = {"HTTP_HX_REQUEST": "true"}
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LONG = "x" * 100_000

HOSTILE_ORDERS = [
    {"type": "\x00"},
    {"type": LONG},
    {"type": "attack", "s1": "\x00"},
    {"type": "attack", "s1": LONG},
    {"type": "attack", "s1": "northfield", "s2": "\x00"},
    {"type": "hold", "fleet": "\x00"},
    {"type": "attack", "s1": "northfield", "fleet": LONG},
]


def _messages(text: str) -> str:
    found = re.findall(r'<ul class="messages">(.*?)</ul>', text, re.S)
    return found[0] if found else ""


@pytest.mark.parametrize("data", HOSTILE_ORDERS, ids=range(len(HOSTILE_ORDERS)))
def test_hostile_order_form_gets_a_4xx_in_russian_and_files_nothing(tiny_game, started, player, client_for, data):
    c = client_for(player)
    url = reverse("tablet:file_order", args=[tiny_game.pk, "north", "north-1"])
    fragment = c.post(url, data, **HTMX)
    assert 400 <= fragment.status_code < 500, fragment.status_code
    assert CYRILLIC.search(fragment.content.decode())
    plain = c.post(url, data, follow=True)
    assert plain.status_code == 200  # the plain POST goes back to the faction page with a message
    assert CYRILLIC.search(_messages(plain.content.decode()))
    assert not Order.objects.filter(game=tiny_game, implicit=False).exists()


def test_a_key_that_is_not_a_key_still_files_the_order(tiny_game, started, player, client_for):
    c = client_for(player)
    url = reverse("tablet:file_order", args=[tiny_game.pk, "north", "north-1"])
    assert c.post(url, {"type": "hold", "key": "\x00" + "k" * 20}, **HTMX).status_code == 200
    order = Order.objects.get(game=tiny_game, implicit=False)
    assert order.type == "hold" and not OrderEvent.objects.filter(game=tiny_game).exclude(key="").exists()


HOSTILE_PLAYERS = [
    {"faction": "\x00", "username": "east-1", "name": "Олег"},
    {"faction": "east", "username": "east\x00", "name": "Олег"},
    {"faction": "east", "username": "east-1", "name": "Олег\x00"},
    {"faction": "east", "username": LONG, "name": "Олег"},
    {"faction": LONG, "username": "east-1", "name": "Олег"},
    {"faction": "east", "username": "east-1", "name": LONG},
    {"faction": "east", "username": "east-1"},
    {"username": "east-1", "name": "Олег"},
]


@pytest.mark.parametrize("data", HOSTILE_PLAYERS, ids=range(len(HOSTILE_PLAYERS)))
def test_hostile_add_player_gets_a_4xx_in_russian_and_adds_nobody(tiny_game, moderator, client_for, data):
    users = get_user_model().objects.count()
    response = client_for(moderator).post(reverse("tablet:add_player", args=[tiny_game.pk]), data)
    assert 400 <= response.status_code < 500, response.status_code
    assert CYRILLIC.search(_messages(response.content.decode()))
    assert get_user_model().objects.count() == users
    assert not Membership.objects.filter(game=tiny_game, user__username__startswith="east").exists()


HOSTILE_SPY = [
    {"to_faction": "\x00", "stack": "garrison:midtown"},
    {"to_faction": "south", "stack": "garrison:\x00"},
    {"to_faction": "south", "stack": "garrison:" + LONG},
    {"to_faction": LONG, "stack": "garrison:midtown"},
    {"to_faction": "south"},
    {"stack": "garrison:midtown"},
    {"to_faction": "nowhere", "stack": "garrison:midtown"},
]


@pytest.mark.parametrize("data", HOSTILE_SPY, ids=range(len(HOSTILE_SPY)))
def test_hostile_spy_report_gets_a_4xx_in_russian_and_grants_nothing(tiny_game, started, moderator, client_for,
                                                                     data):
    response = client_for(moderator).post(reverse("tablet:spy", args=[tiny_game.pk]), data)
    assert 400 <= response.status_code < 500, response.status_code
    assert CYRILLIC.search(_messages(response.content.decode()))
    assert not SpyReport.objects.filter(game=tiny_game).exists()
