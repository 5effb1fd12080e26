"""Dice of a case (T37.4): entered by hand, then drawn from the recorded seed.

The seeded generator is the project's one scheme (docs/adjudication.md,
"Seeded dice"; larp/engine/dice.py): die number k is

    int.from_bytes(sha256(f"{seed}:{k}".encode()).digest()[:8], "big") % 6 + 1

where k (0-based) counts every die the case consumes, entered or seeded, in
the order the engine consumes them (for a combat case: strike dice of every
unit in the order the case lists them — the attacker first in a clash — then
rain, unit tests, disorder tests, general deaths; each mode's module says its
order). No random module and no state beyond k: any case replays anywhere.
"""
from __future__ import annotations

from typing import Any

from larp.rules.dice import die

from . import fields as f
from .errors import CaseError

SIDES = 6
MAX_SEED_DIGITS = 40


def seeded_die(seed: int, k: int) -> int:
    return die(seed, k, SIDES)


def parse_seed(value: Any, field: str = "seed") -> int | None:
    if value is None:
        return None
    seed = f.integer(value, field)
    if len(str(abs(seed))) > MAX_SEED_DIGITS:
        raise CaseError(field, f"at most {MAX_SEED_DIGITS} digits")
    return seed


def parse_list(value: Any, field: str) -> list[int]:
    return [f.integer(d, f"{field}[{i}]", 1, SIDES) for i, d in enumerate(f.lst(value, field))]


class Dice:
    """Named lists of entered dice (per unit and kind, or one plain list) with the seed behind them."""

    def __init__(self, lists: dict[tuple[str, str], list[int]], seed: int | None):
        self.lists = lists
        self.used = {key: 0 for key in lists}
        self.seed = seed
        self.k = 0

    @classmethod
    def plain(cls, value: Any, seed: Any, field: str = "dice") -> "Dice":
        return cls({("", ""): parse_list([] if value is None else value, field)}, parse_seed(seed))

    @classmethod
    def per_unit(cls, value: Any, seed: Any, units: dict, kinds: tuple[str, ...], field: str = "dice") -> "Dice":
        lists: dict[tuple[str, str], list[int]] = {}
        for unit_id, entry in f.obj({} if value is None else value, field).items():
            if unit_id not in units:
                raise CaseError(f"{field}.{unit_id[:64]}", "no unit of this case has this id")
            if isinstance(entry, list):  # a bare list is the unit's strike dice (or a march's dice)
                entry = {kinds[0]: entry}
            for name, dice in f.obj(entry, f"{field}.{unit_id}").items():
                if name not in kinds:
                    raise CaseError(f"{field}.{unit_id}.{name[:64]}",
                                    f"unknown dice list; expected one of {', '.join(kinds)}")
                lists[(unit_id, name)] = parse_list(dice, f"{field}.{unit_id}.{name}")
        return cls(lists, parse_seed(seed))

    def take(self, owner: str = "", name: str = "") -> int:
        key = (owner, name)
        entered = self.lists.get(key, [])
        i = self.used.get(key, 0)
        if i < len(entered):
            die = entered[i]
            self.used[key] = i + 1
        elif self.seed is None:
            where = f"dice.{owner}.{name}" if owner else "dice"
            whose = f"unit {owner}: " if owner else ""
            raise CaseError(where, f"{whose}the {name + ' ' if name else ''}dice ran out "
                            f"({len(entered)} given) and there is no seed")
        else:
            die = seeded_die(self.seed, self.k)
        self.k += 1
        return die

    def check_used(self) -> None:
        """T37.4: dice left over after the resolution are a malformed case."""
        for (owner, name), entered in self.lists.items():
            left = len(entered) - self.used.get((owner, name), 0)
            if left > 0:
                if owner:
                    raise CaseError(f"dice.{owner}.{name}", f"unit {owner}: {left} {name} "
                                    f"{'die' if left == 1 else 'dice'} not used")
                raise CaseError("dice", f"{left} {'die' if left == 1 else 'dice'} not used")
