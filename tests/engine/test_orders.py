"""R5: every refusal code, check_order on one order, legal_steps for the order form."""
import pytest

from larp.engine import CaseError, check_order, is_complete, legal_steps, parse_case, run_movement
from larp.engine.orders import legal_fleets, order_from_path

from .builders import army, faction, fleet, land, make_case, scenario_case, sea


def small_map(orders=(), extra_armies=()):
    factions = [faction("f", capital="a"), faction("g", capital="c"), faction("h", capital="e"),
                faction("p", capital="pp")]
    provinces = [land("a", "f"), land("b", "f"), land("c", "g"), land("d"), land("e", "h"), land("pp", "p"),
                 land("far", "f"), sea("s1"), sea("s2"), sea("s3")]
    adjacency = [("a", "b"), ("b", "c"), ("a", "d"), ("a", "e"), ("e", "c"), ("a", "pp"), ("c", "d"),
                 ("a", "s1"), ("b", "s1"), ("c", "s1"), ("e", "s1"), ("d", "s2"), ("b", "s2"), ("far", "s3"),
                 ("s1", "s2")]
    armies = [army("f-1", "f", 1, "a", ["medium"]), army("f-2", "f", 2, "b", ["medium"]),
              army("g-1", "g", 1, "c", ["medium"]), army("h-1", "h", 1, "e", ["medium"]), *extra_armies]
    fleets = [fleet("f-f1", "f", 1, "s1", ["squadron"]), fleet("f-f2", "f", 2, "s2", ["squadron"]),
              fleet("g-f1", "g", 1, "s1", ["squadron"]), fleet("h-f1", "h", 1, "s2", ["squadron"])]
    relations = [{"kind": "alliance", "factions": ["f", "h"]}, {"kind": "passage", "from": "p", "to": "f"}]
    return make_case(factions, provinces, adjacency, armies, fleets, list(orders), relations)


def refusal(order, **kw):
    case = parse_case(small_map(**kw))
    return check_order(case, order)


def code_step(order, **kw):
    r = refusal(order, **kw)
    return None if r is None else (r.code.value, r.step)


@pytest.mark.parametrize("order", [
    {"unit": "f-1", "type": "march", "path": ["b"]},
    {"unit": "f-1", "type": "march", "path": ["b", "far"][:1]},
    {"unit": "f-1", "type": "march", "path": ["pp"]},                      # passage makes it friendly
    {"unit": "f-1", "type": "march", "path": ["e"]},                       # ally's province
    {"unit": "f-1", "type": "attack", "path": ["d"]},
    {"unit": "f-1", "type": "attack", "path": ["b", "c"]},
    {"unit": "f-1", "type": "sea_attack", "fleet": "f-f1", "sea": ["s1"], "target": "c"},
    {"unit": "f-1", "type": "landing", "fleet": "f-f1", "sea": ["s1"], "target": "e"},
    {"unit": "f-1", "type": "landing", "fleet": "f-f1", "sea": ["s1", "s2"], "target": "b"},
    {"unit": "f-f2", "type": "fleet_move", "sea": "s1"},
    {"unit": "f-f2", "type": "fleet_attack", "sea": "s2", "target_faction": "g"},
    {"unit": "f-f2", "type": "fleet_attack", "sea": "s1", "target_faction": "g"},
    {"unit": "f-1", "type": "hold"},
    {"unit": "f-f1", "type": "hold"},
])
def test_legal_orders_pass(order):
    assert refusal(order) is None


@pytest.mark.parametrize("order,expected", [
    ({"unit": "f-f1", "type": "march", "path": ["s2"]}, ("wrong_unit_kind", None)),
    ({"unit": "f-1", "type": "fleet_move", "sea": "s1"}, ("wrong_unit_kind", None)),
    ({"unit": "f-1", "type": "march", "path": []}, ("path_length", None)),
    ({"unit": "f-1", "type": "march", "path": ["b", "c", "d"]}, ("path_length", None)),
    ({"unit": "f-1", "type": "sea_attack", "fleet": "f-f1", "sea": ["s1", "s2"], "target": "d"}, ("path_length", None)),
    ({"unit": "f-1", "type": "landing", "fleet": "f-f1", "sea": [], "target": "e"}, ("path_length", None)),
    ({"unit": "f-1", "type": "march", "path": ["far"]}, ("not_adjacent", 1)),
    ({"unit": "f-1", "type": "attack", "path": ["b", "d"]}, ("not_adjacent", 2)),
    ({"unit": "f-1", "type": "march", "path": ["s1"]}, ("not_land", 1)),
    ({"unit": "f-1", "type": "sea_attack", "fleet": "f-f1", "sea": ["b"], "target": "c"}, ("not_sea", 1)),
    ({"unit": "f-1", "type": "sea_attack", "fleet": "f-f1", "sea": ["s1"], "target": "s2"}, ("not_land", 2)),
    ({"unit": "f-1", "type": "march", "path": ["b", "a"]}, ("repeated_province", 2)),
    ({"unit": "f-1", "type": "march", "path": ["b", "b"]}, ("repeated_province", 2)),
    ({"unit": "f-1", "type": "landing", "fleet": "f-f1", "sea": ["s1", "s1"], "target": "b"}, ("repeated_province", 2)),
    ({"unit": "f-1", "type": "landing", "fleet": "f-f1", "sea": ["s1"], "target": "a"}, ("repeated_province", 2)),
    ({"unit": "f-1", "type": "march", "path": ["d"]}, ("not_friendly", 1)),
    ({"unit": "f-1", "type": "attack", "path": ["d", "c"]}, ("not_friendly", 1)),
    ({"unit": "f-1", "type": "landing", "fleet": "f-f1", "sea": ["s1"], "target": "c"}, ("not_friendly", 2)),
    ({"unit": "f-1", "type": "attack", "path": ["b"]}, ("target_friendly", 1)),
    ({"unit": "f-1", "type": "attack", "path": ["e"]}, ("target_friendly", 1)),
    ({"unit": "f-1", "type": "sea_attack", "fleet": "f-f1", "sea": ["s1"], "target": "e"}, ("target_friendly", 2)),
    ({"unit": "f-1", "type": "sea_attack", "fleet": "g-f1", "sea": ["s1"], "target": "c"}, ("fleet_not_own", None)),
    ({"unit": "f-1", "type": "sea_attack", "fleet": "f-f2", "sea": ["s1"], "target": "c"}, ("fleet_not_there", 1)),
    ({"unit": "f-1", "type": "sea_attack", "fleet": "f-f1", "sea": ["s2"], "target": "d"}, ("not_adjacent", 1)),
    ({"unit": "f-1", "type": "sea_attack", "fleet": "f-f1", "sea": ["s1"], "target": "d"}, ("not_adjacent", 2)),
    ({"unit": "f-1", "type": "landing", "fleet": "f-f1", "sea": ["s1", "s3"], "target": "far"}, ("not_adjacent", 2)),
    ({"unit": "f-f1", "type": "fleet_move", "sea": "s3"}, ("not_adjacent", 1)),
    ({"unit": "f-f1", "type": "fleet_move", "sea": "s1"}, ("not_adjacent", 1)),   # own zone: fleet attack only
    ({"unit": "f-f1", "type": "fleet_move", "sea": "a"}, ("not_sea", 1)),
    ({"unit": "f-f1", "type": "fleet_attack", "sea": "s1", "target_faction": "f"}, ("target_not_hostile", 2)),
    ({"unit": "f-f1", "type": "fleet_attack", "sea": "s2", "target_faction": "h"}, ("target_not_hostile", 2)),
    ({"unit": "f-f1", "type": "fleet_attack", "sea": "s2", "target_faction": "p"}, ("target_not_hostile", 2)),
])
def test_refusal_codes(order, expected):
    assert code_step(order) == expected


def test_refusal_shape_and_reason():
    r = refusal({"unit": "f-1", "type": "march", "path": ["far"]})
    assert r.to_dict() == {"unit": "f-1", "rule": "R5", "step": 1, "code": "not_adjacent",
                           "params": {"from": "a", "to": "far"}, "reason": "step 1 (a → far): not adjacent"}


def test_unit_not_on_the_map():
    lost = army("f-9", "f", 9, None, ["medium"])
    assert code_step({"unit": "f-9", "type": "hold"}, extra_armies=[lost]) == ("unit_destroyed", None)


def test_fleet_busy_later_order_refused_and_fleet_carrying():
    orders = [{"unit": "f-1", "type": "sea_attack", "fleet": "f-f1", "sea": ["s1"], "target": "c"},
              {"unit": "f-2", "type": "landing", "fleet": "f-f1", "sea": ["s1"], "target": "e"},
              {"unit": "f-f1", "type": "fleet_move", "sea": "s2"}]
    case = parse_case(small_map(orders))
    assert check_order(case, orders[0]) is None
    busy = check_order(case, orders[1])
    assert busy.code == "fleet_busy" and busy.params == {"fleet": "f-f1", "unit": "f-1"}
    carrying = check_order(case, orders[2])
    assert carrying.code == "fleet_carrying" and carrying.params == {"fleet": "f-f1", "unit": "f-1"}
    result = run_movement(case)
    assert [(r["unit"], r["code"]) for r in result["refused"]] == [("f-2", "fleet_busy"), ("f-f1", "fleet_carrying")]


def test_fleet_order_filed_first_is_still_refused_for_carrying():
    orders = [{"unit": "f-f1", "type": "fleet_move", "sea": "s2"},
              {"unit": "f-1", "type": "sea_attack", "fleet": "f-f1", "sea": ["s1"], "target": "c"}]
    result = run_movement(small_map(orders))
    assert [(r["unit"], r["code"]) for r in result["refused"]] == [("f-f1", "fleet_carrying")]


def test_refused_army_order_does_not_claim_the_fleet():
    orders = [{"unit": "f-1", "type": "sea_attack", "fleet": "f-f1", "sea": ["s1"], "target": "e"},
              {"unit": "f-2", "type": "sea_attack", "fleet": "f-f1", "sea": ["s1"], "target": "c"}]
    result = run_movement(small_map(orders))
    assert [(r["unit"], r["code"]) for r in result["refused"]] == [("f-1", "target_friendly")]


def test_check_order_on_a_situation_and_malformed_orders():
    sit = parse_case(small_map()).situation
    assert check_order(sit, {"unit": "f-1", "type": "march", "path": ["b"]}) is None
    with pytest.raises(CaseError) as err:
        check_order(sit, {"unit": "f-1", "type": "march", "path": ["nowhere"]})
    assert err.value.field == "order.path[0]"
    with pytest.raises(CaseError):
        check_order(sit, {"unit": "ghost", "type": "hold"})
    with pytest.raises(CaseError):
        check_order(sit, {"unit": "f-1", "type": "teleport"})


def test_refused_order_holds_in_movement():
    result = run_movement(small_map([{"unit": "f-1", "type": "march", "path": ["d"]}]))
    assert result["refused"][0]["code"] == "not_friendly"
    move = next(m for m in result["moves"] if m["unit"] == "f-1")
    assert move["order"] == "hold" and move["result"] == "held" and move["refused"] is True
    assert result["positions"]["armies"]["f-1"] == "a"


# --- legal_steps --------------------------------------------------------------------------

def test_legal_steps_march_and_attack():
    sit = parse_case(small_map()).situation
    assert legal_steps(sit, "f-1", "march", []) == ["b", "e", "pp"]
    assert legal_steps(sit, "f-1", "march", ["b"]) == []          # b's other neighbour c is not friendly
    assert legal_steps(sit, "f-1", "attack", []) == ["b", "d", "e"]  # d target; b and e lead to c
    assert legal_steps(sit, "f-1", "attack", ["b"]) == ["c"]
    assert legal_steps(sit, "f-1", "attack", ["d"]) == []          # a neutral first step is not allowed
    assert legal_steps(sit, "f-1", "attack", ["b", "c"]) == []
    assert not is_complete(sit, "f-1", "attack", ["b"]) and is_complete(sit, "f-1", "attack", ["b", "c"])


def test_legal_steps_sea_orders():
    sit = parse_case(small_map()).situation
    assert legal_steps(sit, "f-1", "sea_attack", []) == ["s1"]
    assert legal_steps(sit, "f-1", "sea_attack", ["s1"]) == ["c"]
    assert legal_steps(sit, "f-1", "landing", ["s1"]) == ["b", "e", "s2"]
    assert legal_steps(sit, "f-1", "landing", ["s1", "s2"]) == ["b"]
    assert legal_fleets(sit, "f-1", "s1") == ["f-f1"]
    assert legal_steps(sit, "f-f1", "fleet_move", []) == ["s2"]
    assert legal_steps(sit, "f-f1", "fleet_attack", []) == ["s1", "s2"]
    assert legal_steps(sit, "f-f1", "fleet_attack", ["s1"]) == ["g"]
    assert legal_steps(sit, "f-f1", "march", []) == []              # wrong unit kind: nothing offered
    order = order_from_path(sit, "f-1", "landing", ["s1", "s2", "b"])
    assert order == {"unit": "f-1", "type": "landing", "fleet": "f-f1", "sea": ["s1", "s2"], "target": "b"}
    assert check_order(sit, order) is None


def test_r5_examples_on_the_default_scenario():
    case = scenario_case()
    case["relations"] = [{"kind": "alliance", "factions": ["latin_empire", "thessalonica"]}]
    sit = parse_case(case).situation
    # Константинополь -> Родосто -> Серре (march)
    assert check_order(sit, {"unit": "latin_empire-1", "type": "march", "path": ["rodosto", "serres"]}) is None
    # Фессалоники -> Серре (march) -> Адрианополь (attack)
    assert check_order(sit, {"unit": "thessalonica-1", "type": "attack", "path": ["serres", "adrianople"]}) is None
    assert "adrianople" in legal_steps(sit, "thessalonica-1", "attack", ["serres"])
    # Коринф -> Юг Эгейского моря -> Эфес (sea attack) / Никосия is not coastal to the South Aegean
    case["armies"].append({"id": "achaea-9", "faction": "achaea", "number": 9, "province": "corinth",
                           "troops": ["small"], "commanders": []})
    sit = parse_case(case).situation
    assert check_order(sit, {"unit": "achaea-9", "type": "sea_attack", "fleet": "achaea-f1",
                             "sea": ["south_aegean"], "target": "ephesus"}) is None
    assert check_order(sit, {"unit": "cilicia-f1", "type": "fleet_move", "sea": "south_aegean"}) is None


def test_fleet_attack_offers_only_factions_with_a_fleet_near_the_battle_zone():
    case = small_map()
    for f in case["fleets"]:
        if f["id"] == "g-f1":
            f["sea"] = "s3"  # g's only fleet sails far away: nothing of g is in or next to s1 or s2
    sit = parse_case(case).situation
    assert legal_steps(sit, "f-f1", "fleet_attack", []) == []  # no zone is offered: nobody to attack near
    assert legal_steps(sit, "f-f1", "fleet_attack", ["s1"]) == []
    assert legal_steps(sit, "f-f1", "fleet_attack", ["s2"]) == []
    f_near = small_map()
    sit = parse_case(f_near).situation
    assert legal_steps(sit, "f-f1", "fleet_attack", ["s2"]) == ["g"]  # g's fleet in s1, next to s2
