"""Reads of a game's tables for other apps' pages."""
from __future__ import annotations

from larp.campaign.models import Game
from larp.tables.models import SYSTEM_CHOICES, Table


def stream_names(game: Game) -> dict[str, str]:
    """Each table's dice stream label -> the table as people name it: «title» (system)."""
    systems = dict(SYSTEM_CHOICES)
    return {f"table-{t.pk}": f"«{t.title}» ({systems.get(t.system, t.system)})"
            for t in Table.objects.filter(game=game).only("pk", "title", "system")}
