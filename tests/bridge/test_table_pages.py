"""A table the bridge made opens in its own system's pages: the moderator's page and a side's tablet answer 200."""
import pytest
from django.test import Client
from django.urls import reverse

from larp.bridge import services as bridge
from larp.campaign.models import Membership
from tests.bridge.test_flow import played, roll, tactics  # noqa: F401


@pytest.mark.parametrize("system, namespace", [("red-plains", "redplains"), ("tactical", "tactical"),
                                               ("orda", "orda")])
def test_a_battle_sent_to_a_table_opens_in_that_systems_pages(played, system, namespace):  # noqa: F811
    game, mod = played
    tactics(game, mod)
    roll(game, mod, 0)
    made = bridge.send_to_table(game, mod, 2, system, "decisive battle")
    moderator = Client()
    moderator.force_login(mod)
    page = moderator.get(reverse(f"{namespace}:table", args=[game.pk, made.table.pk]))
    assert page.status_code == 200, page.content.decode()[:500]
    assert made.table.title in page.content.decode()
    side = made.table.sides.exclude(faction=None).first()
    member = Membership.objects.filter(game=game, role=Membership.PLAYER, faction=side.faction).first()
    if member is not None:
        tablet = Client()
        tablet.force_login(member.user)
        assert tablet.get(reverse(f"{namespace}:table", args=[game.pk, made.table.pk])).status_code == 200
