"""Exact odds (W41.7): dynamic programming over hit counts, never over 6^n dice faces, never sampling.

A group of n dice needing t+ with r re-roll rounds succeeds per die with
p = 1 − ((t−1)/6)^(r+1); its hits are binomial. A melee's result depends on
the defender's total damage (a convolution of the attackers' hits) and, per
attacker, on the hits it takes (its score term and whether it stands); the
two are independent, so each is a small distribution. For each combination a
representative set of hits is resolved by the very function the live mode
uses (melee.resolve_attack), so the odds and the engine cannot disagree.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import comb

from .data import Data
from .melee import Group, Plan, resolve_attack, resolve_meeting
from .outcomes import (ATTACK_RESULTS, EFFECT_NONE, EFFECT_RETREATS, EFFECT_STOPPED, HIGH, LOW, ROUTED)
from .volley import Shot, resolve


def frac(p: Fraction) -> dict:
    text = str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"
    return {"fraction": text, "value": round(float(p), 4)}


def die_success(needs: int, rerolls: int) -> Fraction:
    fail = Fraction(min(max(needs - 1, 0), 6), 6)
    return 1 - fail ** (rerolls + 1)


def binomial(n: int, p: Fraction) -> list[Fraction]:
    """P(hits = k) for k = 0..n."""
    return [comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]


def group_hits(g: Group) -> list[Fraction]:
    if g.fixed_damage is not None or g.dice == 0:
        return [Fraction(1)]
    return binomial(g.dice, die_success(g.needs, g.rerolls))


def two_d6_at_least(target: int) -> Fraction:
    return Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= target), 36)


def command_odds(data: Data, rerolls_left: int) -> dict:
    """Both stakes, re-rolling every failure while re-rolls last."""
    out = {}
    for stake_id in (LOW, HIGH):
        stake = data.stakes[stake_id]
        p = 1 - (1 - two_d6_at_least(stake.success_at)) ** (rerolls_left + 1)
        special = p * stake.success[0] + (1 - p) * stake.failure[0]
        ordinary = p * stake.success[1] + (1 - p) * stake.failure[1]
        out[stake_id] = {"success": frac(p), "expected": {"special": frac(special), "ordinary": frac(ordinary)}}
    return out


def attack_odds(data: Data, plan: Plan) -> dict:
    """Probabilities of repelled / pushed_back / routed / destroyed / routed_again, and expected losses."""
    index = {id(g): i for i, g in enumerate(plan.groups)}
    # the defender's total damage: a convolution of the attackers' hits; one representative hit vector each
    dmg: dict[int, tuple[Fraction, dict[int, int]]] = {0: (Fraction(1), {})}
    for g in (g for g in plan.groups if g.against == plan.defender):
        nxt: dict[int, tuple[Fraction, dict[int, int]]] = {}
        for total, (p, rep) in dmg.items():
            for h, q in enumerate(group_hits(g)):
                key = total + (g.fixed_damage if g.fixed_damage is not None else h + g.guaranteed)
                old = nxt.get(key)
                nxt[key] = ((old[0] if old else 0) + p * q, old[1] if old else {**rep, index[id(g)]: h})
        dmg = nxt
    base = _hits(plan, next(iter(dmg.values()))[1])
    # per attacker: the damage it takes decides its term of the score and whether it stands;
    # states merge attackers into (sum of score terms, the sides still standing)
    states: dict[tuple, tuple[Fraction, dict[int, int]]] = {(0, ()): (Fraction(1), {})}
    expected = {uid: Fraction(0) for uid in plan.units}
    for a in plan.attackers:
        dist: dict[int, tuple[Fraction, dict[int, int]]] = {0: (Fraction(1), {})}
        for g in (g for g in plan.groups if g.roller == plan.defender and g.against == a):
            nd: dict[int, tuple[Fraction, dict[int, int]]] = {}
            for total, (p, rep) in dist.items():
                for h, q in enumerate(group_hits(g)):
                    key = total + (h + g.guaranteed if (g.dice or g.guaranteed) else 0)
                    old = nd.get(key)
                    nd[key] = ((old[0] if old else 0) + p * q, old[1] if old else {**rep, index[id(g)]: h})
            dist = nd
        nxt: dict[tuple, tuple[Fraction, dict[int, int]]] = {}
        for _taken, (q, rep_a) in dist.items():
            probe = resolve_attack(data, plan, _hits(plan, rep_a, base))["units"][a]
            expected[a] += q * probe["losses"]
            alive = probe["figures_after"] > 0
            term = (probe["impetus"] + (probe["ranks_end"] > 1) if alive else 0) - probe["counted_losses"]
            side = (probe["attacks"],) if alive else ()
            for (total, standing), (p, rep) in states.items():
                key = (total + term, standing + side)
                old = nxt.get(key)
                nxt[key] = ((old[0] if old else 0) + p * q, old[1] if old else {**rep, **rep_a})
        states = nxt
    results = {r: Fraction(0) for r in ATTACK_RESULTS}
    for p, rep_d in dmg.values():
        for q, rep_a in states.values():
            results[resolve_attack(data, plan, _hits(plan, {**rep_d, **rep_a}))["result"]] += p * q
        expected[plan.defender] += p * resolve_attack(data, plan, _hits(plan, rep_d))["units"][plan.defender]["losses"]
    out = {r: frac(p) for r, p in results.items() if p}
    out["expected_losses"] = {uid: round(float(v), 4) for uid, v in expected.items()}
    return out


def _hits(plan: Plan, rep: dict[int, int], base: list[int] | None = None) -> list[int]:
    return [rep.get(i, base[i] if base else 0) for i in range(len(plan.groups))]


def meeting_odds(data: Data, plan: Plan) -> dict:
    a, b = plan.units
    winner = {a: Fraction(0), b: Fraction(0), "none": Fraction(0)}
    routed = {a: Fraction(0), b: Fraction(0)}
    expected = {a: Fraction(0), b: Fraction(0)}
    dists = [list(enumerate(group_hits(g))) for g in plan.groups]
    for combo in product(*dists):
        p = Fraction(1)
        for _h, q in combo:
            p *= q
        res = resolve_meeting(data, plan, [h for h, _q in combo])
        winner[res["winner"] or "none"] += p
        if res["loser_result"] == ROUTED:
            routed[b if res["winner"] == a else a] += p
        for uid in (a, b):
            expected[uid] += p * res["units"][uid]["losses"]
    return {"winner": {k: frac(v) for k, v in winner.items() if v},
            "routed": {k: frac(v) for k, v in routed.items() if v},
            "expected_losses": {k: round(float(v), 4) for k, v in expected.items()}}


def volley_odds(data: Data, target, shots: list[Shot]) -> dict:
    """Distribution of the target's losses (each volley reduced by armour separately) and of W32's effect."""
    dist: dict[int, tuple[Fraction, list[int]]] = {0: (Fraction(1), [])}
    for shot in shots:
        hits = binomial(shot.figures_shooting, die_success(shot.needs, shot.rerolls)) if shot.figures_shooting \
            else [Fraction(1)]
        nxt: dict[int, tuple[Fraction, list[int]]] = {}
        for total, (p, rep) in dist.items():
            for h, q in enumerate(hits):
                one = resolve(data, target, [shot], [h])["shots"][0]["losses"]
                key = min(target.figures, total + one)
                old = nxt.get(key)
                nxt[key] = ((old[0] if old else 0) + p * q, old[1] if old else rep + [h])
        dist = nxt
    losses, effect = {}, {EFFECT_NONE: Fraction(0), EFFECT_STOPPED: Fraction(0), EFFECT_RETREATS: Fraction(0)}
    expected = Fraction(0)
    for total in sorted(dist):
        p, rep = dist[total]
        losses[str(total)] = frac(p)
        expected += p * total
        chk = resolve(data, target, shots, rep)["target"]["check"]
        effect[chk["effect"] if chk else EFFECT_NONE] += p
    return {"losses": losses, "effect": {k: frac(v) for k, v in effect.items() if v},
            "expected_losses": round(float(expected), 4)}
