"""Thin tasks: ids in, services called."""
from celery import shared_task

from larp.turns import services, worker


@shared_task(ignore_result=True)
def close_phase_at_deadline(phase_id: int) -> bool:
    return services.close_if_due(phase_id)


@shared_task(ignore_result=True)
def close_due_phases() -> int:
    """Beat: catch up on deadlines whose task was lost (a worker that was down, a broker restart).

    Running it also proves that beat and the worker work: it records the worker's heartbeat."""
    worker.record_heartbeat()
    return services.close_due()
