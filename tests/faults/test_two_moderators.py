"""Two moderators press "confirm" on the same battle at the same moment, over HTTP: it is applied once."""
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from larp.battles.models import DiceRoll, TurnResolution
from larp.campaign.services.members import add_moderator
from larp.scenarios.loader import load_scenario
from larp.turns.models import AuditEntry
from tests.faults.test_db_drop import play


@pytest.mark.django_db(transaction=True)
def test_two_moderators_confirm_the_same_battle_at_once_over_http():
    game = load_scenario("latin-east-1204", title="two moderators", seed=1204)
    first, _ = add_moderator(game, "mod-a")
    second, _ = add_moderator(game, "mod-b")
    play(game, first)
    url = reverse("battles:battle_action", args=[game.pk, "confirm"])
    statuses, barrier = [], threading.Barrier(4)

    def press(user, attacker):
        browser = Client(raise_request_exception=False)
        browser.force_login(user)
        barrier.wait()
        try:
            statuses.append(browser.post(url, {"battle": 1, "attacker": [attacker], "defender": [1]}).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=press, args=(user, dice))
               for user, dice in ((first, 6), (second, 2), (first, 6), (second, 3))]  # double clicks too
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert statuses == [302] * 4  # no error page for anyone
    resolution = TurnResolution.objects.get(turn__game=game)
    assert len(resolution.dice) == 1
    assert DiceRoll.objects.filter(resolution=resolution, battle_no=1).count() == 1
    assert AuditEntry.objects.filter(game=game, action="battle_confirmed").count() == 1
    assert resolution.result["fought"][0]["attacker"]["dice"] == resolution.dice[0]["attacker"]
