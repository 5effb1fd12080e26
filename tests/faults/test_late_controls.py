"""Pause or Extend pressed after the Strategy deadline, before any worker closed the phase: the press closes
the phase (the claim the worker uses) and says so; filing never reopens."""
import json
from datetime import timedelta

import pytest
from django.urls import reverse

from larp.orders.models import Order, OrderEvent
from larp.turns import services
from larp.turns.models import AuditEntry, Phase


def _order(client, game, payload):
    return client.post(reverse("orders:file", args=[game.pk, "north-1"]), json.dumps(payload),
                       content_type="application/json")


@pytest.mark.parametrize("action, data", [("pause", {}), ("extend", {"minutes": "2"})])
def test_a_late_pause_or_extend_closes_the_phase_instead(tiny_game, moderator, player, client_for, frozen,
                                                          action, data):
    phase = services.start_game(tiny_game, moderator)
    tablet = client_for(player)
    assert _order(tablet, tiny_game, {"type": "march", "path": ["northfield"]}).status_code == 200
    frozen.advance(300 + 1.03)  # the deadline passed 1.03 s ago; no worker has closed it yet

    response = client_for(moderator).post(reverse("battles:control", args=[tiny_game.pk, action]),
                                          {**data, "phase": phase.pk})
    assert response.status_code == 409  # refused by the state of the game, the console page says why
    text = response.content.decode()
    assert "Срок фазы уже истёк: фаза закрыта" in text, text

    closed = Phase.objects.get(pk=phase.pk)
    assert closed.state == Phase.CLOSED and closed.closed_how == "deadline"
    assert closed.paused_remaining is None and closed.deadline == phase.deadline  # neither paused nor extended
    assert not AuditEntry.objects.filter(game=tiny_game, action__in=["paused", "extended"]).exists()
    assert AuditEntry.objects.filter(game=tiny_game, action="phase_closed").count() == 1

    frozen.advance(0.15)
    late = _order(tablet, tiny_game, {"type": "hold"})
    assert late.status_code == 409
    assert Order.objects.get(turn=phase.turn, army__faction__code="north", army__number=1).type == "march"
    assert not OrderEvent.objects.filter(turn=phase.turn, at__gte=phase.deadline,
                                         action__in=["filed", "replaced", "withdrawn"]).exists()
    # The worker's claim comes later and finds nothing to close.
    assert services.close_if_due(phase.pk) is False
    assert AuditEntry.objects.filter(game=tiny_game, action="phase_closed").count() == 1


def test_pause_and_extend_before_the_deadline_still_work(tiny_game, moderator, frozen):
    phase = services.start_game(tiny_game, moderator)
    frozen.advance(299)
    assert services.extend(tiny_game, moderator, 1).deadline == phase.deadline + timedelta(minutes=1)
    frozen.advance(60)
    paused = services.pause(tiny_game, moderator)
    assert paused.state == Phase.PAUSED and paused.paused_remaining == 1
