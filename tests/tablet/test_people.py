"""People are shown by their name, never by their login (which for the demo is an English faction id)."""
import pytest
from django.urls import reverse

from larp.campaign.models import Membership
from larp.campaign.services.members import add_moderator, create_player
from larp.orders.services import file_order
from larp.turns import services as turns

DRAW = ["athens", "bulgaria", "nicaea", "epirus", "rum", "latin_empire",
        "thessalonica", "cilicia", "achaea", "trebizond", "venice"]


@pytest.fixture
def night(latin_game):
    mod, _ = add_moderator(latin_game, "mod-login")
    turns.enter_draw(latin_game, mod, DRAW)
    turns.start_game(latin_game, mod)
    nameless, _ = create_player(latin_game.factions.get(code="bulgaria"), "bulgaria")
    named, _ = create_player(latin_game.factions.get(code="venice"), "venice", name="Наталья Лебедева")
    file_order(nameless, latin_game, "bulgaria-4", {"type": "attack", "path": ["serres"]})
    return latin_game, mod, nameless, named


def test_player_pages_name_the_player_not_the_login(night, client_for):
    game, _mod, nameless, named = night
    page = client_for(nameless).get(reverse("tablet:faction", args=[game.pk, "bulgaria"])).content.decode()
    assert "игрок фракции «Болгария»" in page  # top bar and the order card
    assert '<span class="who">bulgaria</span>' not in page
    assert "отдал bulgaria" not in page and "— bulgaria" not in page
    top = client_for(named).get(reverse("tablet:faction", args=[game.pk, "venice"])).content.decode()
    assert '<span class="who">Наталья Лебедева</span>' in top


def test_console_history_and_audit_name_people(night, client_for):
    game, mod, _nameless, _named = night
    turns.next_phase(game, mod)  # past the deadline: the console shows the orders table
    c = client_for(mod)
    for url in (reverse("battles:console", args=[game.pk]), reverse("battles:history_turn", args=[game.pk, 1])):
        page = c.get(url).content.decode()
        assert "игрок фракции «Болгария»" in page, url
        assert ">bulgaria<" not in page, url
    audit = c.get(reverse("turns:audit", args=[game.pk])).content.decode()
    assert "mod-login" not in audit and "модератор" in audit


def test_moderator_must_name_a_new_player(tiny_game, moderator, client_for):
    c = client_for(moderator)
    url = reverse("tablet:add_player", args=[tiny_game.pk])
    page = c.post(url, {"faction": "east", "username": "east-1"}, follow=True).content.decode()
    assert "Укажите имя игрока" in page
    assert not Membership.objects.filter(user__username="east-1").exists()
    page = c.post(url, {"faction": "east", "username": "east-1", "name": "  Олег  Сидоров "},
                  follow=True).content.decode()
    assert Membership.objects.get(user__username="east-1").user.get_full_name() == "Олег Сидоров"
    assert "Игрок Олег Сидоров добавлен" in page
    form = c.get(reverse("tablet:players", args=[tiny_game.pk])).content.decode()
    assert "Имя игрока" in form and 'name="name" required' in form


def test_demo_players_have_russian_names(db, tmp_path, settings):
    from django.core.management import call_command
    settings.VAR_DIR = tmp_path
    call_command("setup_demo", title="Демо для проверки")
    members = Membership.objects.filter(game__title="Демо для проверки").select_related("user")
    assert members.count() == 12
    for m in members:
        name = m.user.get_full_name()
        assert name and all("А" <= ch <= "я" or ch in " ё" for ch in name), (m.user.username, name)
