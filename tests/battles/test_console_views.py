"""Console pages against the role matrix, and a battle confirmed through HTTP."""
import pytest
from django.test import Client
from django.urls import reverse

from larp.battles.models import TurnResolution
from larp.campaign.services.members import add_moderator, create_player
from larp.orders.services import file_order
from larp.turns import services as turns

PAGES = ["battles:movement", "battles:battles", "battles:regroup", "battles:history", "battles:projector"]


@pytest.fixture
def in_movement(latin_game):
    mod, _ = add_moderator(latin_game, "view-mod")
    turns.enter_draw(latin_game, mod, ["athens", "bulgaria", "nicaea", "epirus", "rum", "latin_empire",
                                       "thessalonica", "cilicia", "achaea", "trebizond", "venice"])
    turns.start_game(latin_game, mod)
    bulgar, _ = create_player(latin_game.factions.get(code="bulgaria"), "p-bulgaria")
    file_order(bulgar, latin_game, "bulgaria-4", {"type": "attack", "path": ["serres"]})
    turns.next_phase(latin_game, mod)
    return latin_game, mod, bulgar


def test_pages_for_the_moderator(in_movement, client_for):
    game, mod, _ = in_movement
    c = client_for(mod)
    for name in PAGES:
        response = c.get(reverse(name, args=[game.pk]))
        assert response.status_code == 200, name
    movement = c.get(reverse("battles:movement", args=[game.pk])).content.decode()
    assert "Серре" in movement and "Болгария IV" in movement
    battles = c.get(reverse("battles:battles", args=[game.pk])).content.decode()
    assert "Битва 1" in battles or "Сражение 1" in battles


def test_pages_refused_to_players_and_strangers(in_movement, stranger):
    game, _mod, bulgar = in_movement
    for user in (bulgar, stranger):
        c = Client()
        c.force_login(user)
        for name in PAGES:
            assert c.get(reverse(name, args=[game.pk])).status_code == 403, name
        assert c.post(reverse("battles:battle_action", args=[game.pk, "confirm"]),
                      {"battle": 1, "attacker": 6, "defender": 1}).status_code == 403
    anon = Client()
    assert anon.get(reverse("battles:battles", args=[game.pk])).status_code == 302
    assert not TurnResolution.objects.filter(turn__game=game).exclude(dice=[]).exists()


def test_moderator_confirms_dice_over_http_once(in_movement, client_for):
    game, mod, _ = in_movement
    c = client_for(mod)
    c.get(reverse("battles:battles", args=[game.pk]))
    url = reverse("battles:battle_action", args=[game.pk, "confirm"])
    for _ in range(2):  # a double click
        assert c.post(url, {"battle": 1, "attacker": ["6"], "defender": ["1"]}).status_code == 302
    res = TurnResolution.objects.get(turn__game=game)
    assert res.dice == [{"attacker": [6], "defender": [1]}]
    page = c.get(reverse("battles:battles", args=[game.pk])).content.decode()
    assert "6 : 1" in page or "6:1" in page.replace(" ", "")


def test_console_post_needs_csrf(in_movement):
    game, mod, _ = in_movement
    c = Client(enforce_csrf_checks=True)
    c.force_login(mod)
    assert c.post(reverse("battles:battle_action", args=[game.pk, "undo"])).status_code == 403
    assert c.post(reverse("battles:regroup_action", args=[game.pk, "apply"])).status_code == 403


def test_projector_shows_clock_draw_and_map_without_stacks(in_movement, client_for):
    game, mod, _ = in_movement
    page = client_for(mod).get(reverse("battles:projector", args=[game.pk])).content.decode()
    assert "data-clock" in page and "<svg" in page and "Афины" in page
    assert "Среднее войско" not in page  # positions and flags only, never what a stack holds (R13)
    fragment = client_for(mod).get(reverse("battles:projector", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200 and "<html" not in fragment.content.decode()


def test_console_offers_printing(in_movement, client_for):
    game, mod, _ = in_movement
    page = client_for(mod).get(reverse("battles:console", args=[game.pk])).content.decode()
    assert reverse("sheets:request", args=[game.pk]) in page and "Боевые листы" in page
    assert 'value="protocols"' in page  # the turn's protocols and results are offered


def test_each_fought_value_carries_its_columns_name_for_narrow_screens(in_movement, client_for):
    """Below about 1100 px the fought table is drawn as one card per battle (console.css): every value is shown under
    its column's name from `data-label`, which must be the table head's own word, the outcome's included."""
    import re

    game, mod, _ = in_movement
    c = client_for(mod)
    c.post(reverse("battles:battle_action", args=[game.pk, "confirm"]), {"battle": 1, "attacker": ["6"],
                                                                         "defender": ["1"]})
    page = c.get(reverse("battles:battles", args=[game.pk])).content.decode()
    table = re.search(r'<table class="grid fought">(.*?)</table>', page, re.S).group(1)
    heads = re.findall(r"<th>(.*?)</th>", table)
    row = re.search(r"<tbody>\s*<tr>(.*?)</tr>", table, re.S).group(1)
    labels = re.findall(r'<td[^>]*data-label="([^"]*)"', row)
    assert labels == heads and heads[-1] == "исход", (labels, heads)
