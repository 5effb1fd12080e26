"""Armies, combinations and the canonical key of C9-C10.

A card is a bit mask over the kinds: bit r-1 is the kind of rank r (C2), so a card is a set of
one to five kinds (C3). An army is summed into `counts` (cards carrying each kind, by rank), and
`key` is C10's canonical key `(R, r, B, b, C, c, s)`: Python compares such tuples exactly as C10
compares armies (count, then ranks highest first; a list that is a prefix of another is smaller).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .data import Rules
from .outcomes import STEP_ORDER, Aspect, Level

Counts = tuple[int, ...]   # cards carrying each kind, weakest kind first
Key = tuple                # (R, (ranks..), B, (ranks..), C, (ranks..), (single ranks..))


def mask_symbols(rules: Rules, mask: int) -> list[str]:
    """The kinds on a card, highest rank first (the contract's order for symbol lists)."""
    return [rules.symbols[i] for i in range(rules.kinds - 1, -1, -1) if mask >> i & 1]


def counts_of(rules: Rules, masks: list[int] | tuple[int, ...]) -> Counts:
    return tuple(sum(m >> i & 1 for m in masks) for i in range(rules.kinds))


@lru_cache(maxsize=65536)
def key_of(rules: Rules, counts: Counts) -> Key:
    """C10's canonical key of an army (or of incomplete cards) with these counts."""
    parts: list = []
    for combo in rules.combinations:
        ranks = tuple(i + 1 for i in range(len(counts) - 1, -1, -1) if counts[i] == combo.same_symbols)
        parts += [len(ranks), ranks]
    parts.append(tuple(i + 1 for i in range(len(counts) - 1, -1, -1) if counts[i] == rules.single_same_symbols))
    return tuple(parts)


def key_json(key: Key) -> list:
    return [list(part) if isinstance(part, tuple) else part for part in key]


def describe(rules: Rules, counts: Counts) -> dict:
    """counts, regiments, battalions, companies, singles and key: the contract's analysis of an army."""
    key = key_of(rules, counts)
    out: dict = {"counts": {rules.symbols[i]: counts[i] for i in range(rules.kinds)}}
    for n, combo in enumerate(rules.combinations):
        out[combo.level.value] = [rules.symbols[r - 1] for r in key[2 * n + 1]]
    out[Level.SINGLES.value] = [rules.symbols[r - 1] for r in key[-1]]
    out["key"] = key_json(key)
    return out


@dataclass(frozen=True)
class Standing:
    """One army's place in a territory's order: stronger key first, then earlier completion (C10)."""
    key: Key
    completed_at: int

    def beats(self, other: "Standing") -> bool:
        return self.key > other.key or (self.key == other.key and self.completed_at < other.completed_at)


def step(winner: Key, loser: Key) -> tuple[Level, Aspect | None]:
    """The C10 step at which `winner` beats `loser` (keys; equal keys: decided by completion)."""
    combos = len(winner) // 2
    for n in range(combos):
        level = STEP_ORDER[n]
        if winner[2 * n] != loser[2 * n]:
            return level, Aspect.COUNT
        if winner[2 * n + 1] != loser[2 * n + 1]:
            return level, Aspect.RANK
    if winner[-1] != loser[-1]:
        return Level.SINGLES, Aspect.RANK   # ruling: running out of singles is also "rank"
    return Level.FIRST_COMPLETE, None
