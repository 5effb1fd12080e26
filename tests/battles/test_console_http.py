"""Every console endpoint over HTTP: hostile input gets a clear 4xx in the user's language and changes nothing;
a press that names a state already gone (a double click, a second moderator) is refused once the state moved.
"""
import re
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from larp.battles import services as console
from larp.battles.models import DiceRoll, TurnResolution
from larp.campaign.services.members import add_moderator, create_player
from larp.scenarios.loader import load_scenario
from larp.orders.services import file_order
from larp.turns import services as turns
from larp.turns.models import AuditEntry, Phase, Turn
from larp.turns.situation import case_from_game

CYRILLIC = re.compile("[А-Яа-яЁё]{3,}")


def tactics(game, mod):
    """Bulgaria IV attacks Serres; Strategy closed, movement applied, Tactics running: battle 1 awaits dice."""
    turns.start_game(game, mod)
    player, _ = create_player(game.factions.get(code="bulgaria"), "p-bulgaria")
    file_order(player, game, "bulgaria-4", {"type": "attack", "path": ["serres"]})
    turns.next_phase(game, mod)
    console.apply_movement(game, mod)
    turns.next_phase(game, mod)


@pytest.fixture
def fighting(latin_game):
    mod, _ = add_moderator(latin_game, "http-mod")
    tactics(latin_game, mod)
    c = Client(raise_request_exception=False)
    c.force_login(mod)
    return latin_game, mod, c


def world(game):
    case = case_from_game(game)
    resolution = TurnResolution.objects.filter(turn__game=game).first()
    return ({k: case[k] for k in ("provinces", "armies", "fleets", "special_state")},
            resolution.dice if resolution else None, resolution.choices if resolution else None,
            DiceRoll.objects.filter(resolution__turn__game=game).count(),
            AuditEntry.objects.filter(game=game).count(), Turn.objects.filter(game=game).count(),
            turns.current_phase(game).pk)


def battle_url(game, action):
    return reverse("battles:battle_action", args=[game.pk, action])


def regroup_url(game, action):
    return reverse("battles:regroup_action", args=[game.pk, action])


HOSTILE = [
    ("confirm", {"battle": "abc", "attacker": ["6"], "defender": ["1"]}),
    ("confirm", {"battle": "1", "roll": "x"}),
    ("confirm", {"battle": "1", "attacker": ["7"], "defender": ["1"]}),
    ("confirm", {"battle": "1", "attacker": ["６"], "defender": ["1"]}),
    ("confirm", {"battle": "1"}),
    ("confirm", {"attacker": ["6"], "defender": ["1"]}),
    ("confirm", {"battle": "99", "attacker": ["6"], "defender": ["1"]}),
    ("confirm", {"battle": "1", "roll": "999999"}),
    ("confirm", {"battle": str(10**30), "attacker": ["6"], "defender": ["1"]}),
    ("roll", {"battle": "1.5"}),
    ("roll", {"battle": "-1"}),
    ("roll", {"battle": "2"}),
    ("roll", {}),
    ("undo", {"battle": "1", "reason": "misread"}),
    ("undo", {"battle": "x", "reason": "misread"}),
    ("modifier", {"battle": "1", "side": "zz", "value": "2", "reason": "rain"}),
    ("modifier", {"battle": "1", "side": "attacker", "value": "x", "reason": "rain"}),
    ("modifier", {"battle": "1", "side": "attacker", "value": "2"}),
    ("modifier", {"battle": "3", "side": "attacker", "value": "2", "reason": "rain"}),
    ("greek_fire", {"battle": "abc", "use": "1"}),
    ("storms", {"province": "nowhere", "storms": "2", "reason": "night"}),
    ("storms", {"province": "serres", "storms": "9", "reason": "night"}),
    ("storms", {"province": "serres", "storms": "2"}),
]
HOSTILE_REGROUP = [
    ("transfer", {"province": "nowhere", "faction": "bulgaria", "reason": "treaty"}),
    ("transfer", {"province": "serres", "faction": "nobody", "reason": "treaty"}),
    ("transfer", {"province": "serres", "faction": "bulgaria"}),
    ("transfer", {}),
    ("raise", {"army": "abc"}),
    ("raise", {}),
    ("purchase", {"army": "abc", "troop_type": "1", "count": "1"}),
    ("purchase", {"army": "1", "troop_type": "zz", "count": "1"}),
    ("purchase", {"count": "x"}),
    ("retreat", {"unit": "zz", "province": "serres", "reason": "r"}),
    ("retreat", {}),
    ("apply", {"turn": "abc"}),
    ("apply", {"turn": "7"}),
    ("news", {"news": "x" * 20_000}),
]


def assert_refused(response, before_state, game, what):
    assert 400 <= response.status_code < 500, f"{what}: {response.status_code}"
    text = response.content.decode()
    messages = re.findall(r'<ul class="messages">(.*?)</ul>', text, re.S)
    assert messages and CYRILLIC.search(messages[0]), f"{what}: no message in Russian"
    assert world(game) == before_state, f"{what}: a refused request changed something"


def test_hostile_battle_input_gets_a_clear_4xx_and_changes_nothing(fighting):
    game, _mod, c = fighting
    before = world(game)
    for action, data in HOSTILE:
        assert_refused(c.post(battle_url(game, action), data), before, game, f"{action} {data}")
    assert c.post(battle_url(game, "launch")).status_code == 404


def test_hostile_regroup_and_movement_input_gets_a_clear_4xx(fighting):
    game, _mod, c = fighting
    before = world(game)
    for action, data in HOSTILE_REGROUP:
        assert_refused(c.post(regroup_url(game, action), data), before, game, f"{action} {data}")
    assert_refused(c.post(reverse("battles:movement_apply", args=[game.pk]), {"turn": "x"}), before, game,
                   "movement turn=x")
    again = c.post(reverse("battles:movement_apply", args=[game.pk]), {"turn": "1"}, follow=True)
    assert "уже применено" in again.content.decode() and world(game) == before  # a repeat says so, changes nothing
    assert c.post(regroup_url(game, "launch")).status_code == 404


def test_hostile_phase_controls_get_a_clear_4xx(fighting):
    game, _mod, c = fighting
    before = world(game)
    phase = str(turns.current_phase(game).pk)
    for action, data in [("next", {}), ("next", {"phase": "abc"}), ("next", {"phase": "1.5"}),
                         ("next", {"phase": phase}),  # battle 1 awaits its dice
                         ("next", {"phase": phase, "skip": "1"}),  # a skip without a reason
                         ("end", {"phase": phase}), ("pause", {"phase": str(10**30)}),
                         ("extend", {"phase": phase, "minutes": "zz"}), ("extend", {"phase": phase, "minutes": "-3"}),
                         ("resume", {"phase": phase}), ("start", {}), ("draw_manual", {"order": "a b"})]:
        assert_refused(c.post(reverse("battles:control", args=[game.pk, action]), data), before, game,
                       f"{action} {data}")
    assert c.post(reverse("battles:control", args=[game.pk, "launch"])).status_code == 404


def test_a_refused_next_phase_says_what_is_unfinished_and_a_skip_needs_a_reason(fighting):
    game, _mod, c = fighting
    phase = turns.current_phase(game)
    url = reverse("battles:control", args=[game.pk, "next"])
    response = c.post(url, {"phase": phase.pk})
    assert response.status_code == 409
    text = response.content.decode()
    assert "Сражение 1 (Серре)" in text and "Пропустить фазу" in text
    response = c.post(url, {"phase": phase.pk, "skip": "1", "reason": "the hall closes"})
    assert response.status_code == 302
    assert turns.current_phase(game).kind == Phase.REGROUP
    skip = AuditEntry.objects.get(game=game, action="phase_skipped")
    assert skip.reason == "the hall closes" and "Серре" in skip.detail["lost"][0]
    log = c.get(reverse("turns:audit", args=[game.pk])).content.decode()
    assert "пропущена" in log and "the hall closes" in log


def press_at_once(users_and_posts):
    """Send the posts from separate clients at the same moment; the status codes in the order given."""
    statuses = [None] * len(users_and_posts)
    barrier = threading.Barrier(len(users_and_posts))

    def press(i, user, url, data):
        browser = Client(raise_request_exception=False)
        browser.force_login(user)
        barrier.wait()
        try:
            statuses[i] = browser.post(url, data)
        finally:
            connection.close()

    threads = [threading.Thread(target=press, args=(i, *p)) for i, p in enumerate(users_and_posts)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return statuses


@pytest.fixture
def two_moderators(transactional_db):
    game = load_scenario("latin-east-1204", title="double clicks", seed=1204)
    first, _ = add_moderator(game, "mod-a")
    second, _ = add_moderator(game, "mod-b")
    tactics(game, first)
    return game, first, second


def _refusals(responses):
    refused = [r for r in responses if r.status_code == 409]
    for r in refused:
        assert CYRILLIC.search(re.findall(r'<ul class="messages">(.*?)</ul>', r.content.decode(), re.S)[0])
    return refused


def test_next_phase_pressed_twice_at_once_advances_once(two_moderators):
    game, first, second = two_moderators
    console.confirm_battle(game, first, 1, [6], [1])
    tactics_phase = turns.current_phase(game)
    url = reverse("battles:control", args=[game.pk, "next"])
    responses = press_at_once([(first, url, {"phase": tactics_phase.pk}), (second, url, {"phase": tactics_phase.pk}),
                               (first, url, {"phase": tactics_phase.pk})])
    assert sorted(r.status_code for r in responses) == [302, 409, 409]
    assert len(_refusals(responses)) == 2
    assert turns.current_phase(game).kind == Phase.REGROUP  # not Strategy of turn 2: no phase skipped
    assert AuditEntry.objects.filter(game=game, action="phase_started", detail__phase="regroup").count() == 1


def test_undo_pressed_twice_at_once_undoes_one_battle(two_moderators):
    game, first, second = two_moderators
    console.confirm_battle(game, first, 1, [6], [1])
    resolution = TurnResolution.objects.get(turn__game=game)
    # A second battle: the defender repelled at Serres? Whatever the turn holds, confirm what awaits next.
    awaiting = resolution.result.get("awaiting")
    if awaiting:
        console.confirm_battle(game, first, awaiting["n"], [1] * awaiting["dice_count"]["attacker"],
                               [6] * awaiting["dice_count"]["defender"])
    last = len(TurnResolution.objects.get(turn__game=game).dice)
    url = battle_url(game, "undo")
    responses = press_at_once([(first, url, {"battle": last, "reason": "misread"}),
                               (second, url, {"battle": last, "reason": "misread"})])
    assert sorted(r.status_code for r in responses) == [302, 409]
    _refusals(responses)
    assert len(TurnResolution.objects.get(turn__game=game).dice) == last - 1
    assert AuditEntry.objects.filter(game=game, action="battle_undone").count() == 1


def test_server_roll_pressed_twice_at_once_stores_one_roll(two_moderators):
    game, first, second = two_moderators
    url = battle_url(game, "roll")
    responses = press_at_once([(first, url, {"battle": 1}), (second, url, {"battle": 1}), (first, url, {"battle": 1})])
    assert sorted(r.status_code for r in responses) == [302, 409, 409]
    _refusals(responses)
    assert DiceRoll.objects.filter(resolution__turn__game=game, battle_no=1, source="server").count() == 1
    # Rolling again names the roll it replaces: that works, once.
    shown = DiceRoll.objects.get(resolution__turn__game=game, battle_no=1)
    responses = press_at_once([(first, url, {"battle": 1, "replaces": shown.pk, "reason": "упал со стола"}),
                               (second, url, {"battle": 1, "replaces": shown.pk, "reason": "упал со стола"})])
    assert sorted(r.status_code for r in responses) == [302, 409]
    assert DiceRoll.objects.filter(resolution__turn__game=game, battle_no=1, source="server").count() == 2
    # Without a reason, rolling again is refused at the door: the dice record keeps why dice were re-rolled.
    shown = DiceRoll.objects.filter(resolution__turn__game=game, battle_no=1).order_by("id").last()
    response = press_at_once([(first, url, {"battle": 1, "replaces": shown.pk})])[0]
    assert response.status_code == 400 and "почему кубики бросают заново" in response.content.decode()


def test_confirming_a_roll_that_was_rolled_again_since_is_refused(fighting):
    game, mod, c = fighting
    first = console.server_roll(game, mod, 1)
    second = console.server_roll(game, mod, 1, replaces=first.pk, reason="упал")  # another moderator rolled again
    before = world(game)
    response = c.post(battle_url(game, "confirm"), {"battle": 1, "roll": first.pk})
    assert_refused(response, before, game, "confirm an old roll")
    assert "брошены заново" in response.content.decode()
    assert c.post(battle_url(game, "confirm"), {"battle": 1, "roll": second.pk}).status_code == 302
    assert TurnResolution.objects.get(turn__game=game).dice[0] == {"attacker": second.attacker,
                                                                   "defender": second.defender}
