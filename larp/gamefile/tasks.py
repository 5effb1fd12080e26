"""Thin tasks: ids in, services called."""
from celery import shared_task

from larp.gamefile import backups


@shared_task(ignore_result=True)
def back_up_running_games() -> int:
    """Beat, every BACKUP_EVERY_MINUTES: a game file of each running game under var/backups/."""
    return len(backups.back_up_running())


@shared_task(ignore_result=True)
def back_up_game(game_id: int) -> str:
    return backups.back_up(game_id).name
