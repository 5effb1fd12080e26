"""Thin tasks: ids in, services called."""
from celery import shared_task

from larp.rehearsal import services


@shared_task(ignore_result=True, acks_late=False)
def run_rehearsal(copy_id: int) -> str:
    """The console's «Репетиция»: the copy's bots play its night (minutes); its progress is on the copy."""
    return services.run(copy_id)
