"""The builder's units edited and duplicated; saved armies (per game) loaded into another table; armies exported
and imported as files — each validated as the builder validates, a refusal in Russian changing nothing."""
import json

from django.core.files.uploadedfile import SimpleUploadedFile

from larp.tactical import rosters, services
from larp.tactical.models import Roster

from .conftest import ARCHERS, KNIGHTS, add_unit, url


def army(table, side="south"):
    table.refresh_from_db()
    return table.state["armies"][side]


def edit(client, table, side, uid, data):
    return client.post(url(table, "army", side, "edit-unit"),
                       {"item": uid, **{f"e-{uid}-{k}": v for k, v in data.items()}})


def test_a_unit_edited_and_duplicated(table, other_player, client_for):
    c = client_for(other_player)
    assert add_unit(c, table, "south", KNIGHTS).status_code == 302
    uid = army(table)["units"][0]["id"]
    assert c.post(url(table, "army", "south", "duplicate-unit"), {"item": uid}).status_code == 302
    units = army(table)["units"]
    assert [u["name"] for u in units] == ["Рыцари", "Рыцари"] and units[1]["id"] != uid
    assert edit(c, table, "south", units[1]["id"], {**KNIGHTS, "name": "Рыцари Храма", "count": "9"}).status_code == 302
    units = army(table)["units"]
    assert units[1]["name"] == "Рыцари Храма" and units[1]["count"] == 9 and units[0]["count"] == 6
    log = c.get(url(table, "table")).content.decode()
    assert "Отряд «Рыцари» продублирован" in log and "Отряд «Рыцари Храма» изменён" in log


def test_a_refused_edit_changes_nothing_and_comes_back_filled(table, other_player, client_for):
    c = client_for(other_player)
    add_unit(c, table, "south", KNIGHTS)
    before = army(table)
    uid = before["units"][0]["id"]
    r = edit(c, table, "south", uid, {**KNIGHTS, "name": "Новое имя", "count": "999"})
    assert r.status_code == 400
    page = r.content.decode()
    assert army(table) == before
    assert 'value="Новое имя"' in page and 'value="999"' in page       # what was typed in is not lost
    assert "Убедитесь, что это значение меньше либо равно 150" in page
    assert f'id="tr-edit-{uid}" open' in page


def test_save_load_into_another_table(table, tiny_game, other_player, moderator, client_for):
    c = client_for(other_player)
    add_unit(c, table, "south", KNIGHTS)
    add_unit(c, table, "south", ARCHERS)
    assert c.post(url(table, "army", "south", "save"), {"s-south-name": "Мой крестовый поход"}).status_code == 302
    roster = Roster.objects.get(owner=other_player, game=tiny_game)
    assert roster.name == "Мой крестовый поход" and len(roster.army["units"]) == 2
    other = services.create(tiny_game, "Второй стол", [("north", "Север", tiny_game.factions.get(code="north")),
                                                       ("south", "Юг", tiny_game.factions.get(code="south"))],
                            moderator, army_lists={"north": "macedonian_sample", "south": "macedonian_sample"})
    assert "Мой крестовый поход" in c.get(url(other, "table")).content.decode()
    assert c.post(url(other, "army", "south", "load"), {"roster": roster.pk}).status_code == 302
    loaded = army(other)
    assert loaded["army_list"] == "feudal_sample" and [u["name"] for u in loaded["units"]] == ["Рыцари", "Арбалетчики"]
    # another player's saved army is not this player's to load
    assert client_for(moderator).post(url(other, "army", "south", "load"), {"roster": roster.pk}).status_code == 400


def test_export_then_import_and_bad_files_refused_in_russian(table, other_player, client_for):
    c = client_for(other_player)
    add_unit(c, table, "south", KNIGHTS)
    r = c.get(url(table, "export_army", "south"))
    assert r.status_code == 200 and "attachment" in r["Content-Disposition"]
    doc = json.loads(r.content)
    assert doc["format"] == "larp-tactical-army" and doc["units"][0]["entry"] == "knight"
    assert c.get(url(table, "export_army", "north")).status_code == 403        # not this player's side
    c.post(url(table, "army", "south", "remove-unit"), {"item": army(table)["units"][0]["id"]})
    before = army(table)

    def upload(content, name="army.json"):
        return c.post(url(table, "army", "south", "import"),
                      {"i-south-file": SimpleUploadedFile(name, content, "application/json")})
    for content, words in ((b"{not json", "не JSON"),
                           (json.dumps({**doc, "units": [{**doc["units"][0], "entry": "dragon"}]}).encode(),
                            "неизвестный род войск «dragon»"),
                           (json.dumps({**doc, "units": [{**doc["units"][0], "melee": 9}]}).encode(),
                            "Рукопашный бой: Выберите корректный вариант. 9 нет среди допустимых значений"),
                           (json.dumps({**doc, "army_list": "atlantis"}).encode(), "Неизвестный армейский список")):
        r = upload(content)
        assert r.status_code == 400 and words in r.content.decode(), words
        assert army(table) == before
    assert upload(json.dumps(doc).encode()).status_code == 302
    assert [u["name"] for u in army(table)["units"]] == ["Рыцари"]


def test_validate_rolls_generals_again_and_maps_their_units():
    doc = {"army_list": "macedonian_sample",
           "units": [{"id": "x1", "name": "Фаланга", "entry": "phalangite", "specialty": 3, "steadiness": 3,
                      "melee": 2, "weapon": "infantry_pike", "armour": "light_armour", "shield": None,
                      "horse_armour": None, "javelin": False, "formation": "very_dense", "count": 12}],
           "generals": [{"name": "Парменион", "entry": "phalangite", "type": "regular", "c_in_c": True,
                         "mercenary": False, "method": "roll", "unit": "x1"}]}
    out, rolled = rosters.validate(doc, 400)
    assert out["generals"][0]["unit"] == out["units"][0]["id"] != "x1"
    assert rolled == [{"general": out["generals"][0]["id"], "hand": None}]
