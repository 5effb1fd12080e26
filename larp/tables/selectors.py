"""Reads of a game's tables for other apps' pages."""
from __future__ import annotations

from larp.campaign.access import is_moderator, player_faction
from larp.campaign.models import Game
from larp.tables.models import SYSTEM_CHOICES, Side, Table


def stream_names(game: Game) -> dict[str, str]:
    """Each table's dice stream label -> the table as people name it: «title» (system)."""
    systems = dict(SYSTEM_CHOICES)
    return {f"table-{t.pk}": f"«{t.title}» ({systems.get(t.system, t.system)})"
            for t in Table.objects.filter(game=game).only("pk", "title", "system")}


def stream_seats(user, game: Game) -> dict[str, tuple[str | None, str]]:
    """The dice streams of the tables this user may open (larp.tables.access), each with the side they play
    there: {label: (side key, side name)}; a moderator sees every table and plays no side (None)."""
    if not user.is_authenticated:
        return {}
    if is_moderator(user, game):
        return {f"table-{pk}": (None, "") for pk in Table.objects.filter(game=game).values_list("pk", flat=True)}
    faction = player_faction(user, game)
    if faction is None:
        return {}
    return {f"table-{s.table_id}": (s.key, s.name)
            for s in Side.objects.filter(table__game=game, faction=faction).order_by("table_id", "position")}
