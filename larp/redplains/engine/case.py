"""Reading a case document: typed fields with one clear error each (W41.1, W41.3)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .data import Data, TroopType
from .errors import CaseError
from .outcomes import FACINGS, FLEEING, MOD_SOURCES, MOD_STATS, READY, SIDES, STATUSES

MAX_FIGURES = 1000      # a unit never grows past 16, but cases may state losses on big units
MAX_COUNT = 10_000      # ammunition, dice list lengths, turn numbers
MAX_UNITS = 500
MAX_ID = 100


def obj(node: Any, where: str) -> dict:
    if not isinstance(node, dict):
        raise CaseError(where, "must be an object")
    return node


def lst(node: Any, where: str, max_len: int = MAX_COUNT) -> list:
    if not isinstance(node, list):
        raise CaseError(where, "must be a list")
    if len(node) > max_len:
        raise CaseError(where, f"has {len(node)} items, at most {max_len} allowed")
    return node


def integer(node: dict, key: str, where: str, low: int, high: int, default: Any = ...) -> int:
    if key not in node or node[key] is None:
        if default is ...:
            raise CaseError(f"{where}.{key}", "missing")
        return default
    value = node[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise CaseError(f"{where}.{key}", f"must be a whole number, got {type(value).__name__}")
    if not low <= value <= high:
        raise CaseError(f"{where}.{key}", f"must be between {low} and {high}, got {value}")
    return value


def boolean(node: dict, key: str, where: str, default: bool = False) -> bool:
    value = node.get(key, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise CaseError(f"{where}.{key}", "must be true or false")
    return value


def choice(node: dict, key: str, where: str, options: tuple, default: Any = ...) -> Any:
    if key not in node or node[key] is None:
        if default is ...:
            raise CaseError(f"{where}.{key}", "missing")
        return default
    value = node[key]
    if not isinstance(value, str) or value not in options:
        shown = value if isinstance(value, str) and len(value) < 40 else type(value).__name__
        raise CaseError(f"{where}.{key}", f"unknown value {shown!r}; one of {', '.join(map(str, options))}")
    return value


def ident(node: dict, key: str, where: str, default: Any = ...) -> Any:
    if key not in node or node[key] is None:
        if default is ...:
            raise CaseError(f"{where}.{key}", "missing")
        return default
    value = node[key]
    if not isinstance(value, str) or not value or len(value) > MAX_ID:
        raise CaseError(f"{where}.{key}", f"must be a non-empty string of at most {MAX_ID} characters")
    return value


@dataclass(frozen=True)
class Modifier:
    stat: str
    value: int
    source: str


@dataclass
class Unit:
    """A unit's state (W3.7), mutable only inside one engine call."""
    id: str
    side: str
    tt: TroopType
    figures: int
    cell: str | None = None
    facing: str = "N"
    status: str = READY
    fled_ever: bool = False
    fleeing_since: int | None = None
    rallies: int = 0
    ammo: int | None = None
    shields: bool = False
    minor_clan: str | None = None
    hold_carry: bool = False
    tiger_carry: bool = False
    crab_carry: bool = False
    revealed: bool = False
    modifiers: tuple[Modifier, ...] = ()
    flags: dict = field(default_factory=dict)   # per-mode flags (hold, moved, decisive, ...)

    def mod(self, stat: str, only: tuple[str, ...] | None = None) -> int:
        return sum(m.value for m in self.modifiers if m.stat == stat and (only is None or m.source in only))


def troop_type(data: Data, node: dict, where: str) -> TroopType:
    name = node.get("type")
    if not isinstance(name, str) or name not in data.troop_types:
        raise CaseError(f"{where}.type", f"unknown troop type; one of {', '.join(data.troop_types)}")
    return data.troop_types[name]


def modifiers(node: dict, where: str) -> tuple[Modifier, ...]:
    out = []
    for i, m in enumerate(lst(node.get("modifiers", []) or [], f"{where}.modifiers", 50)):
        m = obj(m, f"{where}.modifiers[{i}]")
        out.append(Modifier(choice(m, "stat", f"{where}.modifiers[{i}]", MOD_STATS),
                            integer(m, "value", f"{where}.modifiers[{i}]", -100, 100),
                            choice(m, "source", f"{where}.modifiers[{i}]", MOD_SOURCES, "moderator")))
    return tuple(out)


def unit(data: Data, raw: Any, where: str, *, need_cell: bool = False, min_figures: int = 0,
         side_default: str | None = None) -> Unit:
    """One unit object of W41.3; `flags` keeps the per-mode booleans and counts read later."""
    node = obj(raw, where)
    tt = troop_type(data, node, where)
    figures = integer(node, "figures", where, min_figures, MAX_FIGURES)
    cell = node.get("cell")
    if cell is not None and (not isinstance(cell, str) or len(cell) > MAX_ID):
        raise CaseError(f"{where}.cell", "must be a cell label or null")
    if need_cell and cell is None and node.get("status", READY) in (READY, FLEEING):
        raise CaseError(f"{where}.cell", "missing for a unit on the field")
    side = choice(node, "side", where, SIDES, ... if side_default is None else side_default)
    ammo_default = figures * tt.ammo_per_figure if tt.shooter else None
    ammo = integer(node, "ammo", where, 0, MAX_COUNT, ammo_default) if tt.shooter else None
    fleeing_since = node.get("fleeing_since")
    if fleeing_since is not None:
        fleeing_since = integer(node, "fleeing_since", where, 0, MAX_COUNT)
    return Unit(
        id=ident(node, "id", where), side=side, tt=tt, figures=figures, cell=cell,
        facing=choice(node, "facing", where, FACINGS, data.faces_at_deployment[side]),
        status=choice(node, "status", where, STATUSES, READY), fled_ever=boolean(node, "fled_ever", where),
        fleeing_since=fleeing_since, rallies=integer(node, "rallies", where, 0, 100, 0), ammo=ammo,
        shields=boolean(node, "shields", where),
        minor_clan=ident(node, "minor_clan", where, None),
        hold_carry=boolean(node, "hold_carry", where), tiger_carry=boolean(node, "tiger_carry", where),
        crab_carry=boolean(node, "crab_carry", where), revealed=boolean(node, "revealed", where),
        modifiers=modifiers(node, where), flags=node,
    )


def flag(u: Unit, key: str, where: str) -> bool:
    return boolean(u.flags, key, where)


def count(u: Unit, key: str, where: str, high: int = 100) -> int:
    return integer(u.flags, key, where, 0, high, 0)


def unique_ids(units: list[Unit], where: str) -> None:
    seen = set()
    for i, u in enumerate(units):
        if u.id in seen:
            raise CaseError(f"{where}[{i}].id", f"{u.id!r} is used twice")
        seen.add(u.id)
