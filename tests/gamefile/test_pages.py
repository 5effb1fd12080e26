"""The game-file page of the console: moderators download the scenario and the game, upload them back, see the
backups; everyone else is refused (and tests/security/test_urls.py checks every role on every URL)."""
import gzip
import json

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from larp.campaign.models import Game, Membership
from larp.gamefile import backups
from larp.scenarios import files, load


@pytest.fixture
def mod_client(client_for, moderator, settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "backups"
    return client_for(moderator)


def test_the_page_speaks_russian_and_lists_the_backups(mod_client, tiny_game):
    made = backups.back_up(tiny_game.pk)
    page = mod_client.get(reverse("gamefile:page", args=[tiny_game.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Резервные копии" in text and "Сценарий этой игры" in text
    assert reverse("gamefile:backup", args=[tiny_game.pk, made.name]) in text
    mod_client.post(reverse("set_language"), {"language": "en", "next": "/"})
    english = mod_client.get(reverse("gamefile:page", args=[tiny_game.pk])).content.decode()
    assert "Backups" in english and "The scenario of this game" in english
    got = mod_client.get(reverse("gamefile:backup", args=[tiny_game.pk, made.name]))
    assert got.status_code == 200 and gzip.decompress(b"".join(got.streaming_content))[:1] == b"{"


def test_back_up_now_writes_a_copy(mod_client, tiny_game):
    got = mod_client.post(reverse("gamefile:back_up", args=[tiny_game.pk]))
    assert got.status_code == 302 and len(backups.backups(tiny_game.pk)) == 1


def test_download_the_scenario_and_make_a_new_game_of_it(mod_client, tiny_game, moderator):
    got = mod_client.get(reverse("gamefile:scenario", args=[tiny_game.pk]))
    assert got.status_code == 200 and "attachment" in got["Content-Disposition"]
    data = yaml.safe_load(got.content.decode())
    assert data["scenario"]["id"] == "tiny"
    upload = SimpleUploadedFile("tiny.yaml", got.content)
    made = mod_client.post(reverse("gamefile:new_game", args=[tiny_game.pk]), {"file": upload, "title": "Вторая"})
    new = Game.objects.get(title="Вторая")
    assert made.status_code == 302 and made["Location"] == reverse("battles:console", args=[new.pk])
    assert Membership.objects.filter(user=moderator, game=new, role=Membership.MODERATOR).exists()


def test_a_broken_scenario_is_refused_with_every_problem_in_russian(mod_client, tiny_game):
    data = load("tiny")
    data["provinces"][0]["owner"] = "nobody"
    data["provinces"][1]["lat"], data["provinces"][1]["lon"] = data["provinces"][2]["lat"], data["provinces"][2]["lon"]
    upload = SimpleUploadedFile("broken.yaml", files.dump_yaml(data).encode())
    got = mod_client.post(reverse("gamefile:new_game", args=[tiny_game.pk]), {"file": upload, "title": "Сломанная"})
    assert got.status_code == 400 and not Game.objects.filter(title="Сломанная").exists()
    text = got.content.decode()
    assert "Файл не принят" in text and "не фракция" in text and "в той же точке" in text
    binary = SimpleUploadedFile("map.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR")
    got = mod_client.post(reverse("gamefile:new_game", args=[tiny_game.pk]), {"file": binary, "title": "Картинка"})
    assert got.status_code == 400 and "это не текстовый файл" in got.content.decode()


def test_download_the_game_and_restore_it_as_another(mod_client, tiny_game):
    got = mod_client.get(reverse("gamefile:game", args=[tiny_game.pk]))
    assert got.status_code == 200
    data = json.loads(gzip.decompress(got.content))
    assert data["game"]["title"] == tiny_game.title
    upload = SimpleUploadedFile("game.json.gz", got.content)
    restored = mod_client.post(reverse("gamefile:restore", args=[tiny_game.pk]), {"file": upload, "title": "Копия"})
    copy = Game.objects.get(title="Копия")
    assert restored.status_code == 302 and copy.provinces.count() == tiny_game.provinces.count()
    again = mod_client.post(reverse("gamefile:restore", args=[tiny_game.pk]),
                            {"file": SimpleUploadedFile("game.json.gz", got.content), "title": "Копия"})
    assert again.status_code == 400 and "уже есть" in again.content.decode()


def test_an_upload_creates_no_staff_account(mod_client, tiny_game, moderator):
    got = mod_client.get(reverse("gamefile:game", args=[tiny_game.pk]))
    data = json.loads(gzip.decompress(got.content))
    data["users"].append({**data["users"][0], "pk": 99999, "username": "sneaky", "is_superuser": True,
                          "is_staff": True})
    data["objects"].append({"model": "campaign.membership", "pk": 99999,
                            "fields": {"user": 99999, "game": data["game"]["id"], "role": "moderator",
                                       "faction": None}})
    upload = SimpleUploadedFile("game.json", json.dumps(data).encode())
    assert mod_client.post(reverse("gamefile:restore", args=[tiny_game.pk]),
                           {"file": upload, "title": "Тихая"}).status_code == 302
    from django.contrib.auth import get_user_model

    sneaky = get_user_model().objects.get(username="sneaky")
    assert not sneaky.is_superuser and not sneaky.is_staff


@pytest.mark.parametrize("name", ["page", "scenario", "game"])
def test_players_and_strangers_are_refused(client_for, tiny_game, player, stranger, name):
    url = reverse(f"gamefile:{name}", args=[tiny_game.pk])
    assert client_for(player).get(url).status_code == 403
    assert client_for(stranger).get(url).status_code == 403
    assert client_for(None).get(url).status_code == 302


def test_an_upload_gives_no_join_code_to_an_account_that_was_here_before(mod_client, tiny_game, moderator):
    """A crafted file that names an existing account (here: the uploading moderator's own, staff) as a player
    with a working join code gets the code revoked: a file cannot hand out a way into an existing account."""
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser("root", password="root-password-1")
    got = mod_client.get(reverse("gamefile:game", args=[tiny_game.pk]))
    data = json.loads(gzip.decompress(got.content))
    faction = next(o for o in data["objects"] if o["model"] == "campaign.faction")
    data["users"].append({"pk": 99999, "username": "root", "password": "x", "is_superuser": True})
    data["objects"] += [
        {"model": "campaign.membership", "pk": 99999,
         "fields": {"user": 99999, "game": data["game"]["id"], "role": "player", "faction": faction["pk"]}},
        {"model": "tablet.jointoken", "pk": 99999,
         "fields": {"key": "crafted-key", "game": data["game"]["id"], "user": 99999, "created_by": None,
                    "created_at": "2026-01-01T00:00:00+00:00", "expires_at": "2099-01-01T00:00:00+00:00",
                    "revoked_at": None, "revoked_by": None, "last_used_at": None, "uses": 0}},
    ]
    upload = SimpleUploadedFile("game.json", json.dumps(data).encode())
    assert mod_client.post(reverse("gamefile:restore", args=[tiny_game.pk]),
                           {"file": upload, "title": "Ловушка"}).status_code == 302
    game = Game.objects.get(title="Ловушка")
    assert not game.join_tokens.filter(user=admin, revoked_at__isnull=True).exists()
    admin.refresh_from_db()
    assert admin.check_password("root-password-1")
