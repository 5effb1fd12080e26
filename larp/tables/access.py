"""Who may see and act at a table (docs/tables.md, "Who sees what").

- The game's moderators see every table of the game and act for any side.
- A player sees the tables where one side is their faction, and acts for that side only.
- Everyone else: 403 (and 404 for a table of another game).
The fog (what a side may not see of the other) is each system's selectors' job,
given the `Seat` this module returns.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from larp.campaign.access import is_moderator, player_faction
from larp.campaign.models import Game
from larp.tables.models import Side, Table


@dataclass(frozen=True)
class Seat:
    """Where the user sits at this table: a moderator, or the player of one side."""
    table: Table
    moderator: bool
    side: Side | None

    @property
    def side_key(self) -> str | None:
        return self.side.key if self.side else None

    def may_act_for(self, key: str) -> bool:
        return self.moderator or (self.side is not None and self.side.key == key)


def seat(user, game_id: int, table_id: int, *, system: str | None = None, light: bool = False) -> Seat:
    """The table (404 unless it is in this game and of this system) and the user's seat at it (403 if none).
    `light`: without the table's setup, state and result (a version poll needs none of them; read if touched)."""
    filters = {"pk": table_id, "game_id": game_id}
    if system:
        filters["system"] = system
    tables = Table.objects.select_related("game", "dice")
    if light:
        tables = tables.defer("setup", "state", "result", "origin")
    table = get_object_or_404(tables, **filters)
    if not user.is_authenticated:
        raise PermissionDenied("Sign in first.")
    if is_moderator(user, table.game_id):
        return Seat(table, True, None)
    faction = player_faction(user, table.game_id)
    side = table.sides.filter(faction=faction).first() if faction else None
    if side is None:
        raise PermissionDenied("This table is not yours.")
    return Seat(table, False, side)


def require_moderator_seat(user, game_id: int, table_id: int, *, system: str | None = None) -> Seat:
    s = seat(user, game_id, table_id, system=system)
    if not s.moderator:
        raise PermissionDenied("Only the game's moderators may do this.")
    return s


def visible_tables(user, game: Game) -> QuerySet[Table]:
    """The tables of the game this user may open: all for a moderator, their faction's for a player."""
    tables = Table.objects.filter(game=game).select_related("dice").prefetch_related("sides__faction")
    if is_moderator(user, game):
        return tables
    faction = player_faction(user, game)
    if faction is None:
        return tables.none()
    return tables.filter(sides__faction=faction).distinct()


def side_of(table: Table, key: str) -> Side:
    side = table.sides.filter(key=key).first()
    if side is None:
        raise PermissionDenied("No such side.")
    return side
