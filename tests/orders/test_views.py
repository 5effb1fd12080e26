"""Order URLs against the role matrix: nothing of another faction leaks or changes (R13)."""
import json

import pytest
from django.test import Client
from django.urls import reverse

from larp.orders.models import Order
from larp.turns import services


@pytest.fixture
def started(tiny_game, moderator):
    return services.start_game(tiny_game, moderator)


def post_order(client, game, unit, payload):
    return client.post(reverse("orders:file", args=[game.pk, unit]), json.dumps(payload),
                       content_type="application/json")


def test_own_player_files_and_reads(client_for, tiny_game, player, started):
    c = client_for(player)
    response = post_order(c, tiny_game, "north-1", {"type": "march", "path": ["northfield"]})
    assert response.status_code == 200 and response.json()["ok"]
    listing = c.get(reverse("orders:faction_orders", args=[tiny_game.pk, "north"])).json()
    assert [o["unit"] for o in listing["orders"]] == ["north-1"]


def test_other_player_can_neither_read_nor_change(client_for, tiny_game, player, other_player, started):
    post_order(client_for(player), tiny_game, "north-1", {"type": "hold"})
    spy = client_for(other_player)
    assert spy.get(reverse("orders:faction_orders", args=[tiny_game.pk, "north"])).status_code == 403
    assert post_order(spy, tiny_game, "north-1", {"type": "march", "path": ["northfield"]}).status_code == 403
    assert spy.post(reverse("orders:withdraw", args=[tiny_game.pk, "north-1"])).status_code == 403
    assert spy.get(reverse("battles:console", args=[tiny_game.pk])).status_code == 403
    assert spy.get(reverse("turns:audit", args=[tiny_game.pk])).status_code == 403
    assert spy.post(reverse("battles:control", args=[tiny_game.pk, "end"])).status_code == 403
    assert Order.objects.get(army__faction__code="north", army__number=1).type == "hold"


def test_stranger_and_anonymous(client_for, tiny_game, stranger, started):
    for c in (client_for(stranger),):
        assert c.get(reverse("orders:faction_orders", args=[tiny_game.pk, "north"])).status_code == 403
        assert post_order(c, tiny_game, "north-1", {"type": "hold"}).status_code == 403
    anon = Client()
    assert anon.get(reverse("orders:faction_orders", args=[tiny_game.pk, "north"])).status_code == 302
    assert post_order(anon, tiny_game, "north-1", {"type": "hold"}).status_code == 302
    assert not Order.objects.exists()


def test_moderator_reads_every_faction_and_controls(client_for, tiny_game, moderator, player, started):
    post_order(client_for(player), tiny_game, "north-1", {"type": "hold"})
    c = client_for(moderator)
    assert len(c.get(reverse("orders:faction_orders", args=[tiny_game.pk, "north"])).json()["orders"]) == 1
    page = c.get(reverse("battles:console", args=[tiny_game.pk]))
    assert page.status_code == 200 and "Стратегия" in page.content.decode()
    phase = services.current_phase(tiny_game).pk
    response = c.post(reverse("battles:control", args=[tiny_game.pk, "pause"]), {"phase": phase, "reason": "перерыв"})
    assert response.status_code == 302
    assert services.current_phase(tiny_game).state == "paused"
    assert "перерыв" in c.get(reverse("turns:audit", args=[tiny_game.pk])).content.decode()


def test_every_post_needs_csrf(tiny_game, player, moderator, started):
    for user, url in ((player, reverse("orders:file", args=[tiny_game.pk, "north-1"])),
                      (player, reverse("orders:withdraw", args=[tiny_game.pk, "north-1"])),
                      (moderator, reverse("battles:control", args=[tiny_game.pk, "pause"]))):
        c = Client(enforce_csrf_checks=True)
        c.force_login(user)
        assert c.post(url, {"type": "hold"}).status_code == 403


def test_refused_order_reason_reaches_the_client(client_for, tiny_game, player, started):
    response = post_order(client_for(player), tiny_game, "north-1", {"type": "march", "path": ["southgate"]})
    assert response.status_code == 422
    assert response.json()["message"] == "Шаг 1 (Северные Врата → Южные Врата): провинции не граничат"


def test_clock_endpoint(client, tiny_game, started):
    data = client.get(reverse("turns:clock", args=[tiny_game.pk])).json()
    assert data["phase"] == "strategy" and data["turn"] == 1 and data["paused"] is False
    assert abs(data["deadline"] - data["server_time"] - data["remaining"]) < 0.01


def test_moderator_order_form(client_for, tiny_game, moderator, player, started):
    services.end_now(tiny_game, moderator)
    url = reverse("battles:moderator_order", args=[tiny_game.pk])
    assert client_for(player).post(url, {"unit": "north-1", "type": "hold", "reason": "x"}).status_code == 403
    response = client_for(moderator).post(url, {"unit": "north-1", "type": "attack", "s1": "midtown",
                                                "reason": "misread form"})
    assert response.status_code == 302
    assert Order.objects.get(army__faction__code="north", army__number=1).payload["path"] == ["midtown"]


def test_a_json_order_sent_twice_with_its_key_is_filed_once(client_for, tiny_game, player, started):
    from larp.orders.models import OrderEvent

    c = client_for(player)
    payload = {"type": "attack", "path": ["midtown"], "key": "json-key-0001"}
    first = post_order(c, tiny_game, "north-1", payload).json()
    again = post_order(c, tiny_game, "north-1", payload).json()
    assert first["ok"] and again["ok"] and not first["repeated"] and again["repeated"]
    assert again["filed_at"] == first["filed_at"] and again["key"] == "json-key-0001"
    assert "key" not in again["order"]  # the engine's document holds only what the engine reads
    assert OrderEvent.objects.filter(unit="north-1").count() == 1


# --- a plain form POST (no JavaScript) comes through a form at the door ---------------------------------------

def test_a_plain_form_post_files_the_order_with_its_confirmation_key(client_for, tiny_game, player, started):
    response = client_for(player).post(reverse("orders:file", args=[tiny_game.pk, "north-1"]),
                                       {"type": "attack", "path": ["midtown", ""], "key": "plain-key-0001"})
    assert response.status_code == 200 and response.json()["ok"]
    order = Order.objects.get(army__faction__code="north", army__number=1)
    assert order.payload == {"unit": "north-1", "type": "attack", "path": ["midtown"]}
    assert order.key == "plain-key-0001"
    # A key that is not one (too long) files the order all the same, without matching retries by it.
    again = client_for(player).post(reverse("orders:file", args=[tiny_game.pk, "north-1"]),
                                    {"type": "hold", "key": "k" * 5000})
    assert again.status_code == 200 and again.json()["ok"] and again.json()["key"] == ""


HOSTILE_FORM_POSTS = [
    {"type": "x" * 5000},
    {"type": "attack", "path": ["m" * 5000]},
    {"type": "attack", "path": ["midtown"] * 500},
    {"type": "fleet_move", "sea": ["s" * 5000]},
    {"type": "sea_attack", "path": ["midtown"], "fleet": "f" * 5000},
    {"type": "attack", "path": ["midtown"], "target_faction": "t" * 5000},
    {"type": "attack", "path": ["mid\x00town"]},
]


@pytest.mark.parametrize("data", HOSTILE_FORM_POSTS, ids=range(len(HOSTILE_FORM_POSTS)))
def test_hostile_form_posts_get_a_clear_4xx_in_russian_and_save_nothing(client_for, tiny_game, player, started, data):
    import re

    response = Client(raise_request_exception=False)
    response.force_login(player)
    answer = response.post(reverse("orders:file", args=[tiny_game.pk, "north-1"]), data)
    assert 400 <= answer.status_code < 500, answer.status_code
    body = answer.json()
    assert body["ok"] is False and re.search("[А-Яа-яЁё]{3,}", body["message"])
    assert not Order.objects.filter(army__faction__code="north", army__number=1).exists()
