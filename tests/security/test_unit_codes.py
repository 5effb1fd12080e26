"""Unit codes in URLs are parsed strictly: `<faction>-<n>` or `<faction>-f<n>`, ASCII digits in canonical form.
Anything else (Unicode digits, leading zeros, signs, spaces, huge numbers) is 404, never a 500 and never an
alias of a real unit, for filing and for withdrawing alike."""
import json
from urllib.parse import quote

import pytest
from django.urls import reverse

from larp.orders.models import Order, OrderEvent
from larp.turns.situation import parse_unit_code
from larp.turns import services as turns

ALIASES = ["north-²", "north-①", "north-٢", "north-２", "north-01", "north-+1", "north- 1", "north-1 ", "north-1\n",
           "north-f01", "north-f²", "north-F1", "North-1", "north-99999999999999999999", "north-",
           "-1", "north-0x1", "north-1_0", "north-१"]


@pytest.fixture
def running(tiny_game, moderator):
    turns.start_game(tiny_game, moderator)
    return tiny_game


def _url(name, game, unit):
    return reverse(name, args=[game.pk, "UNIT"]).replace("UNIT", quote(unit, safe=""))


@pytest.mark.parametrize("unit", ALIASES)
def test_non_canonical_unit_codes_are_404_when_filing(running, player, client_for, unit):
    response = client_for(player).post(_url("orders:file", running, unit), json.dumps({"type": "hold"}),
                                       content_type="application/json")
    assert response.status_code == 404, (unit, response.status_code)
    assert response.json()["code"] == "unknown_unit" and "армии или флота" in response.json()["message"]
    assert not Order.objects.exists()


@pytest.mark.parametrize("unit", ["north-02", "north-٢", "north-２", "north-2 ", "north-f01"])
def test_withdraw_refuses_aliases_and_never_writes_them_into_the_history(running, player, client_for, unit):
    tablet = client_for(player)
    for code in ("north-2", "north-f1"):
        saved = tablet.post(_url("orders:file", running, code), json.dumps({"type": "hold"}),
                            content_type="application/json")
        assert saved.status_code == 200, saved.content
    response = tablet.post(_url("orders:withdraw", running, unit))
    assert response.status_code == 404 and response.json()["code"] == "unknown_unit"
    assert Order.objects.count() == 2  # nothing withdrawn
    assert not OrderEvent.objects.filter(action=OrderEvent.WITHDRAWN).exists()
    assert set(OrderEvent.objects.values_list("unit", flat=True)) == {"north-2", "north-f1"}


def test_canonical_codes_still_work(running, player, client_for):
    tablet = client_for(player)
    assert tablet.post(_url("orders:file", running, "north-1"), json.dumps({"type": "hold"}),
                       content_type="application/json").status_code == 200
    assert tablet.post(_url("orders:withdraw", running, "north-1")).json() == {"ok": True, "withdrawn": True}
    assert tablet.post(_url("orders:withdraw", running, "north-f1")).json() == {"ok": True, "withdrawn": False}
    assert tablet.post(_url("orders:withdraw", running, "south-1")).status_code == 403  # real, but not theirs


def test_parse_unit_code():
    assert parse_unit_code("north-1") == ("north", "army", 1)
    assert parse_unit_code("north-f12") == ("north", "fleet", 12)
    assert parse_unit_code("latin-empire-3") == ("latin-empire", "army", 3)
    assert parse_unit_code("north-0") is None  # units are numbered from 1
    for alias in ALIASES:
        assert parse_unit_code(alias) is None, alias
