"""The one adapter between the database and the engine: game -> case -> engine -> apply -> game."""
import pytest
from django.db import transaction

from larp.engine import run_turn
from larp.engine.orders import check_order
from larp.turns import situation
from larp.turns.situation import (
    apply_state, army_code, case_from_game, case_with_orders, fleet_code, parse_unit_code, turn_case,
)

ORDERS = [
    {"unit": "bulgaria-4", "type": "attack", "path": ["serres"]},
    {"unit": "rum-2", "type": "attack", "path": ["attalia"]},
    {"unit": "cilicia-2", "type": "attack", "path": ["attalia"]},
    {"unit": "thessalonica-2", "type": "attack", "path": ["yanina"]},
    {"unit": "epirus-2", "type": "attack", "path": ["bodonitsa"]},
    {"unit": "athens-2", "type": "march", "path": ["athens"]},
    {"unit": "latin_empire-1", "type": "attack", "path": ["adrianople"]},
]


def positions(case: dict) -> dict:
    return {
        "armies": {a["id"]: (a["province"], a["troops"]) for a in case["armies"]},
        "fleets": {f["id"]: (f["sea"], f["troops"]) for f in case["fleets"]},
        "provinces": {p["id"]: (p["owner"], p["garrison"]) for p in case["provinces"]},
    }


def test_game_to_case_to_engine_and_back_to_game(latin_game):
    case = case_from_game(latin_game)
    case["orders"], case["seed"] = ORDERS, 1204
    result = run_turn(case)
    assert result["fought"] and result["recoloured"] is not None and "state" in result
    with transaction.atomic():
        apply_state(latin_game, result["state"])
    after = positions(case_from_game(latin_game))
    state = result["state"]
    assert after["armies"] == {uid: (a["province"], a["troops"]) for uid, a in state["armies"].items()}
    assert after["fleets"] == {uid: (f["sea"], f["troops"]) for uid, f in state["fleets"].items()}
    assert after["provinces"] == {pid: (p.get("owner"), p.get("garrison") or []) for pid, p in
                                  state["provinces"].items()}
    assert case_from_game(latin_game)["special_state"] == state["special_state"]
    # Something really changed, so the comparison above is not between two unchanged maps.
    assert after != positions(case)


@pytest.mark.parametrize("faction", ["north", "latin_empire", "a-b"])
@pytest.mark.parametrize("number", [1, 12])
def test_unit_codes_both_ways(faction, number):
    assert parse_unit_code(army_code(faction, number)) == (faction, "army", number)
    assert parse_unit_code(fleet_code(faction, number)) == (faction, "fleet", number)


@pytest.mark.parametrize("code", ["", "north", "-2", "north-", "north-f", "north-0", "north-x2", "north-²"])
def test_what_is_no_unit_code(code):
    assert parse_unit_code(code) is None


def test_the_turn_start_situation_is_parsed_once_and_cases_are_built_on_it(latin_game):
    from larp.turns.models import Turn

    turn = Turn.objects.create(game=latin_game, number=1, start_state=case_from_game(latin_game))
    first = situation.start_situation(turn)
    assert situation.start_situation(turn) is first  # one cache, no re-serialising per call
    case = case_with_orders(turn, [ORDERS[0]])
    assert case.situation is first and [o.unit for o in case.orders] == ["bulgaria-4"]
    assert check_order(case, ORDERS[1]) is None
    whole = turn_case(turn, ORDERS, [{"attacker": [6], "defender": [1]}], {"storms": {}})
    assert whole["orders"] == ORDERS and whole["seed"] is None and whole["dice"][0]["attacker"] == [6]
    assert whole["armies"] == turn.start_state["armies"]


def test_the_start_case_is_the_turns_stored_state_or_the_game_now(tiny_game, moderator):
    from larp.campaign.models import Province
    from larp.forces.models import Army
    from larp.turns import services

    assert situation.start_case(tiny_game) == case_from_game(tiny_game)  # no turn yet: the game as it stands
    turn = services.start_game(tiny_game, moderator).turn
    Army.objects.filter(game=tiny_game, faction__code="north", number=1).update(
        province=Province.objects.get(game=tiny_game, code="midtown"))
    stored = situation.start_case(tiny_game, turn)
    assert stored == turn.start_state and stored != case_from_game(tiny_game)  # the turn's start, not now


def test_the_turn_start_units_and_places_come_from_the_adapter(tiny_game, moderator):
    from larp.forces.models import Army, Fleet
    from larp.turns import services, situation

    phase = services.start_game(tiny_game, moderator)
    units = situation.start_units(phase.turn)
    armies = {a.code: a.province.code for a in Army.objects.filter(game=tiny_game, destroyed=False)}
    fleets = {f.code: f.sea.code for f in Fleet.objects.filter(game=tiny_game, destroyed=False)}
    assert {u["id"]: u["place"] for u in units if u["kind"] == "army"} == armies
    assert {u["id"]: u["place"] for u in units if u["kind"] == "fleet"} == fleets
    assert situation.start_positions(phase.turn) == {**armies, **fleets}
    assert all(u["faction"] == u["id"].split("-")[0] for u in units)
