"""The Celery worker SIGKILLed with the deadline task in hand, restarted after the deadline (R3)."""
import os
import signal
import time

import pytest
from django.db import transaction

from larp.campaign.services.members import add_moderator, create_player
from larp.orders.models import Order, OrderEvent
from larp.orders.services import OrderRefused, _open_strategy, file_order
from larp.turns import services
from larp.turns.models import AuditEntry, Phase, Snapshot
from tests.workers import wait_until

pytestmark = pytest.mark.worker


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return found


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _phase(game):
    return Phase.objects.get(pk=services.turn_settings(game).current_phase_id)


def test_worker_killed_before_the_deadline_and_restarted_after_it(fast_game, worker_factory):
    game = fast_game(4)
    mod, _ = add_moderator(game, "mod")
    player, _ = create_player(game.factions.get(code="north"), "north-p")
    first = worker_factory("doomed")
    phase = services.start_game(game, mod)
    # The worker has taken the deadline task (an ETA task held in memory, acknowledged only when run).
    assert wait_until(lambda: "close_phase_at_deadline" in first.log.read_text(errors="replace"), 5)
    embedded_beat = _children(first.proc.pid)  # -B runs beat in a child process: it dies with the host too
    first.stop(kill=True)  # SIGKILL: no warm shutdown, the task is lost with the process
    for pid in embedded_beat:
        _kill(pid)
    assert first.proc.returncode == -9

    # Filing does not need a worker.
    assert file_order(player, game, "north-1", {"type": "march", "path": ["northfield"]}).pk
    time.sleep(max(0, phase.remaining()) + 1.0)
    assert _phase(game).state == Phase.RUNNING  # nobody closed it: no worker, no request
    with pytest.raises(OrderRefused) as exc, transaction.atomic():  # ... and yet the deadline holds
        _open_strategy(game)  # the check file_order makes (without the close a late request triggers)
    assert exc.value.code == "late"

    worker_factory("replacement")
    assert wait_until(lambda: _phase(game).state == Phase.CLOSED, timeout=10), "the new worker did not close it"
    time.sleep(2.5)  # a beat round or two more, and any redelivered copy of the lost task
    closed = _phase(game)
    assert closed.closed_how == "deadline" and closed.closed_at >= closed.deadline
    assert AuditEntry.objects.filter(game=game, action="phase_closed").count() == 1
    assert Snapshot.objects.filter(turn=phase.turn, phase="strategy").count() == 1
    assert Order.objects.get(turn=phase.turn, army__faction__code="north", army__number=1).type == "march"
    assert Order.objects.filter(turn=phase.turn, implicit=True).count() == 4
    assert OrderEvent.objects.filter(turn=phase.turn, action="implicit").count() == 4
    with pytest.raises(OrderRefused) as exc:
        file_order(player, game, "north-1", {"type": "hold"})
    assert exc.value.code == "closed"
