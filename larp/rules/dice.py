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
from typing import Callable, Iterable, Sequence, TypeVar

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


# --- seeds nobody picks alone (docs/dice.md, "The seed: the server's secret and the players' randomness") ---

SEED_SCHEME = "larp-dice-seed-v1"


def contribution_line(who: str, value: str) -> str:
    """One player's contribution as it enters the seed: "<seat>=<64 lower-case hex digits>"."""
    return f"{who}={value}"


def mixed_seed(secret: int, contributions: Iterable[tuple[str, str]]) -> int:
    """The stream's seed from the server's committed secret and the players' contributions (seat, hex value).

    seed = int(sha256("larp-dice-seed-v1\\n<secret>\\n" + the lines "<seat>=<value>" sorted, joined by "\\n"))

    The lines are sorted, so the order the contributions came in does not matter; the scheme's name keeps the
    seed apart from the fingerprint sha256(str(secret)) even when nobody contributed."""
    lines = [SEED_SCHEME, str(int(secret)), *sorted(contribution_line(w, v) for w, v in contributions)]
    return int.from_bytes(sha256("\n".join(lines).encode()).digest(), "big")


def contributions_digest(contributions: Iterable[tuple[str, str]]) -> str:
    """The public digest of a closed set of contributions: sha256 of the sorted lines joined by "\\n" (hex)."""
    return sha256("\n".join(sorted(contribution_line(w, v) for w, v in contributions)).encode()).hexdigest()
