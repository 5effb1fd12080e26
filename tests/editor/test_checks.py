"""The checks the editor shows as one edits (larp/scenarios/validate.py): each names the place it is about."""
import copy

import pytest
from django.utils import translation

from larp.scenarios import load, validate
from larp.scenarios.validate import colour_distance, colours_alike


@pytest.fixture
def tiny():
    return copy.deepcopy(load("tiny"))


def _about(problems, fragment):
    found = [p for p in problems if fragment in str(p)]
    assert found, "\n".join(map(str, problems))
    return found


def _province(data, pid):
    return next(p for p in data["provinces"] if p["id"] == pid)


def test_the_shipped_scenarios_pass_every_new_check():
    assert validate(load("tiny")) == []
    assert validate(load("latin-east-1204")) == []


def test_a_part_of_the_map_cut_off_from_the_rest_is_named_place_by_place(tiny):
    ids = [p["id"] for p in tiny["provinces"]]
    a, b = ids[0], ids[1]
    # Leave a and b joined to each other only.
    tiny["adjacency"] = [pair for pair in tiny["adjacency"] if a not in pair and b not in pair] + [[a, b]]
    problems = _about(validate(tiny), "cannot be reached")
    assert {p.target for p in problems} == {a, b}


def test_two_places_on_the_same_pixel_and_names_that_cover_each_other(tiny):
    one, two, three = tiny["provinces"][:3]
    one.update(x=100, y=100)
    two.update(x=101, y=102)
    three.update(x=100, y=110)
    for p in tiny["provinces"][3:]:
        p.update(x=100 + 300 * tiny["provinces"].index(p), y=500)
    problems = validate(tiny)
    same = _about(problems, "on the same point as")
    assert same[0].target == two["id"] and one["id"] in str(same[0])
    cover = _about(problems, "covers the name of")
    assert cover[0].target == three["id"]


def test_a_capital_outside_its_faction_points_at_the_capital(tiny):
    faction = tiny["factions"][0]
    other = next(p for p in tiny["provinces"] if p["domain"] == "land" and p.get("owner") not in (None, faction["id"]))
    faction["capital"] = other["id"]
    problem = _about(validate(tiny), "capital " + other["id"] + " is owned by")[0]
    assert problem.target == other["id"] and problem.faction == faction["id"]


def test_an_army_at_sea_and_an_army_over_60000_men_point_at_their_place(tiny):
    faction = next(f for f in tiny["factions"] if f.get("armies"))
    sea = next(p["id"] for p in tiny["provinces"] if p["domain"] == "sea")
    army = faction["armies"][0]
    land_type = next(t for t in tiny["troop_types"] if t["domain"] == "land")
    army["troops"] = [land_type["id"]] * (60000 // land_type["men"] + 1)
    problems = validate(tiny)
    over = _about(problems, "an army may have at most 60 000")[0]
    assert over.target == army["province"]
    army["province"] = sea
    at_sea = _about(validate(tiny), "a sea zone: put the army on land")[0]
    assert at_sea.target == sea


def test_colours_alike_for_everyone_and_for_colour_blind_players():
    assert colours_alike("#c62828", "#c62829") == "everyone"
    # Red and green of the same lightness: apart for most, alike for a player who does not see red or green.
    assert colour_distance("#b35900", "#6b7a00") > 20
    assert colours_alike("#b35900", "#6b7a00") in ("protanopia", "deuteranopia")
    assert colours_alike("#1565c0", "#f9a825") is None


def test_a_colour_too_close_is_named_in_the_users_language(tiny):
    tiny["factions"][1]["colour"] = tiny["factions"][0]["colour"].replace("c0", "c1")
    problem = _about(validate(tiny), "too close to")[0]
    assert problem.faction == tiny["factions"][1]["id"]
    with translation.override("ru"):
        text = problem.localized()
    assert "слишком похож" in text and "they look alike" not in text and "выглядят одинаково" in text
