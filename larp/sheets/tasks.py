"""Thin tasks: a print job's id in, the service does the work."""
from celery import shared_task

from larp.sheets import services


@shared_task(ignore_result=True)
def generate_print_job(job_id: int) -> str:
    return services.run_job(job_id)
