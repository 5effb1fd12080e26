"""Exact odds of one autobattle over every dice outcome (R8, R11).

Only the dice sum matters, so the 36 (one die) or 1,296 (two dice) outcomes
collapse to 6 x 6 or 11 x 11 weighted sums; probabilities are `Fraction`s.
"""
from __future__ import annotations

from fractions import Fraction

from .battle import Engagement, assess, dice_count
from .model import Role, Situation
from .rules import loss_points, strength_band


def sum_distribution(dice: int) -> list[tuple[int, int]]:
    """(sum, number of ways) for `dice` six-sided dice, by ascending sum."""
    ways = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0) + n
        ways = nxt
    return sorted(ways.items())


def _fraction(f: Fraction) -> dict:
    return {"fraction": f"{f.numerator}/{f.denominator}", "value": round(float(f), 4)}


def odds(sit: Situation, eng: Engagement, state: dict[str, dict]) -> dict:
    a = assess(sit, eng, state)
    base_a, base_d = a.base[Role.ATTACKER], a.base[Role.DEFENDER]
    n = dice_count(sit, eng)
    dist = sum_distribution(n)
    outcomes = 6 ** (2 * n)
    wins = ties = losses_a = losses_d = 0
    rules = sit.rules
    for sa, wa in dist:
        at = base_a + sa
        for sd, wd in dist:
            w = wa * wd
            dt = base_d + sd
            band = strength_band(rules, min(at, dt))
            winner_loss, loser_loss = loss_points(rules, abs(at - dt), band)
            if at > dt:
                wins += w
                losses_a += w * winner_loss
                losses_d += w * loser_loss
            elif at < dt:
                losses_a += w * loser_loss
                losses_d += w * winner_loss
            else:
                ties += w
                losses_a += w * winner_loss
                losses_d += w * winner_loss
    p_win = Fraction(wins, outcomes)
    p_tie = Fraction(ties, outcomes)
    p_loss = 1 - p_win - p_tie
    ea, ed = Fraction(losses_a, outcomes), Fraction(losses_d, outcomes)
    return {
        "attacker_wins": _fraction(p_win),
        "tie": _fraction(p_tie),
        "defender_wins": _fraction(p_loss),
        "expected_losses": {"attacker": round(float(ea), 4), "defender": round(float(ed), 4)},
        "expected_losses_fraction": {"attacker": f"{ea.numerator}/{ea.denominator}",
                                     "defender": f"{ed.numerator}/{ed.denominator}"},
        "dice_count": n,
        "outcomes": outcomes,
        "attacker": {"base": base_a, "items": a.items[Role.ATTACKER]},
        "defender": {"base": base_d, "items": a.items[Role.DEFENDER]},
    }
