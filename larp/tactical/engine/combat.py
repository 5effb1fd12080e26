"""Combat cases (T37.2-T37.5): strikers and their values, the clash (T18, T19) and the melee round (T21).

Dice order (for the seed's k, dice.py): strike dice of each striking unit (a
clash: attacker, then defender; a melee: in the order of `melee.units`), then
the unit tests in the same order, then the grouped generals' death tests.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from . import fields as f
from . import outcomes as o
from . import units as un
from .checks import at_or_below, parse_modifiers, unit_test
from .dice import Dice
from .errors import CaseError


@dataclass
class Striker:
    rank: int                  # 0: the grouped general (T37.5)
    profile: str
    value: int
    fig: un.Fig | None         # None: the general (never disordered, T12.7)
    weapon: str | None
    ignores_armour: bool = False


@dataclass
class Struck:
    """One unit's strikes of a round: the groups, riders, hits (ordinary and armour-ignoring)."""
    strikers: int = 0
    hits: int = 0
    ignoring: int = 0
    groups: list = field(default_factory=list)
    riders: list | None = None
    newly_disordered: int = 0
    broke_through: bool = False
    extra: list = field(default_factory=list)      # shooting: (hit, weapon) per shot


@dataclass
class Combat:
    rules: Mapping
    profiles: dict
    units: dict
    sides: list
    conditions: dict
    modifiers: dict            # (unit, roll) -> [(value, reason)]
    dice: Dice
    refused: list = field(default_factory=list)


def parse_combat(rules: Mapping, case: Any, with_dice: bool = True) -> Combat:
    case = f.obj(case, "case")
    profiles = un.parse_profiles(rules, case.get("profiles"))
    units = un.parse_units(rules, f.need(case, "units", ""), profiles)
    sides: list[str] = []
    for u in units.values():
        if u.side not in sides:
            sides.append(u.side)
    if len(sides) != 2:
        raise CaseError("units", f"a combat case holds units of exactly two sides, not {len(sides)}")
    cond = f.obj(case.get("conditions") or {}, "conditions")
    conditions = {"sun_in_face": [f.ident(s, f"conditions.sun_in_face[{i}]")
                                  for i, s in enumerate(f.lst(cond.get("sun_in_face") or [], "conditions.sun_in_face", 2))],
                  "rain": f.boolean(cond.get("rain", False), "conditions.rain"),
                  "fog": f.boolean(cond.get("fog", False), "conditions.fog"), "wind": None}
    if cond.get("wind") is not None:
        w = f.obj(cond["wind"], "conditions.wind")
        conditions["wind"] = {
            "strength": f.choice(f.need(w, "strength", "conditions.wind"), "conditions.wind.strength", ("weak", "strong")),
            "at_back": [f.ident(s, "conditions.wind.at_back") for s in f.lst(w.get("at_back") or [], "conditions.wind.at_back", 2)],
            "in_face": [f.ident(s, "conditions.wind.in_face") for s in f.lst(w.get("in_face") or [], "conditions.wind.in_face", 2)]}
    modifiers: dict = {}
    for i, m in enumerate(f.lst(case.get("modifiers") or [], "modifiers", 100)):
        mf = f"modifiers[{i}]"
        m = f.obj(m, mf)
        uid = f.ident(f.need(m, "unit", mf), f"{mf}.unit")
        if uid not in units:
            raise CaseError(f"{mf}.unit", f"unknown unit {uid!r}")
        roll = f.choice(f.need(m, "roll", mf), f"{mf}.roll", ("strike", "test"))
        modifiers.setdefault((uid, roll), []).extend(parse_modifiers([m], mf))
    dice = Dice.per_unit(case.get("dice") if with_dice else None, case.get("seed") if with_dice else None,
                         units, o.DICE_LISTS)
    return Combat(rules, profiles, units, sides, conditions, modifiers, dice)


def modifier_sum(c: Combat, unit: un.Unit, roll: str) -> int:
    return sum(v for v, _ in c.modifiers.get((unit.id, roll), []))


# ---- who strikes ------------------------------------------------------------------------------------
def clash_weapon(c: Combat, weapon: str | None, mounted: bool) -> bool:
    w = c.rules["weapons"].get(weapon) if weapon else None
    return bool(w and w.get("clash") and bool(w.get("mounted")) == mounted)


def clash_strikers(c: Combat, unit: un.Unit, only: tuple[str, ...] | None = None) -> list[Striker]:
    """T18.2, T19.1, T6.2: figures in ranks whose weapon strikes from their rank; the general first."""
    rules = c.rules
    base = modifier_sum(c, unit, "strike") + unit.talent("specialty")
    out: list[Striker] = []
    g = unit.general
    if g and clash_weapon(c, g.profile.weapon, unit.mounted) and (only is None or g.profile.weapon in only):
        out.append(Striker(0, g.profile.id, (g.profile.specialty or 0) + base, None, g.profile.weapon))
    loose_used: dict[str, int] = {}
    for x in unit.alive():
        p = c.profiles[x.profile]
        if x.disordered or not clash_weapon(c, p.weapon, unit.mounted) or (only and p.weapon not in only):
            continue
        w = rules["weapons"][p.weapon]
        if unit.formation == "loose":
            if loose_used.get(p.weapon, 0) >= w.get("loose_strikers", 1):
                continue
            loose_used[p.weapon] = loose_used.get(p.weapon, 0) + 1
        elif x.rank >= w.get("clash_ranks", 1):
            continue
        out.append(Striker(x.rank + 1, x.profile, (p.specialty or 0) + base, x, p.weapon))
    return out


def melee_strikers(c: Combat, unit: un.Unit) -> list[Striker]:
    """T21.2, T10.1: the ranks that fight in the unit's formation, the grouped general first."""
    rules = c.rules
    base = (modifier_sum(c, unit, "strike") + unit.talent("melee")
            + (rules["weather_effects"]["sun"]["modifier"] if unit.side in c.conditions["sun_in_face"] else 0))
    ranks = rules["formations"][unit.formation]["melee_ranks"]
    out: list[Striker] = []

    def ignores(weapon):
        return bool(weapon and rules["weapons"][weapon].get("ignores_armour_in_melee"))
    g = unit.general
    if g:
        out.append(Striker(0, g.profile.id, g.profile.melee + base, None, g.profile.weapon, ignores(g.profile.weapon)))
    for x in unit.alive():
        if x.disordered or (ranks != "all" and x.rank >= ranks):
            continue
        p = c.profiles[x.profile]
        out.append(Striker(x.rank + 1, x.profile, p.melee + base, x, p.weapon, ignores(p.weapon)))
    return out


def _group(struck: Struck, s: Striker) -> dict:
    last = struck.groups[-1] if struck.groups else None
    if last and last["rank"] == s.rank and last["profile"] == s.profile and last["value"] == s.value:
        return last
    g = {"rank": s.rank, "profile": s.profile, "strikers": 0, "value": s.value, "dice": [], "hits": 0}
    struck.groups.append(g)
    return g


def strike(c: Combat, unit: un.Unit, strikers: list[Striker], ride_ranks: int = 0) -> Struck:
    """Roll every striker (T18.3, T21.2); riders against infantry strike rank after rank (T19.2)."""
    struck = Struck(strikers=len(strikers))
    if ride_ranks:
        struck.riders = []
    for s in strikers:
        g = _group(struck, s)
        g["strikers"] += 1
        if ride_ranks:
            rolled, hits = [], 0
            while hits < ride_ranks:
                die, hit = at_or_below(s.value, lambda: c.dice.take(unit.id, o.STRIKE))
                if die is not None:
                    rolled.append(die)
                if not hit:
                    break
                hits += 1
            through = hits == ride_ranks
            struck.riders.append({"dice": rolled, "hits": hits, "through": through})
            g["dice"] += rolled
            g["hits"] += hits
            struck.hits += hits
            struck.broke_through |= through
            missed = not through
        else:
            die, hit = at_or_below(s.value, lambda: c.dice.take(unit.id, o.STRIKE))
            if die is not None:
                g["dice"].append(die)
            g["hits"] += hit
            struck.hits += hit
            struck.ignoring += hit and s.ignores_armour
            missed = not hit
        if missed and s.fig is not None:           # a miss loses his place: disordered
            s.fig.disordered = True
            struck.newly_disordered += 1
    return struck


def unit_entry(struck: Struck | None, taken: dict | None) -> dict:
    struck = struck or Struck()
    taken = taken or {"hits_taken": 0, "saved": 0, "killed": 0}
    entry = {"strikers": struck.strikers, "hits": struck.hits, "groups": struck.groups}
    if struck.riders is not None:
        entry["riders"] = struck.riders
    entry.update(taken)
    entry["newly_disordered"] = struck.newly_disordered
    entry["test"] = None
    entry["general"] = None
    return entry


def test_unit(c: Combat, unit: un.Unit, killed: int, attacked_from: str, broken: bool = False) -> dict | None:
    """T24 after a round: steadiness of the refilled first rank, ranks at the start of the round."""
    if unit.destroyed:                       # no figures left (T22.4): nothing to test, `after` says destroyed
        return None
    result = unit_test(c.rules, lambda: c.dice.take(unit.id, o.TEST),
                       steadiness=un.first_rank_steadiness(unit, c.profiles),
                       circle=unit.start_special == o.CIRCLE,
                       full_ranks=unit.start_full_ranks, attacked_from=attacked_from, killed=killed,
                       general=unit.talent("steadiness"), broken=broken,
                       modifiers=c.modifiers.get((unit.id, "test"), []))
    if result["result"] == o.FLEES:
        unit.fleeing = True
    elif result["result"] == o.DESTROYED:
        unit.destroyed = True
        unit.figs = []
    return result


def death_test(c: Combat, unit: un.Unit) -> dict | None:
    """T12.9: one die for a grouped general, after the round's tests; a 1 kills him."""
    if unit.general is None:
        return None
    die = c.dice.take(unit.id, o.DEATH)
    return {"die": die, "killed": die <= c.rules["generals"]["death_on"]}


def finish(c: Combat, result: dict) -> dict:
    if c.refused:
        return {"refused": c.refused}
    c.dice.check_used()
    return result


# ---- clash (T18, T19) -------------------------------------------------------------------------------
def _unit_ref(c: Combat, raw: dict, key: str, field: str) -> un.Unit:
    uid = f.ident(f.need(raw, key, field), f"{field}.{key}")
    if uid not in c.units:
        raise CaseError(f"{field}.{key}", f"unknown unit {uid!r}")
    return c.units[uid]


def run_clash(rules: Mapping, case: Any, c: Combat | None = None) -> dict:
    c = c or parse_combat(rules, case)
    cl = f.obj(f.need(case, "clash", ""), "clash")
    att, dfd = _unit_ref(c, cl, "attacker", "clash"), _unit_ref(c, cl, "defender", "clash")
    if att.side == dfd.side:
        raise CaseError("clash.defender", "attacker and defender are of the same side")
    direction = f.choice(cl.get("attacked_from", o.FRONT), "clash.attacked_from", o.DIRECTIONS)
    counter = f.boolean(cl.get("counter", False), "clash.counter")
    plan = plan_clash(c, att, dfd, direction, counter)
    if c.refused:
        return {"refused": c.refused}
    return finish(c, resolve_clash(c, att, dfd, direction, plan))


def refuse(c: Combat, rule: str, reason: str, where: str) -> None:
    c.refused.append({"rule": rule, "reason": reason, "where": where})


def plan_clash(c: Combat, att: un.Unit, dfd: un.Unit, direction: str, counter: bool) -> dict:
    """Who strikes in this clash, or refusals (T18.1, T18.5, T19.5, T21.4, T21.8, T10.4, T23.1, T26.5)."""
    rule = "T19.1" if att.mounted else "T18.1"
    if att.fleeing:
        refuse(c, "T17.1", "a fleeing unit never moves toward the enemy", att.id)
    if att.in_melee:
        refuse(c, "T21.4", "a unit in melee is out of its player's control", att.id)
    if not clash_strikers(c, att):
        refuse(c, rule, "the attacker has no warrior in ranks whose weapon clashes", att.id)
    if dfd.in_melee and direction != o.FRONT:
        refuse(c, "T21.8", "a unit in melee cannot be attacked in flank or rear, only joined in the melee", dfd.id)
    if dfd.special == o.CIRCLE and direction != o.FRONT:
        refuse(c, "T10.4", "a circle has no flank or rear", dfd.id)
    cavalry = att.mounted and any(clash_weapon(c, c.profiles[x.profile].weapon, True) for x in att.alive())
    strikes = bool(clash_strikers(c, dfd)) and direction == o.FRONT and not dfd.fleeing
    automatic = None
    if strikes and cavalry and dfd.special == o.CIRCLE:
        automatic = ()                                           # T10.4: all its clash weapons
    elif strikes and dfd.formation == "loose":
        automatic = ()                                           # T26.5
    elif strikes and cavalry and not dfd.mounted and clash_strikers(c, dfd, ("infantry_pike", "infantry_spear")):
        automatic = ("infantry_pike", "infantry_spear")          # T19.5: pikes and spears only
    if counter:
        if not clash_strikers(c, dfd):
            refuse(c, "T18.5", "the defender has no warrior in ranks whose weapon clashes", dfd.id)
        elif direction != o.FRONT:
            refuse(c, "T23.1", "a unit attacked in flank or rear does not answer a clash", dfd.id)
        elif dfd.special == o.CIRCLE and not att.mounted:
            refuse(c, "T10.4", "a circle does not counter-attack infantry", dfd.id)
        elif dfd.fleeing:
            refuse(c, "T17.1", "a fleeing unit does not counter-attack", dfd.id)
        automatic = ()
    return {"defender_strikes": automatic is not None, "only": automatic or None}


def resolve_clash(c: Combat, att: un.Unit, dfd: un.Unit, direction: str, plan: dict) -> dict:
    a_strikers = clash_strikers(c, att)
    d_strikers = clash_strikers(c, dfd, plan["only"]) if plan["defender_strikes"] else []
    a_struck = strike(c, att, a_strikers, ride_ranks(att, dfd))
    d_struck = strike(c, dfd, d_strikers, ride_ranks(dfd, att)) if plan["defender_strikes"] else Struck()
    broken = a_struck.broke_through and not dfd.mounted                         # T19.3
    a_taken, d_taken, loser, tests = apply_clash(c, att, dfd, direction, a_struck.hits, d_struck.hits, broken)
    entries = {att.id: unit_entry(a_struck, a_taken), dfd.id: unit_entry(d_struck, d_taken)}
    for u in (att, dfd):
        entries[u.id]["test"] = tests.get(u.id)
    for u in (att, dfd):
        entries[u.id]["general"] = death_test(c, u)
        entries[u.id]["after"] = un.after(c.rules, u)
    return {"units": entries, "loser": loser, "simultaneous": plan["defender_strikes"], "broken": broken}


def ride_ranks(striker: un.Unit, target: un.Unit) -> int:
    """T19.2: riders against infantry ride through the target's ranks at the start of the clash."""
    return target.start_ranks if (striker.mounted and not target.mounted) else 0


def apply_clash(c: Combat, att: un.Unit, dfd: un.Unit, direction: str, a_hits: int, d_hits: int,
                broken: bool) -> tuple[dict, dict, str | None, dict]:
    """Casualties, refilling, the loser (T18.6, T7.5) and the tests (T24, T19.3) after the strikes."""
    rules = c.rules
    kind = lambda u: o.ATTACK_CLASH_CAVALRY if u.mounted else o.ATTACK_CLASH_INFANTRY  # noqa: E731
    d_taken = un.take_hits(rules, dfd, c.profiles, a_hits, 0, kind(att))
    a_taken = un.take_hits(rules, att, c.profiles, d_hits, 0, kind(dfd))
    un.relayout(rules, att)
    un.relayout(rules, dfd)
    loser = None
    if d_taken["hits_taken"] > a_taken["hits_taken"]:
        loser = dfd.side
    elif a_taken["hits_taken"] > d_taken["hits_taken"]:
        loser = att.side
    tests = {}
    if loser == att.side:
        tests[att.id] = test_unit(c, att, a_taken["killed"], o.FRONT)
    if loser == dfd.side or broken:
        tests[dfd.id] = test_unit(c, dfd, d_taken["killed"], direction, broken)
    return a_taken, d_taken, loser, tests


# ---- melee (T21) ------------------------------------------------------------------------------------
def share(targets: list[un.Unit], ordinary: int, ignoring: int) -> dict[str, list[int]]:
    """T21.5 ruling: hits one at a time to the enemy units in turn, skipping the full; armour-ignoring last."""
    room = {u.id: len(u.alive()) for u in targets}
    dealt = {u.id: [0, 0] for u in targets}
    i = 0
    for kind_index, count in ((0, ordinary), (1, ignoring)):
        for _ in range(count):
            for _try in range(len(targets)):
                u = targets[i % len(targets)]
                i += 1
                if room[u.id] > 0:
                    room[u.id] -= 1
                    dealt[u.id][kind_index] += 1
                    break
            else:
                break                                             # hits beyond all figures are lost
    return dealt


def run_melee(rules: Mapping, case: Any, c: Combat | None = None) -> dict:
    c = c or parse_combat(rules, case)
    m = f.obj(f.need(case, "melee", ""), "melee")
    order = melee_units(c, m)
    if c.refused:
        return {"refused": c.refused}
    return finish(c, resolve_melee(c, order, melee_directions(c, m)))


def melee_units(c: Combat, m: dict) -> list[un.Unit]:
    ids = f.lst(f.need(m, "units", "melee"), "melee.units", 50)
    order = []
    for i, uid in enumerate(ids):
        uid = f.ident(uid, f"melee.units[{i}]")
        if uid not in c.units:
            raise CaseError(f"melee.units[{i}]", f"unknown unit {uid!r}")
        order.append(c.units[uid])
    f.unique_ids([{"id": u.id} for u in order], "melee.units")
    if len({u.side for u in order}) != 2:
        raise CaseError("melee.units", "a melee needs units of both sides")
    for u in order:
        if u.fleeing:
            refuse(c, "T17.1", "a fleeing unit does not fight a melee", u.id)
    return order


def melee_directions(c: Combat, m: dict) -> dict[str, str]:
    raw = f.obj(m.get("attacked_from") or {}, "melee.attacked_from")
    out = {}
    for uid, direction in raw.items():
        if uid not in c.units:
            raise CaseError(f"melee.attacked_from.{uid[:64]}", "unknown unit")
        out[uid] = f.choice(direction, f"melee.attacked_from.{uid}", o.DIRECTIONS)
    return out


def resolve_melee(c: Combat, order: list[un.Unit], directions: dict[str, str]) -> dict:
    struck = {u.id: strike(c, u, melee_strikers(c, u)) for u in order}
    side_hits: dict[str, list[int]] = {}
    for u in order:
        tally = side_hits.setdefault(u.side, [0, 0])
        tally[0] += struck[u.id].hits - struck[u.id].ignoring
        tally[1] += struck[u.id].ignoring
    taken, hits_taken, loser, tests = apply_melee(c, order, directions, side_hits)
    entries = {u.id: unit_entry(struck[u.id], taken[u.id]) for u in order}
    for u in order:
        entries[u.id]["test"] = tests.get(u.id)
    for u in order:
        entries[u.id]["general"] = death_test(c, u)
        entries[u.id]["after"] = un.after(c.rules, u)
    return {"units": entries, "hits_taken": hits_taken, "loser": loser}


def apply_melee(c: Combat, order: list[un.Unit], directions: dict[str, str],
                side_hits: dict[str, list[int]]) -> tuple[dict, dict, str | None, dict]:
    """T21.5-T21.6: share each side's hits, casualties and refilling, the loser's tests."""
    rules = c.rules
    sides = [s for s in c.sides if any(u.side == s for u in order)]
    taken: dict[str, dict] = {}
    for side in sides:
        enemies = [u for u in order if u.side != side]
        ordinary, ignoring = side_hits.get(side, (0, 0))
        for uid, (n_ord, n_ign) in share(enemies, ordinary, ignoring).items():
            taken[uid] = un.take_hits(rules, c.units[uid], c.profiles, n_ord, n_ign, o.ATTACK_MELEE)
    for u in order:
        un.relayout(rules, u)
    hits_taken = {s: sum(taken[u.id]["hits_taken"] for u in order if u.side == s) for s in sides}
    loser = None
    if hits_taken[sides[0]] != hits_taken[sides[1]]:
        loser = max(sides, key=lambda s: hits_taken[s])
    tests = {}
    for u in order:
        if u.side == loser:
            tests[u.id] = test_unit(c, u, taken[u.id]["killed"], directions.get(u.id, o.FRONT))
    return taken, hits_taken, loser, tests
