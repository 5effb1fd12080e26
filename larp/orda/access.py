"""Who acts for which faction at an «Орда» table: a moderator for all; a player for every side of the table
their faction holds (with three players one player holds both factions of a side, O4)."""
from __future__ import annotations

from larp.tables.access import Seat


def acts_for(seat: Seat, key: str) -> bool:
    if seat.moderator:
        return True
    if seat.side is None or not key:
        return False
    if seat.side.key == key:
        return True
    return seat.table.sides.filter(key=key, faction_id=seat.side.faction_id).exists()
