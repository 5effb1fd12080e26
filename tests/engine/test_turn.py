"""The whole turn: storms (R7), the top-down stack (R6.5), retreats and recolouring (R12)."""
import json
import pathlib

import pytest

from larp.engine import CaseError, run_turn, seeded_die
from larp.engine.limits import RETREAT_OPTIONS_LISTED

from .builders import army, faction, fleet, land, make_case, sea

CONTRACT = pathlib.Path(__file__).parent / "contract"

WIN, LOSE = {"attacker": [6], "defender": [1]}, {"attacker": [1], "defender": [6]}



def without_options(retreats):
    """Retreat entries without their legal alternatives (those have their own test)."""
    return [{k: v for k, v in r.items() if k != "options"} for r in retreats]

def contract(name: str) -> dict:
    return json.loads((CONTRACT / f"{name}.case.json").read_text(encoding="utf-8"))


def siege(dice, garrison=("medium",), attacker=("small",), storms=None, modifier=-8, orders=None,
          defender_armies=()):
    """x-1 (small, 4) at mid attacks d's fortress; a modifier on the defender in every battle keeps the
    totals in band 1, so a won storm costs the garrison 2 points and the attacker nothing."""
    factions = [faction("x", capital="xc"), faction("d", capital="dc")]
    provinces = [land("xc", "x"), land("mid", "x"), land("fort", "d", fortress=True, garrison=garrison),
                 land("dc", "d")]
    adjacency = [("xc", "mid"), ("mid", "fort"), ("fort", "dc")]
    armies = [army("x-1", "x", 1, "mid", attacker), *defender_armies]
    choices = {"modifiers": [{"battle": n, "side": "defender", "value": modifier, "reason": "sappers"}
                             for n in range(1, 6)]}
    if storms is not None:
        choices["storms"] = {"fort": storms}
    return make_case(factions, provinces, adjacency, armies,
                     orders=orders if orders is not None else [{"unit": "x-1", "type": "attack", "path": ["fort"]}],
                     dice=dice, choices=choices)


# --- R7 storms -------------------------------------------------------------------------------

def test_four_storms_then_the_besieger_stays():
    r = run_turn(siege([WIN] * 5))
    assert [(f["storm"], f["storm_no"], f["outcome"]) for f in r["fought"]] == [
        (True, 1, "attacker_won"), (True, 2, "attacker_won"), (True, 3, "attacker_won"), (True, 4, "attacker_won")]
    # medium 10 -> 8 -> 6 -> 4 -> 2: two points a storm (band 1)
    assert [f["defender"]["remaining"]["garrison"] for f in r["fought"]] == [
        ["small", "small"], ["small", "detachment"], ["small"], ["detachment"]]
    assert r["state"]["armies"]["x-1"]["province"] == "fort"
    assert r["state"]["provinces"]["fort"] == {"domain": "land", "owner": "d", "capital_of": None, "fortress": True,
                                               "special": None, "garrison": ["detachment"]}
    assert r["recoloured"] == [] and r["retreats"] == []


def test_storm_limit_by_choice():
    r = run_turn(siege([WIN] * 5, storms=2))
    assert len(r["fought"]) == 2 and r["state"]["armies"]["x-1"]["province"] == "fort"


def test_lost_storm_ends_the_assault_and_falls_back():
    r = run_turn(siege([WIN, LOSE, WIN]))
    assert [f["outcome"] for f in r["fought"]] == ["attacker_won", "defender_won"]
    assert without_options(r["retreats"]) == [{"unit": "x-1", "from": "fort", "to": "mid", "destroyed": False, "reason": "repelled"}]
    assert r["state"]["armies"]["x-1"]["province"] == "mid"


def test_tied_storm_ends_the_assault():
    # storm 2: attacker 4 + 3 = 7; defender 8 + 5 - 8 + 2 = 7
    r = run_turn(siege([WIN, {"attacker": [3], "defender": [2]}]))
    assert r["fought"][1]["outcome"] == "tie"
    assert r["retreats"][0]["reason"] == "repelled" and r["state"]["armies"]["x-1"]["province"] == "mid"


def test_fortress_falls_when_the_last_defender_dies_even_on_a_tie():
    # detachment garrison: attacker 4 + 1 = 5; defender 2 + 5 + 1 - 3 = 5: a tie, both lose 2
    r = run_turn(siege([{"attacker": [1], "defender": [1]}], garrison=("detachment",), modifier=-3))
    f = r["fought"][0]
    assert f["outcome"] == "tie" and f["defender"]["destroyed"] == ["garrison"]
    assert r["destroyed"]["garrisons"] == ["fort"]
    assert r["retreats"] == []
    assert r["recoloured"] == [{"province": "fort", "from": "d", "to": "x", "by": "x-1"}]
    assert r["state"]["provinces"]["fort"]["owner"] == "x" and r["state"]["provinces"]["fort"]["garrison"] == []
    assert r["state"]["armies"]["x-1"] == {"faction": "x", "number": 1, "province": "fort",
                                           "troops": ["detachment"], "commanders": []}


def test_empty_fortress_is_taken_without_battle():
    r = run_turn(siege([], garrison=()))
    assert r["fought"] == [] and r["occupied"] == [{"province": "fort", "unit": "x-1"}]
    assert r["state"]["provinces"]["fort"]["owner"] == "x"


def test_owner_armies_hold_the_walls_with_the_garrison():
    d1 = army("d-1", "d", 1, "fort", ["small"])
    r = run_turn(siege([LOSE], defender_armies=[d1]))
    f = r["fought"][0]
    assert f["storm"] and f["defender"]["units"] == ["d-1"] and f["defender"]["garrison"] is True
    assert {i["source"]: i["value"] for i in f["defender"]["items"]}["defence"] == 5
    assert f["defender"]["men"] == 3000 + 7000


def test_besieger_holding_storms_again_next_turn():
    case = siege([WIN] * 4, orders=[])
    case["armies"][0]["province"] = "fort"      # won its last storm last turn: it is still there
    r = run_turn(case)
    assert r["battles"][0]["stack"][1]["side"] == "present"
    assert [f["storm_no"] for f in r["fought"]] == [1, 2, 3, 4]


# --- R6.5 top-down ----------------------------------------------------------------------------

def test_attalia_top_attacks_first_then_the_winner_storms():
    case = contract("seed-attalia-two-attackers")
    case["dice"] = [{"attacker": [6], "defender": [1]}, {"attacker": [6], "defender": [1]}]
    case["seed"] = 3   # later storms
    r = run_turn(case)
    first, second = r["fought"][:2]
    assert (first["attacker"]["faction"], first["defender"]["faction"], first["storm"]) == ("cilicia", "rum", False)
    assert first["outcome"] == "attacker_won"
    assert (second["attacker"]["faction"], second["defender"]["faction"]) == ("cilicia", None)
    assert second["storm"] and second["storm_no"] == 1
    assert without_options(r["retreats"])[0] == {"unit": "rum-2", "from": "attalia", "to": "pisidia", "destroyed": False,
                                "reason": "lost_field_battle"}
    # rum-2 was the defender of that fight: it retreats as a defender, to its own Pisidia


def test_pisidia_turn_with_seeded_dice_is_reproducible():
    case = contract("seed-pisidia-pinned")
    case["seed"] = 1204
    r1, r2 = run_turn(case), run_turn(case)
    assert r1 == r2
    f = r1["fought"][0]
    assert f["attacker"]["dice"] == [seeded_die(1204, 0)] and f["defender"]["dice"] == [seeded_die(1204, 1)]


def test_entered_dice_then_seed_count_dice_over_the_whole_turn():
    case = siege([WIN], storms=2)
    case["seed"] = 5
    r = run_turn(case)
    assert r["fought"][0]["attacker"]["dice"] == [6]
    assert r["fought"][1]["attacker"]["dice"] == [seeded_die(5, 2)]
    assert r["fought"][1]["defender"]["dice"] == [seeded_die(5, 3)]


# --- awaiting and malformed dice ---------------------------------------------------------

def test_awaiting_dice_without_a_seed():
    r = run_turn(siege([WIN]))
    assert len(r["fought"]) == 1 and "state" not in r
    assert {k: v for k, v in r["awaiting"].items() if k != "odds"} == {"n": 2, "province": "fort", "domain": "land", "storm": True, "storm_no": 2,
                             "attacker": {"faction": "x", "units": ["x-1"], "garrison": False,
                                          "before": {"x-1": ["small"]}, "commanders": {"x-1": []}},
                             "defender": {"faction": "d", "units": [], "garrison": True,
                                          "before": {"garrison": ["small", "small"]}, "commanders": {"garrison": []}},
                             "dice_count": {"attacker": 1, "defender": 1}}


def test_wrong_dice_count_in_turn_is_malformed():
    with pytest.raises(CaseError) as err:
        run_turn(siege([{"attacker": [6, 6], "defender": [1, 1]}]))
    assert err.value.field == "dice[0].attacker"


# --- R12 retreats ------------------------------------------------------------------------------

def retreat_map(blocked=(), dice=None, choices=None):
    """y-1 defends b against x-1; b's neighbours: n1 (2 steps from y's capital k), n2 and n3 (1 step), n4
    (1 step, a hostile army there), e1 (x's)."""
    factions = [faction("x", capital="xc"), faction("y", capital="k")]
    provinces = [land("xc", "x"), land("b", "y"), land("k", "y"), land("n1", "y"), land("n2", "y"),
                 land("n3", "y"), land("n4", "y"), land("m", "y"), land("e1", "x")]
    adjacency = [("xc", "e1"), ("e1", "b"), ("b", "n1"), ("b", "n2"), ("b", "n3"), ("b", "n4"),
                 ("n1", "m"), ("m", "k"), ("n2", "k"), ("n3", "k"), ("n4", "k")]
    armies = [army("x-1", "x", 1, "e1", ["large"]), army("y-1", "y", 1, "b", ["medium"], commanders=[4]),
              army("x-2", "x", 2, "n4", ["small"])]
    for i, p in enumerate(blocked):
        armies.append(army(f"x-{i + 3}", "x", i + 3, p, ["small"]))
    return make_case(factions, provinces, adjacency, armies,
                     orders=[{"unit": "x-1", "type": "attack", "path": ["b"]}],
                     dice=dice or [WIN], choices=choices or {})


def test_default_retreat_nearest_capital_ties_by_id():
    r = run_turn(retreat_map())
    assert without_options(r["retreats"]) == [{"unit": "y-1", "from": "b", "to": "n2", "destroyed": False,
                              "reason": "lost_field_battle"}]
    assert r["recoloured"] == [{"province": "b", "from": "y", "to": "x", "by": "x-1"}]


def test_retreat_blocked_everywhere_destroys_and_frees_commanders():
    r = run_turn(retreat_map(blocked=["n1", "n2", "n3"]))
    assert without_options(r["retreats"]) == [{"unit": "y-1", "from": "b", "to": None, "destroyed": True,
                              "reason": "lost_field_battle"}]
    assert r["destroyed"]["armies"] == ["y-1"] and "y-1" not in r["state"]["armies"]
    assert r["unattached_commanders"] == [{"name": "C0", "power": 4, "faction": "y", "province": "k"}]


def test_retreat_choice_overrides_the_default_and_must_be_legal():
    r = run_turn(retreat_map(choices={"retreats": {"y-1": "n1"}}))
    assert r["retreats"][0]["to"] == "n1"
    with pytest.raises(CaseError) as err:
        run_turn(retreat_map(choices={"retreats": {"y-1": "n4"}}))
    assert err.value.field == "choices.retreats.y-1"


def test_repelled_attacker_goes_back_where_it_came_from():
    r = run_turn(retreat_map(dice=[LOSE]))
    assert without_options(r["retreats"]) == [{"unit": "x-1", "from": "b", "to": "e1", "destroyed": False, "reason": "repelled"}]
    assert r["recoloured"] == []


def test_tie_is_a_failed_attack():
    r = run_turn(retreat_map(dice=[{"attacker": [1], "defender": [1]}], choices={
        "modifiers": [{"battle": 1, "side": "attacker", "value": -1, "reason": "fog"}]}))
    # 16 + 1 - 1 = 16 against 10 + 4 + 1 + 1 = 16
    assert r["fought"][0]["outcome"] == "tie"
    assert r["retreats"][0]["unit"] == "x-1" and r["state"]["armies"]["y-1"]["province"] == "b"


# --- R12 recolouring: the ally rule --------------------------------------------------------------

def ally_case(dice):
    """A (a) takes B's (b) undefended province p; C (c), B's ally, beats A there the same turn."""
    factions = [faction("a", capital="ak"), faction("b", capital="bk"), faction("c", capital="ck")]
    provinces = [land("ak", "a"), land("p", "b"), land("bk", "b"), land("ck", "c")]
    adjacency = [("ak", "p"), ("p", "bk"), ("p", "ck")]
    armies = [army("a-1", "a", 1, "ak", ["medium"]), army("c-1", "c", 1, "ck", ["large"])]
    return make_case(factions, provinces, adjacency, armies,
                     orders=[{"unit": "a-1", "type": "attack", "path": ["p"]},
                             {"unit": "c-1", "type": "march", "path": ["p"]}],
                     relations=[{"kind": "alliance", "factions": ["b", "c"]}], dice=dice)


def test_province_goes_to_the_last_army_that_took_it_not_to_the_owners_ally():
    r = run_turn(ally_case([WIN]))
    assert r["occupied"] == [{"province": "p", "unit": "a-1"}]
    assert r["fought"][0]["attacker"]["faction"] == "c" and r["fought"][0]["outcome"] == "attacker_won"
    assert r["retreats"][0]["unit"] == "a-1"
    assert r["recoloured"] == [{"province": "p", "from": "b", "to": "a", "by": "a-1"}]
    assert r["state"]["provinces"]["p"]["owner"] == "a"
    assert r["state"]["armies"]["c-1"]["province"] == "p"


def test_arriving_where_an_ally_already_took_it_is_not_a_taking():
    factions = [faction("a", capital="ak"), faction("a2", capital="ak2"), faction("b", capital="bk")]
    provinces = [land("ak", "a"), land("ak2", "a2"), land("p", "b"), land("bk", "b")]
    adjacency = [("ak", "p"), ("ak2", "p"), ("p", "bk")]
    armies = [army("a-1", "a", 1, "ak", ["small"]), army("a2-1", "a2", 1, "ak2", ["small"])]
    case = make_case(factions, provinces, adjacency, armies,
                     orders=[{"unit": "a-1", "type": "attack", "path": ["p"]},
                             {"unit": "a2-1", "type": "attack", "path": ["p"]}],
                     relations=[{"kind": "alliance", "factions": ["a", "a2"]}])
    r = run_turn(case)
    assert r["recoloured"] == [{"province": "p", "from": "b", "to": "a", "by": "a-1"}]


def test_bodonitsa_turn_recolours_at_regroup():
    r = run_turn(contract("seed-bodonitsa-empty"))
    assert r["recoloured"] == [{"province": "bodonitsa", "from": "athens", "to": "epirus", "by": "epirus-2"}]
    assert r["state"]["armies"]["epirus-2"]["province"] == "bodonitsa"


# --- naval battles ---------------------------------------------------------------------------------

def naval(dice, blocked=False):
    factions = [faction("f", capital="fa"), faction("g", capital="ga")]
    provinces = [land("fa", "f"), land("ga", "g"), sea("s1"), sea("s2"), sea("s3")]
    adjacency = [("fa", "s1"), ("ga", "s3"), ("s1", "s2"), ("s2", "s3")]
    fleets = [fleet("f-f1", "f", 1, "s1", ["armada"]), fleet("g-f1", "g", 1, "s2", ["flotilla"])]
    if blocked:
        fleets += [fleet("f-f2", "f", 2, "s3", ["squadron"]), fleet("f-f3", "f", 3, "s1", ["squadron"])]
    return make_case(factions, provinces, adjacency, [], fleets,
                     orders=[{"unit": "f-f1", "type": "fleet_attack", "sea": "s2", "target_faction": "g"}],
                     dice=dice)


def test_naval_battle_loser_retreats_to_a_free_zone():
    r = run_turn(naval([WIN]))
    f = r["fought"][0]
    assert f["domain"] == "sea" and not f["storm"] and f["outcome"] == "attacker_won"
    assert without_options(r["retreats"]) == [{"unit": "g-f1", "from": "s2", "to": "s3", "destroyed": False,
                              "reason": "lost_naval_battle"}]
    assert r["state"]["fleets"]["f-f1"]["sea"] == "s2"


def test_naval_loser_with_no_free_zone_is_destroyed():
    r = run_turn(naval([WIN], blocked=True))
    assert r["retreats"][0]["destroyed"] is True and r["destroyed"]["fleets"] == ["g-f1"]


def test_repelled_fleet_goes_back():
    r = run_turn(naval([LOSE]))
    assert without_options(r["retreats"]) == [{"unit": "f-f1", "from": "s2", "to": "s1", "destroyed": False, "reason": "repelled"}]


# --- specials across a turn ------------------------------------------------------------------------

def test_special_state_carried_through_the_turn():
    case = contract("seed-pisidia-pinned")
    case["orders"] = [{"unit": "rum-2", "type": "attack", "path": ["meander"]}]
    case["dice"] = [{"attacker": [6], "defender": [1]}]
    r = run_turn(case)
    f = r["fought"][0]
    assert {i["source"]: i["value"] for i in f["defender"]["items"]}["meander_miracle"] == 20
    assert r["state"]["special_state"] == {"meander_miracle": {"used": True}}


def test_greek_fire_choice_by_battle_number():
    case = siege([WIN, WIN], storms=2)
    case["factions"][0]["specials"] = ["greek_fire_land"]
    case["choices"]["greek_fire"] = [2]
    r = run_turn(case)
    sources = [[i["source"] for i in f["attacker"]["items"]] for f in r["fought"]]
    assert "greek_fire_land" not in sources[0] and "greek_fire_land" in sources[1]
    assert r["state"]["special_state"] == {"greek_fire_land": {"charges": 1}}


def test_retreat_lists_its_legal_alternatives_default_first():
    """The console offers another legal retreat (R12); the default comes first."""
    r = run_turn(retreat_map())
    entry = r["retreats"][0]
    assert entry["options"][0] == entry["to"]
    assert set(entry["options"]) >= {"n1", "n2"}
    chosen = run_turn(retreat_map(choices={"retreats": {"y-1": entry["options"][-1]}}))
    assert chosen["retreats"][0]["to"] == entry["options"][-1]


def test_awaiting_battle_carries_itemised_sides_and_exact_odds():
    """Before the dice the console shows both sides itemised and the odds (R8-R10)."""
    case = retreat_map()
    case["dice"], case["seed"] = [], None
    odds = run_turn(case)["awaiting"]["odds"]
    from fractions import Fraction

    total = sum(Fraction(odds[k]["fraction"]) for k in ("attacker_wins", "tie", "defender_wins"))
    assert total == 1
    assert odds["attacker"]["base"] == sum(i["value"] for i in odds["attacker"]["items"])
    assert {"source": "defence", "value": 1} in odds["defender"]["items"]


def _star(n: int, choices=None) -> dict:
    """d holds hub with n armies; hub borders n provinces of d (and x's base); x-1 wins the field battle."""
    factions = [faction("x", capital="xb"), faction("d", capital="d0")]
    provinces = [land("xb", "x"), land("hub", "d")] + [land(f"d{i}", "d") for i in range(n)]
    adjacency = [("xb", "hub")] + [("hub", f"d{i}") for i in range(n)]
    armies = [army("x-1", "x", 1, "xb", ["huge"])] + [army(f"d-{i + 1}", "d", i + 1, "hub", ["detachment"])
                                                      for i in range(n)]
    mods = [{"battle": 1, "side": "attacker", "value": 1000, "reason": "overwhelming"}]
    return make_case(factions, provinces, adjacency, armies,
                     orders=[{"unit": "x-1", "type": "attack", "path": ["hub"]}],
                     dice=[{"attacker": [1, 1], "defender": [1, 1]}],
                     choices={"modifiers": mods, **(choices or {})})


def test_retreat_options_are_bounded_but_any_legal_destination_may_be_chosen():
    # 300 armies in one stack, 300 places to go: listing every option for every army made the
    # result grow with the square of the stack (10,000 armies -> 393 MB of JSON).
    r = run_turn(_star(300))
    assert r["fought"][0]["outcome"] == "attacker_won"
    retreats = [e for e in r["retreats"] if not e["destroyed"]]
    assert len(retreats) > 250
    for entry in retreats:
        assert len(entry["options"]) == RETREAT_OPTIONS_LISTED
        assert entry["options"][0] == entry["to"] == "d0"   # nearest the capital (it is one)
    assert len(json.dumps(r)) < 200_000
    # A destination beyond the listed ones is still legal when chosen.
    unit = retreats[-1]["unit"]
    chosen = run_turn(_star(300, {"retreats": {unit: "d299"}}))
    assert next(e for e in chosen["retreats"] if e["unit"] == unit)["to"] == "d299"
    with pytest.raises(CaseError, match="not a legal retreat"):
        run_turn(_star(300, {"retreats": {unit: "xb"}}))
