"""Hostile input at the tactical command line (T37.1): every malformed case exits 2 with one line, never 1."""
import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from larp.tactical.engine.cli import MODES
from tests.tactical.helpers import CASES, case, run

EXAMPLES = sorted((p.name[: -len(".case.json")],
                   json.loads(p.with_name(p.name[: -len(".case.json")] + ".expect.json").read_text())["mode"].split(".")[1])
                  for p in CASES.glob("*.case.json"))


def assert_malformed(mode, data):
    code, out, err = run(mode, data)
    assert code == 2, (code, err)
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    return err


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("text", ["", "{", "[]", "null", "42", '"case"', "[" * 100_000, '{"a": ' * 50_000])
def test_not_a_case_at_all(mode, text):
    assert_malformed(mode, text)


@pytest.mark.parametrize("path, value, words", [
    (("units", 0, "ranks", 0, 0, "count"), 10 ** 30, "count"),
    (("units", 0, "ranks", 0, 0, "count"), "four", "count"),
    (("units", 0, "bases"), 10 ** 6, "bases"),
    (("units", 0, "formation"), "phalanx", "formation"),
    (("units", 1, "side"), "a", "two sides"),
    (("profiles", 0, "category"), "elephants", "category"),
    (("profiles", 1, "shield"), "light_armour", "shield"),
    (("clash", "attacker"), "zz", "unknown unit"),
    (("dice", "a1", "strike", 0), 0, "below 1"),
    (("dice", "a1", "luck"), [1], "unknown dice list"),
    (("dice", "zz"), {"strike": [1]}, "no unit"),
    (("seed",), 10 ** 60, "digits"),
    (("seed",), 1.5, "whole number"),
    (("units", 0, "ranks", 0, 0, "disordered"), 9, "above"),
])
def test_wrong_fields_of_a_clash_name_the_field(path, value, words):
    data = case("src-large-shield-five-hits")
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    assert words in assert_malformed("clash", data)


def test_oversized_boards_and_lists():
    march = case("src-march-hedge-three-mp")
    march["grid"] = [["clear"] * 100 for _ in range(100)]
    assert_malformed("march", march)
    march = case("src-march-hedge-three-mp")
    march["marches"][0]["steps"] = [{"cell": [4, 0]}] * 100_000
    assert_malformed("march", march)
    clash = case("src-large-shield-five-hits")
    clash["units"] = clash["units"] * 1000
    assert_malformed("clash", clash)
    test = case("src-pikemen-cross-terrain")
    test["test"]["in_ranks"] = 10 ** 9
    assert_malformed("test", test)
    test["dice"] = [1] * 10 ** 5
    assert_malformed("test", test)


def test_a_seeded_tie_cannot_loop_forever():
    data = {"test": {"kind": "initiative", "initiative": {"a": 0, "b": 0}}, "dice": [3, 3] * 200, "seed": None}
    assert "tied" in assert_malformed("test", data)


JSON = st.recursive(st.none() | st.booleans() | st.integers(-10 ** 12, 10 ** 12) | st.text(max_size=8)
                    | st.floats(allow_nan=True), lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=8)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(EXAMPLES), st.data())
def test_any_mutation_of_any_case_is_a_result_or_one_line(example, draw):
    """Replace one value anywhere in a valid case by anything: exit 0 or 2, never a traceback or exit 1."""
    name, mode = example
    data = case(name)
    paths = [p for p in _paths(data) if p]
    path = draw.draw(st.sampled_from(paths)) if paths else ()
    value = draw.draw(JSON)
    mutated = copy.deepcopy(data)
    node = mutated
    for key in path[:-1]:
        node = node[key]
    if path:
        node[path[-1]] = value
    code, out, err = run(mode, mutated)
    assert code in (0, 2), err
    if code == 0:
        json.loads(out)
    else:
        assert out == "" and err.count("\n") == 1


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10 ** 9), a_count=st.integers(1, 15), b_count=st.integers(1, 9),
       a_form=st.sampled_from(["very_dense", "dense", "open"]), b_form=st.sampled_from(["dense", "open"]),
       armour=st.sampled_from([None, "light_armour", "heavy_armour"]), mode=st.sampled_from(["melee", "clash"]))
def test_nothing_goes_below_zero_and_a_replay_is_identical(seed, a_count, b_count, a_form, b_form, armour, mode):
    """Random seeded rounds: counts stay within the figures, nothing is negative, the replay is byte-identical."""
    widths = {"very_dense": 5, "dense": 4, "open": 3}

    def ranks(count, form):
        w = widths[form]
        return [[{"profile": "p" if i == 0 else "q", "count": min(w, count - i * w), "disordered": 0}]
                for i in range((count + w - 1) // w) if i < 3]
    a_count, b_count = min(a_count, 3 * widths[a_form]), min(b_count, 3 * widths[b_form])
    data = {"profiles": [{"id": "p", "category": "line_infantry", "specialty": 3, "melee": 2, "steadiness": 3,
                          "weapon": "infantry_pike", "armour": armour, "shield": None, "horse_armour": None},
                         {"id": "q", "category": "line_infantry", "specialty": 4, "melee": 3, "steadiness": 2,
                          "weapon": "halberd", "armour": None, "shield": None, "horse_armour": None}],
            "units": [{"id": "a1", "side": "a", "formation": a_form, "ranks": ranks(a_count, a_form)},
                      {"id": "b1", "side": "b", "formation": b_form, "ranks": ranks(b_count, b_form),
                       "general": {"id": "g", "profile": "p", "talents": {"steadiness": 1}}}],
            "melee": {"units": ["a1", "b1"]}, "clash": {"attacker": "a1", "defender": "b1", "counter": True},
            "dice": {}, "seed": seed}
    first, second = run(mode, data), run(mode, data)
    assert first == second and first[0] == 0, first[2]
    out = json.loads(first[1])
    for uid, unit in out["units"].items():
        before = next(sum(g["count"] for r in u["ranks"] for g in r) for u in data["units"] if u["id"] == uid)
        after = unit["after"]
        assert 0 <= unit["killed"] <= unit["hits_taken"] <= before
        assert unit["saved"] == unit["hits_taken"] - unit["killed"] >= 0
        assert after["figures"] == before - unit["killed"] or after["destroyed"]
        assert 0 <= after["disordered"] <= after["figures"]
        assert sum(g["count"] for r in after["ranks"] for g in r) == after["figures"]
        assert all(0 <= g["disordered"] <= g["count"] for r in after["ranks"] for g in r)
        assert unit["hits"] <= unit["strikers"] * 3


def test_odds_of_an_absurd_mixed_unit_are_refused_not_hung():
    """Sixty ranks of alternating armour in loose order: 3^60 miss patterns; refused in about a second."""
    profiles = [{"id": p, "category": "swordsmen", "specialty": None, "melee": 3, "steadiness": s, "weapon": None,
                 "armour": a} for p, s, a in (("s", 3, None), ("l", 4, "light_armour"))]
    ranks = [[{"profile": "s" if i % 2 else "l", "count": 2}] for i in range(60)]
    units = [{"id": uid, "side": side, "formation": "loose", "bases": 20, "ranks": ranks}
             for uid, side in (("a1", "a"), ("b1", "b"))]
    err = assert_malformed("odds", {"of": "melee", "profiles": profiles, "units": units,
                                    "melee": {"units": ["a1", "b1"]}})
    assert "outcomes" in err


def _number_paths(node, prefix=()):
    if isinstance(node, dict) or hasattr(node, "items"):
        for k, v in node.items():
            if isinstance(k, str):
                yield from _number_paths(v, prefix + (k,))
    elif isinstance(node, int) and not isinstance(node, bool):
        yield prefix


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(EXAMPLES), st.data())
def test_any_number_of_the_rules_tuned_by_a_case_never_breaks_the_engine(example, draw):
    """A case's `rules` block may set any number of the data to anything from -1000 to 1000: exit 0 or 2."""
    from larp.tactical.engine import data as rules_data
    paths = sorted(_number_paths(rules_data.default_rules()))
    name, mode = example
    chosen = draw.draw(st.lists(st.sampled_from(paths), min_size=1, max_size=3))
    override: dict = {}
    for path in chosen:
        node = override
        for key in path[:-1]:
            node = node.setdefault(key, {})
        node[path[-1]] = draw.draw(st.integers(-1000, 1000))
    code, out, err = run(mode, dict(case(name), rules=override))
    assert code in (0, 2), err
    assert (out == "") == (code == 2) and (code == 0 or err.count("\n") == 1)
