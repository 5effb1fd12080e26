"""Unit tests of the Red Plains engine for what case files express badly: the data file's checks, overrides,
the exactness of the odds, determinism and the seeded dice."""
import io
import itertools
import json
import subprocess
import sys
from fractions import Fraction
from hashlib import sha256

import pytest
import yaml

from larp.redplains.engine import cli, data as data_mod, melee, odds
from larp.redplains.engine.case import unit
from larp.redplains.engine.dice import Dice, seeded_die
from larp.redplains.engine.errors import CaseError, DataError

from .test_hostile import BASES, CASES


def run(mode, doc):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main([mode, "-"], io.StringIO(json.dumps(doc)), out, err)
    return code, out.getvalue(), err.getvalue()


def raw_data():
    return yaml.safe_load(data_mod.resources.files(data_mod.__package__).joinpath(data_mod.DATA_FILE)
                          .read_text(encoding="utf-8"))


def test_the_data_file_loads_with_every_type_and_cell():
    d = data_mod.load()
    assert len(d.cells) == 72 and d.cells["A11"] == (6, 3) and d.cells["D36"] == (12, 6)
    assert sorted(d.troop_types) == ["ashigaru_arquebus", "ashigaru_spears", "cavalry", "samurai_bows",
                                     "samurai_spears"]
    assert d.troop_types["cavalry"].charge_dice_per_figure == 2
    assert d.stakes["high"].success_at == 8


@pytest.mark.parametrize("path, value, field", [
    (("troop_types", 0, "armour"), "two", "troop_types[0]"),
    (("troop_types", 1, "possible_damage", "melee"), 9, "possible_damage"),
    (("field", "cells", 3, "id"), "A36", "field.cells[3]"),
    (("stakes", "default"), "huge", "stakes.default"),
    (("units", "front_width"), None, "units.front_width"),
])
def test_a_broken_data_file_names_the_key(path, value, field):
    raw = raw_data()
    cur = raw
    for key in path[:-1]:
        cur = cur[key]
    cur[path[-1]] = value
    with pytest.raises(DataError) as err:
        data_mod.build(raw)
    assert field in str(err.value)


def test_a_case_may_override_a_troop_type():
    base = BASES["ours-melee-forest-of-spears.case.json"][1]
    case = {**base, "troop_types": [{"id": "cavalry", "impetus": 5}]}
    code, out, err = run("melee", case)
    assert code == 0, err
    assert json.loads(out)["units"]["n1"]["impetus"] == 5
    assert json.loads(out)["defender_score"] == 3          # 4 + 5 + 0 - 4 - 2
    code, _out, err = run("melee", {**base, "troop_types": [{"id": "cavalry", "impetus": "lots"}]})
    assert code == 2 and err.startswith("troop_types[0]")


def test_the_seeded_generator_is_the_projects_one_scheme():
    for seed, k in [(0, 0), (42, 7), (-5, 123), (2 ** 63 - 1, 3)]:
        expected = int.from_bytes(sha256(f"{seed}:{k}".encode()).digest()[:8], "big") % 6 + 1
        assert seeded_die(seed, k) == expected
    from larp.engine.dice import seeded_die as military
    assert all(seeded_die(s, k) == military(s, k) for s in range(5) for k in range(20))


def test_dice_rerolls_take_one_value_per_failed_die_per_round():
    dice = Dice({"u": [6, 1, 2, 5, 1, 6]}, None)
    values, hits = dice.roll("u", 3, 5, 2, "a roll")
    assert values == [6, 1, 2, 5, 1, 6] and hits == 3         # round 1: 1->5, 2->1; round 2: 1->6
    dice.check_all_used()


def test_every_case_file_gives_byte_identical_output_twice():
    paths = sorted(CASES.glob("*.case.json"))
    assert len(paths) >= 17, f"the Red Plains case files are missing from {CASES}"  # 17 public examples at least
    for path in paths:
        mode = json.loads(path.with_name(path.name.replace(".case.", ".expect.")).read_text())["mode"].split(".")[1]
        first = run(mode, json.loads(path.read_text()))
        assert first == run(mode, json.loads(path.read_text())), path.name


def test_adjudicate_red_plains_through_manage_py():
    proc = subprocess.run([sys.executable, "manage.py", "adjudicate", "red-plains.melee",
                           str(CASES / "ours-meeting.case.json")], capture_output=True, text=True, timeout=120,
                          cwd=CASES.parents[3])
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["winner"] == "n1"
    proc = subprocess.run([sys.executable, "manage.py", "adjudicate", "red-plains.turn", "-"], input="{}",
                          capture_output=True, text=True, timeout=120, cwd=CASES.parents[3])
    assert proc.returncode == 2 and proc.stderr.strip() == "case.turn: missing"


def _brute_force(plan):
    """Every combination of hit counts, resolved one by one: the slow, obviously right odds."""
    dists = [list(enumerate(odds.group_hits(g))) for g in plan.groups]
    out = {}
    for combo in itertools.product(*dists):
        p = Fraction(1)
        for _h, q in combo:
            p *= q
        res = melee.resolve_attack(data_mod.load(), plan, [h for h, _q in combo])["result"]
        out[res] = out.get(res, 0) + p
    return out


@pytest.mark.parametrize("attackers", [
    [("samurai_spears", 8, "front"), ("cavalry", 4, "left")],
    [("ashigaru_spears", 8, "front"), ("ashigaru_spears", 4, "rear")],
    [("cavalry", 5, "left"), ("samurai_bows", 3, "right"), ("ashigaru_spears", 6, "rear")],
    [("samurai_spears", 2, "front"), ("cavalry", 2, "left"), ("cavalry", 1, "right"), ("ashigaru_spears", 2, "rear")],
])
def test_exact_melee_odds_equal_the_brute_force_enumeration(attackers):
    d = data_mod.load()
    defender = unit(d, {"id": "d", "side": "south", "type": "ashigaru_spears", "figures": 13}, "d")
    defender.flags = {}
    atts = []
    for i, (utype, figures, side) in enumerate(attackers):
        a = unit(d, {"id": f"a{i}", "side": "north", "type": utype, "figures": figures}, "a")
        a.flags = {"attacks": side}
        atts.append(a)
    plan = melee.plan_attack(d, defender, atts)
    exact = odds.attack_odds(d, plan)
    brute = _brute_force(plan)
    assert {k: v["fraction"] for k, v in exact.items() if k != "expected_losses"} == \
        {k: (str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}")
         for k, v in brute.items() if v}


def test_a_malformed_case_is_a_case_error_not_a_crash():
    with pytest.raises(CaseError) as err:
        cli.MODES["melee"]({"melee": {"kind": "attack", "defender": {"id": "d", "side": "south",
                                                                     "type": "cavalry", "figures": 4},
                                      "attackers": []}})
    assert "melee.attackers" in str(err.value)


def _fighter(uid, side, kind, **extra):
    return {"id": uid, "side": side, "type": kind, "figures": 6, **extra}


@pytest.mark.parametrize("mode", ["melee", "odds"])
@pytest.mark.parametrize("status", ["destroyed", "dispersed", "withdrawn", "fleeing"])
@pytest.mark.parametrize("role", ["attacker", "defender", "meeting"])
def test_a_unit_out_of_the_battle_does_not_fight(mode, status, role):
    """W26.5, W34.4, W14.1: units that left the field take no part; W35.1: a fleeing unit does not attack (it may be
    attacked, W35.4). Exit 2 naming the unit and its status, in the melee mode and the odds over it alike."""
    n1, s1 = _fighter("n1", "north", "cavalry"), _fighter("s1", "south", "samurai_spears")
    target = n1 if role in ("attacker", "meeting") else s1
    target["status"] = status
    if role == "meeting":
        melee_spec = {"kind": "meeting", "a": n1, "b": s1, "same_cell": False}
    else:
        melee_spec = {"kind": "attack", "defender": s1, "attackers": [{**n1, "attacks": "front"}]}
    code, out, err = run(mode, {"melee": melee_spec, "seed": 1})
    if role == "defender" and status == "fleeing":
        assert code == 0 and json.loads(out)                      # W35.4: a fleeing defender is attacked
        return
    assert code == 2 and out == "" and err.count("\n") == 1
    assert target["id"] in err and status in err and ".status:" in err


@pytest.mark.parametrize("status", ["destroyed", "dispersed", "withdrawn"])
@pytest.mark.parametrize("who", ["target", "shooter"])
def test_a_unit_out_of_the_battle_neither_shoots_nor_is_shot_at(status, who):
    target, shooter = _fighter("s1", "south", "samurai_spears"), _fighter("n1", "north", "samurai_bows")
    (target if who == "target" else shooter)["status"] = status
    for mode in ("volley", "odds"):
        code, out, err = run(mode, {"volley": {"target": target, "shooters": [shooter]}, "seed": 1})
        assert code == 2 and status in err and (target if who == "target" else shooter)["id"] in err
