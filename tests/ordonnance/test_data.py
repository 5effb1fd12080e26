"""The rules data: loaded from the project's ordonnance.yaml, checked on load, overridable per case."""
import copy

import pytest
import yaml

from larp.ordonnance.engine import data
from larp.ordonnance.engine.errors import RulesDataError

from .helpers import assert_malformed, card, result, run_case


def test_the_project_data_loads_with_the_specified_numbers():
    rules = data.load_rules()
    assert rules.symbols == ("spear", "bow", "swords", "helmet", "flag")
    assert [(c.id, c.same_symbols) for c in rules.combinations] == [("regiment", 4), ("battalion", 3), ("company", 2)]
    assert (rules.territories, rules.cards_per_army, rules.max_cards_per_player, rules.hand_size) == (5, 4, 20, 5)
    assert (rules.players_min, rules.players_max) == (2, 4)
    assert rules.points_by_place == (3, 2, 1)
    assert rules.numerals == ("I", "II", "III", "IV", "V")
    assert rules.deck_roster is None   # not in the source: scenario data


def _raw():
    return copy.deepcopy(data._raw())


@pytest.mark.parametrize("change, named", [
    (lambda raw: raw["table"].pop("hand_size"), "table.hand_size: missing"),
    (lambda raw: raw["table"].update(draw_per_turn=2), "table.draw_per_turn"),
    (lambda raw: raw["combinations"][2].update(same_symbols=3), "combinations"),
    (lambda raw: raw["symbols"][1].update(rank=1), "symbols[1]"),
    (lambda raw: raw["scoring"].update(points_by_place=[1, 2, 3]), "scoring.points_by_place"),
    (lambda raw: raw["comparison_steps"].reverse(), "comparison_steps"),
    (lambda raw: raw["markers"]["victory"].update(numerals=["I", "II"]), "markers.victory.numerals"),
    (lambda raw: raw.update(deck_roster=[{"symbols": ["flag", "flag"]}]), "deck_roster[0].symbols"),
])
def test_bad_data_is_refused_on_load_naming_the_key(change, named):
    raw = _raw()
    change(raw)
    with pytest.raises(RulesDataError) as caught:
        data.build_rules(raw)
    assert named in str(caught.value)


def test_the_yaml_file_is_a_package_resource_not_a_path():
    text = data.resources.files("larp.ordonnance.engine").joinpath("ordonnance.yaml").read_text(encoding="utf-8")
    assert yaml.safe_load(text)["system"]["id"] == "ordonnance"


def _one_territory_contest(rules=None):
    players = ["anna", "boris", "vera"]
    cards = [["flag"], ["helmet"], ["swords"], ["flag"], ["helmet"], ["swords"], ["flag"], ["helmet"], ["bow"],
             ["flag"], ["swords", "helmet"], ["bow"]]
    plays = [{"player": players[i % 3], "territory": 1, "card": card(*s)} for i, s in enumerate(cards)]
    case = {"players": players, "deck": None, "plays": plays}
    if rules is not None:
        case["rules"] = rules
    return case


def test_a_case_may_override_the_points_by_place():
    assert result("contest", _one_territory_contest())["points"] == {"anna": 3, "boris": 2, "vera": 1}
    scored = result("contest", _one_territory_contest({"points_by_place": [5, 3, 1]}))
    assert scored["points"] == {"anna": 5, "boris": 3, "vera": 1}


@pytest.mark.parametrize("rules, problem", [
    ({"points_by_place": [1, 2]}, "must not grow"),
    ({"territories": 6}, "rules.territories: unknown key"),
    ([1], "must be an object"),
])
def test_a_bad_override_is_malformed(rules, problem):
    code, out, err = run_case("contest", _one_territory_contest(rules))
    assert_malformed(code, out, err, field="rules")
    assert problem in err


def test_a_scenario_roster_in_the_data_is_used_when_the_case_has_no_deck():
    case = _one_territory_contest({"deck_roster": [{"symbols": ["flag"]}]})
    del case["deck"]
    code, out, err = run_case("contest", case)
    assert_malformed(code, out, err, field="plays[1].card")   # a {helmet} is not in that one-card roster
