"""Automatic backups of the running games: a game file every BACKUP_EVERY_MINUTES, the last BACKUP_KEEP kept.

Files go to settings.BACKUP_DIR (var/backups/) as `game-<id>-<UTC time>.json.gz`,
each a whole game file (services.py) that `import_game` restores. A game runs
while one of its phases is running or paused.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone as dt_timezone
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.utils import timezone

from larp.campaign.models import Game
from larp.gamefile import services

NAME_RE = re.compile(r"^game-(?P<game>\d+)-(?P<at>\d{8}-\d{6}-\d{6})\.json\.gz$")


@dataclass(frozen=True)
class Backup:
    path: Path
    game_id: int
    at: datetime
    size: int

    @property
    def name(self) -> str:
        return self.path.name


def backup_dir() -> Path:
    path = Path(settings.BACKUP_DIR)
    path.mkdir(parents=True, exist_ok=True)
    return path


def keep() -> int:
    return max(1, int(settings.BACKUP_KEEP))


def running_game_ids() -> list[int]:
    Phase = apps.get_model("turns", "Phase")
    # A rehearsal copy (bots playing) is thrown away after: no backups of it.
    return sorted(set(Phase.objects.exclude(state=Phase.CLOSED).filter(turn__game__rehearsal_of__isnull=True)
                      .values_list("turn__game_id", flat=True)))


def backups(game_id: int) -> list[Backup]:
    """The game's backups, newest first."""
    found = []
    for path in backup_dir().glob(f"game-{int(game_id)}-*.json.gz"):
        m = NAME_RE.match(path.name)
        if m and int(m["game"]) == int(game_id):
            at = datetime.strptime(m["at"], "%Y%m%d-%H%M%S-%f").replace(tzinfo=dt_timezone.utc)
            found.append(Backup(path, int(game_id), at, path.stat().st_size))
    return sorted(found, key=lambda b: b.at, reverse=True)


def find(game_id: int, name: str) -> Backup | None:
    """One of the game's backups by its file name (nothing outside the folder can be named)."""
    return next((b for b in backups(game_id) if b.name == name), None)


def back_up(game_id: int) -> Backup:
    """Write one backup of the game now and remove its oldest beyond BACKUP_KEEP."""
    game = Game.objects.get(pk=game_id)
    at = timezone.now().astimezone(dt_timezone.utc)
    path = services.write(game, backup_dir() / f"game-{game.pk}-{at:%Y%m%d-%H%M%S-%f}.json.gz")
    prune(game.pk)
    return next(b for b in backups(game.pk) if b.path == path)


def prune(game_id: int) -> list[Path]:
    removed = []
    for old in backups(game_id)[keep():]:
        old.path.unlink(missing_ok=True)
        removed.append(old.path)
    return removed


def back_up_running() -> list[Backup]:
    """Beat's round: a backup of every running game."""
    return [back_up(game_id) for game_id in running_game_ids()]
