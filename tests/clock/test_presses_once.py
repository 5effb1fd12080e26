"""Extend, pause, shorten and end carry the clock they were pressed on (issue 33, item 3): two presses made
on the same deadline act once, and the second moderator is told by whom and to when. Over HTTP, at once."""
from datetime import timedelta

import pytest
from django.urls import reverse

from larp.campaign.services.members import add_moderator
from larp.scenarios.loader import load_scenario
from larp.turns import services
from larp.turns.models import AuditEntry, Phase
from tests.clock.http import Caller, at_once


@pytest.fixture
def started(transactional_db):
    game = load_scenario("tiny", title="Clock presses", seed=7)
    first, _ = add_moderator(game, "mod-a")
    first.first_name, first.last_name = "Анна", "Орлова"
    first.save()
    second, _ = add_moderator(game, "mod-b")
    phase = services.start_game(game, first)
    return game, first, second, phase


def control(game, action):
    return reverse("battles:control", args=[game.pk, action])


def test_ten_concurrent_extensions_made_on_one_deadline_extend_once(started, live_server):
    game, first, second, phase = started
    mark, deadline = phase.clock_mark(), phase.deadline
    callers = [Caller(live_server.url, first if i % 2 else second) for i in range(10)]
    data = {"phase": phase.pk, "clock": mark, "minutes": "1"}
    answers = at_once([lambda c=c: c.post(control(game, "extend"), data) for c in callers])
    statuses = sorted(a[0] for a in answers)
    assert statuses == [302] + [409] * 9, statuses
    phase.refresh_from_db()
    assert phase.deadline == deadline + timedelta(minutes=1)
    assert AuditEntry.objects.filter(game=game, action="extended").count() == 1
    refusal = next(body for status, body in answers if status == 409)
    assert "Срок уже продлён" in refusal and "Ваше нажатие ничего не изменило" in refusal


def test_two_presses_of_five_minutes_80_ms_apart_say_who_and_to_when(started, live_server):
    import threading
    import time

    game, first, second, phase = started
    data = {"phase": phase.pk, "clock": phase.clock_mark(), "minutes": "5"}
    a, b = Caller(live_server.url, first), Caller(live_server.url, second)
    answers = {}
    t = threading.Thread(target=lambda: answers.__setitem__("a", a.post(control(game, "extend"), data)))
    t.start()
    time.sleep(0.08)
    answers["b"] = b.post(control(game, "extend"), data)
    t.join()
    phase.refresh_from_db()
    assert AuditEntry.objects.filter(game=game, action="extended").count() == 1
    assert {answers["a"][0], answers["b"][0]} == {302, 409}
    refused = answers["a"][1] if answers["a"][0] == 409 else answers["b"][1]
    winner = first if answers["a"][0] == 302 else second
    from django.utils import timezone
    from django.utils.dateformat import time_format

    new_deadline = time_format(timezone.localtime(phase.deadline), "H:i:s")
    assert new_deadline in refused
    assert ("Анна Орлова" if winner == first else "mod-b") in refused  # no name: the login says which one


@pytest.mark.parametrize("action, extra", [("pause", {}), ("shorten", {"minutes": "1"}), ("end", {})])
def test_other_clock_acts_pressed_together_act_once(started, live_server, action, extra):
    game, first, second, phase = started
    data = {"phase": phase.pk, "clock": phase.clock_mark(), **extra}
    callers = [Caller(live_server.url, first if i % 2 else second) for i in range(6)]
    answers = at_once([lambda c=c: c.post(control(game, action), data) for c in callers])
    assert sorted(a[0] for a in answers) == [302] + [409] * 5
    audited = {"pause": "paused", "shorten": "shortened", "end": "phase_closed"}[action]
    assert AuditEntry.objects.filter(game=game, action=audited).count() == 1


def test_a_press_on_the_new_deadline_still_acts(started, live_server):
    """Only presses made on an old clock are refused: a moderator who saw the extension may extend again."""
    game, first, second, phase = started
    caller = Caller(live_server.url, first)
    assert caller.post(control(game, "extend"), {"phase": phase.pk, "clock": phase.clock_mark(), "minutes": "1"})[0] == 302
    phase.refresh_from_db()
    assert caller.post(control(game, "extend"), {"phase": phase.pk, "clock": phase.clock_mark(), "minutes": "1"})[0] == 302
    assert AuditEntry.objects.filter(game=game, action="extended").count() == 2
    assert Phase.objects.get(pk=phase.pk).state == Phase.RUNNING
