"""R6: executing orders in draw order, pins, occupations, battle stacks."""
import json
import pathlib

from larp.engine import run_movement

from .builders import army, faction, land, make_case
from .test_orders import small_map

CONTRACT = pathlib.Path(__file__).parent / "contract"


def contract(name: str) -> dict:
    return json.loads((CONTRACT / f"{name}.case.json").read_text(encoding="utf-8"))


def move(result, unit):
    return next(m for m in result["moves"] if m["unit"] == unit)


# --- the original's worked examples (R6) ---------------------------------------------

def test_pisidia_defender_pinned_before_its_turn():
    r = run_movement(contract("seed-pisidia-pinned"))
    assert r["pinned"] == ["rum-2"]
    assert move(r, "rum-2")["result"] == "pinned" and move(r, "rum-2")["to"] == "pisidia"
    assert move(r, "nicaea-4")["result"] == "battle"
    assert r["battles"][0]["stack"] == [
        {"side": "holder", "faction": "rum", "units": ["rum-2"], "garrison": False},
        {"side": "arrival", "faction": "nicaea", "units": ["nicaea-4"], "garrison": False, "from": "meander"}]


def test_bodonitsa_left_empty_is_occupied_without_battle():
    r = run_movement(contract("seed-bodonitsa-empty"))
    assert r["occupied"] == [{"province": "bodonitsa", "unit": "epirus-2"}]
    assert r["battles"] == [] and move(r, "epirus-2")["result"] == "occupied"
    assert [m["unit"] for m in r["moves"]] == ["athens-2", "epirus-2"]


def test_serres_ally_of_the_owner_attacks_the_occupier():
    r = run_movement(contract("seed-serres-ally-attacks"))
    assert move(r, "latin-1")["result"] == "battle" and move(r, "latin-1")["path"] == ["rodosto", "serres"]
    assert [e["side"] for e in r["battles"][0]["stack"]] == ["arrival", "arrival"]
    assert r["pinned"] == []


def test_attalia_two_attackers_and_a_neutral_garrison():
    r = run_movement(contract("seed-attalia-two-attackers"))
    stack = r["battles"][0]["stack"]
    assert stack[0] == {"side": "holder", "faction": None, "units": [], "garrison": True}
    assert [e["faction"] for e in stack[1:]] == ["rum", "cilicia"]
    assert r["pinned"] == []   # rum-2 had already moved


# --- R6.2 / R6.3 / R6.4 ---------------------------------------------------------------

def _line(orders, draw=("f", "g"), owner_b="f", extra_armies=(), relations=(), b_fortress=False, b_garrison=()):
    factions = [faction("f", capital="a"), faction("g", capital="d"), faction("h", capital="d")]
    provinces = [land("a", "f"), land("b", owner_b, fortress=b_fortress, garrison=b_garrison), land("c", "g"),
                 land("d", "g")]
    adjacency = [("a", "b"), ("b", "c"), ("c", "d")]
    armies = [army("f-1", "f", 1, "a", ["medium"]), *extra_armies]
    return make_case(factions, provinces, adjacency, armies, orders=list(orders), relations=list(relations),
                     draw=list(draw) + ["h"])


def test_march_stopped_by_a_hostile_army_becomes_an_attack():
    case = _line([{"unit": "f-1", "type": "march", "path": ["b", "a"][:1]}],
                 extra_armies=[army("g-1", "g", 1, "b", ["small"])])
    r = run_movement(case)
    assert move(r, "f-1")["result"] == "battle" and r["positions"]["armies"]["f-1"] == "b"
    assert r["pinned"] == []   # R6.7: g-1 holds, so it defends without being "pinned"
    assert r["battles"][0]["stack"][-1]["side"] == "arrival"


def test_passing_through_stops_at_the_first_hostile_army():
    case = _line([{"unit": "f-1", "type": "attack", "path": ["b", "c"]}],
                 extra_armies=[army("g-1", "g", 1, "b", ["small"])])
    r = run_movement(case)
    assert move(r, "f-1")["path"] == ["b"] and r["positions"]["armies"]["f-1"] == "b"
    assert r["battles"][0]["province"] == "b"
    holder = r["battles"][0]["stack"][0]
    assert holder["side"] == "present" and holder["faction"] == "g"   # g's army at f's province


def test_attack_on_a_garrison_schedules_a_storm_and_an_empty_target_is_occupied():
    case = _line([{"unit": "f-1", "type": "attack", "path": ["b", "c"]}])
    case["provinces"][2].update(fortress=True, garrison=["detachment"])
    r = run_movement(case)
    assert move(r, "f-1")["result"] == "battle"
    assert r["battles"][0]["stack"][0] == {"side": "holder", "faction": "g", "units": [], "garrison": True}
    case["provinces"][2].update(fortress=True, garrison=[])
    r = run_movement(case)
    assert move(r, "f-1")["result"] == "occupied" and r["occupied"] == [{"province": "c", "unit": "f-1"}]


def test_owner_army_arriving_peacefully_joins_the_holder():
    case = _line([{"unit": "f-1", "type": "march", "path": ["b"]},
                  {"unit": "g-1", "type": "attack", "path": ["b"]}],
                 extra_armies=[army("g-1", "g", 1, "c", ["small"])])
    r = run_movement(case)
    assert r["battles"][0]["stack"] == [
        {"side": "holder", "faction": "f", "units": ["f-1"], "garrison": False},
        {"side": "arrival", "faction": "g", "units": ["g-1"], "garrison": False, "from": "c"}]


def test_allied_army_present_is_not_fought_and_not_pinned():
    case = _line([{"unit": "g-1", "type": "attack", "path": ["b"]}],
                 extra_armies=[army("g-1", "g", 1, "c", ["small"]), army("h-1", "h", 1, "b", ["small"])],
                 relations=[{"kind": "alliance", "factions": ["g", "h"]}])
    r = run_movement(case)
    assert move(r, "g-1")["result"] == "occupied"   # only an ally of g stands in b
    assert r["pinned"] == [] and r["battles"] == []


def test_hold_continues_a_siege():
    case = _line([], extra_armies=[army("g-1", "g", 1, "b", ["medium"])], b_fortress=True, b_garrison=["small"])
    r = run_movement(case)
    assert move(r, "g-1")["result"] == "held"
    assert r["battles"] == [{"province": "b", "domain": "land", "stack": [
        {"side": "holder", "faction": "f", "units": [], "garrison": True},
        {"side": "present", "faction": "g", "units": ["g-1"], "garrison": False}]}]


def test_moves_in_draw_order_armies_by_number_then_fleets():
    case = small_map()
    case["draw"] = ["g", "f", "h", "p"]
    r = run_movement(case)
    assert [m["unit"] for m in r["moves"]] == ["g-1", "g-f1", "f-1", "f-2", "f-f1", "f-f2", "h-1", "h-f1"]
    assert [m["seq"] for m in r["moves"]] == list(range(1, 9))
    assert all(m["result"] == "held" and m["order"] == "hold" for m in r["moves"])


# --- sea orders (R5, R6.1, R6.6) ----------------------------------------------------------

def test_landing_moves_the_fleet_and_lands_the_army():
    r = run_movement(small_map([{"unit": "f-1", "type": "landing", "fleet": "f-f1", "sea": ["s1", "s2"],
                                 "target": "b"}]))
    m = move(r, "f-1")
    assert (m["result"], m["to"], m["fleet"], m["sea"], m["path"]) == ("moved", "b", "f-f1", ["s1", "s2"], ["b"])
    assert r["positions"]["fleets"]["f-f1"] == "s2"
    f = move(r, "f-f1")
    assert (f["order"], f["result"], f["from"], f["to"], f["army"]) == ("carry", "moved", "s1", "s2", "f-1")


def test_sea_attack_enters_from_its_start():
    r = run_movement(small_map([{"unit": "f-1", "type": "sea_attack", "fleet": "f-f1", "sea": ["s1"],
                                 "target": "c"}]))
    assert move(r, "f-1")["result"] == "battle"
    assert r["battles"][0]["stack"][-1] == {"side": "arrival", "faction": "f", "units": ["f-1"],
                                            "garrison": False, "from": "a"}
    assert r["positions"]["fleets"]["f-f1"] == "s1"
    assert r["pinned"] == []   # R6.7: g-1 holds, so it defends without being "pinned"


def test_pinned_fleet_cannot_carry():
    orders = [{"unit": "g-f1", "type": "fleet_attack", "sea": "s1", "target_faction": "f"},
              {"unit": "f-1", "type": "sea_attack", "fleet": "f-f1", "sea": ["s1"], "target": "c"}]
    case = small_map(orders)
    case["draw"] = ["g", "f", "h", "p"]
    r = run_movement(case)
    assert r["pinned"] == ["f-f1"]
    assert move(r, "f-1")["result"] == "failed" and r["positions"]["armies"]["f-1"] == "a"
    assert move(r, "f-f1")["result"] == "pinned"
    assert r["battles"] == [{"province": "s1", "domain": "sea", "stack": [
        {"side": "present", "faction": "f", "units": ["f-f1"], "garrison": False},
        {"side": "arrival", "faction": "g", "units": ["g-f1"], "garrison": False, "from": "s1",
         "target_faction": "f"}]}]


def test_fleet_attack_without_target_fleet_simply_moves():
    r = run_movement(small_map([{"unit": "g-f1", "type": "fleet_attack", "sea": "s2", "target_faction": "p"}]))
    assert move(r, "g-f1")["result"] == "moved" and r["positions"]["fleets"]["g-f1"] == "s2"
    assert r["battles"] == []


def test_fleets_share_a_zone_without_fighting():
    r = run_movement(small_map([{"unit": "g-f1", "type": "fleet_move", "sea": "s2"}]))
    assert r["battles"] == [] and r["positions"]["fleets"]["g-f1"] == "s2"


def test_unit_not_on_the_map_is_left_out():
    case = small_map()
    case["armies"].append(army("f-9", "f", 9, None, ["medium"]))
    case["orders"] = [{"unit": "f-9", "type": "hold"}]
    r = run_movement(case)
    assert r["refused"][0]["code"] == "unit_destroyed"
    assert "f-9" not in r["positions"]["armies"] and all(m["unit"] != "f-9" for m in r["moves"])
