"""Hostile and random input for `adjudicate red-plains.MODE`: exit 0 with one JSON document, or exit 2 with
exactly one line — never exit 1 (an internal error), never a traceback, never a hang."""
import copy
import io
import json
import pathlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from larp.redplains.engine import cli

CASES = pathlib.Path(__file__).resolve().parents[1] / "rules" / "cases" / "red-plains"
BASES = {}
for path in sorted(CASES.glob("*.case.json")):
    mode = json.loads(path.with_name(path.name.replace(".case.", ".expect.")).read_text())["mode"].split(".")[1]
    BASES[path.name] = (mode, json.loads(path.read_text(encoding="utf-8")))
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

HUGE = st.sampled_from([10**18, -10**18, 2**63, -(2**63) - 1, 10**400, 1e308, -1, -6, 0, 7, 17, 1000])
TEXT = st.one_of(st.text(max_size=20), st.sampled_from(["", "A11", "Z99", "n1", "s1", "cavalry", "front", "rear",
                                                         "special", "ordinary", "N", "Q", "🏯", "a" * 3000]))
SCALARS = st.one_of(st.none(), st.booleans(), HUGE, st.integers(), st.floats(allow_nan=False), TEXT)
ANY = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                    st.dictionaries(TEXT, inner, max_size=4)), max_leaves=10)


def run(mode, text):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main([mode, "-"], io.StringIO(text), out, err)
    return code, out.getvalue(), err.getvalue()


def assert_contract(code, out, err):
    assert code in (0, 2), err
    if code == 0:
        json.loads(out)
        assert err == ""
    else:
        assert out == "" and err.count("\n") == 1 and "Traceback" not in err


def paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, prefix + (i,))


def replaced(doc, path, value):
    doc = copy.deepcopy(doc)
    if not path:
        return value
    cur = doc
    for key in path[:-1]:
        cur = cur[key]
    cur[path[-1]] = value
    return doc


@SETTINGS
@given(st.sampled_from(sorted(BASES)), st.data(), ANY)
def test_any_value_anywhere_in_a_case_is_exit_0_or_a_one_line_exit_2(name, data, value):
    mode, base = BASES[name]
    where = data.draw(st.sampled_from(list(paths(base))))
    assert_contract(*run(mode, json.dumps(replaced(base, where, value))))


@SETTINGS
@given(st.sampled_from(sorted(BASES)), st.data())
def test_deleting_any_field_is_exit_0_or_a_one_line_exit_2(name, data):
    mode, base = BASES[name]
    where = data.draw(st.sampled_from([p for p in paths(base) if p]))
    doc = copy.deepcopy(base)
    cur = doc
    for key in where[:-1]:
        cur = cur[key]
    del cur[where[-1]]
    assert_contract(*run(mode, json.dumps(doc)))


def test_deep_nesting_huge_numbers_and_oversized_boards_are_exit_2():
    deep = "[" * 100000 + "]" * 100000
    for mode in cli.MODES:
        code, out, err = run(mode, deep)
        assert code == 2 and err.count("\n") == 1
    mode, base = BASES["src-cavalry-catches.case.json"]
    many = copy.deepcopy(base)
    many["field"]["extra_cells"] = [{"id": f"X{i}", "col": 13, "row": i} for i in range(1000)]
    code, _out, err = run("turn", json.dumps(many))
    assert code == 2 and "extra_cells" in err
    units = copy.deepcopy(base)
    units["units"] = units["units"] * 200
    code, _out, err = run("turn", json.dumps(units))
    assert code == 2 and "units" in err
    huge = copy.deepcopy(base)
    huge["units"][0]["figures"] = 10 ** 30
    code, _out, err = run("turn", json.dumps(huge))
    assert code == 2 and "units[0].figures" in err


def test_unknown_ids_types_and_cells_name_the_field():
    mode, base = BASES["src-cavalry-catches.case.json"]
    for path, value, field in [
        (("units", 0, "type"), "ninja", "units[0].type"),
        (("units", 0, "cell"), "Z99", "units[0].cell"),
        (("orders", 0, "unit"), "ghost", "orders[0].unit"),
        (("orders", 0, "target"), "ghost", "orders[0].target"),
        (("units", 1, "cell"), "B21", "units[1].cell"),          # two units in one cell
        (("dice", "n1"), [6, 5, 7], "dice.n1[2]"),
        (("dice", "ghost"), [1], "dice.ghost"),
    ]:
        code, out, err = run(mode, json.dumps(replaced(base, path, value)))
        assert code == 2, (path, out)
        assert err.startswith(field), (field, err)


def test_unused_and_missing_dice_are_malformed():
    mode, base = BASES["ours-melee-forest-of-spears.case.json"]
    extra = replaced(base, ("dice", "n1"), [6, 5, 5, 1, 3])
    code, _out, err = run(mode, json.dumps(extra))
    assert code == 2 and "dice.n1: 1 value(s) left unused" in err
    short = replaced(base, ("dice", "s1"), [5, 2])
    code, _out, err = run(mode, json.dumps(short))
    assert code == 2 and err.startswith("dice.s1: runs out") and "melee roll of s1" in err
    seeded = replaced(short, ("seed",), 7)
    code, out, _err = run(mode, json.dumps(seeded))
    assert code == 0 and json.loads(out)["units"]["s1"]["rolls"][0]["values"][:2] == [5, 2]
