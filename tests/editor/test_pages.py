"""The editor's pages: moderators only, each act re-draws the map and the problems, a game in one click."""
import io
import re

import pytest
from django.urls import reverse
from django.utils import translation
from PIL import Image

from larp.campaign.models import Game, MapPicture, Membership, Province
from larp.editor import services
from larp.editor.models import ScenarioDraft
from larp.scenarios import load


def _png(w=900, h=600) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (w, h), (210, 200, 170)).save(out, "PNG")
    return out.getvalue()


@pytest.fixture
def mod_client(client_for, moderator):
    return client_for(moderator)


def _placed(data):
    """tiny.yaml with every place at a pixel of a 900x600 picture, far enough apart for the names."""
    for i, p in enumerate(data["provinces"]):
        p["x"], p["y"] = 100 + (i % 3) * 300, 80 + (i // 3) * 200
    data["scenario"]["map"] = "map.png"
    data["scenario"]["map_size"] = [900, 600]
    return data


def test_only_moderators_open_the_editor(client_for, player, stranger, mod_client):
    assert client_for(player).get(reverse("editor:drafts")).status_code == 403
    assert client_for(stranger).get(reverse("editor:drafts")).status_code == 403
    assert mod_client.get(reverse("editor:drafts")).status_code == 200


def test_an_act_answers_with_the_map_and_the_problems(mod_client):
    mod_client.post(reverse("editor:new"), {"title": "Проба"})
    draft = ScenarioDraft.objects.get()
    url = reverse("editor:act", args=[draft.pk])
    answer = mod_client.post(url, {"act": "add_place", "x": 120, "y": 80, "domain": "land", "version": 1,
                                   "tab": "map"}, HTTP_HX_REQUEST="true")
    html = answer.content.decode()
    assert answer.status_code == 200 and 'data-id="p1"' in html and 'id="editor"' in html
    assert "не граничит ни с одной провинцией" in html  # the problem, in Russian, linked to the place
    assert 'data-show="p1"' in html
    stale = mod_client.post(url, {"act": "add_place", "x": 300, "y": 80, "version": 1, "tab": "map"},
                            HTTP_HX_REQUEST="true")
    assert "ваше последнее изменение не внесено" in stale.content.decode()
    typed = mod_client.post(url, {"act": "rename_place", "place": "p1", "name_ru": "Моё название", "version": 1,
                                  "tab": "map"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Моё название" in typed and "ваше последнее изменение не внесено" in typed  # what was typed is kept
    draft.refresh_from_db()
    assert len(draft.data["provinces"]) == 1


def test_the_picture_upload_and_the_game_drawn_on_it(mod_client, moderator):
    draft = services.new_draft(moderator, "Мир", _placed(load("tiny")))
    answer = mod_client.post(reverse("editor:upload_picture", args=[draft.pk]),
                             {"version": draft.version, "picture": io.BytesIO(_png())})
    assert answer.status_code == 302
    draft.refresh_from_db()
    assert draft.picture_width == 900
    page = mod_client.get(reverse("editor:page", args=[draft.pk])).content.decode()
    assert reverse("editor:picture", args=[draft.pk, draft.picture_key]) in page
    answer = mod_client.post(reverse("editor:make_game", args=[draft.pk]), {"title": "Игра на рисунке"})
    game = Game.objects.get(title="Игра на рисунке")
    assert answer.status_code == 302 and answer["Location"] == reverse("battles:console", args=[game.pk])
    assert Membership.objects.filter(game=game, user=moderator, role="moderator").exists()
    picture = MapPicture.objects.get(game=game)
    assert (picture.width, picture.height) == (900, 600)
    svg = mod_client.get(reverse("tablet:map_svg", args=[game.pk])).content.decode()
    assert reverse("tablet:map_picture", args=[game.pk, picture.key]) in svg
    # The map's box takes the picture's proportions (a wide picture on a phone: no empty bands around it).
    assert re.search(r'viewBox="0 0 900(\.0)? 600(\.0)?"[^>]* style="aspect-ratio: 900(\.0)? / 600(\.0)?"', svg), svg[:600]
    north = Province.objects.get(game=game, code="northgate")
    # The place stands at its pixel of the picture (no padding around a picture).
    assert re.search(r'data-province="northgate" transform="translate\(100(\.0)? 80(\.0)?\)', svg), svg[:2000]
    assert (north.map_x, north.map_y) == (100, 80)
    body = mod_client.get(reverse("tablet:map_picture", args=[game.pk, picture.key]))
    assert body.status_code == 200 and body["Content-Type"] == "image/png"


def test_a_game_needs_a_scenario_without_problems(mod_client, moderator):
    draft = services.new_draft(moderator, "Пусто")
    answer = mod_client.post(reverse("editor:make_game", args=[draft.pk]), {"title": "Пустая игра"},
                             HTTP_HX_REQUEST="true")
    assert not Game.objects.filter(title="Пустая игра").exists()
    assert "Не выполнено" in answer.content.decode() and "фракций ещё нет" in answer.content.decode()


def test_try_a_turn_shows_the_engines_result(mod_client, moderator):
    draft = services.new_draft(moderator, "Проба", _placed(load("tiny")))
    with translation.override("ru"):
        html = mod_client.post(reverse("editor:try", args=[draft.pk]), {"seed": 3},
                               HTTP_HX_REQUEST="true").content.decode()
    assert "Серединград" in html and "mark-battle" in html
    again = mod_client.post(reverse("editor:try", args=[draft.pk]), {"seed": 3}, HTTP_HX_REQUEST="true")
    assert again.content.decode().count("<li>") == html.count("<li>")


def test_export_import_round_trip(mod_client, moderator):
    draft = services.new_draft(moderator, "Мир", _placed(load("tiny")))
    services.set_picture(draft.pk, draft.version, _png(), "map.png")
    answer = mod_client.get(reverse("editor:export", args=[draft.pk]))
    assert answer["Content-Type"] == "application/zip"
    imported = mod_client.post(reverse("editor:import"), {"file": _named(answer.content, "tiny.zip")})
    assert imported.status_code == 302
    again = ScenarioDraft.objects.exclude(pk=draft.pk).get()
    assert again.picture_width == 900 and len(again.data["provinces"]) == len(draft.data["provinces"])


def _named(raw, name):
    f = io.BytesIO(raw)
    f.name = name
    return f


def test_the_links_to_the_editor(mod_client, tiny_game):
    assert reverse("editor:drafts") in mod_client.get(reverse("home")).content.decode()
    assert reverse("editor:drafts") in mod_client.get(reverse("gamefile:page", args=[tiny_game.pk])).content.decode()


def test_a_game_with_a_picture_goes_to_a_game_file_and_back(moderator):
    from larp.gamefile import services as gamefile
    from larp.scenarios.export import picture_of, scenario_of

    draft = services.new_draft(moderator, "Мир", _placed(load("tiny")))
    services.set_picture(draft.pk, draft.version, _png(), "map.png")
    game = services.make_game(moderator, draft.pk, "С рисунком")
    restored = gamefile.restore(gamefile.loads(gamefile.dumps(gamefile.export_game(game))), title="Копия")
    assert picture_of(restored.game) == picture_of(game) and picture_of(game)[0] == "map.png"
    assert scenario_of(restored.game)["provinces"][0]["x"] == 100


def test_a_malformed_file_opens_and_says_what_to_mend(mod_client):
    raw = ("scenario: {id: odd, name_ru: Странный}\nprovinces: [1, {id: a, name_ru: А, domain: land, x: 5, y: 5}]\n"
           "factions: [{id: f, name_ru: Ф, armies: 3}]\nadjacency: [[[a], b]]\ntroop_types: []\n").encode()
    answer = mod_client.post(reverse("editor:import"), {"file": _named(raw, "odd.yaml")})
    draft = ScenarioDraft.objects.get()
    assert answer["Location"] == reverse("editor:page", args=[draft.pk])
    for tab in ("map", "factions", "numbers", "try"):
        page = mod_client.get(reverse("editor:page", args=[draft.pk]) + f"?tab={tab}")
        assert page.status_code == 200 and "Что исправить" in page.content.decode()
    out = mod_client.post(reverse("editor:act", args=[draft.pk]),
                          {"act": "add_unit", "faction": "f", "kind": "army", "place": "a", "version": draft.version},
                          HTTP_HX_REQUEST="true").content.decode()
    assert "исправьте её в файле" in out
