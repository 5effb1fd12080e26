"""Cards played from a hand (T33 rulings): the weather in play, River flood and a Path; the deal from recorded dice."""
import pytest

from larp.rules.dice import die
from larp.tactical import situation as sit
from larp.tactical.engine import data
from larp.tactical.engine.errors import CaseError
from larp.tactical.engine.strategic import play_card

RULES = data.load()
CLEAR = [["clear"] * 5 for _ in range(5)]


def play(card, weather=(), flood=False, cell=None, grid=None, rivers=()):
    return play_card(RULES, {"grid": grid or CLEAR, "rivers": list(rivers), "paths": [], "weather": list(weather),
                             "flood": flood, "card": card, "cell": cell})


def test_weather_cards_lie_together_and_sun_removes_the_wet():
    assert play("rain")["weather"] == ["rain"]
    assert play("heavy_mud", ["rain"])["weather"] == ["rain", "heavy_mud"]
    assert play("fog", ["rain", "heavy_mud"])["weather"] == ["rain", "heavy_mud", "fog"]
    assert play("sun", ["rain", "wet_ground", "heavy_mud", "fog"])["weather"] == ["fog", "sun"]
    assert play("strong_wind", ["rain", "heavy_mud"])["weather"] == ["rain", "strong_wind"]
    assert play("rain", ["rain", "fog"])["weather"] == ["fog", "rain"]       # a new card replaces the old


@pytest.mark.parametrize("card", ["heavy_mud", "river_flood"])
def test_heavy_mud_and_the_flood_only_after_rain(card):
    assert play(card)["refused"][0]["rule"] == "T33"
    assert play(card, ["sun"])["refused"][0]["rule"] == "T33"


def test_river_flood_floods_and_keeps_the_weather():
    assert play("river_flood", ["rain"]) == {"weather": ["rain"], "flood": True, "paths": []}


def test_a_path_lies_on_mountains_or_a_river():
    grid = [row[:] for row in CLEAR]
    grid[1][2] = "mountains"
    assert play("path", cell=[1, 2], grid=grid)["paths"] == [[1, 2]]
    assert play("path", cell=[3, 4], rivers=[{"col": 4}])["paths"] == [[3, 4]]
    assert play("path", cell=[0, 0], grid=grid)["refused"][0]["rule"] == "T33"
    with pytest.raises(CaseError):
        play("path", grid=grid)                                              # no cell


def test_other_cards_change_nothing_and_unknown_cards_are_malformed():
    assert play("ambush", ["rain"], True) == {"weather": ["rain"], "flood": True, "paths": []}
    with pytest.raises(CaseError):
        play("dragon")


def test_the_deal_follows_the_recorded_dice():
    seed = 42
    picks = [die(seed, k, sides=i + 1) for k, i in enumerate(range(len(sit.DECK) - 1, 0, -1))]
    hands, deck = sit.dealt(picks, ["north", "south"])
    assert [len(hands["north"]), len(hands["south"]), len(deck)] == [6, 6, 28]
    assert sorted(hands["north"] + hands["south"] + deck) == sorted(sit.DECK)
    assert sit.dealt(picks, ["north", "south"]) == (hands, deck)             # the same dice, the same hands
    other = sit.dealt([1] * len(picks), ["north", "south"])
    assert other != (hands, deck)


def test_who_lays_first_and_then_in_turn():
    m = sit.empty_map()
    m["hands"] = {"north": ["forest", "hill", "rain"], "south": ["bushes"]}
    m["lay_first"] = sit.lays_first(m["hands"], ["north", "south"], [])
    assert m["lay_first"] == "north" and sit.next_layer(m) == "north"
    m["lays"], m["hands"]["north"] = ["north"], ["hill", "rain"]
    assert sit.next_layer(m) == "south"
    m["lays"], m["hands"]["south"] = ["north", "south"], []
    assert sit.next_layer(m) == "north"                                      # south has none left
    m["hands"]["north"] = ["rain"]
    assert sit.next_layer(m) is None
    assert sit.lays_first({"a": ["hill"], "b": ["forest"]}, ["a", "b"], [[2, 5]]) == "b"
    assert sit.lays_first({"a": ["hill"], "b": ["forest"]}, ["a", "b"], [[3, 3], [6, 1]]) == "a"
