"""Redis stopped during a Strategy phase (cache and broker gone) while the worker holds both deadline tasks
(ETA tasks, unacknowledged): filing goes on, the deadline holds, the worker survives the drop and closes the
phase when Redis returns. A spare redis-server is stopped, never the machine's own."""
import json
import time

import pytest
from django.test import Client
from django.urls import reverse

from larp.campaign.services.members import add_moderator, create_player
from larp.orders.models import Order, OrderEvent
from larp.turns import clock, services
from larp.turns.models import AuditEntry, Phase
from tests.workers import wait_until

pytestmark = pytest.mark.worker


def _point_celery_at(url, monkeypatch):
    """This process queues its tasks on the spare Redis too, so the worker really holds the deadline task."""
    from larp.celery import app

    for key in ("broker_url", "broker_write_url", "broker_read_url"):
        monkeypatch.setitem(app.conf, key, url)
    monkeypatch.setattr(app, "_pool", None)
    monkeypatch.setattr(app.amqp, "_producer_pool", None)


def _redis_settings(settings, url):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url,
                                   "KEY_PREFIX": "faults",
                                   "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}}


def _game(fast_game, title, seconds, n):
    game = fast_game(seconds, title=title)
    mod, _ = add_moderator(game, f"mod-{n}")
    player, _ = create_player(game.factions.get(code="north"), f"north-{n}")
    tablet = Client()
    tablet.force_login(player)
    return game, mod, tablet


def _file(tablet, game, unit, payload):
    return tablet.post(reverse("orders:file", args=[game.pk, unit]), json.dumps(payload),
                       content_type="application/json")


def _phase(game):
    return Phase.objects.get(pk=services.turn_settings(game).current_phase_id)


def test_filing_goes_on_without_redis_and_the_worker_closes_when_it_returns(
        fast_game, worker_factory, spare_redis, settings, monkeypatch):
    _redis_settings(settings, spare_redis.url)
    # The worker (and its beat) use the spare Redis as broker and cache.
    monkeypatch.setenv("CELERY_BROKER_URL_TEST", spare_redis.url)
    monkeypatch.setenv("REDIS_URL", spare_redis.url)
    monkeypatch.setenv("CACHE_URL", "redis")
    _point_celery_at(spare_redis.url, monkeypatch)
    worker = worker_factory()

    watched, _mod_a, tablet_a = _game(fast_game, "untouched after the deadline", 5, "a")
    poked, _mod_b, tablet_b = _game(fast_game, "poked after the deadline", 5, "b")
    phase_a = services.start_game(watched, _mod_a)
    phase_b = services.start_game(poked, _mod_b)
    assert clock.payload(watched.pk)["state"] == "running"  # cached in Redis
    # The worker holds both deadline tasks (ETA: received, unacknowledged until run).
    assert wait_until(lambda: worker.log.read_text(errors="replace").count(
        "Task larp.turns.tasks.close_phase_at_deadline") >= 2, 5), worker.log.read_text(errors="replace")[-3000:]

    spare_redis.stop()
    down_at = time.time()

    # Filing, re-filing, withdrawing and the clock all keep working; only slower (no cache).
    t0 = time.monotonic()
    assert _file(tablet_a, watched, "north-1", {"type": "march", "path": ["northfield"]}).status_code == 200
    assert _file(tablet_a, watched, "north-1", {"type": "hold"}).status_code == 200
    assert _file(tablet_b, poked, "north-1", {"type": "march", "path": ["northfield"]}).status_code == 200
    assert tablet_a.post(reverse("orders:withdraw", args=[watched.pk, "north-f1"])).status_code == 200
    tick = tablet_a.get(reverse("turns:clock", args=[watched.pk]))
    assert tick.status_code == 200 and tick.json()["state"] == "running"
    assert time.monotonic() - t0 < 3, "a dead cache must not make requests hang"

    # The deadline passes with Redis still down.
    time.sleep(max(0, phase_b.remaining()) + 0.3)
    late = _file(tablet_b, poked, "north-1", {"type": "hold"})
    assert late.status_code == 409 and late.json()["code"] == "late"
    assert "поздно" in late.json()["message"].lower()
    assert Order.objects.get(turn=phase_b.turn, army__faction__code="north", army__number=1).type == "march"
    assert _phase(poked).state == Phase.CLOSED  # the refused request closed it, no worker needed

    # Nobody looks at the other game; Redis comes back (empty, as after a crash) and the worker closes it.
    time.sleep(1)
    spare_redis.start()
    back_at = time.time()
    assert wait_until(lambda: _phase(watched).state == Phase.CLOSED, timeout=15), "not closed after Redis returned"
    print(f"\nRedis down {back_at - down_at:.1f} s; the untouched game closed "
          f"{_phase(watched).closed_at.timestamp() - back_at:.1f} s after Redis returned")
    log = worker.log.read_text(errors="replace")
    assert worker.proc.poll() is None and "Unrecoverable error" not in log, log[-3000:]  # it survived the drop
    closed = _phase(watched)
    assert closed.closed_how == "deadline" and closed.closed_at >= closed.deadline
    assert Order.objects.get(turn=phase_a.turn, army__faction__code="north", army__number=1).type == "hold"
    assert not OrderEvent.objects.filter(turn=phase_a.turn, at__gte=closed.deadline,
                                         action__in=["filed", "replaced", "withdrawn"]).exists()
    assert AuditEntry.objects.filter(game=watched, action="phase_closed").count() == 1
    # Once closed, the clock says so (its cache was invalidated on the close).
    assert wait_until(lambda: tablet_a.get(reverse("turns:clock", args=[watched.pk])).json()["state"] == "closed", 3)
