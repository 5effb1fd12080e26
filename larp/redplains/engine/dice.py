"""Dice of a case (W41.2): entered per unit, or drawn from the recorded seed.

`dice` is an object of lists of d6 values: one list per roller (a unit id, a
side for shinobi, or `random` for random choices), consumed in the order that
roller rolls. Within one roll the roller takes one value per die, then one
value per still-failed die for each re-roll round, dice in order.

When a list runs out and `seed` is an integer, the value is die number k of
the case (k counted from 0 over every seeded die of this call, in the order
drawn) from the project's one documented seeded generator (the same formula
as the military module, docs/adjudication.md "Seeded dice"):

    int.from_bytes(sha256(f"{seed}:{k}".encode()).digest()[:8], "big") % 6 + 1

With no seed, the case is malformed: it names the roller and the roll that
awaits dice. Values left unused at the end are malformed too.
"""
from __future__ import annotations

from typing import Any

from larp.rules.dice import die

from .case import MAX_COUNT, lst, obj
from .errors import CaseError

SEED_MIN, SEED_MAX = -(2 ** 63), 2 ** 63 - 1


def seeded_die(seed: int, k: int) -> int:
    """Die number k drawn from `seed` (1..6)."""
    return die(seed, k)


def parse_seed(case: dict) -> int | None:
    seed = case.get("seed")
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int) or not SEED_MIN <= seed <= SEED_MAX:
        raise CaseError("seed", "must be a signed 64-bit whole number or null")
    return seed


class Dice:
    """Hands out d6 values per roller; remembers what it used so it can refuse leftovers."""

    def __init__(self, raw: Any, seed: int | None, allowed: set[str] | None = None):
        raw = {} if raw is None else obj(raw, "dice")
        self.lists: dict[str, list[int]] = {}
        for key, values in raw.items():
            if str(key).startswith("_"):
                continue
            if allowed is not None and key not in allowed:
                raise CaseError(f"dice.{key}", "names no unit or roller of this case")
            for i, v in enumerate(lst(values, f"dice.{key}", MAX_COUNT)):
                if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
                    raise CaseError(f"dice.{key}[{i}]", "a die value must be a whole number 1..6")
            self.lists[key] = list(values)
        self.pos = {key: 0 for key in self.lists}
        self.seed = seed
        self.k = 0

    def draw(self, key: str, what: str) -> int:
        values = self.lists.get(key, [])
        at = self.pos.get(key, 0)
        if at < len(values):
            self.pos[key] = at + 1
            return values[at]
        if self.seed is None:
            raise CaseError(f"dice.{key}", f"runs out: {what} awaits dice (give more values or a seed)")
        value = seeded_die(self.seed, self.k)
        self.k += 1
        return value

    def roll(self, key: str, count: int, needs: int, rerolls: int, what: str) -> tuple[list[int], int]:
        """`count` dice needing `needs`+, every failed die re-rolled `rerolls` rounds: (values, hits)."""
        values = [self.draw(key, what) for _ in range(count)]
        current = list(values)
        for _ in range(rerolls):
            for i, v in enumerate(current):
                if v < needs:
                    current[i] = self.draw(key, what)
                    values.append(current[i])
        return values, sum(1 for v in current if v >= needs)

    def choose(self, options: list, what: str) -> Any:
        """W33.5: a random choice between 2 or 3 options by a die from `random` (1-3/4-6; 1-2/3-4/5-6)."""
        if len(options) == 1:
            return options[0]
        value = self.draw("random", what)
        return options[(value - 1) * len(options) // 6]

    def check_all_used(self) -> None:
        for key, values in self.lists.items():
            left = len(values) - self.pos[key]
            if left:
                raise CaseError(f"dice.{key}", f"{left} value(s) left unused")
