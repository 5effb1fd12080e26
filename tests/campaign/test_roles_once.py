"""A user's role in a game is read once a request (larp.campaign.access.RolesOnceMiddleware): a table's page asks
it for the seat, the dice and each card. A membership saved or deleted in the request is read again; outside a
request (a task, a command) nothing is remembered."""
from django.http import HttpResponse
from django.test import RequestFactory

from larp.campaign.access import RolesOnceMiddleware, is_moderator, player_faction
from larp.campaign.models import Membership
from larp.campaign.services.members import add_moderator


def in_a_request(fn):
    """fn() run as a view behind the middleware; its value."""
    out = {}

    def view(request):
        out["value"] = fn()
        return HttpResponse()

    RolesOnceMiddleware(view)(RequestFactory().get("/"))
    return out["value"]


def test_inside_a_request_a_role_is_read_once(tiny_game, player, django_assert_num_queries):
    def twice():
        with django_assert_num_queries(2):  # one a question, not one a call
            answers = [(is_moderator(player, tiny_game), player_faction(player, tiny_game)) for _ in range(3)]
        return answers

    answers = in_a_request(twice)
    assert answers == [(False, tiny_game.factions.get(code="north"))] * 3


def test_a_membership_changed_in_the_request_is_read_again(tiny_game, player):
    def promote():
        before = is_moderator(player, tiny_game)
        Membership.objects.filter(user=player, game=tiny_game).delete()
        gone = player_faction(player, tiny_game)
        add_moderator(tiny_game, player.username)
        return before, gone, is_moderator(player, tiny_game)

    assert in_a_request(promote) == (False, None, True)


def test_outside_a_request_nothing_is_remembered(tiny_game, player, django_assert_num_queries):
    with django_assert_num_queries(2):
        assert not is_moderator(player, tiny_game) and not is_moderator(player, tiny_game)
    add_moderator(tiny_game, player.username)
    assert is_moderator(player, tiny_game)


def test_what_a_request_remembered_is_gone_when_it_ends(tiny_game, player):
    assert in_a_request(lambda: is_moderator(player, tiny_game)) is False
    Membership.objects.filter(user=player, game=tiny_game).update(role=Membership.MODERATOR, faction=None)  # no signal
    assert in_a_request(lambda: is_moderator(player, tiny_game)) is True
