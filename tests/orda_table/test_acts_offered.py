"""«Орда»'s acts are offered only when open, and refused when posted while closed (issue 33), through a battle
from the roll-off to the moderator's ruling that ends it, for the moderator and both sides' players."""
from django.urls import reverse

from larp.orda import services
from larp.orda.acts import ACTS
from larp.tables.access import seat
from tests.orda_table.test_table_acts_views import arranged
from tests.tables.offered import offered_both_ways

DATA = {"rolloff": {"how": "server"}, "override_first": {"first": "china", "reason": "x"},
        "deploy": {"unit": "cn-sapper-1", "hex": "0,0"}, "values": {"data_set": 1},
        "move": {"unit": "cn-sapper-1", "path": "-2,2"}, "attack": {"how": "server"}, "counter": {"counter": "defence"},
        "declare": {"attacker": "cn-crossbowman-1", "target": "nm-raider-1"},
        "ability": {"unit": "cn-sapper-1", "trait": "x"}, "override_unit": {"unit": "cn-sapper-1", "damage": 1,
                                                                           "reason": "x"},
        "override_modifier": {"unit": "cn-sapper-1", "param": "attack", "value": 1, "source": "event",
                              "reason": "x"},
        "override_unmodify": {"index": 0, "reason": "x"}, "override_end": {"winner": "mongolia", "reason": "x"},
        "undo": {"reason": "x"}, "cancel": {"reason": "x"}}


def test_every_act_is_offered_only_when_open_through_a_battle(tiny_game, moderator, player, other_player,
                                                              client_for):
    t = arranged(tiny_game, moderator, rolloff=True)
    seats = [(moderator, True, None), (player, False, "china"), (other_player, False, "north_mongolia")]
    tried = set()
    act_url = lambda name: reverse("orda:act", args=[t.game_id, t.pk, name])    # noqa: E731
    page = reverse("orda:table", args=[t.game_id, t.pk])

    def check(query=""):
        return offered_both_ways(ACTS, t, seats, page + query, act_url, DATA, client_for, tried)

    seen = check() | check("?unit=cn-sapper-1")                          # the roll-off waits; units placed
    services.act(t.pk, moderator, seat(moderator, t.game_id, t.pk), "override_first",
                 {"first": "china", "reason": "так решили"})
    seen |= check()                                                       # China begins its turn
    cn, nm = seat(player, t.game_id, t.pk), seat(other_player, t.game_id, t.pk)
    services.act(t.pk, player, cn, "turn_start", {})
    seen |= check("?unit=cn-crossbowman-1")                               # moves, targets, the turn's end
    services.act(t.pk, player, cn, "declare", {"attacker": "cn-crossbowman-1", "target": "nm-raider-1"})
    seen |= check()                                                       # the target's counter-measure
    services.act(t.pk, other_player, nm, "counter", {"counter": "defence"})
    seen |= check()                                                       # the attacker's dice
    services.act(t.pk, player, cn, "attack", {})
    seen |= check()
    services.act(t.pk, moderator, seat(moderator, t.game_id, t.pk), "override_end",
                 {"winner": "mongolia", "reason": "x"})
    seen |= check()                                                       # over: only the undo
    assert seen >= {"rolloff", "override_first", "deploy", "turn_start", "turn_end", "move", "declare", "counter",
                    "attack", "override_unit", "override_modifier", "override_end", "undo"}, seen
