"""«Your move» on a Red Plains tablet: both sides deploy, then command at once; a side that has confirmed its
orders waits (no longer its move) while the other still commands."""
from django.urls import reverse

from larp.redplains import services
from tests.redplains_table.conftest import deploy_both
from tests.tables.your_move_probe import mark


def test_a_side_is_told_its_move_until_it_has_confirmed(table, moderator, player, other_player, client_for):
    url = reverse("redplains:table", args=[table.game_id, table.pk])
    north, south = client_for(player), client_for(other_player)
    assert (mark(north, url), mark(south, url), mark(client_for(moderator), url)) == ("1", "1", None)
    deploy_both(table, moderator)
    assert (mark(north, url), mark(south, url)) == ("1", "1")          # the command phase: both roll and order
    services.stake(table.pk, player, "north", "low")
    services.roll(table.pk, player, "north")
    services.give_orders(table.pk, player, "north", [{"unit": "n1", "slot": 1, "kind": "ordinary", "type": "move"}])
    services.confirm(table.pk, player, "north")
    assert (mark(north, url), mark(south, url)) == ("0", "1")
