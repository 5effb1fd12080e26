"""What the console, History, tablets and printouts say is what happened, in the words a moderator would use."""
import re

import pytest
from django.urls import reverse

from larp.orders.models import Order
from larp.orders.services import file_order
from larp.turns import services as turns


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def north_carries(tiny_game, moderator, player):
    """North's army 2 lands by sea on fleet 1 and army 1 holds: every North unit that takes an order has one."""
    turns.start_game(tiny_game, moderator)
    file_order(player, tiny_game, "north-1", {"type": "hold"})
    file_order(player, tiny_game, "north-2", {"type": "sea_attack", "fleet": "north-f1", "sea": ["north_sea"],
                                              "target": "isle"})
    return tiny_game


def test_a_carrying_fleet_is_not_counted_as_missing_an_order_on_the_console(north_carries, moderator, client_for):
    page = _text(client_for(moderator).get(reverse("battles:console", args=[north_carries.pk])).content.decode())
    north = north_carries.factions.get(code="north").name
    row = re.search(re.escape(north) + r" (приказы: \d+ из \d+)", page)
    assert row and row.group(1) == "приказы: 2 из 2"


def test_a_carrying_fleet_is_not_counted_as_missing_an_order_on_the_tablet(north_carries, player, client_for):
    page = _text(client_for(player).get(reverse("tablet:faction", args=[north_carries.pk, "north"])).content.decode())
    assert "Отдано приказов: 2 из 2." in page


def test_a_carrying_fleet_gets_no_implicit_hold_at_the_deadline(north_carries, moderator):
    turns.end_now(north_carries, moderator)
    assert not Order.objects.filter(faction__code="north", implicit=True).exists()
