"""A battle decided elsewhere (choices.outcomes, docs/adjudication.md): entering an autobattle's own result
as an outside outcome gives the same turn.

The turn is run once with the server's dice; its dice are then written out as entered dice, and any subset
of its battles is replaced by `{"battle", "province", "winner", "losses"}` taken from the autobattle's own
result, with those battles' dice dropped (an outside battle rolls none). Everything the turn decides must
come out the same: the final state, retreats, recolouring, destroyed stacks, unattached commanders, and
every fight's outcome, loser, losses, remaining cards and fates.
"""
import copy
import json
import pathlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from larp.engine import run_turn

from .test_properties import scenario_turns

CASES = pathlib.Path(__file__).resolve().parent / "cases"
WINNER = {"attacker_won": "attacker", "defender_won": "defender", "tie": "tie"}
SAME = ("state", "retreats", "recoloured", "destroyed", "unattached_commanders", "battles", "moves")


def _decided(entry: dict) -> dict:
    return {"battle": entry["n"], "province": entry["province"], "winner": WINNER[entry["outcome"]],
            "losses": {"attacker": entry["attacker"]["losses"], "defender": entry["defender"]["losses"]}}


def _fight_view(entry: dict) -> dict:
    """What a fight decides, without the dice, totals, items and the odds' reckoning."""
    out = {k: entry[k] for k in ("n", "province", "storm", "storm_no", "outcome", "loser", "winner")}
    for role in ("attacker", "defender"):
        side = entry[role]
        out[role] = {k: side[k] for k in ("faction", "units", "garrison", "losses", "remaining", "destroyed",
                                          "before", "fates")}
    return out


def _replace(case: dict, result: dict, chosen: set[int]) -> dict:
    """The same case with the battles numbered in `chosen` decided elsewhere, by their own results."""
    again = copy.deepcopy(case)
    fought = result["fought"]
    again["dice"] = [{"attacker": f["attacker"]["dice"], "defender": f["defender"]["dice"]}
                     for f in fought if f["n"] not in chosen]
    again["seed"] = None
    choices = dict(again.get("choices") or {})
    choices["outcomes"] = [_decided(f) for f in fought if f["n"] in chosen]
    again["choices"] = choices
    return again


def _assert_same(first: dict, second: dict, chosen: set[int]) -> None:
    for key in SAME:
        assert first.get(key) == second.get(key), key
    assert len(first["fought"]) == len(second["fought"])
    for a, b in zip(first["fought"], second["fought"]):
        assert _fight_view(a) == _fight_view(b)
        assert b.get("outside", False) == (b["n"] in chosen)
        if b["n"] in chosen:
            assert b["attacker"]["total"] is None and b["attacker"]["dice"] == [] and b["difference"] is None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=scenario_turns(), data=st.data())
def test_autobattles_entered_as_outside_outcomes_give_the_same_turn(case, data):
    first = run_turn(json.loads(json.dumps(case)))
    numbers = [f["n"] for f in first["fought"]]
    chosen = set(data.draw(st.lists(st.sampled_from(numbers), unique=True) if numbers else st.just([])))
    second = run_turn(_replace(case, first, chosen))
    _assert_same(first, second, chosen)


def _turn_case_files():
    for path in sorted(CASES.glob("*.case.json")):
        expect = json.loads(path.with_name(path.name[: -len(".case.json")] + ".expect.json").read_text())
        if expect.get("mode") == "turn" and "exit" not in expect:
            yield path


def test_every_battle_of_every_turn_case_file_entered_as_an_outside_outcome():
    """Each battle of each turn case file in turn, then all of them at once."""
    tried = 0
    for path in _turn_case_files():
        case = json.loads(path.read_text(encoding="utf-8"))
        first = run_turn(copy.deepcopy(case))
        if "awaiting" in first or (case.get("choices") or {}).get("outcomes"):
            continue
        numbers = [f["n"] for f in first["fought"]]
        for chosen in [{n} for n in numbers] + ([set(numbers)] if len(numbers) > 1 else []):
            _assert_same(first, run_turn(_replace(case, first, chosen)), chosen)
            tried += 1
    assert tried >= 30   # the case files hold many battles; a glob that finds none must fail
