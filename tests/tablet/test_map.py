"""The strategic map: positions and flags for everyone in the game, never a stack's contents (R13)."""
import re

import pytest
from django.test import Client
from django.urls import reverse

from larp.maps import view as maps
from larp.campaign.models import Province, Relation
from larp.forces.models import Army
from tests.tablet.conftest import SOUTH_SECRET_COMMANDER, SOUTH_SECRET_TROOP


def map_url(game):
    return reverse("tablet:map", args=[game.pk])


def svg_src(page: str) -> str:
    return re.search(r'data-map-src="([^"]+)"', page).group(1).replace("&amp;", "&")


def map_text(c, game, url=None) -> str:
    """What a tablet shows: the page (or fragment) naming the map, then the map's SVG itself."""
    page = c.get(url or map_url(game)).content.decode()
    response = c.get(svg_src(page))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("who", ["player", "other_player", "moderator"])
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_every_member_sees_every_flag_and_no_contents(request, client_for, tiny_game, started, who, htmx):
    c = client_for(request.getfixturevalue(who))
    response = c.get(map_url(tiny_game), **({"HTTP_HX_REQUEST": "true"} if htmx else {}))
    assert response.status_code == 200
    if htmx:
        assert "<html" not in response.content.decode() and response.content.decode().lstrip().startswith("<figure")
    text = c.get(svg_src(response.content.decode())).content.decode()
    for unit in ("north-1", "north-2", "south-1", "east-1"):
        assert f'data-unit="{unit}"' in text
    assert 'data-unit="north-f1"' in text and 'class="ship"' in text
    for secret in (SOUTH_SECRET_COMMANDER, SOUTH_SECRET_TROOP, "Альберт", "Среднее войско", "Эскадра"):
        assert secret not in text


def test_outsiders_do_not_see_the_map(client_for, tiny_game, stranger, started):
    svg = reverse("tablet:map_svg", args=[tiny_game.pk])
    for url in (map_url(tiny_game), svg):
        assert client_for(stranger).get(url).status_code == 403
        response = Client().get(url)
        assert response.status_code == 302 and reverse("login") in response["Location"]


def test_provinces_sea_zones_links_and_owner_colours(client_for, tiny_game, player, started):
    text = map_text(client_for(player), tiny_game)
    assert text.count('class="node sea') == 2 and text.count('class="node land') == 7
    assert 'class="link coast"' in text and 'class="link land"' in text and 'class="link sea"' in text
    assert 'fill="#1565c0"' in text  # North's provinces in North's colour
    assert 'fill="#9e9e9e"' in text  # neutral grey
    assert "Серединград" in text and "Северное море" in text
    flag = re.search(r'<g class="flag own" data-faction="north" data-unit="north-2".*?</g>', text, re.S).group(0)
    assert ">II</text>" in flag and "#1565c0" in flag


def test_fortresses_capitals_and_sieges(tiny_game, started):
    data = maps.map_view(tiny_game)
    nodes = {n["code"]: n for n in data["nodes"]}
    assert nodes["midtown"]["fortress"] and nodes["northgate"]["capital"]
    assert not any(n["besieged"] for n in nodes.values())
    # South's army stands in East's capital: a siege (R7). If East lets South pass, it is no siege.
    Army.objects.filter(faction__code="south").update(province=Province.objects.get(game=tiny_game, code="eastgate"))
    assert {n["code"] for n in maps.map_view(tiny_game)["nodes"] if n["besieged"]} == {"eastgate"}
    south, east = tiny_game.factions.get(code="south"), tiny_game.factions.get(code="east")
    Relation.objects.create(game=tiny_game, kind="passage", from_faction=east, to_faction=south)
    assert not any(n["besieged"] for n in maps.map_view(tiny_game)["nodes"])
    # An army in a neutral fortress besieges it.
    Army.objects.filter(faction__code="south").update(province=Province.objects.get(game=tiny_game, code="midtown"))
    assert {n["code"] for n in maps.map_view(tiny_game)["nodes"] if n["besieged"]} == {"midtown"}


def test_besieged_fortress_is_marked_on_the_page(client_for, tiny_game, player, started):
    Army.objects.filter(faction__code="east").update(province=Province.objects.get(game=tiny_game, code="midtown"))
    text = map_text(client_for(player), tiny_game)
    node = re.search(r'<g class="node land fortress besieged"\s+data-province="midtown".*?</g>', text, re.S).group(0)
    assert "siege-ring" in node and "в осаде" in node


def test_faction_page_names_the_map_instead_of_inlining_it(client_for, tiny_game, player, started):
    c = client_for(player)
    text = c.get(reverse("tablet:faction", args=[tiny_game.pk, "north"])).content.decode()
    assert 'id="map"' in text and "<svg data-pan" not in text
    assert 'data-unit="south-1"' in map_text(c, tiny_game, reverse("tablet:faction", args=[tiny_game.pk, "north"]))


def test_the_map_svg_is_cached_by_version_and_renamed_when_it_changes(client_for, tiny_game, player, started):
    c = client_for(player)
    src = svg_src(c.get(map_url(tiny_game)).content.decode())
    response = c.get(src)
    assert "max-age=31536000" in response["Cache-Control"] and "private" in response["Cache-Control"]
    assert svg_src(c.get(map_url(tiny_game)).content.decode()) == src  # nothing moved: the same name
    # An old name is answered with the current map, never cached.
    stale = c.get(src.replace("v=", "v=0"))
    assert "no-cache" in stale["Cache-Control"] and 'data-unit="south-1"' in stale.content.decode()
    Army.objects.filter(faction__code="east").update(province=Province.objects.get(game=tiny_game, code="midtown"))
    assert svg_src(c.get(map_url(tiny_game)).content.decode()) != src
    # Another language is another picture, so another name.
    c.cookies["django_language"] = "en"
    assert svg_src(c.get(map_url(tiny_game)).content.decode()) != svg_src(
        client_for(player).get(map_url(tiny_game)).content.decode())


def test_the_big_scenario_renders(client_for, latin_game):
    from larp.campaign.services.members import add_moderator

    mod, _ = add_moderator(latin_game, "latin-mod")
    response = client_for(mod).get(map_url(latin_game))
    assert response.status_code == 200
    data = maps.map_view(latin_game)
    assert len(data["nodes"]) == latin_game.provinces.count()
    assert all(0 <= n["x"] <= data["width"] and 0 <= n["y"] <= data["height"] for n in data["nodes"])


def test_a_siege_on_the_map_is_the_engines_r1_hostility(tiny_game, started):
    """The map does not keep its own R1: an army besieges a fortress exactly when the engine's situation says
    the province is not friendly to it (an ally's, or one whose owner granted it passage, is)."""
    from larp.engine import parse_case
    from larp.turns.situation import case_from_game

    south, east = tiny_game.factions.get(code="south"), tiny_game.factions.get(code="east")
    Army.objects.filter(faction__code="south").update(province=Province.objects.get(game=tiny_game, code="eastgate"))
    for kind, granter, grantee, besieged in [("passage", south, east, True),   # the wrong way round: still a siege
                                             ("alliance", east, south, False)]:
        Relation.objects.filter(game=tiny_game).delete()
        Relation.objects.create(game=tiny_game, kind=kind, from_faction=granter, to_faction=grantee)
        shown = "eastgate" in {n["code"] for n in maps.map_view(tiny_game)["nodes"] if n["besieged"]}
        engine = parse_case(case_from_game(tiny_game)).situation
        assert shown is besieged is (not engine.friendly_to("south", "east")), kind


def test_the_map_of_a_stored_state_in_either_shape(tiny_game):
    """A turn's start lists provinces and stacks; the state after a regroup keys them by id: both draw the same."""
    from larp.turns.situation import case_from_game

    start = case_from_game(tiny_game)
    after = {key: {row["id"]: {k: v for k, v in row.items() if k != "id"} for row in start[key]}
             for key in ("provinces", "armies", "fleets")}
    army = Army.objects.get(game=tiny_game, faction__code="north", number=2)
    army.province = Province.objects.get(game=tiny_game, code="midtown")
    army.save()
    Province.objects.filter(game=tiny_game, code="midtown").update(owner=army.faction)

    def where(data, code):
        return next(f["place"] for f in data["flags"] if f["code"] == code)

    def owner(data, code):
        return next(n["owner"] for n in data["nodes"] if n["code"] == code)

    now = maps.map_view(tiny_game)
    assert where(now, "north-2") == "Серединград" and owner(now, "midtown") == army.faction.name
    for state in (start, after):
        then = maps.map_view(tiny_game, state=state)
        assert where(then, "north-2") == "Северное Поле" and owner(then, "midtown") != army.faction.name
        assert sorted(f["code"] for f in then["flags"]) == sorted(f["code"] for f in now["flags"])
        assert [s["code"] for s in then["ships"]] == ["north-f1"]


def test_the_extent_is_the_maps_own(latin_game):
    data = maps.map_view(latin_game)
    assert maps.map_extent(latin_game) == (data["width"], data["height"], data["scale"])
