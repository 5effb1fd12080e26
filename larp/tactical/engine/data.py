"""The rules data: tactical-rules.yaml, loaded with importlib.resources + PyYAML and validated on load.

Every number the engine uses comes from here (docs/tactical-rules.md cites the
keys in square brackets); a scenario may override any of it with `load(override)`.
The result is frozen (mappings are read-only, lists are tuples).
"""
from __future__ import annotations

import copy
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Mapping

import yaml

from .errors import DataError

# libyaml's parser for our own data files (a tenth of the pure-Python parser's time; PyYAML's wheels have it).
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

DATA_FILE = "tactical-rules.yaml"

REQUIRED = ("dice", "categories", "weapons", "protection", "testudo_saves", "formations", "thinning_order",
            "special_formations", "movement", "target_bands", "generals", "shooting", "unit_test", "army",
            "strategic", "cards", "bases", "price_columns", "grades")


def freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value


def _merge(base: Any, override: Any) -> Any:
    if isinstance(base, dict) and isinstance(override, dict):
        out = dict(base)
        for key, value in override.items():
            out[key] = _merge(base.get(key), value)
        return out
    return override


def _int(data: Mapping, path: str, lo: int = 0) -> int:
    node: Any = data
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            raise DataError(f"{DATA_FILE}: {path}: missing")
        node = node[part]
    if isinstance(node, bool) or not isinstance(node, int) or node < lo:
        raise DataError(f"{DATA_FILE}: {path}: must be a whole number of at least {lo}, not {node!r}")
    return node


def _fraction(pair: Any, where: str) -> Fraction:
    if (not isinstance(pair, (list, tuple)) or len(pair) != 2 or not all(isinstance(x, int) for x in pair)
            or pair[1] <= 0 or not 0 <= pair[0] <= pair[1]):
        raise DataError(f"{DATA_FILE}: {where}: must be [numerator, denominator], a fraction 0..1")
    return Fraction(pair[0], pair[1])


def validate(data: Mapping) -> None:
    """Clear errors for a data set the engine cannot use (a missing table, a wrong number)."""
    for key in REQUIRED:
        if key not in data:
            raise DataError(f"{DATA_FILE}: {key}: missing")
    if _int(data, "dice.sides", 2) != 6:
        raise DataError(f"{DATA_FILE}: dice.sides: the rules are written for a six-sided die")
    for path in ("movement.base_speed_cm", "movement.fatigue_front_factor", "movement.terrain_test_cavalry_factor",
                 "movement.lone_general_front", "movement.reinforcement_step_cm", "shooting.min_range_cm",
                 "shooting.range_cm_per_figure", "shooting.fog_sight_cm", "strategic.clear_cost",
                 "strategic.mounted_corps_dice", "strategic.reinforcement_base", "strategic.path_cost",
                 "strategic.road_cost", "generals.death_on", "army.auxiliary_multiplier", "army.javelin_cost",
                 "bases.max_ranks_per_base", "generals.point_buy.points", "generals.point_buy.max_per_quality"):
        _int(data, path)
    for name, fm in data["formations"].items():
        for mount in ("foot", "mounted"):
            if not isinstance(fm.get("front"), Mapping):
                raise DataError(f"{DATA_FILE}: formations.{name}.front: missing")
            _int(data, f"formations.{name}.front.{mount}", 1)
    for name in data["thinning_order"]:
        if name not in data["formations"]:
            raise DataError(f"{DATA_FILE}: thinning_order: unknown formation {name!r}")
    for name, item in data["protection"].items():
        _fraction(item.get("save"), f"protection.{name}.save")
        if item.get("count_from") not in ("saved", "killed"):
            raise DataError(f"{DATA_FILE}: protection.{name}.count_from: must be saved or killed")
        if item.get("slot") not in ("body", "shield", "horse"):
            raise DataError(f"{DATA_FILE}: protection.{name}.slot: must be body, shield or horse")
    for name, item in data["testudo_saves"].items():
        _fraction(item.get("save"), f"testudo_saves.{name}.save")
    for name, cat in data["categories"].items():
        for row in ("veteran", "regular", "recruit"):
            cells = cat.get("prices", {}).get(row)
            if not isinstance(cells, (list, tuple)) or len(cells) != 3:
                raise DataError(f"{DATA_FILE}: categories.{name}.prices.{row}: three cells expected")
            for cell in cells:
                if not isinstance(cell.get("price"), int):
                    raise DataError(f"{DATA_FILE}: categories.{name}.prices.{row}: a price is not a number")
        for weapon in cat.get("weapons", ()):
            if weapon is not None and weapon not in data["weapons"]:
                raise DataError(f"{DATA_FILE}: categories.{name}.weapons: unknown weapon {weapon!r}")
    for roll in ("talent_roll", "initiative_roll"):
        table = data["generals"].get(roll, {})
        for face in range(1, 7):
            if not isinstance(table.get(face), int):
                raise DataError(f"{DATA_FILE}: generals.{roll}.{face}: missing")
    for i, band in enumerate(data["target_bands"]):
        if not isinstance(band, (list, tuple)) or len(band) != 2:
            raise DataError(f"{DATA_FILE}: target_bands[{i}]: must be [low, high]")


@lru_cache(maxsize=1)
def _parsed_default() -> dict:
    text = resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8")
    try:
        return yaml.load(text, Loader=_LOADER)  # noqa: S506 - a safe loader, our own file
    except yaml.YAMLError as exc:
        raise DataError(f"{DATA_FILE}: not valid YAML: {' '.join(str(exc).split())}") from None


def _read_default() -> dict:
    """A fresh copy of the packaged data file (parsed once per process)."""
    return copy.deepcopy(_parsed_default())


@lru_cache(maxsize=1)
def default_rules() -> Mapping:
    data = _read_default()
    validate(data)
    return freeze(data)


def load(override: Mapping | None = None) -> Mapping:
    """The rules data; `override` (a scenario's changes, same shape) is merged over the file's."""
    if not override:
        return default_rules()
    data = _merge(_read_default(), dict(override))
    try:
        validate(data)
    except (TypeError, AttributeError, KeyError, ValueError) as exc:
        if isinstance(exc, DataError):
            raise
        raise DataError(f"{DATA_FILE}: the override does not fit the data: {type(exc).__name__}: {exc}") from None
    return freeze(data)


def numbers_only(override: object, field: str = "rules", base: object = None) -> dict:
    """A case's `rules` block: only numbers the data file already has, each replaced by a whole number.

    (Tables, names and lists stay as the file has them: a case tunes values, it does not redefine the game.)
    """
    base = _read_default() if base is None else base
    if not isinstance(override, dict):
        raise DataError(f"{field}: must be an object")
    if not isinstance(base, dict):
        raise DataError(f"{field}: not a table of numbers")
    out = {}
    for key, value in override.items():
        if key not in base:
            raise DataError(f"{field}.{str(key)[:64]}: no such number in the rules data")
        here = f"{field}.{key}"
        if isinstance(base[key], dict):
            out[key] = numbers_only(value, here, base[key])
        elif isinstance(base[key], int) and not isinstance(base[key], bool):
            if isinstance(value, bool) or not isinstance(value, int) or not -1000 <= value <= 1000:
                raise DataError(f"{here}: must be a whole number from -1000 to 1000")
            out[key] = value
        else:
            raise DataError(f"{here}: only numbers can be changed by a case")
    return out


# ---- lookups used across the engine --------------------------------------------------------------
def front(rules: Mapping, formation: str, mounted: bool) -> int:
    return rules["formations"][formation]["front"]["mounted" if mounted else "foot"]


def save_fraction(rules: Mapping, item: str, testudo: bool) -> tuple[Fraction, str]:
    if testudo and item in rules["testudo_saves"]:
        entry = rules["testudo_saves"][item]
    else:
        entry = rules["protection"][item]
    return _fraction(entry["save"], item), entry.get("count_from", "killed")


_SAVES: dict = {}


def saves(rules: Mapping, item: str | None, n: int, testudo: bool = False) -> int:
    """T7.3: how many of n hits on warriors protected by `item` are saved."""
    if item is None or n <= 0:
        return 0
    key = (id(rules), item, n, testudo)
    if key not in _SAVES:
        if len(_SAVES) > 10_000:
            _SAVES.clear()
        _SAVES[key] = _saves(rules, item, n, testudo)
    return _SAVES[key]


def _saves(rules: Mapping, item: str, n: int, testudo: bool) -> int:
    share, count_from = save_fraction(rules, item, testudo)
    exact = share * n
    if count_from == "saved":           # counted from a saved figure: ceil
        return -((-exact.numerator) // exact.denominator)
    return exact.numerator // exact.denominator
