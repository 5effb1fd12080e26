"""R8-R11: one autobattle, itemised totals, specials and their state, losses and re-making."""
import json
import pathlib

import pytest

from larp.engine import CaseError, parse_case, run_battle
from larp.engine.battle import Stack, apply_losses, fate, remake, remake_order
from larp.engine.model import Fate, Role, TroopDomain
from larp.engine.rules import DEFAULT_RULES, loss_points, strength_band

from .builders import army, battle_case, faction, land, side

CONTRACT = pathlib.Path(__file__).parent / "contract"


def yanina() -> dict:
    return json.loads((CONTRACT / "seed-yanina-autobattle.case.json").read_text(encoding="utf-8"))


def items(side_result) -> dict:
    return {i["source"]: i["value"] for i in side_result["items"]}


# --- R11 worked example -----------------------------------------------------------

def test_yanina_worked_example():
    r = run_battle(yanina())
    a, d = r["attacker"], r["defender"]
    assert (a["total"], d["total"]) == (32, 35)
    assert items(a) == {"troops": 20, "commanders": 3, "chivalry": 3, "dice": 6}
    assert items(d) == {"troops": 14, "commanders": 5, "defence": 5, "mountain_country": 5, "dice": 6}
    assert (r["difference"], r["band"], r["winner"], r["outcome"]) == (3, 4, "defender", "defender_won")
    assert (a["losses"], d["losses"]) == (8, 6)
    assert a["remaining"] == {"thess-1": ["medium", "detachment"]}
    assert d["remaining"] == {"epirus-3": ["small", "small"]}
    assert a["destroyed"] == d["destroyed"] == []
    assert (a["men"], d["men"]) == (14000, 10000)
    assert r["special_state"] == {}


def test_items_are_in_contract_order():
    r = run_battle(yanina())
    assert [i["source"] for i in r["defender"]["items"]] == [
        "troops", "commanders", "defence", "mountain_country", "dice"]


# --- R11 greedy re-making --------------------------------------------------------

def test_greedy_remaking_examples():
    sit = parse_case(yanina()).situation
    cards = remake_order(sit, TroopDomain.LAND)
    assert remake(20 - 8, cards) == (("medium", "detachment"), 0)
    assert remake(14 - 6, cards) == (("small", "small"), 0)
    assert remake(41, cards) == (("huge", "large"), 1)      # remainder 1 is below the smallest card
    assert remake(1, cards) == ((), 1)


def test_remainder_below_smallest_card_is_lost_and_zero_destroys():
    sit = parse_case(yanina()).situation
    remaining, destroyed = apply_losses(sit, (Stack("a", ("small", "detachment")),), 5, "land")
    assert remaining == {"a": ()} and destroyed == ["a"]   # 6 - 5 = 1 < detachment (2)
    remaining, destroyed = apply_losses(sit, (Stack("a", ("medium",)),), 3, "land")
    assert remaining == {"a": ("small", "detachment")} and destroyed == []   # 7 -> 4 + 2, 1 lost


def test_losses_taken_by_army_number_then_garrison():
    sit = parse_case(yanina()).situation
    stacks = (Stack("n1", ("small",)), Stack("n2", ("medium",)), Stack("garrison", ("small",)))
    remaining, destroyed = apply_losses(sit, stacks, 6, "land")
    # 6 points: small (4) first, then 2 of the medium (10 -> 8 = small + small); the garrison is untouched
    assert remaining == {"n1": (), "n2": ("small", "small"), "garrison": ("small",)}
    assert destroyed == ["n1"]


def test_stack_that_lost_nothing_keeps_its_cards():
    sit = parse_case(yanina()).situation
    stacks = (Stack("a", ("small", "small", "detachment")),)
    assert apply_losses(sit, stacks, 0, "land") == ({"a": ("small", "small", "detachment")}, [])


def test_naval_stacks_remade_with_naval_cards():
    sit = parse_case(yanina()).situation
    remaining, _ = apply_losses(sit, (Stack("f", ("armada",)),), 2, "sea")
    assert remaining == {"f": ("flotilla", "squadron")}


# --- R11 table ------------------------------------------------------------------------

@pytest.mark.parametrize("total,band", [(-5, 1), (0, 1), (10, 1), (11, 2), (20, 2), (21, 3), (40, 4), (41, 5),
                                        (70, 7), (71, 8), (500, 8)])
def test_strength_band(total, band):
    assert strength_band(DEFAULT_RULES, total) == band


@pytest.mark.parametrize("diff,band,expected", [
    (0, 1, (2, 2)), (0, 4, (8, 8)), (3, 4, (6, 8)), (8, 1, (0, 2)), (9, 1, (0, 4)), (16, 2, (2, 6)),
    (17, 3, (4, 10)), (24, 8, (14, 20)), (25, 1, (0, 8)), (30, 5, (8, 16)), (31, 2, (2, 12)),
    (36, 8, (14, 24)), (37, 2, (2, 12)), (99, 8, (14, 24)),
])
def test_loss_table(diff, band, expected):
    assert loss_points(DEFAULT_RULES, diff, band) == expected


# --- R8 dice ----------------------------------------------------------------------------

def _two_sided(att_troops, def_troops, dice, **battle_extra):
    provinces = [land("field", owner="b")]
    factions = [faction("a", capital="field"), faction("b", capital="field")]
    armies = [army("a-1", "a", 1, "field", att_troops), army("b-1", "b", 1, "field", def_troops)]
    battle = {"province": "field", "domain": "land", "storm": False,
              "attacker": side("a", ["a-1"]), "defender": side("b", ["b-1"])}
    battle.update(battle_extra)
    return battle_case(provinces, factions, armies, battle, dice)


def test_one_die_at_exactly_20000_men():
    r = run_battle(_two_sided(["huge"], ["small"], {"attacker": [3], "defender": [4]}))
    assert r["attacker"]["men"] == 20000 and r["attacker"]["dice"] == [3]


def test_two_dice_above_20000_men_for_both_sides():
    r = run_battle(_two_sided(["huge", "detachment"], ["small"], {"attacker": [3, 4], "defender": [1, 2]}))
    assert r["attacker"]["dice"] == [3, 4] and r["defender"]["dice"] == [1, 2]
    assert items(r["attacker"])["dice"] == 7 and items(r["defender"])["dice"] == 3


def test_wrong_dice_count_is_malformed():
    with pytest.raises(CaseError) as err:
        run_battle(_two_sided(["huge", "detachment"], ["small"], {"attacker": [3], "defender": [1]}))
    assert err.value.field == "dice.attacker" and "2 dice" in err.value.problem


def test_seeded_dice_when_no_dice_entered():
    case = _two_sided(["medium"], ["medium"], None)
    del case["dice"]
    case["seed"] = 42
    from larp.engine.dice import seeded_die
    r = run_battle(case)
    assert r["attacker"]["dice"] == [seeded_die(42, 0)] and r["defender"]["dice"] == [seeded_die(42, 1)]


def test_no_dice_and_no_seed_is_malformed():
    case = _two_sided(["medium"], ["medium"], None)
    with pytest.raises(CaseError) as err:
        run_battle(case)
    assert err.value.field == "dice"


def test_tie_both_lose_two_band():
    r = run_battle(_two_sided(["medium"], ["medium"], {"attacker": [4], "defender": [3]}))
    # 10 + 4 = 14 against 10 + 1 (field) + 3 = 14
    assert r["attacker"]["total"] == r["defender"]["total"] == 14
    assert r["winner"] == "tie" and r["outcome"] == "tie"
    assert r["attacker"]["losses"] == r["defender"]["losses"] == 4


def test_moderator_modifiers_are_itemised_with_reason():
    case = _two_sided(["medium"], ["medium"], {"attacker": [4], "defender": [3]},
                      modifiers=[{"side": "defender", "value": 2, "reason": "weather"}])
    r = run_battle(case)
    mods = [i for i in r["defender"]["items"] if i["source"] == "modifier"]
    assert mods == [{"source": "modifier", "value": 2, "reason": "weather"}]
    assert r["defender"]["total"] == 16


# --- R9 conditions ------------------------------------------------------------------------

def _walls_case(*, fortress=False, capital=False, holds_walls=True, special=None, garrison=(), owner="b",
                defender_faction="b", attacker_start=(), dice=None, storm=None, attacker_specials=(),
                defender_specials=(), defender_start=(), greek_fire=None, special_state=None,
                attacker_armies=True, defender_armies=True):
    provinces = [land("city", owner=owner, fortress=fortress, capital_of=owner if capital else None,
                      special=special, garrison=garrison)]
    factions = [faction("a", capital="city", specials=attacker_specials, start=attacker_start),
                faction("b", capital="city", specials=defender_specials, start=defender_start)]
    armies = [army("a-1", "a", 1, "city", ["medium"]), army("b-1", "b", 1, "city", ["medium"])]
    battle = {"province": "city", "domain": "land",
              "attacker": side("a", ["a-1"] if attacker_armies else []),
              "defender": side(defender_faction, ["b-1"] if defender_armies and defender_faction == "b" else [],
                               garrison=bool(garrison), holds_walls=holds_walls)}
    if storm is not None:
        battle["storm"] = storm
    if greek_fire is not None:
        battle["greek_fire"] = greek_fire
    extra = {"special_state": special_state} if special_state is not None else {}
    return battle_case(provinces, factions, armies, battle, dice or {"attacker": [1], "defender": [1]}, **extra)


@pytest.mark.parametrize("fortress,capital,holds,expected", [
    (False, False, True, 1), (True, False, True, 5), (False, True, True, 8), (True, True, True, 8),
    (True, False, False, 1), (True, True, False, 1),
])
def test_defence_position_best_applies_and_only_for_wall_holders(fortress, capital, holds, expected):
    r = run_battle(_walls_case(fortress=fortress, capital=capital, holds_walls=holds))
    assert items(r["defender"])["defence"] == expected


def test_militia_on_attackers_start_province():
    r = run_battle(_walls_case(attacker_start=["city"]))
    assert items(r["attacker"])["militia"] == 3
    assert "militia" not in items(run_battle(_walls_case())["attacker"])


# --- R10 specials ------------------------------------------------------------------------

@pytest.mark.parametrize("special,bonus", [("constantinople", 15), ("thessalonica", 10), ("acrocorinth", 10)])
def test_city_specials_stack_with_capital_for_wall_holders(special, bonus):
    r = run_battle(_walls_case(fortress=True, capital=True, special=special))
    assert items(r["defender"])[special] == bonus and items(r["defender"])["defence"] == 8
    r = run_battle(_walls_case(fortress=True, capital=True, special=special, holds_walls=False))
    assert special not in items(r["defender"])


def test_neutral_garrison_gets_city_special_and_position_but_no_faction_specials():
    r = run_battle(_walls_case(fortress=True, owner=None, defender_faction=None, special="acrocorinth",
                               garrison=["small", "detachment"], defender_specials=["chivalry"]))
    d = items(r["defender"])
    assert d == {"troops": 6, "commanders": 0, "defence": 5, "acrocorinth": 10, "dice": 1}


@pytest.mark.parametrize("special,bonus", [("christian_mercenaries", 2), ("chivalry", 3),
                                           ("best_mercenaries", 6), ("bulgarian_hordes", -3)])
def test_every_land_battle_specials_both_roles(special, bonus):
    r = run_battle(_walls_case(attacker_specials=[special], defender_specials=[special]))
    assert items(r["attacker"])[special] == bonus and items(r["defender"])[special] == bonus


def test_crusader_faction_has_chivalry_even_if_not_listed():
    case = _walls_case()
    case["factions"][0]["crusader"] = True
    assert items(run_battle(case)["attacker"])["chivalry"] == 3


def test_mountain_country_only_on_start_provinces_either_role():
    r = run_battle(_walls_case(attacker_specials=["mountain_country"], attacker_start=["city"]))
    assert items(r["attacker"])["mountain_country"] == 5
    r = run_battle(_walls_case(defender_specials=["mountain_country"], defender_start=["city"]))
    assert items(r["defender"])["mountain_country"] == 5
    r = run_battle(_walls_case(defender_specials=["mountain_country"]))
    assert "mountain_country" not in items(r["defender"])


def _miracle(nicaea_role, state=None, other="rum"):
    provinces = [land("meander", owner="nicaea")]
    factions = [faction("nicaea", capital="meander", specials=["meander_miracle"]),
                faction(other, capital="meander")]
    armies = [army("n-1", "nicaea", 1, "meander", ["medium"]), army("r-1", other, 1, "meander", ["medium"])]
    n_side, r_side = side("nicaea", ["n-1"]), side(other, ["r-1"])
    battle = {"province": "meander", "domain": "land", "storm": False,
              "attacker": n_side if nicaea_role == "attacker" else r_side,
              "defender": r_side if nicaea_role == "attacker" else n_side}
    extra = {"special_state": state} if state is not None else {}
    return battle_case(provinces, factions, armies, battle, {"attacker": [3], "defender": [3]}, **extra)


def test_meander_miracle_defending_first_battle_then_used():
    r = run_battle(_miracle("defender"))
    assert items(r["defender"])["meander_miracle"] == 20
    assert r["special_state"] == {"meander_miracle": {"used": True}}
    r = run_battle(_miracle("defender", state={"meander_miracle": {"used": True}}))
    assert "meander_miracle" not in items(r["defender"])
    assert r["special_state"] == {"meander_miracle": {"used": True}}


def test_meander_miracle_used_up_when_nicaea_attacks():
    r = run_battle(_miracle("attacker"))
    assert "meander_miracle" not in items(r["attacker"])
    assert r["special_state"] == {"meander_miracle": {"used": True}}


def test_meander_miracle_only_against_rum():
    r = run_battle(_miracle("defender", other="latin"))
    assert "meander_miracle" not in items(r["defender"]) and r["special_state"] == {}


def _march(att, dfd, state=None):
    provinces = [land("field", owner="x")]
    factions = [faction("bulgaria", capital="field", specials=["victory_march"]), faction("x", capital="field")]
    armies = [army("b-1", "bulgaria", 1, "field", ["medium"]), army("x-1", "x", 1, "field", ["medium"])]
    battle = {"province": "field", "domain": "land", "storm": False,
              "attacker": side("bulgaria", ["b-1"]), "defender": side("x", ["x-1"])}
    extra = {"special_state": state} if state is not None else {}
    return battle_case(provinces, factions, armies, battle, {"attacker": [att], "defender": [dfd]}, **extra)


def test_victory_march_attacking_and_lost_at_first_defeat():
    r = run_battle(_march(6, 1))
    assert items(r["attacker"])["victory_march"] == 5 and r["outcome"] == "attacker_won"
    assert r["special_state"] == {}
    r = run_battle(_march(1, 6))        # 16 vs 17: a defeat as attacker
    assert r["outcome"] == "defender_won" and r["special_state"] == {"victory_march": {"lost": True}}
    r = run_battle(_march(1, 5))        # 16 vs 16: a tie is not a defeat
    assert r["outcome"] == "tie" and r["special_state"] == {}
    r = run_battle(_march(6, 1, state={"victory_march": {"lost": True}}))
    assert "victory_march" not in items(r["attacker"])


def test_victory_march_not_when_defending():
    case = _march(3, 3)
    case["battle"]["attacker"], case["battle"]["defender"] = side("x", ["x-1"]), side("bulgaria", ["b-1"])
    assert "victory_march" not in items(run_battle(case)["defender"])


def test_greek_fire_storming_by_choice_spends_a_charge():
    r = run_battle(_walls_case(fortress=True, attacker_specials=["greek_fire_land"], storm=True,
                               greek_fire={"attacker": True, "defender": False}))
    assert items(r["attacker"])["greek_fire_land"] == 8
    assert r["special_state"] == {"greek_fire_land": {"charges": 1}}
    r = run_battle(_walls_case(fortress=True, attacker_specials=["greek_fire_land"], storm=True,
                               greek_fire={"attacker": True, "defender": False},
                               special_state={"greek_fire_land": {"charges": 1}}))
    assert r["special_state"] == {"greek_fire_land": {"charges": 0}}
    r = run_battle(_walls_case(fortress=True, attacker_specials=["greek_fire_land"], storm=True,
                               greek_fire={"attacker": True, "defender": False},
                               special_state={"greek_fire_land": {"charges": 0}}))
    assert "greek_fire_land" not in items(r["attacker"]) and r["special_state"] == {"greek_fire_land": {"charges": 0}}


def test_greek_fire_not_chosen_or_not_at_a_fortress():
    r = run_battle(_walls_case(fortress=True, attacker_specials=["greek_fire_land"], storm=True))
    assert "greek_fire_land" not in items(r["attacker"]) and r["special_state"] == {}
    r = run_battle(_walls_case(attacker_specials=["greek_fire_land"], storm=False,
                               greek_fire={"attacker": True, "defender": False}))
    assert "greek_fire_land" not in items(r["attacker"]) and r["special_state"] == {}


def test_greek_fire_defending_a_fortress():
    r = run_battle(_walls_case(fortress=True, defender_specials=["greek_fire_land"],
                               greek_fire={"attacker": False, "defender": True}))
    assert items(r["defender"])["greek_fire_land"] == 8
    assert r["special_state"] == {"greek_fire_land": {"charges": 1}}


def test_naval_battle_has_no_faction_specials_and_field_defence():
    provinces = [{"id": "s", "domain": "sea", "owner": None, "capital_of": None, "fortress": False,
                  "special": None, "garrison": []}]
    factions = [faction("a", specials=["chivalry"], crusader=True), faction("b", specials=["best_mercenaries"])]
    case = battle_case(provinces, factions, [], {
        "province": "s", "domain": "sea",
        "attacker": {"faction": "a", "fleets": ["a-f1"]}, "defender": {"faction": "b", "fleets": ["b-f1"]}},
        {"attacker": [2], "defender": [2]})
    case["fleets"] = [{"id": "a-f1", "faction": "a", "number": 1, "sea": "s", "troops": ["armada"],
                       "commanders": [{"name": "X", "power": 2}]},
                      {"id": "b-f1", "faction": "b", "number": 1, "sea": "s", "troops": ["flotilla"],
                       "commanders": []}]
    r = run_battle(case)
    assert items(r["attacker"]) == {"troops": 16, "commanders": 2, "dice": 2}
    assert items(r["defender"]) == {"troops": 10, "commanders": 0, "defence": 1, "dice": 2}
    assert r["defender"]["remaining"] == {"b-f1": ["squadron"]}   # 10 - 6 = 4


def test_tuned_rules_from_the_case():
    case = yanina()
    case["rules"] = {"defence": {"fortress": 7}, "specials": {"chivalry": {"bonus": 4}}}
    r = run_battle(case)
    assert items(r["defender"])["defence"] == 7 and items(r["attacker"])["chivalry"] == 4


# --- the named values readers translate: loser and each stack's fate ------------------------

def test_fate_of_each_stack_by_rules_r7_r11_r12():
    A, D = Role.ATTACKER, Role.DEFENDER
    assert fate(A, A, False, "x-1", ("medium",), ("small",)) == Fate.REPELLED       # a tie or a defeat
    assert fate(D, D, False, "x-2", ("medium",), ("small",)) == Fate.RETREATS       # beaten in the field
    assert fate(D, D, True, "x-2", ("medium",), ("small",)) == Fate.BESIEGED        # behind the walls
    assert fate(D, D, False, "garrison", ("small",), ("detachment",)) == Fate.DESTROYED  # cannot retreat
    assert fate(A, D, False, "x-1", ("medium",), ()) == Fate.DESTROYED               # reduced to nothing
    assert fate(D, A, True, "garrison", (), ()) == Fate.STAYS                        # an empty garrison
    assert fate(A, D, True, "x-1", ("medium",), ("small",)) == Fate.STAYS


def test_the_battle_result_names_the_loser_and_the_cards_going_in():
    case = json.loads((pathlib.Path(__file__).parent / "contract" / "seed-yanina-autobattle.case.json")
                      .read_text(encoding="utf-8"))
    r = run_battle(case)
    assert r["outcome"] == "defender_won" and r["loser"] == "attacker"
    assert r["attacker"]["before"] == {"thess-1": ["medium", "medium"]}
    assert r["attacker"]["fates"] == {"thess-1": "repelled"} and r["defender"]["fates"]["epirus-3"] == "stays"
