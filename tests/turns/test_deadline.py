"""The hard Strategy deadline (R3) with a real Redis and a real Celery worker."""
import threading
import time

import pytest
from django.db import connection
from django.utils import timezone

from larp.campaign.services.members import add_moderator, create_player
from larp.orders.models import Order, OrderEvent
from larp.orders.services import OrderRefused, file_order
from larp.turns import services
from larp.turns.models import AuditEntry, Phase, Snapshot
from tests.workers import wait_until


def setup(fast_game, seconds):
    game = fast_game(seconds)
    mod, _ = add_moderator(game, "mod")
    player, _ = create_player(game.factions.get(code="north"), "north-p")
    return game, mod, player


def phase_of(game):
    return Phase.objects.get(pk=services.turn_settings(game).current_phase_id)


@pytest.mark.worker
def test_worker_closes_the_phase_at_the_deadline(fast_game, worker_factory):
    worker_factory()
    game, mod, player = setup(fast_game, 3)
    phase = services.start_game(game, mod)
    order = file_order(player, game, "north-1", {"type": "march", "path": ["northfield"]})
    assert order.pk and Order.objects.filter(turn=phase.turn, type="march").count() == 1

    assert wait_until(lambda: phase_of(game).state == Phase.CLOSED, timeout=phase.remaining() + 5)
    closed = phase_of(game)
    assert closed.closed_how == "deadline"  # the worker, not a request
    late = (closed.closed_at - closed.deadline).total_seconds()
    assert 0 <= late < 1.0, f"closed {late:.3f}s after the deadline"

    with pytest.raises(OrderRefused) as exc:
        file_order(player, game, "north-1", {"type": "hold"})
    assert exc.value.code == "closed"
    assert Order.objects.get(turn=phase.turn, army__number=1, faction__code="north").type == "march"
    # Every other unit holds, recorded as implicit; the north fleet and the others included.
    implicit = Order.objects.filter(turn=phase.turn, implicit=True)
    assert implicit.count() == 4 and set(implicit.values_list("type", flat=True)) == {"hold"}
    assert OrderEvent.objects.filter(turn=phase.turn, action="implicit").count() == 4
    assert Snapshot.objects.filter(turn=phase.turn, phase="strategy").count() == 1
    assert AuditEntry.objects.filter(game=game, action="phase_closed").count() == 1


@pytest.mark.worker
def test_order_after_the_deadline_is_refused_without_any_worker(fast_game):
    game, mod, player = setup(fast_game, 1)
    phase = services.start_game(game, mod)
    time.sleep(max(0, phase.remaining()) + 0.05)
    with pytest.raises(OrderRefused) as exc:
        file_order(player, game, "north-1", {"type": "march", "path": ["northfield"]})
    assert exc.value.code == "late" and "поздно" in exc.value.message.lower()
    assert not Order.objects.filter(turn=phase.turn, implicit=False).exists()
    # The request that found the deadline passed closed the phase itself.
    closed = phase_of(game)
    assert closed.state == Phase.CLOSED and closed.closed_how == "request"
    assert Order.objects.filter(turn=phase.turn, implicit=True).count() == 5


@pytest.mark.worker
def test_auto_advance_follows_a_deadline_a_request_closed(fast_game):
    """No worker at the deadline: the tablet's clock request closes the phase and Movement starts all the same."""
    from larp.turns import clock

    game, mod, player = setup(fast_game, 1)
    ts = services.turn_settings(game)
    ts.auto_advance = True
    ts.save(update_fields=["auto_advance"])
    phase = services.start_game(game, mod)
    time.sleep(max(0, phase.remaining()) + 0.05)
    shown = clock.payload(game.pk)
    closed = Phase.objects.get(pk=phase.pk)
    assert closed.state == Phase.CLOSED and closed.closed_how == "request"
    assert phase_of(game).kind == Phase.MOVEMENT and phase_of(game).state == Phase.RUNNING
    assert shown["phase"] == "movement"


@pytest.mark.worker
def test_worker_that_was_down_catches_up_when_it_returns(fast_game, worker_factory):
    game, mod, player = setup(fast_game, 1)
    phase = services.start_game(game, mod)
    time.sleep(max(0, phase.remaining()) + 0.5)
    assert phase_of(game).state == Phase.RUNNING  # nobody has looked yet
    worker_factory()
    assert wait_until(lambda: phase_of(game).state == Phase.CLOSED, timeout=10)
    assert phase_of(game).closed_how == "deadline"
    assert AuditEntry.objects.filter(game=game, action="phase_closed").count() == 1


@pytest.mark.worker
def test_two_workers_racing_close_the_phase_once(fast_game, worker_factory):
    from larp.turns.tasks import close_phase_at_deadline

    worker_factory("a")
    worker_factory("b")
    game, mod, _ = setup(fast_game, 2)
    phase = services.start_game(game, mod)
    for _ in range(6):  # many copies of the deadline task, for both workers
        close_phase_at_deadline.apply_async((phase.pk,), eta=phase.deadline)
    assert wait_until(lambda: phase_of(game).state == Phase.CLOSED, timeout=10)
    time.sleep(2.5)  # let every copy and a beat round run
    assert AuditEntry.objects.filter(game=game, action="phase_closed").count() == 1
    assert Snapshot.objects.filter(turn=phase.turn).count() == 1
    assert Order.objects.filter(turn=phase.turn, implicit=True).count() == 5


def test_concurrent_claims_close_once(fast_game):
    """Threads racing on the conditional UPDATE: exactly one wins (the database decides)."""
    game, mod, _ = setup(fast_game, 1)
    phase = services.start_game(game, mod)
    time.sleep(max(0, phase.remaining()) + 0.05)
    results, barrier = [], threading.Barrier(6)

    def claim():
        barrier.wait()
        try:
            results.append(services.close_if_due(phase.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=claim) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(True) == 1 and results.count(False) == 5
    assert AuditEntry.objects.filter(game=game, action="phase_closed").count() == 1


def test_an_order_one_millisecond_late_is_refused(fast_game, monkeypatch):
    game, mod, player = setup(fast_game, 60)
    phase = services.start_game(game, mod)
    deadline = phase.deadline
    monkeypatch.setattr(timezone, "now", lambda: deadline - timezone.timedelta(milliseconds=1))
    assert file_order(player, game, "north-1", {"type": "hold"}).pk
    monkeypatch.setattr(timezone, "now", lambda: deadline + timezone.timedelta(milliseconds=1))
    with pytest.raises(OrderRefused) as exc:
        file_order(player, game, "north-1", {"type": "march", "path": ["northfield"]})
    assert exc.value.code == "late"
    assert Order.objects.get(turn=phase.turn, army__faction__code="north", army__number=1).type == "hold"
