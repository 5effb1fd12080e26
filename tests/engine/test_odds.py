"""Exact odds over every dice outcome (R8, R11)."""
import itertools
import time
from fractions import Fraction

from larp.engine import battle_odds, parse_case, run_battle
from larp.engine.odds import sum_distribution

from .test_battle import _two_sided, yanina


def _frac(entry) -> Fraction:
    return Fraction(entry["fraction"])


def test_yanina_odds_sum_to_one_and_match_brute_force():
    case = yanina()
    odds = battle_odds(case)
    total = _frac(odds["attacker_wins"]) + _frac(odds["tie"]) + _frac(odds["defender_wins"])
    assert total == 1
    wins = ties = 0
    loss_a = loss_d = 0
    for a, d in itertools.product(range(1, 7), repeat=2):
        case["dice"] = {"attacker": [a], "defender": [d]}
        r = run_battle(case)
        wins += r["outcome"] == "attacker_won"
        ties += r["outcome"] == "tie"
        loss_a += r["attacker"]["losses"]
        loss_d += r["defender"]["losses"]
    assert _frac(odds["attacker_wins"]) == Fraction(wins, 36)
    assert _frac(odds["tie"]) == Fraction(ties, 36)
    assert odds["expected_losses"] == {"attacker": round(loss_a / 36, 4), "defender": round(loss_d / 36, 4)}
    assert Fraction(odds["expected_losses_fraction"]["attacker"]) == Fraction(loss_a, 36)


def test_equal_bases_one_die():
    odds = battle_odds(_two_sided(["medium"], ["medium"], None))
    # attacker 10 + d, defender 11 + d: the attacker wins only when its die beats the defender's by 2+
    assert odds["attacker_wins"] == {"fraction": "5/18", "value": 0.2778}
    assert odds["tie"] == {"fraction": "5/36", "value": 0.1389}
    assert odds["defender_wins"] == {"fraction": "7/12", "value": 0.5833}
    assert odds["dice_count"] == 1 and odds["outcomes"] == 36


def test_two_dice_odds_exact_and_fast():
    case = parse_case(_two_sided(["huge", "large"], ["huge", "medium"], None))
    battle_odds(case)
    runs = []
    for _ in range(20):
        t = time.perf_counter()
        odds = battle_odds(case)
        runs.append(time.perf_counter() - t)
    assert odds["dice_count"] == 2 and odds["outcomes"] == 1296
    assert sum(_frac(odds[k]) for k in ("attacker_wins", "tie", "defender_wins")) == 1
    assert sorted(runs)[len(runs) // 2] < 0.005


def test_sum_distribution():
    assert sum_distribution(1) == [(i, 1) for i in range(1, 7)]
    two = dict(sum_distribution(2))
    assert two[7] == 6 and sum(two.values()) == 36


def test_certain_outcome_prints_whole_fractions():
    odds = battle_odds(_two_sided(["huge", "huge"], ["detachment"], None))
    assert odds["attacker_wins"] == {"fraction": "1/1", "value": 1.0}
    assert odds["tie"] == {"fraction": "0/1", "value": 0.0}
