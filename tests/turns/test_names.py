"""One lookup of the names people read for the engine's ids (larp.turns.selectors.names), for the console,
the projector, the tablet and the refusal messages alike."""
from django.utils import translation

from larp.campaign.models import Faction, Province
from larp.forces.models import Army, Fleet
from larp.orders.messages import refusal_text
from larp.turns.selectors import names


def test_every_table_names_the_games_ids(tiny_game):
    with translation.override("ru"):
        n = names(tiny_game)
        north = Faction.objects.get(game=tiny_game, code="north")
        army = Army.objects.filter(game=tiny_game, faction=north).order_by("number").first()
        fleet = Fleet.objects.filter(game=tiny_game, faction=north).order_by("number").first()
        assert n["factions"]["north"] == north.name and n["colours"]["north"] == north.colour
        assert n["provinces"]["midtown"] == Province.objects.get(game=tiny_game, code="midtown").name
        assert n["units"][army.code] == f"{north.name} {army.roman}" and n["numerals"][fleet.code] == fleet.roman
        assert n["results"]["moved"] == "выполнен"  # the game's words for the engine's named values
        assert n.places["north"] == north.name and n.places["midtown"] == n["provinces"]["midtown"]
        assert set(n) >= {"provinces", "factions", "units", "numerals", "outcomes", "greek_fire"}


def test_the_order_path_reads_only_the_names_it_shows(tiny_game, django_assert_num_queries):
    with django_assert_num_queries(2):  # provinces and factions; no armies, fleets or vocabulary
        places = names(tiny_game).places
    assert "midtown" in places and "north" in places
    with django_assert_num_queries(2):
        n = names(tiny_game.pk, only=["midtown", "north-f1", "north"])
        assert n.word("midtown") == places["midtown"] and n.word("north") == places["north"]
        assert n.word("north-f1") == "I" and n.word("north-2") == "II" and n.word("elsewhere") == "elsewhere"
        assert set(n["provinces"]) == {"midtown"}


def test_a_refusal_names_places_not_ids(tiny_game):
    with translation.override("ru"):
        text = refusal_text(tiny_game.pk, {"code": "not_adjacent", "step": 2,
                                           "params": {"from": "northfield", "to": "midtown"}})
    provinces = names(tiny_game)["provinces"]
    assert provinces["northfield"] in text and provinces["midtown"] in text and "midtown" not in text


def test_paper_reads_the_same_lookup_troop_types_included(tiny_game):
    """Sheets have no names lookup of their own: what a card, a faction or a place prints as is this one's."""
    with translation.override("ru"):
        n = names(tiny_game)
        assert n.troop("medium") == {"name": "Среднее войско", "power": 10, "men": 7000}  # the game's own type
        assert n.troop("large") == {"name": "large", "power": 16, "men": 12000}  # not in this game: the rules' default
        assert n.troop("dragons") == {"name": "dragons", "power": 0, "men": 0}
        assert n.faction("north") == "Север" and n.faction(None) == "нейтральная" and n.faction("gone") == "gone"
        assert n.colour("north") == "#1565c0" and n.colour(None) is None
        assert n.province("midtown") == n["provinces"]["midtown"] and n.province(None) == "—"
