"""The conversion (docs/bridge.md): sizes, leaders, walls, each system's engine accepting the starting case,
the suggested losses rounded half up, and the scenario data checked by the validator."""
import copy
import io
import json
import pathlib

import pytest
import yaml

from larp.bridge import convert
from larp.orda.engine.case import parse as orda_parse
from larp.redplains.engine import cli as red_plains
from larp.scenarios.validate import validate

SCENARIOS = pathlib.Path(__file__).resolve().parents[2] / "larp" / "scenarios"
LATIN = yaml.safe_load((SCENARIOS / "latin-east-1204.yaml").read_text(encoding="utf-8"))
TABLES = LATIN["rules"]["tables"]
POWERS = {t["id"]: t["power"] for t in LATIN["troop_types"]}
# The rules' worked example (R11): Thessalonica's two medium storm Epirus at Янина (small + medium), with a
# detachment in the garrison added.
YANINA = {"province": {"id": "yanina", "name": "Янина", "fortress": True, "capital": False}, "storm": True,
          "attacker": {"faction": "thessalonica", "name": "Фессалоники", "stacks": [
              {"key": "thessalonica-1", "troops": ["medium", "medium"],
               "commanders": [{"name": "Бонифаций", "power": 1}, {"name": "Оберто", "power": 2}]}]},
          "defender": {"faction": "epirus", "name": "Эпир", "stacks": [
              {"key": "epirus-3", "troops": ["small", "medium"], "commanders": [{"name": "Михаил", "power": 5}]},
              {"key": "garrison", "troops": ["detachment"], "commanders": []}]}}


def test_sizes_are_power_times_per_power_rounded_half_up_within_bounds():
    size = {"per_power": 0.65, "min": 4, "max": 16}
    assert [convert.unit_size(p, size) for p in (2, 4, 10, 16, 24)] == [4, 4, 7, 10, 16]   # 6.5 -> 7, 15.6 -> 16
    assert convert.unit_size(10, {"per_power": 0.25, "min": 1, "max": 4}) == 3               # 2.5 -> 3, not 2
    assert convert.half_up(2.5) == 3 and convert.half_up(3.5) == 4 and convert.half_up(2.49) == 2


def test_red_plains_case_one_unit_per_card_leaders_and_a_valid_deployment():
    case = convert.starting_case("red-plains", YANINA, TABLES["red-plains"], POWERS)
    north = [u for u in case["units"] if u["side"] == "north"]
    south = [u for u in case["units"] if u["side"] == "south"]
    assert [(u["type"], u["figures"], u["_stack"]) for u in north] == [
        ("samurai_spears", 7, "thessalonica-1"), ("samurai_spears", 7, "thessalonica-1")]
    assert [(u["type"], u["figures"], u["_card"]) for u in south] == [
        ("ashigaru_arquebus", 4, "small"), ("samurai_spears", 7, "medium"), ("ashigaru_spears", 4, "detachment")]
    assert case["defender"] == "south" and case["field"]["hills"] == []       # Red Plains has no walls
    assert case["leaders"] == [{"name": "Оберто", "kind": "commander", "unit": "n1"},
                               {"name": "Бонифаций", "kind": "general", "unit": "n2"},
                               {"name": "Михаил", "kind": "commander", "unit": "s1"}]
    for side in ("north", "south"):
        c = {**copy.deepcopy(case), "validate": {"phase": "deployment", "side": side, "turn": 0}}
        out = io.StringIO()
        assert red_plains.main(["validate", "-"], io.StringIO(json.dumps(c)), out, io.StringIO()) == 0
        assert json.loads(out.getvalue())["ok"] is True


def test_tactical_case_walls_and_generals():
    case = convert.starting_case("tactical", YANINA, TABLES["tactical"], POWERS)
    a = [u for u in case["units"] if u["side"] == "a"]
    assert [u["figures"][0]["count"] for u in a] == [10, 10] and a[0]["bases"] == 1
    assert a[0]["general"]["name"] == "Оберто" and a[1]["general"]["name"] == "Бонифаций"
    assert a[0]["general"]["_kind"] == "commander_in_chief" and a[1]["general"]["_kind"] == "general"
    # what the pages call the units: the troop card and its stack, numbered where a stack has two of a kind
    named = {**YANINA, "cards": {"medium": "Среднее войско", "small": "Малое войско", "detachment": "Отряд"},
             "attacker": {**YANINA["attacker"], "stacks": [{**YANINA["attacker"]["stacks"][0],
                                                             "name": "Фессалоники I"}]},
             "defender": {**YANINA["defender"], "stacks": [{**YANINA["defender"]["stacks"][0], "name": "Эпир III"},
                                                           {**YANINA["defender"]["stacks"][1], "name": "гарнизон"}]}}
    shown = convert.starting_case("tactical", named, TABLES["tactical"], POWERS)
    assert [u["name"] for u in shown["units"]] == [
        "Среднее войско 1 (Фессалоники I)", "Среднее войско 2 (Фессалоники I)", "Малое войско (Эпир III)",
        "Среднее войско (Эпир III)", "Отряд (гарнизон)"]
    assert case["terrain"] == [{"piece": "fortifications", "side": "b"}]
    field = convert.starting_case("tactical", {**YANINA, "storm": False}, TABLES["tactical"], POWERS)
    assert field["terrain"] == []                                             # walls only in a storm


def test_orda_case_parses_with_a_city_for_the_fortress():
    case = convert.starting_case("orda", YANINA, TABLES["orda"], POWERS)
    state = orda_parse(case)
    assert len(state.units) == 1 + 2 + 1 + 3          # a leader and a token per card, each side
    city = [c for c in case["cities"] if c["kind"] == "city"]
    assert city and city[0]["faction"] == "rus" and city[0]["durability"] == 4
    healths = [u["stats"]["health"] for u in case["units"] if u["_card"]]
    assert healths == [2, 2, 1, 2, 1]                 # 10*0.2 = 2, 4*0.2 -> 1 (min), 2*0.2 -> 1
    assert case["game"]["cities_to_win"] == 2 == len([c for c in case["cities"] if c["faction"] == "rus"])
    assert state.cities_to_win == 2                   # the capital and the fortress's city, not O6's three


def test_suggested_losses_are_power_times_share_lost_rounded_half_up():
    sides = {"attacker": "north", "defender": "south"}
    result = {"winner": "south", "ended_by": "rout",
              "losses": {"north": {"start": 14, "lost": 7}, "south": {"start": 15, "lost": 2}}}
    out = convert.suggested_outcome(result, sides, {"attacker": 21, "defender": 16})
    assert out == {"winner": "defender", "losses": {"attacker": 11, "defender": 2}}   # 10.5 -> 11; 2.13 -> 2
    draw = convert.suggested_outcome({"winner": None, "losses": {}}, sides, {"attacker": 5, "defender": 5})
    assert draw == {"winner": "tie", "losses": {"attacker": 0, "defender": 0}}


def test_the_validator_checks_the_conversion():
    assert validate(LATIN) == []
    bad = copy.deepcopy(LATIN)
    del bad["rules"]["tables"]["red-plains"]["units"]["huge"]
    bad["rules"]["tables"]["orda"]["size"] = {"per_power": 0, "min": 3, "max": 2}
    bad["rules"]["tables"]["chess"] = {}
    bad["rules"]["tables"]["orda"]["sides"] = {"attacker": "rus", "defender": "north_mongolia"}
    problems = [str(p) for p in validate(bad)]
    assert any("rules.tables.orda.sides" in p and "Mongol" in p for p in problems)   # conquest's roles (O6)
    assert any("huge has no unit" in p for p in problems)
    assert any("per_power must be a positive number" in p for p in problems)
    assert any("min and max" in p for p in problems)
    assert any("rules.tables.chess" in p and "unknown rule system" in p for p in problems)


@pytest.mark.parametrize("name", ["tiny", "latin-east-1204"])
def test_every_scenario_converts_to_every_system(name):
    data = yaml.safe_load((SCENARIOS / f"{name}.yaml").read_text(encoding="utf-8"))
    assert validate(data) == [] and set(data["rules"]["tables"]) == set(convert.SYSTEMS)
