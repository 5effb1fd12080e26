"""Hostile case documents for `adjudicate` (larp.engine.cli.main and manage.py adjudicate).

Whatever comes in: exit 0 with one JSON document, or exit 2 with exactly one
line on stderr. Never exit 1 (an internal error), never a traceback.
"""
import copy
import io
import json
import pathlib
import subprocess
import sys

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from larp.engine import cli

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CONTRACT = ROOT / "tests" / "engine" / "contract"
BASES = {p.stem.removesuffix(".case"): json.loads(p.read_text(encoding="utf-8"))
         for p in sorted(CONTRACT.glob("*.case.json"))}
MODES = list(cli.MODES)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Values a hostile or careless author puts anywhere.
HUGE = st.sampled_from([10**18, -10**18, 2**63, -(2**63) - 1, 10**400, 1e308, -1e308, 2**31, -1, -6, 0, 7])
WEIRD_TEXT = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["", " ", "Адрианополь", "🏰", "\u0000", "\u202e", "a" * 5000, "NaN", "null", "-1",
                     "../../etc/passwd", "<script>", "nicaea", "rum-2", "achaea-f1"]),
)
SCALARS = st.one_of(st.none(), st.booleans(), HUGE, st.integers(), st.floats(allow_nan=False), WEIRD_TEXT)
ANY_JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(WEIRD_TEXT, inner, max_size=4)),
                        max_leaves=12)


def run(argv, text):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(argv, io.StringIO(text), out, err)
    return code, out.getvalue(), err.getvalue()


def assert_contract(code, out, err):
    assert code in (0, 2), f"exit {code}: {err!r}"
    assert "Traceback" not in err and "Traceback" not in out
    if code == 0:
        assert err == "" and out.endswith("\n") and out.count("\n") == 1
        json.loads(out)
    else:
        assert out == "" and err.endswith("\n") and err.count("\n") == 1, repr(err)
        assert len(err.strip()) > 0


def _paths(doc, prefix=()):
    """Every (container, key) in a JSON document, to replace one value deep inside."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield doc, k
            yield from _paths(v)
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield doc, i
            yield from _paths(v)


@st.composite
def mutated_case(draw):
    name = draw(st.sampled_from(sorted(BASES)))
    doc = copy.deepcopy(BASES[name])
    for _ in range(draw(st.integers(1, 4))):
        spots = list(_paths(doc))
        if not spots:
            break
        container, key = draw(st.sampled_from(spots))
        action = draw(st.sampled_from(["replace", "delete", "huge", "negative_dice", "duplicate"]))
        if action == "replace":
            container[key] = draw(ANY_JSON)
        elif action == "delete":
            if isinstance(container, dict):
                del container[key]
            else:
                container.pop(key)
        elif action == "huge":
            container[key] = draw(HUGE)
        elif action == "negative_dice":
            doc["dice"] = draw(st.one_of(
                st.fixed_dictionaries({"attacker": st.lists(st.integers(-10**6, 10**6), max_size=3),
                                       "defender": st.lists(st.integers(-10**6, 10**6), max_size=3)}),
                st.lists(st.fixed_dictionaries({"attacker": st.lists(HUGE, max_size=2),
                                                "defender": st.lists(HUGE, max_size=2)}), max_size=3)))
        elif action == "duplicate" and isinstance(container, list):
            container.append(copy.deepcopy(container[key]))
    return doc


@SETTINGS
@given(mode=st.sampled_from(MODES), doc=mutated_case())
def test_mutated_contract_cases(mode, doc):
    text = json.dumps(doc, ensure_ascii=False)
    first = run([mode, "-"], text)
    assert_contract(*first)
    assert run([mode, "-"], text) == first  # the same case, the same bytes


@SETTINGS
@given(mode=st.sampled_from(MODES), doc=ANY_JSON)
def test_any_json_document(mode, doc):
    assert_contract(*run([mode, "-"], json.dumps(doc)))


@SETTINGS
@given(mode=st.sampled_from(MODES), text=st.one_of(
    st.text(max_size=200),
    st.sampled_from(["", "{", "[" * 100_000, '{"a":' * 50_000, "NaN", "Infinity", '{"provinces": NaN}',
                     "\ufeff{}", "{}" * 3, '{"dice": 1e999}', '"' + "x" * 100_000 + '"'])))
def test_malformed_json(mode, text):
    assert_contract(*run([mode, "-"], text))


@settings(max_examples=40, deadline=None)
@given(cycle=st.lists(st.sampled_from(["sis", "nicaea", "philippopolis", "ghost", "Ἀδριανούπολις"]),
                      min_size=2, max_size=8),
       extra=st.lists(st.tuples(WEIRD_TEXT, WEIRD_TEXT), max_size=3))
def test_adjacency_cycles_self_loops_and_unknown_ids(cycle, extra):
    doc = copy.deepcopy(BASES["seed-yanina-autobattle"])
    doc["adjacency"] = doc.get("adjacency", []) + [[a, b] for a, b in zip(cycle, cycle[1:] + cycle[:1])] \
        + [list(e) for e in extra] + [[cycle[0], cycle[0]]]
    for mode in MODES:
        assert_contract(*run([mode, "-"], json.dumps(doc, ensure_ascii=False)))


def test_manage_py_adjudicate_one_line_and_exit_2(tmp_path):
    """The Django command, as moderators run it: hostile input gives exit 2 and one line, no traceback."""
    cases = {"broken.json": "{", "deep.json": "[" * 100_000, "dice.json": json.dumps(
        {**BASES["seed-yanina-autobattle"], "dice": {"attacker": [-3], "defender": [10**30]}})}
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        done = subprocess.run([sys.executable, "manage.py", "adjudicate", "battle", str(path)], cwd=ROOT,
                              capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 2, (name, done.stderr)
        assert done.stdout == "" and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
