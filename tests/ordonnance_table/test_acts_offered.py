"""«Ордонанс»'s acts are offered only when open, and refused when posted while closed (issue 33): a physical and
a virtual table walked from the lot to the end, for the moderator and both players."""
import pytest
from django.urls import reverse

from larp.ordonnance.acts import ACTS
from larp.ordonnance import services
from larp.tables.access import seat
from tests.tables.offered import offered_both_ways

from .conftest import play_out

DATA = {"lot": {"first_player": ""}, "play": {"player": "p1", "territory": 1, "symbols": ["flag"]},
        "turn": {"to_move": "p2", "reason": "x"}, "end": {"reason": "x"}, "undo": {"reason": "x"}}


@pytest.fixture
def seats(moderator, player, other_player):
    return [(moderator, True, None), (player, False, "p1"), (other_player, False, "p2")]


def check(table, seats, client_for, tried):
    return offered_both_ways(ACTS, table, seats, reverse("ordonnance:table", args=[table.game_id, table.pk]),
                             lambda name: reverse(f"ordonnance:{_url_name(name)}", args=[table.game_id, table.pk]),
                             DATA, client_for, tried)


def _url_name(act):
    return {"turn": "override_turn", "end": "override_end"}.get(act, act)


def test_a_physical_table_offers_each_act_only_when_open(physical, moderator, seats, client_for):
    tried = set()
    seen = check(physical, seats, client_for, tried)                        # the lot
    services.lot(physical.pk, moderator, first_player="p1")
    seen |= check(physical, seats, client_for, tried)                       # cards entered, rulings
    services.override_end(physical.pk, moderator, reason="тупик")
    seen |= check(physical, seats, client_for, tried)                       # over: only the undo
    assert seen == set(ACTS.by_name)


def test_a_virtual_table_offers_the_play_to_the_player_to_move_only(virtual, moderator, seats, client_for, player,
                                                                  other_player):
    tried = set()
    seen = check(virtual, seats, client_for, tried)                         # the deal
    state = services.deal(virtual.pk, moderator)
    seen |= check(virtual, seats, client_for, tried)                        # the one to move plays
    mover = {"p1": player, "p2": other_player}[state["to_move"]]
    waiter = other_player if mover == player else player
    page = reverse("ordonnance:table", args=[virtual.game_id, virtual.pk])
    play = reverse("ordonnance:play", args=[virtual.game_id, virtual.pk])
    assert play in client_for(mover).get(page).content.decode()
    assert play not in client_for(waiter).get(page).content.decode()
    play_out(virtual, moderator, lambda t, key: seat(moderator, t.game_id, t.pk))
    seen |= check(virtual, seats, client_for, tried)                        # over
    assert seen == {"lot", "play", "turn", "undo"}                          # a virtual game ends by itself
