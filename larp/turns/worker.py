"""Is the background worker alive? The worker records a heartbeat each time it runs beat's catch-up task
(every 2 s); the console reads it and warns moderators when it is older than WORKER_STALE_SECONDS
(settings; 10 s, five missed beats: a worker that rungame restarts within seconds raises no alarm).

The heartbeat lives in the database, the one store every process shares whatever the broker
(Redis or the file broker) and the cache (Redis or per-process).
"""
from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError
from django.utils import timezone

log = logging.getLogger(__name__)
NAME = "worker"


def record_heartbeat() -> None:
    from larp.turns.models import WorkerHeartbeat

    WorkerHeartbeat.objects.update_or_create(name=NAME, defaults={"beat_at": timezone.now()})


def last_heartbeat():
    from larp.turns.models import WorkerHeartbeat

    try:
        return WorkerHeartbeat.objects.filter(name=NAME).values_list("beat_at", flat=True).first()
    except DatabaseError:  # the console must render even if this read fails
        log.warning("could not read the worker heartbeat")
        return None


def worker_alive(now=None) -> bool:
    beat_at = last_heartbeat()
    stale_after = timedelta(seconds=settings.WORKER_STALE_SECONDS)
    return beat_at is not None and (now or timezone.now()) - beat_at <= stale_after
