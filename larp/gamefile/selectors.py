"""What the game-file page shows: the game's backups with their time and size."""
from django.conf import settings

from larp.campaign.models import Game
from larp.gamefile import backups


def page(game: Game) -> dict:
    return {"backups": backups.backups(game.pk), "every_minutes": settings.BACKUP_EVERY_MINUTES,
            "keep": settings.BACKUP_KEEP, "running": game.pk in backups.running_game_ids()}
