"""The command line: one JSON document and exit 0, or one line on stderr and exit 2 (1 for a bug)."""
import io
import json
import pathlib
import subprocess
import sys

import pytest

from larp.engine import cli
from larp.engine.rules import DEFAULT_TROOP_TYPES

from .builders import scenario_case

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
YANINA = HERE / "contract" / "seed-yanina-autobattle.case.json"
PISIDIA = HERE / "contract" / "seed-pisidia-pinned.case.json"


def run(argv, stdin_text=""):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(argv, io.StringIO(stdin_text), out, err)
    return code, out.getvalue(), err.getvalue()


def run_case(mode, case: dict):
    return run([mode, "-"], json.dumps(case, ensure_ascii=False))


def assert_one_line_error(code, out, err, *, field=None, status=2):
    assert code == status and out == ""
    assert err.endswith("\n") and err.count("\n") == 1, repr(err)
    assert "Traceback" not in err
    if field is not None:
        assert err.startswith(f"{field}: "), err


def test_battle_from_a_file_and_from_stdin_are_identical():
    code, out, err = run(["battle", str(YANINA)])
    assert code == 0 and err == "" and out.endswith("\n")
    assert json.loads(out)["defender"]["total"] == 35
    code2, out2, _ = run(["battle", "-"], YANINA.read_text(encoding="utf-8"))
    assert code2 == 0 and out2 == out


@pytest.mark.parametrize("mode", ["battle", "odds"])
def test_battle_modes(mode):
    code, out, _ = run([mode, str(YANINA)])
    assert code == 0 and json.loads(out)


def test_output_is_byte_identical_and_keeps_non_ascii():
    case = json.loads(PISIDIA.read_text(encoding="utf-8"))
    case["armies"][0]["commanders"] = [{"name": "Феодор Ласкарис", "power": 5}]
    case["seed"] = 99
    first = run_case("turn", case)
    second = run_case("turn", case)
    assert first == second and first[0] == 0
    assert "Феодор Ласкарис" in first[1]


def test_usage_errors_are_one_line():
    for argv in ([], ["battle"], ["fight", str(YANINA)], ["battle", str(YANINA), "extra"]):
        assert_one_line_error(*run(argv))


def test_unreadable_file_and_bad_json():
    assert_one_line_error(*run(["battle", str(HERE / "no-such-file.json")]))
    code, out, err = run(["battle", "-"], "{\"factions\": [")
    assert_one_line_error(code, out, err, field="case")
    assert "invalid JSON" in err


@pytest.mark.parametrize("mutate,field", [
    (lambda c: c.update(provinces=3), "provinces"),
    (lambda c: c["armies"][0].update(province="atlantis"), "armies[0].province"),
    (lambda c: c["armies"][0].update(number="one"), "armies[0].number"),
    (lambda c: c["armies"][0]["troops"].append("catapult"), "armies[0].troops[1]"),
    (lambda c: c.update(orders=[{"unit": "rum-2", "type": "hold"}, {"unit": "rum-2", "type": "hold"}]),
     "orders[1].unit"),
    (lambda c: c.update(orders=[{"unit": "rum-2", "type": "attack", "path": ["meander", "nowhere"]}]),
     "orders[0].path[1]"),
    (lambda c: c.update(orders=[{"unit": "ghost", "type": "hold"}]), "orders[0].unit"),
    (lambda c: c.update(draw=["rum", "byzantium"]), "draw[1]"),
    (lambda c: c.update(relations=[{"kind": "alliance", "factions": ["rum", "rum"]}]), "relations[0].factions"),
    (lambda c: c.update(dice=[{"attacker": [7], "defender": [1]}]), "dice[0].attacker[0]"),
    (lambda c: c.update(dice=[{"attacker": [1, 2], "defender": [1, 2]}]), "dice[0].attacker"),
    (lambda c: c.update(seed="1204"), "seed"),
    (lambda c: c.update(choices={"retreats": {"rum-2": "mars"}}), "choices.retreats.rum-2"),
])
def test_malformed_cases_name_the_field(mutate, field):
    case = json.loads(PISIDIA.read_text(encoding="utf-8"))
    mutate(case)
    assert_one_line_error(*run_case("turn", case), field=field)


def _default_types(**changes):
    types = [{"id": t.id, "power": t.power, "men": t.men, "domain": t.domain.value} for t in DEFAULT_TROOP_TYPES]
    for t in types:
        t.update(changes.get(t["id"], {}))
    return types


@pytest.mark.parametrize("mutate,field", [
    # A card of power 10^12 re-made into detachments was a MemoryError (exit 1) before inputs were bounded.
    (lambda c: (c.update(troop_types=_default_types(large={"power": 10 ** 12})),
                c["armies"][0].update(troops=["large"])), "troop_types[3].power"),
    (lambda c: c.update(troop_types=_default_types(small={"men": 10 ** 12})), "troop_types[1].men"),
    (lambda c: c["armies"][0].update(number=10 ** 30), "armies[0].number"),
    (lambda c: c["armies"][0].update(commanders=[{"name": "X", "power": 10 ** 12}]), "armies[0].commanders[0].power"),
    (lambda c: c["armies"][0].update(troops=["huge"] * 5000), "armies[0].troops"),
    (lambda c: c.update(seed=2 ** 64), "seed"),
    (lambda c: c.update(rules={"storms_per_turn": 10 ** 9}), "rules.storms_per_turn"),
    (lambda c: c.update(rules={"losses": {"tie": [10 ** 12]}}), "rules.losses.tie[0]"),
    (lambda c: c.update(rules={"defence": {"field": -10 ** 12}}), "rules.defence.field"),
    (lambda c: c.update(choices={"modifiers": [{"battle": 1, "side": "attacker", "value": 10 ** 40}]}),
     "choices.modifiers[0].value"),
    (lambda c: c.update(special_state={"greek_fire_land": {"charges": 10 ** 20}}),
     "special_state.greek_fire_land.charges"),
])
def test_out_of_range_numbers_are_malformed(mutate, field):
    case = json.loads(PISIDIA.read_text(encoding="utf-8"))
    case["seed"] = 5
    mutate(case)
    code, out, err = run_case("turn", case)
    assert_one_line_error(code, out, err, field=field)
    assert len(err) < 300, err   # the one line names the range, not the 40-digit number


def test_an_integer_of_more_than_4300_digits_is_malformed():
    # json.loads refuses it with a ValueError that is not a JSONDecodeError: it was "internal error", exit 1.
    text = PISIDIA.read_text(encoding="utf-8")
    case = json.loads(text)
    case["seed"] = 0
    raw = json.dumps(case).replace('"seed": 0', '"seed": ' + "9" * 4301)
    code, out, err = run(["turn", "-"], raw)
    assert_one_line_error(code, out, err, field="case")
    assert "4300 digits" in err and len(err) < 300


def test_wrong_dice_count_in_battle_mode():
    case = json.loads(YANINA.read_text(encoding="utf-8"))
    case["dice"] = {"attacker": [6, 6], "defender": [6, 6]}
    assert_one_line_error(*run_case("battle", case), field="dice.attacker")


def test_dice_awaited_without_seed_in_turn_mode():
    case = json.loads(PISIDIA.read_text(encoding="utf-8"))
    code, out, err = run_case("turn", case)
    assert_one_line_error(code, out, err, field="dice")
    assert "battle 1 at pisidia" in err and "no seed" in err
    # movement needs no dice at all
    assert run_case("movement", case)[0] == 0


def test_unexpected_exception_is_one_line_exit_1(monkeypatch):
    def boom(case):
        raise RuntimeError("something\nbroke")
    monkeypatch.setitem(cli.MODES, "battle", boom)
    assert_one_line_error(*run(["battle", str(YANINA)]), status=1)


def test_python_dash_m_larp_engine():
    proc = subprocess.run([sys.executable, "-m", "larp.engine", "movement", str(PISIDIA)], cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert proc.returncode == 0 and proc.stderr == ""
    assert json.loads(proc.stdout)["pinned"] == ["rum-2"]
    proc = subprocess.run([sys.executable, "-m", "larp.engine", "turn", "-"], cwd=ROOT, input="[]",
                          capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and proc.stdout == ""


def test_full_scenario_turn_through_the_cli():
    case = scenario_case()
    case["seed"] = 1
    case["orders"] = [{"unit": "bulgaria-4", "type": "attack", "path": ["serres"]},
                      {"unit": "thessalonica-1", "type": "attack", "path": ["strumica"]}]
    code, out, err = run_case("turn", case)
    assert code == 0, err
    result = json.loads(out)
    assert set(result) >= {"refused", "moves", "pinned", "occupied", "battles", "positions", "fought", "retreats",
                           "destroyed", "recoloured", "unattached_commanders", "state"}
