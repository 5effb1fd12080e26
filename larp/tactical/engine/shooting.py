"""The `shooting` mode (T20): one volley, or an exchange of two simultaneous volleys.

Dice order (for the seed's k, dice.py): for each volley in the order given, the
shooter's rain die (T20.11) and strike dice; then each target's per-warrior
disorder test (T20.9, T26.6); then the exchange's unit test (T20.5); then the
targets' grouped generals' death tests (T12.9).
"""
from __future__ import annotations

from typing import Any, Mapping

from . import fields as f
from . import outcomes as o
from . import units as un
from .checks import at_or_below
from .combat import Combat, Striker, Struck, death_test, finish, parse_combat, refuse, strike, test_unit
from .errors import CaseError
from .measure import shoots_from, weapon_range


def missile(c: Combat, p: un.Profile) -> str | None:
    w = c.rules["weapons"].get(p.weapon) if p.weapon else None
    if w and w.get("kind") == "missile":
        return p.weapon
    return "javelin" if p.javelin else None


def shot_value(c: Combat, unit: un.Unit, p: un.Profile, weapon: str, cover: bool, base_specialty: int) -> int:
    """T20.7: accuracy + talent + cover + wind (bows) + sun + modifiers; a javelin always hits on 1-3."""
    w = c.rules["weapons"][weapon]
    if w.get("fixed_hit_on") is not None:
        return w["fixed_hit_on"]
    value = base_specialty + unit.talent("specialty") + sum(v for v, _ in c.modifiers.get((unit.id, "strike"), []))
    if cover:
        value += c.rules["shooting"]["cover_modifier"]
    wind = c.conditions["wind"]
    if wind and w.get("wind_affects"):
        effect = c.rules["weather_effects"]["strong_wind" if wind["strength"] == "strong" else "weak_wind"]
        if unit.side in wind["in_face"]:
            value += effect.get("face", 0)
        if unit.side in wind["at_back"]:
            value += effect.get("back", 0)
    if unit.side in c.conditions["sun_in_face"]:
        value += c.rules["weather_effects"]["sun"]["modifier"]
    return value


def shooters(c: Combat, unit: un.Unit) -> list[tuple[Striker, str]]:
    """T20.3, T6.3: figures in ranks whose weapon shoots from their rank; the general if from the first."""
    out = []
    g = unit.general
    if g:
        weapon = missile(c, g.profile)
        if weapon and shoots_from(c.rules, weapon, unit.formation) != 0:
            out.append((Striker(0, g.profile.id, 0, None, weapon), weapon))
    for x in unit.alive():
        p = c.profiles[x.profile]
        weapon = missile(c, p)
        if x.disordered or not weapon:
            continue
        ranks = shoots_from(c.rules, weapon, unit.formation)
        if ranks is None or x.rank < ranks:
            out.append((Striker(x.rank + 1, x.profile, 0, x, weapon), weapon))
    return out


def parse_volley(c: Combat, raw: Any, i: int) -> dict:
    vf = f"shooting.volleys[{i}]"
    v = f.obj(raw, vf)
    out = {}
    for key in ("shooter", "target"):
        uid = f.ident(f.need(v, key, vf), f"{vf}.{key}")
        if uid not in c.units:
            raise CaseError(f"{vf}.{key}", f"unknown unit {uid!r}")
        out[key] = c.units[uid]
    if out["shooter"].side == out["target"].side:
        raise CaseError(f"{vf}.target", "shooter and target are of the same side")
    out["distance"] = f.number(f.need(v, "distance_cm", vf), f"{vf}.distance_cm", 0, 10000)
    out["cover"] = f.boolean(v.get("cover", False), f"{vf}.cover")
    out["defensive"] = f.boolean(v.get("defensive", False), f"{vf}.defensive")
    out["line"] = f.opt_integer(v.get("target_line_first_rank"), f"{vf}.target_line_first_rank", 0, 1000)
    return out


def plan_volley(c: Combat, v: dict) -> list[tuple[Striker, str]] | None:
    """The shooters of a volley in range, or None after a refusal (T6.3, T20.4, T20.6, T20.8, T21.4)."""
    s, t = v["shooter"], v["target"]
    if t.in_melee:
        refuse(c, "T20.8", "a unit fighting in melee cannot be shot at", t.id)
    if s.in_melee:
        refuse(c, "T21.4", "a unit in melee cannot shoot", s.id)
    if s.fleeing:
        refuse(c, "T17.1", "a fleeing unit does not shoot", s.id)
    able = shooters(c, s)
    if v["defensive"]:
        able = [(st, w) for st, w in able if w == "bow"]
        if not able:
            refuse(c, "T20.6", "defensive fire is made by bows only", s.id)
            return None
    if not able:
        refuse(c, "T6.3", f"nobody in {s.id} can shoot from its ranks in {s.formation} formation", s.id)
        return None
    first = len(un.rank_lists(t.alive())[0])
    line = v["line"] if v["line"] is not None else first
    ranges = {w: weapon_range(c.rules, w, s.mounted, s.formation, len(t.alive()), line, c.conditions["fog"])
              for w in dict.fromkeys(w for _, w in able)}
    main = next((w for st, w in able if st.fig is not None), able[0][1])   # the unit's own weapon reports
    v["range"], v["fire"] = ranges[main]
    in_range = [(st, w) for st, w in able if v["distance"] <= ranges[w][0]]
    if not in_range:
        best = max(r for r, _ in ranges.values())
        c.refused.append({"rule": "T20.4", "reason": f"the target is {v['distance']} cm away, out of range",
                          "where": s.id, "range_cm": best})
        return None
    return in_range


def fire(c: Combat, v: dict, able: list[tuple[Striker, str]]) -> tuple[dict, Struck, dict]:
    s = v["shooter"]
    rules = c.rules
    rain_die, wet = None, False
    if c.conditions["rain"] and any(rules["weapons"][w].get("rain_affects") for _, w in able):
        rain_die = c.dice.take(s.id, o.RAIN)                                      # T20.11
        wet = rain_die % 2 == 1 if rules["shooting"]["rain_wet_on"] == "odd" else rain_die % 2 == 0
        if wet:
            able = [(st, w) for st, w in able if not rules["weapons"][w].get("rain_affects")]
    for st, w in able:
        p = s.general.profile if st.fig is None else c.profiles[st.profile]
        st.value = shot_value(c, s, p, w, v["cover"], p.specialty or 0)
    struck = strike_shots(c, s, able)
    shieldless = sum(1 for hit, w in struck.extra if hit and rules["weapons"][w].get("ignores_shields"))
    entry = {"shooter": s.id, "target": v["target"].id, "range_cm": v["range"], "fire": v["fire"],
             "rain_die": rain_die, "wet": wet, "strikers": struck.strikers, "hits": struck.hits,
             "groups": struck.groups}
    handgun = any(w == "handgun" for _, w in able)
    return entry, struck, {"shieldless": shieldless, "handgun": handgun}


def strike_shots(c: Combat, unit: un.Unit, able: list[tuple[Striker, str]]) -> Struck:
    """Roll every shot (T20.7); a miss has no effect on the shooter."""
    struck = Struck(strikers=len(able))
    for st, w in able:
        keep = st.fig.disordered if st.fig is not None else None
        one = strike(c, unit, [st])
        if st.fig is not None:
            st.fig.disordered = keep                                             # T20.7 ruling
        merged = struck.groups[-1] if struck.groups else None
        g = one.groups[0]
        if merged and (merged["rank"], merged["profile"], merged["value"]) == (g["rank"], g["profile"], g["value"]):
            merged["strikers"] += 1
            merged["dice"] += g["dice"]
            merged["hits"] += g["hits"]
        else:
            struck.groups.append(g)
        struck.hits += one.hits
        struck.extra.append((one.hits > 0, w))
    return struck


def disorder_test(c: Combat, t: un.Unit) -> dict:
    """T20.9, T26.6: every warrior still in ranks tests against his steadiness; above it, disordered."""
    dice, newly = [], 0
    for x in t.alive():
        if x.disordered:
            continue
        own = (c.rules["special_formations"]["circle"]["steadiness"] if t.special == o.CIRCLE   # T10.4
               else c.profiles[x.profile].steadiness)
        die, ok = at_or_below(own + t.talent("steadiness"),
                              lambda: c.dice.take(t.id, o.DISORDER))
        if die is not None:
            dice.append(die)
        if not ok:
            x.disordered = True
            newly += 1
    return {"dice": dice, "newly_disordered": newly}


def run_shooting(rules: Mapping, case: Any, c: Combat | None = None) -> dict:
    c = c or parse_combat(rules, case)
    sh = f.obj(f.need(case, "shooting", ""), "shooting")
    exchange = f.boolean(sh.get("exchange", False), "shooting.exchange")
    volleys = [parse_volley(c, v, i) for i, v in enumerate(f.lst(f.need(sh, "volleys", "shooting"), "shooting.volleys", 2))]
    if len(volleys) != (2 if exchange else 1):
        raise CaseError("shooting.volleys", "one volley, or two with exchange: true")
    if exchange and (volleys[1]["target"] is not volleys[0]["shooter"]
                     or volleys[1]["shooter"] is volleys[0]["shooter"]):
        raise CaseError("shooting.volleys[1]", "an exchange replies at the unit that shot (T20.5)")
    plans = [plan_volley(c, v) for v in volleys]
    if c.refused:
        return {"refused": c.refused}
    return finish(c, resolve_shooting(c, volleys, plans, exchange))


def resolve_shooting(c: Combat, volleys: list[dict], plans: list, exchange: bool) -> dict:
    fired = [fire(c, v, able) for v, able in zip(volleys, plans)]
    shots = [(v["target"], struck.hits - info["shieldless"], info["shieldless"], info["handgun"])
             for v, (_, struck, info) in zip(volleys, fired)]
    entries, loser = apply_shots(c, shots, exchange, with_disorder=True)
    for v in volleys:
        t = v["target"]
        entries[t.id]["general"] = death_test(c, t)
        entries[t.id]["after"] = un.after(c.rules, t)
    return {"volleys": [e for e, _, _ in fired], "units": entries, "loser": loser}


def apply_shots(c: Combat, shots: list[tuple[un.Unit, int, int, bool]], exchange: bool,
                with_disorder: bool) -> tuple[dict, str | None]:
    """Casualties and refilling of each target; disorder tests (T20.9, T26.6); the exchange's test (T20.5)."""
    rules = c.rules
    entries, losses = {}, []
    for t, ordinary, shieldless, handgun in shots:
        was_loose = t.formation == "loose"
        taken = un.take_hits(rules, t, c.profiles, ordinary, 0, o.ATTACK_SHOOTING, shieldless=shieldless)
        entries[t.id] = {**taken, "test": None, "disorder": {"dice": [], "newly_disordered": 0},
                         "falls_back": was_loose and taken["killed"] > 0, "general": None}
        losses.append((t, taken, handgun))
    for t, _, _ in losses:
        un.relayout(rules, t)
    for t, taken, handgun in losses:
        if t.destroyed or not with_disorder:
            continue
        if handgun or entries[t.id]["falls_back"]:                   # a handgun volley fired (not wet)
            entries[t.id]["disorder"] = disorder_test(c, t)
            if entries[t.id]["falls_back"] and all(x.disordered for x in t.alive()):
                t.fleeing = True                                                  # T26.2
    loser = None
    if exchange:
        (t1, k1, _), (t2, k2, _) = losses
        if k1["hits_taken"] != k2["hits_taken"]:
            unit, taken = (t1, k1) if k1["hits_taken"] > k2["hits_taken"] else (t2, k2)
            loser = unit.side
            entries[unit.id]["test"] = test_unit(c, unit, taken["killed"], o.FRONT)
    return entries, loser
