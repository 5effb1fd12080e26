"""The seeded generator for the first player's lot and the shuffle of a virtual deck (C5).

One scheme for every rule system, the core's (docs/adjudication.md, "Seeded dice"): draw number
k (0-based) from `seed` is the 64-bit integer

    u(seed, k) = int.from_bytes(sha256(f"{seed}:{k}".encode()).digest()[:8], "big")

and a choice among n things takes u % n. Ordonnance draws k = 0 for the lot
(first player = players[u(seed, 0) % len(players)]), then shuffles the roster, in the order the
case lists it, by Fisher-Yates from the last position down: for i = len - 1 .. 1, draw
k = 1, 2, ... and swap positions i and u(seed, k) % (i + 1). Draw 0 is spent on the lot even
when the first player is given, so a deck's order depends on the seed alone.
It needs no random module and no state beyond k: any deal can be replayed on any machine.
"""
from __future__ import annotations

from typing import Sequence, TypeVar

from larp.rules import dice

T = TypeVar("T")


def draw(seed: int, k: int) -> int:
    """Draw number k from `seed`: an integer 0 <= u < 2**64."""
    return dice.draw(seed, k)


def lot(seed: int, players: Sequence[T]) -> T:
    """The first player drawn by lot (draw 0)."""
    return players[draw(seed, 0) % len(players)]


def shuffled(seed: int, items: Sequence[T]) -> list[T]:
    """`items` shuffled from `seed` (draws 1, 2, ...)."""
    n = len(items)
    return dice.shuffled(items, lambda i: draw(seed, n - i))  # positions n-1 .. 1 take draws 1, 2, ...
