"""Random and hostile input at the order endpoints: a clear 4xx (a message in the user's language) or a
saved legal order; never a 500, never anything saved by a refused request.

JSON and form bodies, malformed JSON, unknown and huge ids, negative numbers,
nested structures, unicode, very long strings (hypothesis, modest budgets).
"""
import json
import re
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from larp.engine.orders import check_order
from larp.orders.models import Order, OrderEvent
from larp.turns.situation import start_situation
from larp.turns import services

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
CYRILLIC = re.compile("[А-Яа-яЁё]")
ORDER_TYPES = ["hold", "march", "attack", "sea_attack", "landing", "fleet_move", "fleet_attack"]
TINY_IDS = ["north-1", "north-f1", "south-1", "northfield", "northgate", "southgate", "north", "south", "east",
            "north_sea", "south_sea"]

HOSTILE_TEXT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["", " ", "Северные Врата", "🏰", "\u0000", "\u202e", "x" * 10_000, "null", "-1",
                     "1e999", "../../", "<script>alert(1)</script>", "'; DROP TABLE orders_order; --", *TINY_IDS]),
)
NUMBERS = st.one_of(st.integers(), st.sampled_from([10**30, -10**30, 2**63, -(2**63), -1, 0]),
                    st.floats(allow_nan=False))
LEAVES = st.one_of(st.none(), st.booleans(), NUMBERS, HOSTILE_TEXT)
NESTED = st.recursive(LEAVES, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(HOSTILE_TEXT, inner, max_size=4)),
                      max_leaves=10)
ORDERISH = st.fixed_dictionaries(
    {"type": st.one_of(st.sampled_from(ORDER_TYPES), NESTED)},
    optional={"path": st.one_of(st.lists(st.one_of(st.sampled_from(TINY_IDS), HOSTILE_TEXT, NESTED), max_size=4),
                                NESTED),
              "sea": st.one_of(st.sampled_from(TINY_IDS), NESTED), "fleet": st.one_of(st.sampled_from(TINY_IDS), NESTED),
              "target": NESTED, "target_faction": NESTED, "unit": NESTED, NESTED.__repr__()[:5]: NESTED})
JSON_BODIES = st.one_of(ORDERISH.map(json.dumps), NESTED.map(json.dumps))
RAW_BODIES = st.one_of(
    st.binary(max_size=200),
    st.sampled_from([b"", b"{", b"[" * 100_000, b'{"type":' * 20_000, b"NaN", b'{"type": "hold", "path": [NaN]}',
                     b'{"type": "hold", "path": [Infinity]}', b'{"type": "march", "path": ["\\ud800"]}',
                     b"\xff\xfe{}", '{"type": "hold"}'.encode("utf-16"), b'{"type": "hold"}' * 3]),
)
FORM_BODIES = st.dictionaries(st.sampled_from(["type", "path", "sea", "fleet", "target", "target_faction", "s1",
                                               "s2", "s3", "unit", "junk"]),
                              st.lists(HOSTILE_TEXT.filter(lambda t: "\x00" not in t), min_size=1, max_size=3),
                              max_size=5)
UNITS = st.one_of(st.sampled_from(["north-1", "north-f1", "south-1", "north-0", "north--1", "north-f-1",
                                   "north-99999999999999999999999", "north-f99999999999999999999", "-1", "f1",
                                   "северные-1", "north-1 ", "NORTH-1"]),
                  HOSTILE_TEXT.filter(lambda t: t and "/" not in t))


@pytest.fixture
def arena(tiny_game, moderator, player, client_for):
    services.start_game(tiny_game, moderator)
    return tiny_game, client_for(player)


def counts(game):
    return Order.objects.filter(game=game).count(), OrderEvent.objects.filter(game=game).count()


def assert_clear(response, game, before, *, saved_allowed=True):
    """Never a 500; a refusal is a 4xx that says why in Russian and saved nothing."""
    assert response.status_code < 500, response.content[:500]
    if response.status_code == 200 and saved_allowed:
        body = response.json()
        assert body["ok"] is True
        order = Order.objects.get(game=game, turn__number=1, **(
            {"fleet__number": int(body["unit"].rsplit("-f", 1)[1])} if "-f" in body["unit"]
            else {"army__number": int(body["unit"].rsplit("-", 1)[1])}), faction__code=body["unit"].split("-")[0])
        assert order.payload == body["order"] and order.payload["type"] in ORDER_TYPES
        assert check_order(start_situation(order.turn), order.payload) is None  # only legal orders are kept
        json.dumps(order.payload, allow_nan=False)
        return
    assert counts(game) == before, "a refused request saved something"
    if response.status_code in (302, 405):
        return
    assert 400 <= response.status_code < 500
    assert response["Content-Type"].startswith("application/json"), response.content[:300]
    message = response.json()["message"]
    assert isinstance(message, str) and CYRILLIC.search(message), message


@SETTINGS
@given(unit=UNITS, body=JSON_BODIES)
def test_json_bodies(arena, unit, body):
    game, tablet = arena
    before = counts(game)
    response = tablet.post(f"/g/{game.pk}/units/{quote(unit, safe='')}/order", body, content_type="application/json")
    assert_clear(response, game, before)


@SETTINGS
@given(body=RAW_BODIES, content_type=st.sampled_from(["application/json",
                                                      "text/plain", "application/x-www-form-urlencoded"]))
def test_raw_and_malformed_bodies(arena, body, content_type):
    game, tablet = arena
    before = counts(game)
    response = tablet.post(f"/g/{game.pk}/units/north-1/order", body, content_type=content_type)
    assert_clear(response, game, before)


@SETTINGS
@given(unit=UNITS, form=FORM_BODIES)
def test_form_bodies(arena, unit, form):
    game, tablet = arena
    before = counts(game)
    response = tablet.post(f"/g/{game.pk}/units/{quote(unit, safe='')}/order", form)
    assert_clear(response, game, before)


@SETTINGS
@given(game_id=st.one_of(st.integers(0, 10**6), st.sampled_from([2**31, 2**63, 10**30])), unit=UNITS,
       body=JSON_BODIES)
def test_unknown_games(arena, game_id, unit, body):
    game, tablet = arena
    if game_id == game.pk:
        return
    before = counts(game)
    for url in (f"/g/{game_id}/units/{quote(unit, safe='')}/order", f"/g/{game_id}/units/{quote(unit, safe='')}/withdraw"):
        assert_clear(tablet.post(url, body, content_type="application/json"), game, before, saved_allowed=False)
    listing = tablet.get(f"/g/{game_id}/factions/north/orders")
    assert_clear(listing, game, before, saved_allowed=False)


@SETTINGS
@given(unit=UNITS, faction=st.one_of(st.sampled_from(["north", "south", "east", "nobody"]),
                                     st.from_regex(r"[-a-zA-Z0-9_]{1,300}", fullmatch=True)))
def test_withdraw_and_listing(arena, unit, faction):
    game, tablet = arena
    before = counts(game)
    response = tablet.post(f"/g/{game.pk}/units/{quote(unit, safe='')}/withdraw")
    assert response.status_code < 500
    if response.status_code != 200 or not response.json().get("withdrawn"):
        assert counts(game)[0] == before[0]
    if response.status_code >= 400:
        assert CYRILLIC.search(response.json()["message"])
    listing = tablet.get(f"/g/{game.pk}/factions/{faction}/orders")
    assert listing.status_code in (200, 403, 404)
    if listing.status_code == 200:
        assert all(o["unit"].startswith("north-") for o in listing.json()["orders"])  # R13: own faction only


@SETTINGS
@given(unit=UNITS, form=FORM_BODIES, htmx=st.booleans())
def test_tablet_form(arena, unit, form, htmx):
    """The faction page's order form (larp.tablet): HTMX gets the unit's card, a plain POST a redirect."""
    game, tablet = arena
    before = counts(game)
    headers = {"HX-Request": "true"} if htmx else {}
    response = tablet.post(f"/g/{game.pk}/f/north/units/{quote(unit, safe='')}/order", form, headers=headers)
    assert response.status_code < 500, response.content[:300]
    if response.status_code not in (200, 302):
        assert counts(game) == before
    if response.status_code in (404, 409, 422) and htmx and response.content:
        assert CYRILLIC.search(response.content.decode())


@SETTINGS
@given(form=FORM_BODIES)
def test_moderator_console_form(tiny_game, moderator, client_for, form):
    services.start_game(tiny_game, moderator) if services.current_phase(tiny_game) is None else None
    before = counts(tiny_game)
    response = client_for(moderator).post(f"/g/{tiny_game.pk}/console/order", form)
    assert response.status_code == 302 or 400 <= response.status_code < 500  # saved, or refused
    if response.status_code != 302:
        assert counts(tiny_game) == before and CYRILLIC.search(response.content.decode())
    if counts(tiny_game) != before:
        order = Order.objects.filter(game=tiny_game).latest("filed_at")
        assert check_order(start_situation(order.turn), order.payload) is None
