"""The `measure` mode (T38 "measure"): the speed of a unit or battle line (T15, T17.1, T32.3), a weapon's range (T20.4)."""
from __future__ import annotations

from typing import Any, Mapping

from . import data as d
from . import fields as f
from . import outcomes as o
from .errors import CaseError


def speed(rules: Mapping, m: dict) -> dict:
    mv = rules["movement"]
    units = f.lst(f.need(m, "units", "measure"), "measure.units", 50)
    if not units:
        raise CaseError("measure.units", "at least one unit")
    tired = f.boolean(m.get("tired", False), "measure.tired")
    wet = f.boolean(m.get("wet_ground", False), "measure.wet_ground")
    mud = f.boolean(m.get("heavy_mud", False), "measure.heavy_mud")
    fleeing = f.boolean(m.get("fleeing", False), "measure.fleeing")
    arrival = f.opt_integer(m.get("arrival_index"), "measure.arrival_index", 1, 100)
    first_rank = counted = 0
    all_mounted = True
    for i, raw in enumerate(units):
        uf = f"measure.units[{i}]"
        u = f.obj(raw, uf)
        mounted = f.boolean(u.get("mounted", False), f"{uf}.mounted")
        formation = f.choice(u.get("formation", "dense"), f"{uf}.formation", rules["formations"])
        if f.boolean(u.get("lone_general", False), f"{uf}.lone_general"):
            width = mv["lone_general_front"]                                  # T12.10
        elif fleeing:
            width = d.front(rules, "loose", mounted)                          # T17.1: at skirmisher speed
        elif u.get("front") is not None:
            width = f.integer(u["front"], f"{uf}.front", 0, 60)
        else:
            width = d.front(rules, formation, mounted)
        double = tired or mud or (wet and mounted)                            # T15.3: twice at most
        first_rank += width
        counted += width * (mv["fatigue_front_factor"] if double else 1)
        all_mounted = all_mounted and mounted
    value = mv["base_speed_cm"] - counted
    if arrival is not None:                                                   # T32.3 variant 2
        value -= mv["reinforcement_step_cm"] * (arrival - 1)
    value = max(mv["speed_floor_cm"], value)
    moves = mv["cavalry_moves"]
    return {"first_rank": first_rank, "counted": counted, "speed_cm": value,
            "trot_cm": value * moves["trot"] if all_mounted else None,
            "gallop_cm": value * moves["gallop"] if all_mounted else None}


def weapon_range(rules: Mapping, weapon: str, mounted: bool, formation: str, target_figures: int,
                 target_first_rank: int, fog: bool) -> tuple[int, str]:
    """T20.4: (range in cm, kind of fire) of one weapon shot from one formation."""
    w = rules["weapons"][weapon]
    sh = rules["shooting"]
    if w.get("fixed_hit_on") is not None and not w.get("base_range_cm"):
        return w.get("base_range_cm", 0), o.FIRE_POINT_BLANK
    base = max(w.get("base_range_cm", sh["min_range_cm"]), 0)
    fire, value = o.FIRE_NORMAL, base
    long_kind = w.get("long_range")
    if long_kind and not mounted and formation in w.get("long_range_formations", ()):
        n = target_figures if long_kind == "figures_in_target" else target_first_rank
        fire = o.FIRE_AREA if long_kind == "figures_in_target" else o.FIRE_LINE
        value = max(sh["min_range_cm"], sh["range_cm_per_figure"] * n)
    if fog:
        value = min(value, sh["fog_sight_cm"])
    return value, fire


def shoots_from(rules: Mapping, weapon: str, formation: str) -> int | None:
    """How many ranks shoot (None: all) — T6.3."""
    ranks = rules["weapons"][weapon].get("shooting_ranks", {}).get(formation, 0)
    return None if ranks == "all" else ranks


def range_(rules: Mapping, m: dict) -> dict:
    missiles = [k for k, w in rules["weapons"].items() if w.get("kind") == "missile"]
    weapon = f.choice(f.need(m, "weapon", "measure"), "measure.weapon", missiles)
    mounted = f.boolean(m.get("mounted", False), "measure.mounted")
    formation = f.choice(m.get("formation", "dense"), "measure.formation", rules["formations"])
    figures = f.integer(m.get("target_figures", 0), "measure.target_figures", 0, 10000)
    first = f.integer(m.get("target_first_rank", 0), "measure.target_first_rank", 0, 10000)
    fog = f.boolean(m.get("fog", False), "measure.fog")
    if shoots_from(rules, weapon, formation) == 0:
        return {"range_cm": None, "fire": None,
                "refused": [{"rule": "T6.3", "reason": f"nobody shoots a {weapon} in {formation} formation"}]}
    value, fire = weapon_range(rules, weapon, mounted, formation, figures, first, fog)
    return {"range_cm": value, "fire": fire}


def run_measure(rules: Mapping, case: Any) -> dict:
    m = f.obj(f.need(f.obj(case, "case"), "measure", ""), "measure")
    kind = f.choice(f.need(m, "kind", "measure"), "measure.kind", ("speed", "range"))
    return speed(rules, m) if kind == "speed" else range_(rules, m)
