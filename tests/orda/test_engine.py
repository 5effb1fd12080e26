"""«Орда» engine: data validation, determinism, exact odds against the seeded dice, hostile input (exit 2)."""
import copy
import io
import json
import pathlib
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from larp.orda.engine import cli
from larp.orda.engine.data import DataError, build, load
from larp.orda.engine.dice import seeded_die, seeded_shuffle

CASES = pathlib.Path(__file__).resolve().parents[1] / "rules" / "cases" / "orda"


def case(name: str) -> dict:
    return json.loads((CASES / f"{name}.case.json").read_text(encoding="utf-8"))


def run(mode: str, doc) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    text = doc if isinstance(doc, str) else json.dumps(doc)
    code = cli.main([mode, "-"], io.StringIO(text), out, err)
    return code, out.getvalue(), err.getvalue()


def test_data_file_loads_frozen_with_the_source_numbers():
    data = load()
    axe = data.kinds["rus"]["axe_retainer"]
    assert (axe.stats["attack"], axe.stats["defence"], axe.stats["speed"]) == (3, 3, 1)
    assert data.kinds["north_mongolia"]["raider"].stats["defence"] == 2
    assert data.kinds["rus"]["vityaz"].stats["health"] is None      # unknown: the source lost it
    with pytest.raises(TypeError):
        data.raw["turn"]["units_per_turn"] = 4


def test_a_broken_data_file_names_the_key():
    import yaml
    from importlib import resources
    raw = yaml.safe_load(resources.files("larp.orda.engine").joinpath("orda.yaml").read_text(encoding="utf-8"))
    bad = copy.deepcopy(raw)
    bad["rosters"]["rus"][0]["trait"] = "no_such_trait"
    with pytest.raises(DataError, match=r"rosters.rus\[0\].trait"):
        build(bad)
    bad = copy.deepcopy(raw)
    bad["rosters"]["china"][0]["count"] = 3
    with pytest.raises(DataError, match="12 tokens"):
        build(bad)


@pytest.mark.parametrize("path", sorted(CASES.glob("*.case.json")), ids=lambda p: p.name[:-10])
def test_same_case_gives_byte_identical_output(path):
    expect = json.loads(path.with_name(path.name.replace(".case.", ".expect.")).read_text(encoding="utf-8"))
    mode = expect["mode"].split(".")[1]
    text = path.read_text(encoding="utf-8")
    assert run(mode, text) == run(mode, text)


def _odds_case(attack=2, defence=2, speed_a=2, speed_d=1, second=False):
    doc = case("ours-odds-defence-or-retreat")
    a, t = doc["units"]
    a["stats"].update(attack=attack, speed=speed_a)
    t["stats"].update(defence=defence, speed=speed_d)
    if second:
        a["effects"] = [{"kind": "golden_horde", "from": a["id"], "expires": {"faction": "china", "tour": 1}}]
    return doc


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 6), st.integers(0, 6), st.integers(0, 4), st.integers(0, 4), st.booleans())
def test_odds_sum_to_one_and_nothing_below_zero(attack, defence, sa, sd, second):
    code, out, err = run("odds", _odds_case(attack, defence, sa, sd, second))
    assert code == 0, err
    result = json.loads(out)
    for counter in ("defence", "retreat"):
        dist = result[counter]["damage"]
        assert sum(Fraction(d["fraction"]) for d in dist) == 1
        assert all(d["amount"] >= 0 for d in dist)
        assert Fraction(result[counter]["hit"]["fraction"]) <= 1


@pytest.mark.parametrize("second", [False, True])
def test_odds_agree_with_the_seeded_dice(second):
    """The exact hit chance against 600 seeded attacks: within 5 standard errors."""
    doc = _odds_case(3, 3, second=second)
    code, out, _ = run("odds", doc)
    p = float(Fraction(json.loads(out)["defence"]["hit"]["fraction"]))
    hits = 0
    n = 600
    for seed in range(n):
        d = copy.deepcopy(doc)
        d["seed"] = seed
        d["attack"]["counter"] = "defence"
        code, out, err = run("attack", d)
        assert code == 0, err
        hits += json.loads(out)["hit"]
    assert abs(hits / n - p) < 5 * (p * (1 - p) / n) ** 0.5


def test_seeded_attack_replays_and_uses_the_documented_dice():
    doc = _odds_case()
    doc["seed"] = 42
    doc["attack"]["counter"] = "defence"
    code, out, _ = run("attack", doc)
    result = json.loads(out)
    assert result["attacker"]["dice"] == [seeded_die(42, 0)] and result["defender"]["dice"] == [seeded_die(42, 1)]
    assert run("attack", doc)[1] == out


def test_seeded_shuffle_is_a_permutation_and_stable():
    cards = [f"e{i:02}" for i in range(24)]
    once = seeded_shuffle(7, cards)
    assert sorted(once) == cards and once == seeded_shuffle(7, cards) and once != cards


def test_seeded_reshuffle_of_the_event_deck():
    doc = case("o10-reshuffle-the-discards")
    del doc["choices"]
    doc["seed"] = 3
    code, out, err = run("turn", doc)
    assert code == 0, err
    result = json.loads(out)
    deck = seeded_shuffle(3, ["e03", "e07"])
    assert result["event_drawn"] == deck[0] and result["reshuffled"] is True
    del doc["seed"]
    code, out, err = run("turn", doc)
    assert code == 2 and "reshuffle" in err


def _tours(doc: dict, until: int, orders: dict[int, list[str]]) -> tuple[list[str], list[str]]:
    """Turn start and end through the engine's command line, each result's state carried on, until tour `until`
    begins: (the cards drawn, one per tour; every output line). `orders[t]` is tour t's `choices.reshuffle`."""
    drawn, outputs = [], []
    while doc["game"]["tour"] < until:
        for stage in ("start", "end"):
            step = {**doc, "stage": stage, "choices": {}, "turn_start": {}}
            if stage == "start" and doc["game"]["active"] == doc["game"]["order"][0] \
                    and doc["game"]["tour"] in orders:
                step["choices"] = {"reshuffle": orders[doc["game"]["tour"]]}
            code, out, err = run("turn", step)
            assert code == 0, (doc["game"], err)
            outputs.append(out)
            result = json.loads(out)
            if result.get("event_drawn"):
                drawn.append(result["event_drawn"])
            doc = {**doc, **result["state"]}
    return drawn, outputs


def test_the_deck_runs_out_at_tour_25_and_goes_on_only_with_the_reshuffle_given():
    deck = [f"e{i:02}" for i in range(1, 25)]
    start = case("o10-reshuffle-the-discards")
    for k in ("choices", "stage", "note"):
        del start[k]
    start["event"] = {"current": None, "draw_pile": list(deck), "discard": []}
    first, _outputs = _tours(copy.deepcopy(start), 25, {})
    assert first == deck                                 # tours 1-24 draw the 24 cards in the dealt order
    doc = copy.deepcopy(start)
    doc["game"]["tour"] = 25
    doc["event"] = {"current": None, "draw_pile": [], "discard": list(reversed(deck))}
    code, _out, err = run("turn", {**doc, "stage": "start"})
    assert code == 2 and "reshuffle" in err              # tour 25 cannot draw without an order (no seed)
    order = seeded_shuffle(25, deck)
    for wrong in (order[:-1], order + [order[0]], order[:-1] + ["e99"], order[:-1] + [order[0]], "e01", [1] * 24):
        code, _out, err = run("turn", {**doc, "stage": "start", "choices": {"reshuffle": wrong}})
        assert code == 2 and "choices.reshuffle" in err, wrong
    again = seeded_shuffle(49, deck)
    drawn, outputs = _tours(copy.deepcopy(doc), 51, {25: order, 49: again})
    assert drawn == order + again[:2]                    # the new deck, in the given order, then the next one
    assert _tours(copy.deepcopy(doc), 51, {25: order, 49: again}) == (drawn, outputs)   # the replay is the same


def test_refusal_leaves_no_state():
    code, out, _ = run("attack", case("o15-not-enemy"))
    assert code == 0 and set(json.loads(out)) == {"refused"}


EX1 = case("source-example1-axe-defence")
ALL = ("attack", "odds", "move", "turn", "setup", "ability")
HOSTILE = [
    (ALL, "not json"), (ALL, "[]"), (ALL, "{}"), (ALL, json.dumps({"game": 1})),
    (ALL, json.dumps({**EX1, "board": {"radius": 10 ** 9}})),
    (ALL, json.dumps({**EX1, "board": {"hexes": [[0, 0]] * 100000}})),
    (ALL, json.dumps({**EX1, "units": "x"})),
    (ALL, json.dumps({**EX1, "seed": 10 ** 40})),
    (ALL, "[" * 100000 + "]" * 100000),
    (ALL, json.dumps({**EX1, "units": EX1["units"] * 2})),                    # duplicate ids
    (ALL, json.dumps({**EX1, "units": [{**EX1["units"][0], "token": "raider"}]})),   # not of the roster
    (ALL[:-2] + ("ability",), json.dumps({**EX1, "units": [{**EX1["units"][0], "hex": [9, 9]}]})),  # off board
    (("setup",), json.dumps({**EX1, "units": [{**EX1["units"][0], "stats": {"health": 9}}]})),
    (("attack", "odds"), json.dumps({**EX1, "attack": {"attacker": "nobody", "target": "nm-raider-1"}})),
    (("attack", "odds"), json.dumps({**EX1, "attack": {"attacker": True, "target": []}})),
    (("attack",), json.dumps({**EX1, "dice": {"attacker": [10 ** 30], "defender": [1]}})),
    (("attack",), json.dumps({**EX1, "dice": {"attacker": [1], "defender": [0]}})),
    (("move",), json.dumps({**EX1, "move": {"unit": "rus-axe-1", "path": [[0, 1]] * 1000}})),
    (("turn",), json.dumps({**EX1, "stage": "middle"})),
    (("ability",), json.dumps({**EX1, "ability": {"unit": "rus-axe-1", "trait": "fly"}})),
]


@pytest.mark.parametrize("modes,text", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_input_is_exit_two_with_one_line(modes, text):
    for mode in modes:
        code, out, err = run(mode, text)
        assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, (mode, err)


JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-10 ** 6, 10 ** 6) | st.text(max_size=5),
                       lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
                       max_leaves=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["attack", "odds", "move", "turn", "ability", "setup"]),
       st.sampled_from(["game", "factions", "board", "cities", "units", "attack", "dice", "move", "stage",
                        "ability", "traps", "summon_track", "event", "modifiers", "activations", "border_hold",
                        "seed", "turn_start", "choices"]),
       JSONISH)
def test_fuzz_a_field_never_crashes(mode, key, value):
    """Any value in any field: a result (exit 0) or one malformed line (exit 2), never a bug (exit 1)."""
    doc = {**case("o14-provoked-attack-resolved"), **{"attack": case("o16-defence-tie-no-damage")["attack"]}}
    doc[key] = value
    code, out, err = run(mode, doc)
    assert code in (0, 2), err
    assert (out == "") == (code == 2)
