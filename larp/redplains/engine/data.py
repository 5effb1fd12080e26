"""The Red Plains data file (red-plains.yaml), loaded once and checked on load.

Every number the rules use comes from here (docs/red-plains.md names the key
in each rule). A case may override troop types (W41.3: `troop_types`).
"""
from __future__ import annotations

import functools
from contextlib import contextmanager
from dataclasses import dataclass, replace
from importlib import resources
from types import MappingProxyType
from typing import Any, Mapping

import yaml

from .errors import DataError
from .outcomes import NORTH, SIDES, SOUTH

# libyaml's parser for our own data files (a tenth of the pure-Python parser's time; PyYAML's wheels have it).
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

DATA_FILE = "red-plains.yaml"


@dataclass(frozen=True)
class TroopType:
    id: str
    name_ru: str
    samurai: bool
    infantry: bool
    shooter: bool
    gd_melee: int                 # guaranteed damage in melee (W26.1)
    pd_melee: int                 # possible damage in melee: the d6 score needed
    pd_shooting: int | None
    pd_shooting_close: int | None  # arquebus straight ahead / at an attacker (W4.6)
    gd_shooting_at_attacker: int  # arquebus at a frontal attacker (W4.6)
    armour_cut_close: int         # arquebus lowers the target's armour (W4.6)
    armour: int
    steadiness: int
    impetus: int
    dice_per_figure: int
    charge_dice_per_figure: int   # cavalry charge (W4.2); = dice_per_figure for others
    actions_per_order: int        # swift horses (W15.7)
    formation_melee: bool
    formation_shooting: bool
    forest_of_spears: bool
    peasants: bool
    ammo_per_figure: int
    shooting_ranks: int
    shoots_over_from_hill: bool


@dataclass(frozen=True)
class Stake:
    id: str
    success_at: int
    success: tuple[int, int]      # (special, ordinary)
    failure: tuple[int, int]


@dataclass(frozen=True)
class Data:
    columns: int
    rows: int
    cells: Mapping[str, tuple[int, int]]            # label -> (col, row)
    by_position: Mapping[tuple[int, int], str]
    deployment_rows: Mapping[str, tuple[int, ...]]
    lines: Mapping[str, Mapping[int, int]]          # side -> line -> row
    faces_at_deployment: Mapping[str, str]
    mandatory_cells: Mapping[str, tuple[str, ...]]
    min_figures: int
    max_figures: int
    front_width: int
    withdraw_below: int
    troop_types: Mapping[str, TroopType]
    shields_armour: int
    armour_floor: int
    stakes: Mapping[str, Stake]
    default_stake: str
    minor_clan_ordinary: int
    general_special: int
    max_orders_per_unit: int
    attacks_per_turn: int
    general_retreat_from_turn: int
    general_retreat_cost: int
    hold_steadiness: int
    decisive_impetus: int
    massed_rerolls: int
    ammo_spend: Mapping[str, int]
    ammo_lost_per_figure: int
    guard_kills_at: int
    sabotage_all_ordinary_at: int
    sabotage_any_at: int
    banner_uses_default: int
    crab_armour: int
    dragon_cells: Mapping[str, int]         # W12.4: infantry 1, cavalry 2
    crab_rerolls: int
    flight_cells: int
    rally_penalty: int
    fleeing_damage_per_figure: int
    fleeing_damage_cavalry_vs_infantry: int
    fleeing_infantry_vs_cavalry_at: int
    river_impetus: int
    hill_impetus: int
    hill_armour: int
    forest_armour: int
    bridge_rerolls: int
    hill_count: int
    forest_count: int
    max_battle_turns: int
    lull_turns: int
    retreat_turns: int
    late_lull_turns: tuple[int, ...]
    holding_lines: tuple[int, ...]


def _get(node: Any, path: str) -> Any:
    cur = node
    for key in path.split("."):
        if not isinstance(cur, dict) or key not in cur:
            raise DataError(f"{DATA_FILE}: {path}", "missing")
        cur = cur[key]
    return cur


def _int(node: Any, path: str, low: int = 0, high: int = 1000, nullable: bool = False) -> int | None:
    value = _get(node, path)
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DataError(f"{DATA_FILE}: {path}", f"must be a whole number {low}..{high}, got {value!r}")
    return value


def _bool(node: Any, path: str) -> bool:
    value = _get(node, path)
    if not isinstance(value, bool):
        raise DataError(f"{DATA_FILE}: {path}", f"must be true or false, got {value!r}")
    return value


@contextmanager
def scoped(where: str):
    """Name the enclosing key in an error raised about a key inside it."""
    try:
        yield
    except DataError as exc:
        inner = exc.field.removeprefix(f"{DATA_FILE}: ")
        raise DataError(f"{where}.{inner}", exc.problem) from None


def troop_type_from(raw: Any, where: str) -> TroopType:
    """One troop type of the data file (or of a case's override, already merged)."""
    with scoped(where):
        return _troop_type(raw, where)


def _troop_type(raw: Any, where: str) -> TroopType:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
        raise DataError(where, "a troop type needs an id")
    gd, pd = _get(raw, "guaranteed_damage"), _get(raw, "possible_damage")
    formation = raw.get("formation")
    if formation is not None and not isinstance(formation, dict):
        raise DataError(f"{where}.formation", "must be an object or null")
    per_fig = _int(raw, "melee_dice_per_figure", 1, 4)
    pd_shoot = _int(raw, "possible_damage.shooting", 2, 6, nullable=True) if "shooting" in pd else None
    return TroopType(
        id=raw["id"], name_ru=str(raw.get("name_ru", raw["id"])),
        samurai=_bool(raw, "samurai"), infantry=_bool(raw, "infantry"), shooter=_bool(raw, "shooter"),
        gd_melee=_int(raw, "guaranteed_damage.melee", 0, 10), pd_melee=_int(raw, "possible_damage.melee", 2, 6),
        pd_shooting=pd_shoot,
        pd_shooting_close=(_int(raw, "possible_damage.shooting_straight_or_at_attacker", 2, 6)
                           if "shooting_straight_or_at_attacker" in pd else pd_shoot),
        gd_shooting_at_attacker=(_int(raw, "guaranteed_damage.shooting_at_frontal_attacker", 0, 10)
                                 if "shooting_at_frontal_attacker" in gd else 0),
        armour_cut_close=(_int(raw, "armour_reduction_straight_or_at_attacker", 0, 10)
                          if "armour_reduction_straight_or_at_attacker" in raw else 0),
        armour=_int(raw, "armour", 0, 10), steadiness=_int(raw, "steadiness", 0, 10),
        impetus=_int(raw, "impetus", 0, 10), dice_per_figure=per_fig,
        charge_dice_per_figure=(_int(raw, "charge_dice_per_figure", 1, 4)
                                if "charge_dice_per_figure" in raw else per_fig),
        actions_per_order=(_int(raw, "actions_per_ordinary_order", 1, 2)
                           if "actions_per_ordinary_order" in raw else 1),
        formation_melee=bool(formation and formation.get("melee")),
        formation_shooting=bool(formation and formation.get("shooting")),
        forest_of_spears=_bool(raw, "forest_of_spears"), peasants=_bool(raw, "peasants"),
        ammo_per_figure=_int(raw, "ammo_per_figure", 0, 100),
        shooting_ranks=_int(raw, "shooting_ranks", 0, 4) if "shooting_ranks" in raw else 0,
        shoots_over_from_hill=bool(raw.get("shoots_over_units_from_hill", False)),
    )


def build(raw: Any) -> Data:
    """Check the parsed data file and freeze it; DataError names the key."""
    if not isinstance(raw, dict):
        raise DataError(DATA_FILE, "must be a mapping")
    field = _get(raw, "field")
    cells: dict[str, tuple[int, int]] = {}
    for i, cell in enumerate(_get(field, "cells")):
        label = cell.get("id") if isinstance(cell, dict) else None
        if not isinstance(label, str) or label in cells:
            raise DataError(f"{DATA_FILE}: field.cells[{i}]", "needs a unique id")
        with scoped(f"{DATA_FILE}: field.cells[{i}]"):
            cells[label] = (_int(cell, "col", 1, 100), _int(cell, "row", 1, 100))
    sides = _get(field, "sides")
    deployment_rows, lines, faces = {}, {}, {}
    for side in SIDES:
        s = _get(sides, side)
        deployment_rows[side] = tuple(_get(s, "deployment_rows"))
        lines[side] = MappingProxyType({int(k): int(v) for k, v in _get(s, "lines").items()})
        faces[side] = _get(s, "faces_at_deployment")
    mandatory = _get(field, "mandatory_cells")
    types = {}
    for i, t in enumerate(_get(raw, "troop_types")):
        tt = troop_type_from(t, f"{DATA_FILE}: troop_types[{i}]")
        types[tt.id] = tt
    stakes = {}
    for i, s in enumerate(_get(raw, "stakes.list")):
        with scoped(f"{DATA_FILE}: stakes.list[{i}]"):
            stakes[s["id"]] = Stake(s["id"], _int(s, "success_at", 2, 12),
                                    (_int(s, "success.special"), _int(s, "success.ordinary")),
                                    (_int(s, "failure.special"), _int(s, "failure.ordinary")))
    specials = {o["id"]: o for o in _get(raw, "orders.special")}
    banners = {b["id"]: b for b in _get(raw, "banners.list")}
    sabotage = {t["id"]: t for t in _get(raw, "shinobi.tasks")}["sabotage"]
    terrain = _get(raw, "terrain")
    end = _get(raw, "end_of_battle")
    data = Data(
        columns=_int(field, "columns", 1, 100), rows=_int(field, "rows", 2, 100),
        cells=MappingProxyType(cells), by_position=MappingProxyType({v: k for k, v in cells.items()}),
        deployment_rows=MappingProxyType(deployment_rows), lines=MappingProxyType(lines),
        faces_at_deployment=MappingProxyType(faces),
        mandatory_cells=MappingProxyType({s: tuple(_get(mandatory, s)) for s in SIDES}),
        min_figures=_int(raw, "units.min_figures_at_start", 1, 100),
        max_figures=_int(raw, "units.max_figures_at_start", 1, 100),
        front_width=_int(raw, "units.front_width", 1, 100), withdraw_below=_int(raw, "units.withdraw_below", 1, 100),
        troop_types=MappingProxyType(types), shields_armour=_int(raw, "shields.armour_vs_shooting"),
        armour_floor=_int(raw, "armour.floor_when_damaged"), stakes=MappingProxyType(stakes),
        default_stake=_get(raw, "stakes.default"),
        minor_clan_ordinary=_int(raw, "extra_orders.minor_clan.ordinary"),
        general_special=_int(raw, "extra_orders.general.special"),
        max_orders_per_unit=_int(raw, "orders.max_per_unit_per_turn", 1, 10),
        attacks_per_turn=_int(raw, "execution.attacks_per_turn", 1, 10),
        general_retreat_from_turn=_int(raw, "orders.general_retreat.from_turn", 1, 100),
        general_retreat_cost=_int(raw, "orders.general_retreat.cost.ordinary"),
        hold_steadiness=_int(specials["hold"], "steadiness"),
        decisive_impetus=_int(specials["decisive_attack"], "impetus"),
        massed_rerolls=_int(specials["massed_shoot"], "rerolls"),
        ammo_spend=MappingProxyType(dict(_get(raw, "ammo.spend_per_shooter"))),
        ammo_lost_per_figure=_int(raw, "ammo.lost_per_figure_killed"),
        guard_kills_at=_int(raw, "shinobi.guard_kills_at", 1, 7),
        sabotage_all_ordinary_at=_int(sabotage, "cancels_if_all_ordinary_at", 1, 7),
        sabotage_any_at=_int(sabotage, "cancels_any_at", 1, 7),
        banner_uses_default=_int(raw, "banners.uses_per_battle_default"),
        dragon_cells=MappingProxyType({k: _int(banners["dragon"], f"move_cells.{k}", 0, 10)
                                       for k in ("infantry", "cavalry")}),
        crab_armour=_int(banners["crab"], "armour"), crab_rerolls=_int(banners["crab"], "rerolls"),
        flight_cells=_int(raw, "fleeing.flight_cells", 1, 10),
        rally_penalty=_int(raw, "fleeing.rally_penalty.steadiness"),
        fleeing_damage_per_figure=_int(raw, "fleeing.damage_from_attack.per_front_rank_figure"),
        fleeing_damage_cavalry_vs_infantry=_int(raw, "fleeing.damage_from_attack.cavalry_vs_fleeing_infantry"),
        fleeing_infantry_vs_cavalry_at=_int(raw, "fleeing.damage_from_attack.infantry_vs_fleeing_cavalry_at", 1, 7),
        river_impetus=_int(terrain, "river.impetus_attacking_across", -10, 10),
        hill_impetus=_int(terrain, "hills.impetus_attacking", -10, 10),
        hill_armour=_int(terrain, "hills.armour_vs_shooting"), forest_armour=_int(terrain, "forests.armour_vs_shooting"),
        bridge_rerolls=_int(terrain, "bridge.shooter_rerolls_vs_crossing_unit"),
        hill_count=_int(terrain, "hills.count"), forest_count=_int(terrain, "forests.count"),
        max_battle_turns=_int(end, "max_battle_turns", 1, 1000), lull_turns=_int(end, "lull_turns_for_draw", 1, 100),
        retreat_turns=_int(end, "retreat_turns_for_defeat", 1, 100),
        late_lull_turns=tuple(_get(end, "late_lull_turns")), holding_lines=tuple(_get(end, "holding_lines")),
    )
    for side in (NORTH, SOUTH):
        for label in data.mandatory_cells[side]:
            if label not in cells:
                raise DataError(f"{DATA_FILE}: field.mandatory_cells.{side}", f"no such cell {label}")
    if data.default_stake not in stakes:
        raise DataError(f"{DATA_FILE}: stakes.default", "names no stake")
    return data


@functools.lru_cache(maxsize=1)
def load() -> Data:
    """The project's copy of the data file, parsed and checked once."""
    text = resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8")
    return build(yaml.load(text, Loader=_LOADER))  # noqa: S506 - a safe loader, our own file


def with_troop_types(data: Data, override: Any) -> Data:
    """W41.3: a case's `troop_types` (a list of partial type objects by id) over the data file's."""
    if override is None:
        return data
    if not isinstance(override, list):
        raise DataError("troop_types", "must be a list of troop type objects")
    types = dict(data.troop_types)
    raw_file = yaml.safe_load(resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8"))
    raw_types = {t["id"]: t for t in raw_file["troop_types"]}
    for i, item in enumerate(override):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise DataError(f"troop_types[{i}]", "needs an id")
        base = dict(raw_types.get(item["id"], {}))
        base.update({k: v for k, v in item.items() if not str(k).startswith("_")})
        types[item["id"]] = troop_type_from(base, f"troop_types[{i}]")
    return replace(data, troop_types=MappingProxyType(types))
