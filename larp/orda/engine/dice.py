"""Seeded dice and shuffles: the project's one documented scheme (docs/adjudication.md, "Seeded dice").

Die number k (0-based, counted over the whole case, the attacker's dice before
the defender's in each attack) is

    int.from_bytes(sha256(f"{seed}:{k}".encode()).digest()[:8], "big") % 6 + 1

exactly as the military module rolls. A shuffle of n cards from `seed` is a
Fisher–Yates pass from the last position down, position i swapping with
    int.from_bytes(sha256(f"{seed}:shuffle:{i}".encode()).digest()[:8], "big") % (i + 1).
No random module and no state beyond the counters: any case replays anywhere.
"""
from __future__ import annotations

from larp.rules.dice import die, draw, shuffled

from .errors import CaseError


def seeded_die(seed: int, k: int, sides: int = 6) -> int:
    return die(seed, k, sides)


def seeded_shuffle(seed: int, items: list) -> list:
    return shuffled(items, lambda i: draw(seed, f"shuffle:{i}"))


class Dice:
    """Hands out the dice of one case: the entered ones first, then the seed's (counter k)."""

    def __init__(self, seed: int | None, sides: int = 6):
        self.seed = seed
        self.sides = sides
        self.k = 0

    def roll(self, what: str) -> int:
        if self.seed is None:
            raise CaseError(f"dice: {what} awaits a die and the case gives neither dice nor a seed")
        value = seeded_die(self.seed, self.k, self.sides)
        self.k += 1
        return value
