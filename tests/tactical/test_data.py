"""The rules data: the project's own copy of tactical-rules.yaml, validated on load, overridable by a scenario."""
import pytest

from larp.tactical.engine import data
from larp.tactical.engine.errors import DataError


def test_the_packaged_data_file_loads_frozen():
    rules = data.default_rules()
    assert rules["dice"]["sides"] == 6
    assert rules["categories"]["shooters"]["prices"]["veteran"][0]["price"] == 7
    with pytest.raises(TypeError):
        rules["dice"]["sides"] = 8          # frozen: nobody changes the rules by accident


def test_saves_follow_the_table_of_t7_3():
    rules = data.default_rules()
    table = {"light_armour": [1, 1, 1, 2, 2, 2], "heavy_armour": [1, 1, 2, 2, 3, 3],
             "shield": [0, 0, 1, 1, 1, 2], "large_shield": [0, 1, 1, 2, 2, 3]}
    for item, row in table.items():
        assert [data.saves(rules, item, n) for n in range(1, 7)] == row, item
    assert [data.saves(rules, "shield", n, testudo=True) for n in range(1, 7)] == [0, 1, 1, 2, 2, 3]
    assert [data.saves(rules, "large_shield", n, testudo=True) for n in range(1, 7)] == [0, 1, 2, 2, 3, 4]


def test_a_scenario_override_changes_one_number():
    rules = data.load({"movement": {"base_speed_cm": 24}})
    assert rules["movement"]["base_speed_cm"] == 24
    assert rules["movement"]["fatigue_front_factor"] == 2      # the rest stays
    assert data.default_rules()["movement"]["base_speed_cm"] == 20


@pytest.mark.parametrize("override, words", [
    ({"dice": {"sides": 8}}, "dice.sides"),
    ({"movement": {"base_speed_cm": "fast"}}, "movement.base_speed_cm"),
    ({"protection": {"shield": {"save": [4, 3]}}}, "protection.shield.save"),
    ({"thinning_order": ["very_dense", "square"]}, "thinning_order"),
    ({"generals": {"talent_roll": {3: "none"}}}, "generals.talent_roll.3"),
])
def test_an_unusable_override_is_refused_with_the_key(override, words):
    with pytest.raises(DataError) as exc:
        data.load(override)
    assert words in str(exc.value)


def test_a_case_may_tune_the_numbers_of_the_rules():
    """A scenario's `rules` block: the base speed of 20 cm made 24 moves very dense pikemen 19 cm."""
    from tests.tactical.helpers import case, result
    data = case("src-speed-pikemen")
    assert result("measure", data)["speed_cm"] == 15
    data["rules"] = {"movement": {"base_speed_cm": 24}}
    assert result("measure", data)["speed_cm"] == 19
    data = case("src-large-shield-five-hits")
    data["rules"] = {"unit_test": {"broken_modifier": -3}, "generals": {"death_on": 2}}
    assert result("clash", data)["units"]["b1"]["killed"] == 3


@pytest.mark.parametrize("rules, words", [
    ({"movement": {"base_speed": 24}}, "no such number"),
    ({"movement": {"base_speed_cm": "24"}}, "whole number"),
    ({"movement": {"base_speed_cm": 10 ** 9}}, "whole number"),
    ({"categories": {"swordsmen": {"ru": "x"}}}, "only numbers"),
    ({"dice": {"sides": 8}}, "dice.sides"),
    ({"formations": {"dense": {"front": {"foot": 0}}}}, "front"),
    ([1, 2], "must be an object"),
])
def test_a_case_cannot_break_the_rules_data(rules, words):
    from tests.tactical.helpers import case, run
    data = case("src-speed-pikemen")
    data["rules"] = rules
    code, out, err = run("measure", data)
    assert code == 2 and err.count("\n") == 1 and words in err
