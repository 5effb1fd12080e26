"""Dice: entered by hand, or rolled from the game's recorded seed (R8).

The seeded generator is part of the contract (docs/adjudication.md, "Seeded
dice") and must never change: die number k (0-based, counted over the whole
turn, the attacker's dice before the defender's in each battle) is

    int.from_bytes(sha256(f"{seed}:{k}".encode()).digest()[:8], "big") % 6 + 1

It needs no random module and no state beyond k, so any battle of any turn
can be replayed on any machine and any Python version.
"""
from __future__ import annotations

from hashlib import sha256

from .model import DiceRoll


def seeded_die(seed: int, k: int) -> int:
    """Die number k of the turn rolled from `seed` (1..6)."""
    return int.from_bytes(sha256(f"{seed}:{k}".encode()).digest()[:8], "big") % 6 + 1


class DiceExhausted(Exception):
    """The entered dice ran out and there is no seed: the battle awaits dice."""


class DiceSource:
    """Hands out one roll per autobattle: the entered rolls first, then the seed."""

    def __init__(self, entered: tuple[DiceRoll, ...], seed: int | None):
        self.entered = entered
        self.seed = seed
        self.used = 0     # entered rolls consumed
        self.k = 0        # dice counted over the whole turn (for the seed)

    def next(self, count: int) -> tuple[DiceRoll, int | None]:
        """(roll, index of the entered roll or None if seeded); raises DiceExhausted."""
        if self.used < len(self.entered):
            roll = self.entered[self.used]
            index = self.used
            self.used += 1
            self.k += len(roll.attacker) + len(roll.defender)
            return roll, index
        if self.seed is None:
            raise DiceExhausted()
        attacker = tuple(seeded_die(self.seed, self.k + i) for i in range(count))
        defender = tuple(seeded_die(self.seed, self.k + count + i) for i in range(count))
        self.k += 2 * count
        return DiceRoll(attacker, defender), None
