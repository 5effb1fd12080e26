"""What higher apps add to the dice record's check, registered at start-up (docs/architecture.md: hooks).

The dice record knows streams and rolls. What the war did with its dice (which
roll each confirmed battle used) lives in `battles`, and a table's title in
`tables`; both sit above `dice`, so they register a function here instead of
being imported.

- `register_war(fn)`: fn(game) -> list of `verify.BattleRecord`, every confirmed battle of the war.
- `register_names(fn)`: fn(game) -> {stream label: name shown}, e.g. {"table-5": "«Бой у реки» (Орда)"}.
"""
from __future__ import annotations

from typing import Callable

_war: list[Callable] = []
_names: list[Callable] = []


def register_war(fn: Callable) -> None:
    if fn not in _war:
        _war.append(fn)


def register_names(fn: Callable) -> None:
    if fn not in _names:
        _names.append(fn)


def war_battles(game) -> list:
    return [b for fn in _war for b in fn(game)]


def names(game) -> dict[str, str]:
    out: dict[str, str] = {}
    for fn in _names:
        out.update(fn(game))
    return out
