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
from .combat import (Combat, apply_clash, apply_melee, clash_strikers, melee_directions, melee_units,
                     melee_strikers, parse_combat, plan_clash, ride_ranks)
from .errors import CaseError
from .shooting import apply_shots, parse_volley, plan_volley, shot_value

MAX_OUTCOMES = 200_000
SIDES = 6


class _Certain:
    """Dice for resolving one enumerated outcome: tests are weighed afterwards, so any die will do."""
    k = 0

    def take(self, owner: str = "", name: str = "") -> int:
        return 1

    def check_used(self) -> None:
        return None


def p_of(value: int) -> Fraction:
    return Fraction(min(max(value, 0), SIDES), SIDES)


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


def unit_dist(unit: un.Unit, strikers: list, ride: int = 0, shieldless: bool = False) -> dict:
    """Distribution over (hits, armour-ignoring hits, rode through, misses per group) of one unit's strikes."""
    single = len({x.profile for x in unit.alive()}) == 1
    dist: dict = {(0, 0, False, ()): Fraction(1)}
    for group in _groups(strikers):
        p, n, figs = p_of(group[0].value), len(group), group[0].fig is not None
        gdist: dict = {}
        if ride:
            per = {h: p ** h * (1 - p) for h in range(ride)}
            per[ride] = p ** ride
            gdist = {(0, False, 0): Fraction(1)}
            for _ in range(n):
                nxt: dict = {}
                for (h, b, m), q in gdist.items():
                    for rh, rq in per.items():
                        if rq:
                            _add(nxt, (h + rh, b or rh == ride, m + (rh < ride)), q * rq)
                gdist = nxt
        else:
            for k in range(n + 1):
                q = comb(n, k) * p ** k * (1 - p) ** (n - k)
                if q:
                    _add(gdist, (k, False, n - k), q)
        nxt = {}
        for (h, i, b, sig), q in dist.items():
            for (gh, gb, gm), gq in gdist.items():
                key = (h + gh, i + (gh if group[0].ignores_armour else 0), b or gb,
                       sig + ((gm,) if figs and not single else ()))
                _add(nxt, key, q * gq)
        dist = nxt
    return dist


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

    def count(self, p: Fraction, loser: str | None, killed: dict, tests: dict, twins: dict, directions: dict,
              broken: bool = False) -> None:
        self.outcomes += 1
        if self.outcomes > MAX_OUTCOMES:
            raise CaseError("case", f"odds: more than {MAX_OUTCOMES} outcomes to enumerate")
        self.loser[loser if loser is not None else "none"] += p
        if broken:
            self.broken += p
        for uid, k in killed.items():
            u = self.units[uid]
            _add(u["killed"], k, p)
            twin = twins[uid]
            test = tests.get(uid)
            if twin.destroyed and (test is None or test.get("value") is None):
                u["destroyed"] += p                               # no figures left (T22.4)
            elif test is not None:
                fail = p * (1 - p_of(test["value"]))
                u["destroyed" if directions.get(uid, o.FRONT) == o.REAR else "flees"] += fail

    def result(self) -> dict:
        units = {}
        for uid, u in self.units.items():
            dist = dict(sorted(u["killed"].items()))
            expected = sum((k * p for k, p in dist.items()), Fraction(0))
            units[uid] = {"flees": _fr(u["flees"]), "destroyed": _fr(u["destroyed"]),
                          "killed": {"expected": round(float(expected), 4),
                                     "distribution": {str(k): str(p) for k, p in dist.items()}}}
        return {"loser": {k: _fr(v) for k, v in self.loser.items()}, "units": units, "broken": _fr(self.broken)}


def _fr(p: Fraction) -> dict:
    return {"fraction": str(p), "value": round(float(p), 4)}


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
    a_str = clash_strikers(c, att)
    d_str = clash_strikers(c, dfd, plan["only"]) if plan["defender_strikes"] else []
    a_dist = unit_dist(att, a_str, ride_ranks(att, dfd))
    d_dist = unit_dist(dfd, d_str, ride_ranks(dfd, att))
    a_sig, d_sig = _sig_groups(att, a_str), _sig_groups(dfd, d_str)
    tally = Tally(c.sides, [att, dfd])
    for (ah, _, ab, asig), ap in a_dist.items():
        for (dh, _, _, dsig), dp in d_dist.items():
            ta, td = _copy(att, asig, a_sig), _copy(dfd, dsig, d_sig)
            c.units = {ta.id: ta, td.id: td}
            broken = ab and not dfd.mounted
            a_taken, d_taken, loser, tests = apply_clash(c, ta, td, direction, ah, dh, broken)
            tally.count(ap * dp, loser, {ta.id: a_taken["killed"], td.id: d_taken["killed"]}, tests,
                        {ta.id: ta, td.id: td}, {td.id: direction}, broken)
    return tally.result()


def _side_dists(order: list[un.Unit], dists: dict) -> dict:
    """Convolve the units of each side: (ordinary hits, armour-ignoring hits, each unit's misses)."""
    sides: dict = {}
    for u in order:
        side = sides.setdefault(u.side, {(0, 0, ()): Fraction(1)})
        nxt: dict = {}
        for (h, i, sigs), p in side.items():
            for (uh, ui, _, usig), q in dists[u.id].items():
                _add(nxt, (h + uh - ui, i + ui, sigs + (usig,)), p * q)
        sides[u.side] = nxt
    return sides


def _melee(c: Combat, case: dict) -> dict:
    m = f.obj(f.need(case, "melee", ""), "melee")
    order = melee_units(c, m)
    directions = melee_directions(c, m)
    if c.refused:
        return {"refused": c.refused}
    strikers = {u.id: melee_strikers(c, u) for u in order}
    dists = {u.id: unit_dist(u, strikers[u.id]) for u in order}
    sig_groups = {u.id: _sig_groups(u, strikers[u.id]) for u in order}
    sides = _side_dists(order, dists)
    names = list(sides)
    tally = Tally(c.sides, order)
    originals = {u.id: u for u in order}
    for (h0, i0, sig0), p0 in sides[names[0]].items():
        for (h1, i1, sig1), p1 in sides[names[1]].items():
            sigs = {names[0]: list(sig0), names[1]: list(sig1)}
            twins = []
            for u in order:
                twins.append(_copy(u, sigs[u.side].pop(0), sig_groups[u.id]))
            c.units = {t.id: t for t in twins}
            taken, _, loser, tests = apply_melee(c, twins, directions, {names[0]: [h0, i0], names[1]: [h1, i1]})
            tally.count(p0 * p1, loser, {uid: t["killed"] for uid, t in taken.items()}, tests, c.units, directions)
    c.units = originals
    return tally.result()


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
            for (h1, *_), q1 in unit_dist(s, counting).items():
                for (h2, *_), q2 in unit_dist(s, plain).items():
                    _add(dist, (h1, h2, handgun), pw * q1 * q2)
        per_volley.append(dist)
    involved = list({v["target"].id: v["target"] for v in volleys}.values())
    tally = Tally(c.sides, involved)
    combos = [[]]
    for dist in per_volley:
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
