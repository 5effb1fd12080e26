"""The army builder on a phone: a unit built, duplicated and edited; the army saved under a name and downloaded as
a file; the file imported into another table's builder (a bad file first, refused in Russian, changing nothing)."""
import json

import pytest

from tests.browser.conftest import PHONE, sign_in
from tests.browser.test_tactical_table import add_unit

pytestmark = pytest.mark.browser


def test_build_duplicate_edit_save_export_import_on_a_phone(tactical_hall, new_page, artifacts, tmp_path):
    from django.contrib.auth import get_user_model

    from larp.tactical import services

    game = tactical_hall
    shots = artifacts / "tactical"
    shots.mkdir(exist_ok=True)
    mod = get_user_model().objects.get(username="tr-mod")
    sides = [("north", "Север", game.factions.get(code="north")), ("south", "Юг", game.factions.get(code="south"))]
    first = services.create(game, "Первый стол", sides, mod, army_lists={"north": "macedonian_sample",
                                                                         "south": "feudal_sample"})
    second = services.create(game, "Второй стол", sides, mod, army_lists={"north": "macedonian_sample",
                                                                          "south": "macedonian_sample"})
    phone = new_page(viewport=PHONE)
    sign_in(phone, "tr-south", "tr-south-password-1")
    phone.goto(f"/g/{game.pk}/tr/{first.pk}/")
    add_unit(phone, "south", "Рыцари", "knight", "cavalry_lance", "heavy_armour", "shield", "dense", 6)
    box = phone.locator("#tr-army-south")
    rows = box.locator(".tr-units tbody tr")
    rows.first.locator("button", has_text="дублировать").click()
    phone.wait_for_load_state()
    assert rows.count() == 2
    second_row = rows.nth(1)
    second_row.locator("summary", has_text="изменить").click()
    edit = second_row.locator("form[action$='/edit-unit/']")
    assert edit.locator("input[name$='-count']").input_value() == "6"     # the form comes filled with the unit
    edit.locator("input[name$='-name']").fill("Рыцари Храма")
    edit.locator("input[name$='-count']").fill("9")
    phone.screenshot(path=str(shots / "builder-edit-390.png"), full_page=True)
    edit.locator("button[type=submit]").click()
    phone.wait_for_load_state()
    assert "Рыцари Храма" in rows.nth(1).inner_text() and "9" in rows.nth(1).inner_text()
    assert "Отряд «Рыцари» продублирован" in phone.content()
    for button in (rows.nth(1).locator("summary", has_text="изменить"),
                   rows.nth(1).locator("button", has_text="дублировать")):
        b = button.bounding_box()
        assert b and b["x"] + b["width"] <= PHONE["width"] + 1, b

    box.locator("summary", has_text="Сохранённые армии и файлы").click()
    box.locator("#id_s-south-name").fill("Крестоносцы")
    box.locator("form[action$='/save/'] button[type=submit]").click()
    phone.wait_for_load_state()
    box.locator("summary", has_text="Сохранённые армии и файлы").click()
    assert box.locator(".tr-saved li", has_text="Крестоносцы").count() == 1
    with phone.expect_download() as got:
        box.locator("a", has_text="Скачать эту армию файлом").click()
    saved = tmp_path / "army.json"
    got.value.save_as(saved)
    doc = json.loads(saved.read_text(encoding="utf-8"))
    assert [u["name"] for u in doc["units"]] == ["Рыцари", "Рыцари Храма"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 2
    phone.screenshot(path=str(shots / "builder-rosters-390.png"), full_page=True)

    phone.goto(f"/g/{game.pk}/tr/{second.pk}/")
    box = phone.locator("#tr-army-south")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**doc, "units": [{**doc["units"][0], "entry": "dragon"}]}), encoding="utf-8")
    box.locator("summary", has_text="Сохранённые армии и файлы").click()
    box.locator("#id_i-south-file").set_input_files(str(bad))
    box.locator("form[action$='/import/'] button[type=submit]").click()
    phone.wait_for_load_state()
    assert "неизвестный род войск «dragon»" in box.inner_text()
    assert box.locator(".tr-units tbody tr", has_text="Рыцари").count() == 0
    box.locator("#id_i-south-file").set_input_files(str(saved))
    box.locator("form[action$='/import/'] button[type=submit]").click()
    phone.wait_for_load_state()
    assert box.locator(".tr-units tbody tr").count() == 2
    assert "Рыцари Храма" in box.inner_text()
    second.refresh_from_db()
    assert second.state["armies"]["south"]["army_list"] == "feudal_sample"
    phone.screenshot(path=str(shots / "builder-imported-390.png"), full_page=True)
