"""What higher apps add to the dice record's check, registered at start-up (docs/architecture.md: hooks).

The dice record knows streams and rolls. What the war did with its dice (which
roll each confirmed battle used) lives in `battles`, and a table's title in
`tables`; both sit above `dice`, so they register a function here instead of
being imported.

- `register_war(fn)`: fn(game) -> list of `verify.BattleRecord`, every confirmed battle of the war.
- `register_names(fn)`: fn(game) -> {stream label: name shown}, e.g. {"table-5": "«Бой у реки» (Орда)"}.
- `register_seats(fn)`: fn(user, game) -> {stream label: (seat, seat's name)}: the table streams this user may
  see, and the seat they add randomness for (seat None: they see the table but sit at no side of it,
  e.g. a moderator).
- `register_context(fn)`: fn(game) -> what the dice page's shared parts need from above, e.g. {"phase": ...}
  for the console's menu (which says the turn and phase).
"""
from __future__ import annotations

from typing import Callable

_war: list[Callable] = []
_names: list[Callable] = []
_seats: list[Callable] = []
_context: list[Callable] = []


def register_war(fn: Callable) -> None:
    if fn not in _war:
        _war.append(fn)


def register_names(fn: Callable) -> None:
    if fn not in _names:
        _names.append(fn)


def register_seats(fn: Callable) -> None:
    if fn not in _seats:
        _seats.append(fn)


def seats(user, game) -> dict[str, tuple[str | None, str]]:
    """The table streams this user may see, each with the user's seat there (see `register_seats`)."""
    out: dict[str, tuple[str | None, str]] = {}
    for fn in _seats:
        out.update(fn(user, game))
    return out


def register_context(fn: Callable) -> None:
    if fn not in _context:
        _context.append(fn)


def context(game) -> dict:
    out: dict = {}
    for fn in _context:
        out.update(fn(game))
    return out


def war_battles(game) -> list:
    return [b for fn in _war for b in fn(game)]


def names(game) -> dict[str, str]:
    out: dict[str, str] = {}
    for fn in _names:
        out.update(fn(game))
    return out
