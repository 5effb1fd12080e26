"""«Your move» on an Orda tablet (larp/tables/templatetags/your_move.py): marked for the faction whose act is
open, not for the other; nothing is marked for the moderator."""
from django.urls import reverse

from tests.tables.your_move_probe import mark


def test_only_the_faction_to_act_is_told_it_is_its_move(orda_table, moderator, player, other_player, client_for):
    url = reverse("orda:table", args=[orda_table.game_id, orda_table.pk])
    seen = {who: mark(client_for(user), url) for who, user in
            (("north", player), ("south", other_player), ("moderator", moderator))}
    assert seen == {"north": "1", "south": "0", "moderator": None}   # Русь begins the first turn (order)
