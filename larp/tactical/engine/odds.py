"""The `odds` mode (T38 "odds"): exact probabilities of a clash, melee or shooting case over every die.

Each striker's hit is a Bernoulli trial with value/6 (T3.2-T3.3; riders: the
success run of T19.2). Per unit, the exact distribution of its hits (ordinary
and armour-ignoring), whether a rider rode through, and — in a unit of mixed
profiles, where it changes who is hit — how many of each group missed, is
built by convolution; the two sides' distributions are combined, and every
combined outcome is resolved by the very functions the dice modes use
(casualties, saves, refilling, loser, tests), each unit test weighed by
value/6. Rain is a die like the others; general deaths and per-warrior
disorder tests are left out, as the contract says. Fractions are reduced.
"""
from __future__ import annotations

import copy
from fractions import Fraction
from math import comb
from typing import Any, Mapping

from . import fields as f
from . import outcomes as o
from . import units as un
from .combat import (Combat, clash_strikers, melee_directions, melee_strikers, melee_units, parse_combat,
                     plan_clash, ride_ranks, share)
from .checks import unit_test
from .errors import CaseError
from .shooting import apply_shots, parse_volley, plan_volley, shot_value

MAX_WORK = 1_500_000      # combined outcomes and memoised steps: about a second here; beyond, refuse clearly
SIDES = 6


class _Certain:
    """Dice for resolving one enumerated outcome: tests are weighed afterwards, so any die will do."""
    k = 0

    def take(self, owner: str = "", name: str = "") -> int:
        return 1

    def check_used(self) -> None:
        return None


def _add(dist: dict, key, p: Fraction) -> None:
    dist[key] = dist.get(key, 0) + p


def _groups(strikers: list) -> list[list]:
    groups: list[list] = []
    for s in strikers:
        last = groups[-1][0] if groups else None
        if last and (last.rank, last.profile, last.value, last.ignores_armour, last.fig is None) == \
                (s.rank, s.profile, s.value, s.ignores_armour, s.fig is None):
            groups[-1].append(s)
        else:
            groups.append([s])
    return groups


def unit_dist(c: Combat, unit: un.Unit, strikers: list, ride: int = 0, step=None,
              misses_matter: bool = True) -> tuple[dict, int]:
    """Distribution over (hits, armour-ignoring hits, rode through, misses per group) of one unit's strikes,
    as whole-number weights over a denominator (a power of 6: every weight is a count of dice outcomes).

    Misses are tracked only when they can change the result: when the unit's figures differ in protection or
    steadiness (T22.1: the disordered are hit last, so who missed decides who dies and who stands in front).
    """
    kinds = {(p.armour, p.shield, p.horse_armour, p.steadiness)
             for p in (c.profiles[x.profile] for x in unit.alive())}
    track = misses_matter and len(kinds) > 1          # a missed shot disorders nobody (T20.7)
    dist: dict = {(0, 0, False, ()): 1}
    den = 1
    for group in _groups(strikers):
        v, n, figs = min(max(group[0].value, 0), SIDES), len(group), group[0].fig is not None
        gdist: dict = {}
        if ride:                                   # a rider: h successes then a miss, or all R (T19.2)
            per = {h: v ** h * (SIDES - v) * SIDES ** (ride - h - 1) for h in range(ride)}
            per[ride] = v ** ride
            gdist = {(0, False, 0): 1}
            for _ in range(n):
                nxt: dict = {}
                for (h, b, m), q in gdist.items():
                    for rh, rq in per.items():
                        if rq:
                            _add(nxt, (h + rh, b or rh == ride, m + (rh < ride)), q * rq)
                gdist = nxt
            den *= SIDES ** (ride * n)
        else:
            for k in range(n + 1):
                q = comb(n, k) * v ** k * (SIDES - v) ** (n - k)
                if q:
                    _add(gdist, (k, False, n - k), q)
            den *= SIDES ** n
        if step is not None:
            step(len(dist) * len(gdist))
        nxt = {}
        for (h, i, b, sig), q in dist.items():
            for (gh, gb, gm), gq in gdist.items():
                key = (h + gh, i + (gh if group[0].ignores_armour else 0), b or gb,
                       sig + ((gm,) if figs and track else ()))
                _add(nxt, key, q * gq)
        dist = nxt
    return dist, den


def _sig_groups(unit: un.Unit, strikers: list) -> list[list[int]]:
    index = {id(x): i for i, x in enumerate(unit.figs)}
    return [[index[id(s.fig)] for s in g] for g in _groups(strikers) if g[0].fig is not None]


def _copy(unit: un.Unit, sig: tuple, sig_groups: list[list[int]]) -> un.Unit:
    twin = copy.copy(unit)
    twin.figs = [un.Fig(x.rank, x.profile, x.disordered) for x in unit.figs]
    for misses, idx in zip(sig, sig_groups):
        for i in idx[len(idx) - misses:]:        # which of a group's identical strikers missed does not matter
            twin.figs[i].disordered = True
    return twin


class Tally:
    def __init__(self, sides: list[str], units: list[un.Unit]):
        self.loser = {s: Fraction(0) for s in sides}
        self.loser["none"] = Fraction(0)
        self.units = {u.id: {"flees": Fraction(0), "destroyed": Fraction(0), "killed": {}} for u in units}
        self.broken = Fraction(0)
        self.outcomes = 0

    def step(self, n: int = 1) -> None:
        self.outcomes += n
        if self.outcomes > MAX_WORK:
            raise CaseError("case", f"odds: more than {MAX_WORK} outcomes to enumerate; "
                                    "split the fight or resolve it with dice")

    def unit(self, uid: str, p: Fraction, killed: int, flee: Fraction, destroyed: Fraction) -> None:
        u = self.units[uid]
        _add(u["killed"], killed, p)
        u["flees"] += p * flee
        u["destroyed"] += p * destroyed

    def count(self, p: Fraction, loser: str | None, killed: dict, tests: dict, twins: dict, directions: dict,
              broken: bool = False) -> None:
        """One fully resolved outcome (shooting): the loser, and each unit's killed and weighed test."""
        self.step()
        self.loser[loser if loser is not None else "none"] += p
        if broken:
            self.broken += p
        for uid, k in killed.items():
            flee, destroyed = _fates(twins[uid], tests.get(uid), directions.get(uid, o.FRONT))
            self.unit(uid, p, k, Fraction(flee, SIDES), Fraction(destroyed, SIDES))

    def result(self) -> dict:
        units = {}
        for uid, u in self.units.items():
            dist = dict(sorted(u["killed"].items()))
            expected = sum((k * p for k, p in dist.items()), Fraction(0))
            units[uid] = {"flees": _fr(u["flees"]), "destroyed": _fr(u["destroyed"]),
                          "killed": {"expected": round(float(expected), 4),
                                     "distribution": {str(k): str(p) for k, p in dist.items()}}}
        return {"loser": {k: _fr(v) for k, v in self.loser.items()}, "units": units, "broken": _fr(self.broken)}


def _fates(twin: un.Unit, test: dict | None, direction: str) -> tuple[int, int]:
    """(flees, destroyed) of a resolved unit, in sixths: no figures left is destruction (T22.4); a test fails
    on 6 - value faces, and failing after an attack in the rear destroys (T23.4)."""
    if twin.destroyed and test is None:
        return 0, SIDES
    if test is None:
        return 0, 0
    fail = SIDES - min(max(test["value"], 0), SIDES)
    return (0, fail) if direction == o.REAR else (fail, 0)


def _fr(p: Fraction) -> dict:
    return {"fraction": str(p), "value": round(float(p), 4)}


def _side_totals(units: list[un.Unit], dists: dict, tally: "Tally") -> tuple[dict, dict]:
    """A side's distribution of totals (ordinary, armour-ignoring hits, rode through) and, per unit, the joint
    distribution of those totals with the unit's own misses (all the rest is summed out); integer weights."""
    def convolve(parts: list[dict]) -> dict:
        out: dict = {(0, 0, False): 1}
        for dist in parts:
            nxt: dict = {}
            tally.step(len(out) * len(dist))
            for (h, i, b), p in out.items():
                for (uh, ui, ub, _), q in dist.items():
                    _add(nxt, (h + uh - ui, i + ui, b or ub), p * q)
            out = nxt
        return out
    totals = convolve([dists[u.id] for u in units])
    joint = {}
    for u in units:
        others = convolve([dists[v.id] for v in units if v is not u])
        j: dict = {}
        tally.step(len(others) * len(dists[u.id]))
        for (h, i, b), p in others.items():
            for (uh, ui, ub, sig), q in dists[u.id].items():
                _add(j.setdefault((h + uh - ui, i + ui, b or ub), {}), sig, p * q)
        joint[u.id] = j
    return totals, joint


def _combine(c: Combat, order: list[un.Unit], strikers: dict, rides: dict, attack_of, directions: dict,
             defender: un.Unit | None = None) -> dict:
    """Exact odds of one round, factored: the loser depends on the sides' totals only; each unit's casualties
    and test on its own misses, the hits dealt to it and whether it tests (memoised)."""
    tally = Tally(c.sides, order)
    made = {u.id: unit_dist(c, u, strikers[u.id], rides.get(u.id, 0), tally.step) for u in order}
    dists = {uid: dist for uid, (dist, _) in made.items()}
    sig_groups = {u.id: _sig_groups(u, strikers[u.id]) for u in order}
    names = [s for s in c.sides if any(u.side == s for u in order)]
    by_side = {s: [u for u in order if u.side == s] for s in names}
    totals, joint, den = {}, {}, SIDES               # every weight below is over `den`: dice outcomes
    for s in names:
        totals[s], j = _side_totals(by_side[s], dists, tally)
        joint.update(j)
        for u in by_side[s]:
            den *= made[u.id][1]
    loser_acc = {s: 0 for s in [*c.sides, "none"]}
    units_acc = {u.id: {"killed": {}, "flees": 0, "destroyed": 0} for u in order}
    broken_acc = 0
    dealt_memo: dict = {}

    def dealt(side: str, total: tuple) -> dict:
        key = (side, total[0], total[1])
        if key not in dealt_memo:
            enemies = [u for u in order if u.side != side]
            dealt_memo[key] = share(enemies, total[0], total[1])
        return dealt_memo[key]

    base_memo: dict = {}

    def fate(u: un.Unit, sig: tuple, hits: list[int], tested: bool, broken: bool) -> tuple:
        """(killed, P(flees), P(destroyed)) of one unit with these misses, hits dealt to it and test or not."""
        key = (u.id, sig, hits[0], hits[1])
        if key not in base_memo:
            tally.step(100)                              # resolving a unit weighs about a hundred steps
            twin = _copy(u, sig, sig_groups[u.id])
            taken = un.take_hits(c.rules, twin, c.profiles, hits[0], hits[1], attack_of(u))
            un.relayout(c.rules, twin)
            base_memo[key] = (taken["killed"], twin)
        killed, twin = base_memo[key]
        direction = directions.get(u.id, o.FRONT)
        if not tested or twin.destroyed:
            return (killed, *_fates(twin, None, direction))
        full = key + (broken,)
        if full not in base_memo:
            base_memo[full] = test_fate(u, twin, killed, direction, broken)
        return base_memo[full]

    def test_fate(u: un.Unit, twin: un.Unit, killed: int, direction: str, broken: bool) -> tuple:
        test = unit_test(c.rules, lambda: 1, steadiness=un.first_rank_steadiness(twin, c.profiles),
                         circle=u.start_special == o.CIRCLE, full_ranks=u.start_full_ranks, attacked_from=direction,
                         killed=killed, general=u.talent("steadiness"), broken=broken,
                         modifiers=c.modifiers.get((u.id, "test"), []))      # the same items as combat.test_unit
        return (killed, *_fates(twin, test, direction))

    summed_memo: dict = {}

    def summed(u: un.Unit, total: tuple, hits: tuple, tested: bool, broken: bool) -> tuple:
        """The unit's fate summed over its own misses, given its side's totals (weights P(totals, misses))."""
        key = (u.id, total, hits, tested, broken)
        if key not in summed_memo:
            killed: dict = {}
            flee = destroyed = 0
            tally.step(len(joint[u.id][total]))
            for sig, q in joint[u.id][total].items():
                k, pf, pd = fate(u, sig, list(hits), tested, broken)
                _add(killed, k, q * SIDES)
                flee += q * pf
                destroyed += q * pd
            summed_memo[key] = (killed, flee, destroyed)
        return summed_memo[key]

    s0, s1 = names
    for t0, p0 in totals[s0].items():
        for t1, p1 in totals[s1].items():
            tally.step(len(order))
            p = p0 * p1 * SIDES
            d = {**dealt(s0, t0), **dealt(s1, t1)}
            taken = {s: sum(sum(d[u.id]) for u in by_side[s]) for s in names}
            loser = None if taken[s0] == taken[s1] else max(names, key=lambda s: taken[s])
            loser_acc[loser if loser is not None else "none"] += p
            broken = defender is not None and not defender.mounted and (t0 if defender.side == s1 else t1)[2]
            if broken:
                broken_acc += p
            own = {s0: (t0, p1), s1: (t1, p0)}
            for u in order:
                total, other_p = own[u.side]
                tested = u.side == loser or (broken and u is defender)
                killed, flee, destroyed = summed(u, total, tuple(d[u.id]), tested, broken and u is defender)
                acc = units_acc[u.id]
                for k, q in killed.items():
                    _add(acc["killed"], k, q * other_p)
                acc["flees"] += flee * other_p
                acc["destroyed"] += destroyed * other_p
    for side, n in loser_acc.items():
        tally.loser[side] = Fraction(n, den)
    tally.broken = Fraction(broken_acc, den)
    for uid, acc in units_acc.items():
        tally.units[uid] = {"flees": Fraction(acc["flees"], den), "destroyed": Fraction(acc["destroyed"], den),
                            "killed": {k: Fraction(n, den) for k, n in acc["killed"].items()}}
    c.units = {u.id: u for u in order}
    return tally.result()


def _clash(c: Combat, case: dict) -> dict:
    cl = f.obj(f.need(case, "clash", ""), "clash")
    ids = []
    for key in ("attacker", "defender"):
        uid = f.ident(f.need(cl, key, "clash"), f"clash.{key}")
        if uid not in c.units:
            raise CaseError(f"clash.{key}", f"unknown unit {uid!r}")
        ids.append(uid)
    att, dfd = c.units[ids[0]], c.units[ids[1]]
    if att.side == dfd.side:
        raise CaseError("clash.defender", "attacker and defender are of the same side")
    direction = f.choice(cl.get("attacked_from", o.FRONT), "clash.attacked_from", o.DIRECTIONS)
    plan = plan_clash(c, att, dfd, direction, f.boolean(cl.get("counter", False), "clash.counter"))
    if c.refused:
        return {"refused": c.refused}
    strikers = {att.id: clash_strikers(c, att),
                dfd.id: clash_strikers(c, dfd, plan["only"]) if plan["defender_strikes"] else []}
    rides = {att.id: ride_ranks(att, dfd), dfd.id: ride_ranks(dfd, att)}
    enemy = {att.id: dfd, dfd.id: att}

    def attack_of(u: un.Unit) -> str:                  # T7.4: the striker's kind decides the protection
        return o.ATTACK_CLASH_CAVALRY if enemy[u.id].mounted else o.ATTACK_CLASH_INFANTRY
    return _combine(c, [att, dfd], strikers, rides, attack_of, {dfd.id: direction}, defender=dfd)


def _melee(c: Combat, case: dict) -> dict:
    m = f.obj(f.need(case, "melee", ""), "melee")
    order = melee_units(c, m)
    directions = melee_directions(c, m)
    if c.refused:
        return {"refused": c.refused}
    strikers = {u.id: melee_strikers(c, u) for u in order}
    return _combine(c, order, strikers, {}, lambda u: o.ATTACK_MELEE, directions)


def _shooting(c: Combat, case: dict) -> dict:
    sh = f.obj(f.need(case, "shooting", ""), "shooting")
    exchange = f.boolean(sh.get("exchange", False), "shooting.exchange")
    volleys = [parse_volley(c, v, i) for i, v in enumerate(f.lst(f.need(sh, "volleys", "shooting"), "shooting.volleys", 2))]
    if len(volleys) != (2 if exchange else 1):
        raise CaseError("shooting.volleys", "one volley, or two with exchange: true")
    plans = [plan_volley(c, v) for v in volleys]
    if c.refused:
        return {"refused": c.refused}
    rules = c.rules
    per_volley = []
    guard = Tally(c.sides, [])                     # counts the work before the outcomes are known
    for v, able in zip(volleys, plans):
        s = v["shooter"]
        for st, w in able:
            p = s.general.profile if st.fig is None else c.profiles[st.profile]
            st.value = shot_value(c, s, p, w, v["cover"], p.specialty or 0)
        wet_p = Fraction(0)
        if c.conditions["rain"] and any(rules["weapons"][w].get("rain_affects") for _, w in able):
            odd = rules["shooting"]["rain_wet_on"] == "odd"
            wet_p = Fraction(sum(1 for d in range(1, SIDES + 1) if (d % 2 == 1) == odd), SIDES)
        dist: dict = {}
        for wet, pw in ((False, 1 - wet_p), (True, wet_p)):
            if not pw:
                continue
            shots = [(st, w) for st, w in able if not (wet and rules["weapons"][w].get("rain_affects"))]
            counting = [st for st, w in shots if not rules["weapons"][w].get("ignores_shields")]
            plain = [st for st, w in shots if rules["weapons"][w].get("ignores_shields")]
            handgun = any(w == "handgun" for _, w in shots)
            d1, den1 = unit_dist(c, s, counting, step=guard.step, misses_matter=False)
            d2, den2 = unit_dist(c, s, plain, step=guard.step, misses_matter=False)
            guard.step(len(d1) * len(d2))
            for (h1, *_), q1 in d1.items():
                for (h2, *_), q2 in d2.items():
                    _add(dist, (h1, h2, handgun), pw * Fraction(q1 * q2, den1 * den2))
        per_volley.append(dist)
    involved = list({v["target"].id: v["target"] for v in volleys}.values())
    tally = Tally(c.sides, involved)
    tally.outcomes = guard.outcomes
    combos = [[]]
    for dist in per_volley:
        tally.step(len(combos) * len(dist) * 20)          # each combination is resolved in full below
        combos = [prev + [(k, p)] for prev in combos for k, p in dist.items()]
    for combo in combos:
        p = Fraction(1)
        twins = {t.id: _copy(t, (), []) for t in involved}
        c.units = dict(twins)
        shots = []
        for v, ((h1, h2, handgun), q) in zip(volleys, combo):
            p *= q
            shots.append((twins[v["target"].id], h1, h2, handgun))
        entries, loser = apply_shots(c, shots, exchange, with_disorder=False)
        tests = {uid: e["test"] for uid, e in entries.items() if e["test"] is not None}
        tally.count(p, loser if exchange else None, {uid: e["killed"] for uid, e in entries.items()}, tests, twins, {})
    return tally.result()


def run_odds(rules: Mapping, case: Any) -> dict:
    case = f.obj(case, "case")
    of = f.choice(f.need(case, "of", ""), "of", ("clash", "melee", "shooting"))
    c = parse_combat(rules, case, with_dice=False)
    c.dice = _Certain()
    return {"clash": _clash, "melee": _melee, "shooting": _shooting}[of](c, case)
