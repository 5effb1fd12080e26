"""A moderator's order change (R14) lives with the battles it resets: before any battle is confirmed only."""
import pytest
from django.test import Client
from django.urls import reverse

from larp.battles import services as console
from larp.battles.models import TurnResolution
from larp.campaign.services.members import add_moderator
from larp.orders.models import Order
from larp.orders.services import OrderRefused
from larp.turns.models import AuditEntry
from tests.battles.test_console_http import tactics


@pytest.fixture
def fighting(latin_game):
    mod, _ = add_moderator(latin_game, "order-mod")
    tactics(latin_game, mod)  # Bulgaria IV attacks Serres: battle 1 awaits its dice
    return latin_game, mod


def test_a_changed_order_resets_the_computed_turn(fighting):
    game, mod = fighting
    assert TurnResolution.objects.get(turn__game=game).result  # movement computed and applied
    order = console.moderator_set_order(mod, game, "bulgaria-4", {"type": "hold"}, "the player changed his mind")
    assert order.type == "hold" and order.filed_by == mod
    assert TurnResolution.objects.get(turn__game=game).result == {}  # recomputed from the corrected orders
    entry = AuditEntry.objects.get(game=game, action="order_changed")
    assert entry.reason == "the player changed his mind" and entry.detail["unit"] == "bulgaria-4"


def test_after_a_confirmed_battle_the_change_is_refused_and_nothing_saved(fighting):
    game, mod = fighting
    console.confirm_battle(game, mod, 1, [6], [1])
    before = list(Order.objects.filter(game=game).values_list("payload", flat=True).order_by("id"))
    result = TurnResolution.objects.get(turn__game=game).result
    with pytest.raises(OrderRefused) as exc:
        console.moderator_set_order(mod, game, "bulgaria-4", {"type": "hold"}, "too late")
    assert exc.value.code == "battles"
    assert list(Order.objects.filter(game=game).values_list("payload", flat=True).order_by("id")) == before
    assert TurnResolution.objects.get(turn__game=game).result == result
    assert not AuditEntry.objects.filter(game=game, action="order_changed").exists()
    client = Client(raise_request_exception=False)
    client.force_login(mod)
    response = client.post(reverse("battles:moderator_order", args=[game.pk]),
                           {"unit": "bulgaria-4", "type": "hold", "reason": "too late"})
    assert 400 <= response.status_code < 500
    assert "отмените" in response.content.decode().lower() or "подтвержд" in response.content.decode().lower()
    assert list(Order.objects.filter(game=game).values_list("payload", flat=True).order_by("id")) == before
