"""Invariants of the Red Plains engine on random battles and contests (hypothesis).

Random but well-formed turns always give a result (refusals, never a malformed
case or an internal error); nothing goes below zero; no two units share a cell;
a seeded replay is byte-identical; exact odds sum to 1 and agree with the
frequencies of the seeded engine.
"""
import io
import json
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from larp.redplains.engine import cli
from larp.redplains.engine.data import load

DATA = load()
CELLS = sorted(DATA.cells)
TYPES = sorted(DATA.troop_types)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def run(mode, doc):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main([mode, "-"], io.StringIO(json.dumps(doc)), out, err)
    return code, out.getvalue(), err.getvalue()


@st.composite
def battles(draw):
    n = draw(st.integers(2, 10))
    cells = draw(st.lists(st.sampled_from(CELLS), min_size=n, max_size=n, unique=True))
    units, orders = [], []
    for i, cell in enumerate(cells):
        side = "north" if DATA.cells[cell][1] <= 3 else "south"
        if draw(st.integers(0, 5)) == 0:
            side = "south" if side == "north" else "north"
        uid = f"{side[0]}{i}"
        utype = draw(st.sampled_from(TYPES))
        unit = {"id": uid, "side": side, "type": utype, "figures": draw(st.integers(1, 16)), "cell": cell,
                "facing": draw(st.sampled_from("NESW"))}
        if draw(st.integers(0, 6)) == 0:
            unit.update(status="fleeing", fled_ever=True, fleeing_since=1)
        units.append(unit)
    ids = [u["id"] for u in units]
    for u in units:
        for slot in (1, 2):
            if draw(st.booleans()):
                continue
            otype = draw(st.sampled_from(["move", "retreat", "reform", "shoot", "massed_shoot", "hold",
                                          "decisive_attack", "regroup", "wait", "dragon"]))
            kind = "special" if otype in ("massed_shoot", "hold", "decisive_attack", "regroup", "dragon") else \
                draw(st.sampled_from(["ordinary", "special"]))
            order = {"unit": u["id"], "slot": slot, "kind": kind, "type": otype}
            if kind == "special" and otype in ("move", "retreat", "reform", "shoot"):
                order["timing"] = draw(st.sampled_from(["ordinary", "special"]))
            if otype in ("shoot", "massed_shoot", "decisive_attack"):
                order["target"] = draw(st.sampled_from(ids))
            if otype == "reform":
                order["dir"] = draw(st.sampled_from(["left", "right"]))
            if otype == "move" and u["type"] == "cavalry":
                order["actions"] = draw(st.lists(st.sampled_from(["move", "retreat", "reform_left", "reform_right"]),
                                                 min_size=1, max_size=2))
            if otype == "decisive_attack" and u["type"] == "cavalry":
                order["first"] = draw(st.sampled_from(["move", "reform_left", "reform_right"]))
            if otype == "regroup":
                pick = draw(st.integers(0, 2))
                if pick == 0:
                    order["face"] = draw(st.sampled_from("NESW"))
                elif pick == 1:
                    order["step"] = draw(st.sampled_from(["left", "right"]))
                else:
                    order["swap_with"] = draw(st.sampled_from(ids))
            orders.append(order)
    turn = draw(st.integers(1, 12))
    banners = [{"unit": draw(st.sampled_from(ids)), "banner": draw(st.sampled_from(["crab", "tiger", "phoenix", "dragon"]))}
               for _ in range(draw(st.integers(0, 2)))]
    shinobi = {"panic": draw(st.lists(st.sampled_from(ids), max_size=2)),
               "sabotage": [{"unit": draw(st.sampled_from(ids)), "roll": draw(st.integers(1, 6)),
                             } for _ in range(draw(st.integers(0, 1)))]}
    col = draw(st.integers(1, 12))
    field = {"extra_cells": [], "river": draw(st.booleans()),
             "bridge": draw(st.sampled_from([None, [DATA.by_position[(col, 3)], DATA.by_position[(col, 4)]]])),
             "hills": draw(st.lists(st.sampled_from(CELLS), max_size=2, unique=True)),
             "forests": draw(st.lists(st.sampled_from(CELLS), max_size=2, unique=True))}
    return {"turn": turn, "field": field,
            "defender": "south",
            "sides": {"north": {"general_retreat": draw(st.sampled_from([None, 1]))},
                      "south": {"general_retreat": None}},
            "units": units, "orders": orders, "banners": banners, "shinobi": shinobi,
            "choices": {"no_joint": [], "stop": None}, "history": [], "dice": {},
            "seed": draw(st.integers(-2**63, 2**63 - 1))}


@SETTINGS
@given(battles())
def test_a_random_turn_keeps_every_invariant(case):
    code, out, err = run("turn", case)
    assert code == 0, err
    result = json.loads(out)
    before = {u["id"]: u for u in case["units"]}
    cells = [u["cell"] for u in result["units"].values() if u["cell"] is not None]
    assert len(cells) == len(set(cells)), "two units in one cell"
    for uid, u in result["units"].items():
        assert 0 <= u["figures"] <= before[uid]["figures"]
        assert u["ammo"] is None or u["ammo"] >= 0
        assert (u["cell"] is None) == (u["status"] in ("destroyed", "dispersed", "withdrawn"))
        assert u["status"] != "destroyed" or u["figures"] == 0
    again = run("turn", case)
    assert again == (code, out, err), "a seeded replay is byte-identical"


def _fraction(text):
    return Fraction(text)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(TYPES), st.integers(1, 16), st.sampled_from(TYPES), st.integers(1, 16),
       st.sampled_from(["front", "left", "rear"]), st.booleans(), st.booleans())
def test_melee_odds_sum_to_one(dtype, dfig, atype, afig, side, hold, crab):
    case = {"melee": {"kind": "attack",
                      "defender": {"id": "d", "side": "south", "type": dtype, "figures": dfig, "hold": hold},
                      "attackers": [{"id": "a", "side": "north", "type": atype, "figures": afig, "attacks": side,
                                     "crab": crab}]}}
    code, out, err = run("odds", case)
    assert code == 0, err
    res = json.loads(out)
    total = sum(_fraction(v["fraction"]) for k, v in res.items() if k != "expected_losses")
    assert total == 1


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 16), st.integers(0, 12), st.booleans(), st.booleans(), st.booleans())
def test_volley_odds_sum_to_one(figures, bows, massed, moving, shields):
    case = {"volley": {"target": {"id": "t", "side": "south", "type": "samurai_spears", "figures": figures,
                                  "shields": shields, "has_move_order": moving},
                       "shooters": [{"id": "b", "side": "north", "type": "samurai_bows", "figures": max(1, bows),
                                     "massed": massed},
                                    {"id": "q", "side": "north", "type": "ashigaru_arquebus", "figures": 8,
                                     "straight": True}]}}
    code, out, err = run("odds", case)
    assert code == 0, err
    res = json.loads(out)
    assert sum(_fraction(v["fraction"]) for v in res["losses"].values()) == 1
    assert sum(_fraction(v["fraction"]) for v in res["effect"].values()) == 1


def test_exact_melee_odds_agree_with_the_seeded_engine():
    """3,000 seeded melees: every result's frequency within 4 standard deviations of its exact probability."""
    case = {"melee": {"kind": "attack",
                      "defender": {"id": "d", "side": "south", "type": "ashigaru_spears", "figures": 10},
                      "attackers": [{"id": "f", "side": "north", "type": "samurai_spears", "figures": 8,
                                     "attacks": "front"},
                                    {"id": "c", "side": "north", "type": "cavalry", "figures": 4, "attacks": "left"}]}}
    code, out, _err = run("odds", case)
    odds = json.loads(out)
    n = 3000
    counts = {}
    for seed in range(n):
        code, out, err = run("melee", {**case, "seed": seed})
        assert code == 0, err
        result = json.loads(out)["result"]
        counts[result] = counts.get(result, 0) + 1
    for result, p in odds.items():
        if result == "expected_losses":
            continue
        p = float(_fraction(p["fraction"]))
        sd = (p * (1 - p) / n) ** 0.5
        assert abs(counts.get(result, 0) / n - p) <= 4 * sd + 1e-9, (result, counts, p)
    assert set(counts) <= set(odds)


def test_exact_volley_odds_agree_with_the_seeded_engine():
    """2,000 seeded massed volleys: each effect's frequency within 4 standard deviations of its probability."""
    case = {"volley": {"target": {"id": "t", "side": "south", "type": "samurai_spears", "figures": 9,
                                  "has_move_order": False},
                       "shooters": [{"id": "b", "side": "north", "type": "samurai_bows", "figures": 8, "massed": True},
                                    {"id": "q", "side": "north", "type": "ashigaru_arquebus", "figures": 4,
                                     "straight": True}]}}
    code, out, _err = run("odds", case)
    odds = json.loads(out)
    n = 2000
    counts = {}
    for seed in range(n):
        code, out, err = run("volley", {**case, "seed": seed})
        assert code == 0, err
        check = json.loads(out)["target"]["check"]
        effect = check["effect"] if check else "none"          # destroyed: no check (W32), counted as none
        counts[effect] = counts.get(effect, 0) + 1
    for effect, p in odds["effect"].items():
        p = float(_fraction(p["fraction"]))
        sd = (p * (1 - p) / n) ** 0.5
        assert abs(counts.get(effect, 0) / n - p) <= 4 * sd + 1e-9, (effect, counts, p)
    assert set(counts) <= set(odds["effect"])
