"""Dice: entered by hand, or rolled from the game's recorded seed (R8).

The seeded generator is part of the contract (docs/adjudication.md, "Seeded
dice") and must never change: die number k (0-based, counted over the whole
turn, the attacker's dice before the defender's in each battle) is

    int.from_bytes(sha256(f"{seed}:{k}".encode()).digest()[:8], "big") % 6 + 1

It needs no random module and no state beyond k, so any battle of any turn
can be replayed on any machine and any Python version.

A game records one seed; the seed of its turn number t is `turn_seed(seed, t)`
(the first 8 bytes of sha256(f"{seed}:turn:{t}"), as a non-negative 63-bit
integer). The server's dice are `roll(turn_seed(seed, t), k, count)` with k the
turn's counter on the dice record (every server die rolled before in that
turn, re-rolls included; docs/dice.md), so a turn whose every battle took the
server's first roll is exactly `adjudicate turn` of its case with that seed.
"""
from __future__ import annotations

from larp.rules.dice import die, draw

from .model import DiceRoll


def seeded_die(seed: int, k: int) -> int:
    """Die number k of the turn rolled from `seed` (1..6)."""
    return die(seed, k)


def turn_seed(game_seed: int, turn: int) -> int:
    """The seed of turn number `turn` of a game that recorded `game_seed` (0 .. 2**63 - 1)."""
    return draw(game_seed, f"turn:{turn}") >> 1


def roll(seed: int, k: int, count: int) -> DiceRoll:
    """One autobattle's dice from die number k on: the attacker's `count` dice, then the defender's."""
    return DiceRoll(tuple(seeded_die(seed, k + i) for i in range(count)),
                    tuple(seeded_die(seed, k + count + i) for i in range(count)))


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
            entered = self.entered[self.used]
            index = self.used
            self.used += 1
            self.k += len(entered.attacker) + len(entered.defender)
            return entered, index
        if self.seed is None:
            raise DiceExhausted()
        dice = roll(self.seed, self.k, count)
        self.k += 2 * count
        return dice, None
