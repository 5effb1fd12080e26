"""The «Орда» data file (orda.yaml), loaded once, validated, and frozen.

Every number the rules act on comes from here (docs/orda.md says which key);
`None` means the source does not give the value: a moderator supplies it in
the case, and the engine refuses a case that needs it and lacks it (O23).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Mapping

import yaml

# libyaml's parser for our own data files (a tenth of the pure-Python parser's time; PyYAML's wheels have it).
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

STATS = ("health", "attack", "defence", "speed", "summon", "range")


class DataError(Exception):
    """The data file itself is broken (a bug of the project's data, not of a case)."""


@dataclass(frozen=True)
class Kind:
    """One roster line: a kind of unit token of one faction."""
    id: str
    faction: str
    name_ru: str
    cls: str
    trait: str
    count: int
    mounted: bool
    foot: bool
    stats: Mapping[str, int | None]


@dataclass(frozen=True)
class Data:
    raw: Mapping[str, Any]
    sides: Mapping[str, tuple[str, ...]]
    faction_side: Mapping[str, str]
    kinds: Mapping[str, Mapping[str, Kind]]          # faction -> kind id -> Kind
    traits: Mapping[str, Mapping[str, Any]]
    ranged_classes: frozenset[str]

    def side_of(self, faction: str) -> str:
        return self.faction_side[faction]

    def trait(self, trait_id: str) -> Mapping[str, Any]:
        return self.traits[trait_id]

    def number(self, *path: str) -> Any:
        """The value at `path` (e.g. 'turn', 'units_per_turn')."""
        node: Any = self.raw
        for key in path:
            node = node[key]
        return node


def _freeze(node: Any) -> Any:
    if isinstance(node, dict):
        return MappingProxyType({k: _freeze(v) for k, v in node.items()})
    if isinstance(node, list):
        return tuple(_freeze(v) for v in node)
    return node


def _need(node: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(node, dict) or key not in node:
        raise DataError(f"orda.yaml: {where}.{key} is missing")
    value = node[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise DataError(f"orda.yaml: {where}.{key} has the wrong type")
    return value


def build(raw: dict) -> Data:
    """Validate the parsed data file and freeze it; DataError names the first problem."""
    sides_raw = _need(raw, "sides", dict, "$")
    sides = {s: tuple(_need(v, "factions", list, f"sides.{s}")) for s, v in sides_raw.items()}
    factions_raw = _need(raw, "factions", dict, "$")
    faction_side = {}
    for f, v in factions_raw.items():
        side = _need(v, "side", str, f"factions.{f}")
        if side not in sides or f not in sides[side]:
            raise DataError(f"orda.yaml: factions.{f}.side names no side listing it")
        faction_side[f] = side
    classes = _need(raw, "classes", dict, "$")
    traits = _need(raw, "traits", dict, "$")
    for t, v in traits.items():
        _need(v, "kind", str, f"traits.{t}")
    kinds: dict[str, dict[str, Kind]] = {}
    for f, lines in _need(raw, "rosters", dict, "$").items():
        if f not in faction_side:
            raise DataError(f"orda.yaml: rosters.{f} is not a faction")
        kinds[f] = {}
        for i, line in enumerate(lines):
            where = f"rosters.{f}[{i}]"
            cls = _need(line, "class", str, where)
            trait = _need(line, "trait", str, where)
            if cls not in classes:
                raise DataError(f"orda.yaml: {where}.class {cls!r} is not a class")
            if trait not in traits:
                raise DataError(f"orda.yaml: {where}.trait {trait!r} is not a trait")
            stats = _need(line, "stats", dict, where)
            for s in STATS:
                if stats.get(s) is not None and (not isinstance(stats[s], int) or isinstance(stats[s], bool)):
                    raise DataError(f"orda.yaml: {where}.stats.{s} must be an integer or null")
            kid = _need(line, "id", str, where)
            kinds[f][kid] = Kind(kid, f, _need(line, "name_ru", str, where), cls, trait,
                                 _need(line, "count", int, where), bool(line.get("mounted")),
                                 bool(line.get("foot")), MappingProxyType({s: stats.get(s) for s in STATS}))
        if sum(k.count for k in kinds[f].values()) != 12:
            raise DataError(f"orda.yaml: rosters.{f} does not add up to 12 tokens")
    for path in (("turn", "units_per_turn"), ("combat", "damage_per_hit"), ("minority", "free_enemies"),
                 ("garrison", "attack"), ("garrison", "defence"), ("siege", "durability_loss_per_unit"),
                 ("parameters", "floor"), ("dice", "sides"), ("modes", "border", "rus_china_tours"),
                 ("modes", "border", "mongolia_units_beyond")):
        node: Any = raw
        for key in path[:-1]:
            node = _need(node, key, dict, ".".join(path[:-1]))
        _need(node, path[-1], int, ".".join(path[:-1]))
    ranged = frozenset(c for c, v in classes.items() if v.get("ranged"))
    return Data(_freeze(raw), _freeze(sides), _freeze(faction_side),
                MappingProxyType({f: MappingProxyType(v) for f, v in kinds.items()}),
                _freeze(traits), ranged)


@lru_cache(maxsize=1)
def load() -> Data:
    """The project's copy of orda.yaml, validated (DataError with the key on a broken file)."""
    text = resources.files(__package__).joinpath("orda.yaml").read_text(encoding="utf-8")
    try:
        raw = yaml.load(text, Loader=_LOADER)  # noqa: S506 - a safe loader, our own file
    except yaml.YAMLError as exc:
        raise DataError(f"orda.yaml: not valid YAML: {exc}") from None
    if not isinstance(raw, dict):
        raise DataError("orda.yaml: the top level must be a mapping")
    return build(raw)
