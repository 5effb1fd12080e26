"""The one seeded generator of every rule system (docs/adjudication.md, "Seeded dice").

Draw number k (0-based) from a recorded seed is the 64-bit integer

    draw(seed, k) = int.from_bytes(sha256(f"{seed}:{k}".encode()).digest()[:8], "big")

A die of n sides is draw % n + 1; a choice among n things is draw % n. `k` may
also be a labelled counter (e.g. "shuffle:3") where a system keeps a second
sequence apart from its dice. A shuffle is Fisher–Yates from the last position
down, position i swapping with a draw % (i + 1). No random module and no state
beyond the counter: any battle or contest of any system replays on any machine
and any Python version, and anyone can recompute it from the seed.
"""
from __future__ import annotations

from hashlib import sha256
from typing import Callable, Sequence, TypeVar

T = TypeVar("T")


def draw(seed: int, k: int | str) -> int:
    """Draw number (or label) k from `seed`: an integer 0 <= u < 2**64."""
    return int.from_bytes(sha256(f"{seed}:{k}".encode()).digest()[:8], "big")


def die(seed: int, k: int | str, sides: int = 6) -> int:
    """Die number k rolled from `seed` (1..sides)."""
    return draw(seed, k) % sides + 1


def shuffled(items: Sequence[T], pick: Callable[[int], int]) -> list[T]:
    """`items` shuffled by Fisher–Yates from the last position down; `pick(i)` is the draw for position i."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = pick(i) % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out
