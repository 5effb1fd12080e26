"""A whole «Тактические правила» battle through the pages only.

The moderator creates the table; two players build their armies on a tablet (768×1024) and a phone (390 px),
one general's talents rolled at the table and typed in; the moderator approves both armies and starts the
battle, looks at the exact odds, resolves a test with a die typed in, undoes it with a reason, resolves a clash
with the server's dice, rules on a unit with a reason and ends the battle. Then the stored state and result
equal the engine's replay of the stored log, every action's outcome equals the engine run again on its dice.
"""
import pytest

from tests.browser.conftest import PHONE, TABLET, sign_in

pytestmark = pytest.mark.browser


def add_unit(page, side, name, entry, weapon, armour, shield, formation, count):
    box = page.locator(f"#tr-army-{side}")
    box.locator(f"#id_u-{side}-name").fill(name)
    box.locator(f"#id_u-{side}-entry").select_option(entry)
    box.locator(f"#id_u-{side}-weapon").select_option(weapon)
    box.locator(f"#id_u-{side}-armour").select_option(armour)
    box.locator(f"#id_u-{side}-shield").select_option(shield)
    box.locator(f"#id_u-{side}-formation").select_option(formation)
    box.locator(f"#id_u-{side}-count").fill(str(count))
    box.locator("form[action$='/unit/'] button[type=submit]").click()
    page.wait_for_load_state()
    page.locator(f"#tr-army-{side} .tr-units td", has_text=name).first.wait_for()


def add_general(page, side, name, entry, unit_name, method, dice=""):
    box = page.locator(f"#tr-army-{side}")
    box.locator("summary", has_text="Назначить генерала").click()
    box.locator(f"#id_g-{side}-name").fill(name)
    box.locator(f"#id_g-{side}-entry").select_option(entry)
    box.locator(f"#id_g-{side}-unit").select_option(label=unit_name)
    box.locator(f"#id_g-{side}-c_in_c").check()
    box.locator(f"#id_g-{side}-method").select_option(method)
    if method == "points":
        box.locator(f"#id_g-{side}-t_steadiness").fill("1")
        box.locator(f"#id_g-{side}-t_melee").fill("1")
        box.locator(f"#id_g-{side}-t_specialty").fill("1")
    box.locator(f"#id_g-{side}-dice").fill(dice)
    box.locator("form[action$='/general/'] button[type=submit]").click()
    page.wait_for_load_state()
    page.locator(f"#tr-army-{side} .tr-generals", has_text=name).wait_for()


def test_a_whole_tactical_battle_through_the_pages(tactical_hall, new_page, artifacts):
    from larp.dice.models import Roll
    from larp.tables.models import Table
    from larp.tactical import services
    from larp.tactical import situation as sit

    game = tactical_hall
    shots = artifacts / "tactical"
    shots.mkdir(exist_ok=True)
    mod = new_page(viewport={"width": 1280, "height": 1000})
    sign_in(mod, "tr-mod", "tr-mod-password-1")
    mod.goto(f"/g/{game.pk}/tables/")
    mod.locator("a.button", has_text="Тактические правила").click()
    mod.fill("#id_title", "Бой у холма")
    north = game.factions.get(code="north")
    south = game.factions.get(code="south")
    mod.select_option("#id_side_a", str(north.pk))
    mod.select_option("#id_side_b", str(south.pk))
    mod.select_option("#id_list_a", "macedonian_sample")
    mod.select_option("#id_list_b", "feudal_sample")
    mod.click("button[type=submit].button")
    mod.wait_for_load_state()
    table = Table.objects.get(game=game, system="tactical")
    assert table.dice.fingerprint in mod.content()

    tablet = new_page(viewport=TABLET)
    sign_in(tablet, "tr-north", "tr-north-password-1")
    tablet.goto(f"/g/{game.pk}/tr/{table.pk}/")
    add_unit(tablet, "north", "Фаланга", "phalangite", "infantry_pike", "light_armour", "", "very_dense", 12)
    add_general(tablet, "north", "Парменион", "phalangite", "Фаланга", "roll", dice="2 1 6 1")
    assert "по правилам, ждёт мастера" in tablet.content()

    phone = new_page(viewport=PHONE)
    sign_in(phone, "tr-south", "tr-south-password-1")
    phone.goto(f"/g/{game.pk}/tr/{table.pk}/")
    assert "Фаланга" not in phone.content()           # the fog: north's army is not south's to see
    add_unit(phone, "south", "Рыцари", "knight", "cavalry_lance", "heavy_armour", "shield", "dense", 6)
    add_unit(phone, "south", "Копейщики", "spearman", "infantry_spear", "", "large_shield", "dense", 8)
    add_general(phone, "south", "Бодуэн", "knight", "Рыцари", "points")
    # the builder at 390 px: weapons and armour, points and «remove» in view
    row = phone.locator("#tr-army-south .tr-units tbody tr", has_text="Рыцари")
    for cell in (row.locator("td").nth(2), row.locator("td").nth(5), row.locator("button", has_text="убрать")):
        box = cell.bounding_box()
        assert box and box["width"] > 0 and box["x"] + box["width"] <= PHONE["width"] + 1, box
    phone.screenshot(path=str(shots / "builder-390.png"), full_page=True)

    mod.reload()
    mod.locator("button", has_text="Утвердить армию: Север").click()
    mod.wait_for_load_state()
    mod.locator("button", has_text="Утвердить армию: Юг").click()
    mod.wait_for_load_state()
    mod.locator("button", has_text="Начать сражение").click()
    mod.wait_for_load_state()
    table.refresh_from_db()
    units = {u["name"]: u["id"] for u in table.state["units"]}
    assert table.state["phase"] == "battle"
    frame = mod.locator("[data-table-frame]")
    assert "До первого хода" in frame.inner_text() and "Начать первый ход" in frame.inner_text()

    # a refused act (a die is missing and the server may not roll): the page stands at the table's address, and
    # the next «Show the odds» and the next act work (no HTTP 405)
    mod.select_option("#id_kind", "test")
    mod.select_option("#id_test_kind", "unit")
    mod.select_option("#id_attacker", units["Копейщики"])
    mod.fill("#id_hand_dice", "")
    mod.locator("#tr-resolve").click()
    mod.wait_for_load_state()
    assert "Нужен ещё один кубик" in mod.locator("#flash").inner_text()
    assert mod.url.endswith(f"/tr/{table.pk}/"), mod.url
    mod.select_option("#id_kind", "clash")
    mod.select_option("#id_attacker", units["Рыцари"])
    mod.select_option("#id_defender", units["Фаланга"])
    with mod.expect_navigation() as shown:
        mod.locator("button[name=preview]").click()
    # the answer's own status (the page's text holds the table's dice fingerprint: any three digits may be in it)
    assert shown.value.status == 200 and "Точные шансы до броска" in mod.content()

    # every test the engine has is offered
    offered = mod.locator("#id_test_kind option").all_inner_texts()
    for kind in ("Беспорядочное движение", "Проверка на расстройство рядов", "Восстановление рядов",
                 "Верность наёмного генерала"):
        assert any(kind in o for o in offered), offered

    # the first turn: the frame says whose move and the units owing the disorderly-movement test are named
    mod.select_option("#id_first", "south")
    mod.locator("#tr-turn button").click()
    mod.wait_for_load_state()
    frame = mod.locator("[data-table-frame]")
    assert "Ход 1" in frame.inner_text() and "Ходит: Юг" in frame.inner_text()
    assert "Рыцари" in mod.locator("#tr-due-t16").inner_text()
    mod.locator("#tr-due-t16 a", has_text="Рыцари").click()
    mod.wait_for_load_state()
    mod.select_option("#id_target_1", units["Фаланга"])
    mod.fill("#id_hand_dice", "6")
    mod.locator("#tr-resolve").click()
    mod.wait_for_load_state()
    assert "Беспорядочное движение" in mod.locator("#tr-log").inner_text()
    assert "Рыцари" not in mod.locator("#tr-due-t16").inner_text()

    # the odds before any die
    mod.select_option("#id_kind", "clash")
    mod.select_option("#id_attacker", units["Рыцари"])
    mod.select_option("#id_defender", units["Фаланга"])
    mod.locator("button[name=preview]").click()
    mod.wait_for_load_state()
    assert "Точные шансы до броска" in mod.content() and "Проигравший" in mod.content()

    # a test with the die rolled at the table, typed with the dice buttons; then undone with a reason
    mod.select_option("#id_kind", "test")
    mod.select_option("#id_test_kind", "unit")
    mod.select_option("#id_attacker", units["Копейщики"])
    mod.fill("#id_killed", "2")
    mod.fill("#id_hand_dice", "")
    mod.locator(".tr-dicepad [data-die='2']").click()
    assert mod.input_value("#id_hand_dice") == "2"
    mod.locator("#tr-resolve").click()
    mod.wait_for_load_state()
    assert "Тест на стойкость" in mod.locator("#tr-log").inner_text()
    mod.locator("summary", has_text="Отменить последний шаг").click()
    mod.fill("#tr-undo input[name=reason]", "не тот отряд")
    mod.locator("#tr-undo button").click()
    mod.wait_for_load_state()
    assert "не тот отряд" in mod.locator("#tr-log").inner_text()

    # the clash with the server's dice
    mod.select_option("#id_kind", "clash")
    mod.select_option("#id_attacker", units["Рыцари"])
    mod.select_option("#id_defender", units["Фаланга"])
    mod.fill("#id_hand_dice", "")
    mod.check("#id_server_rest")
    mod.locator("#tr-resolve").click()
    mod.wait_for_load_state()
    log = mod.locator("#tr-log").inner_text()
    assert "Столкновение" in log and "сервер" in log

    # the moderator's ruling on the spearmen, with a reason
    mod.locator("summary", has_text="Решение мастера по отряду").click()
    mod.select_option("#id_unit", units["Копейщики"])
    mod.select_option("#id_state", "fleeing")
    mod.fill("#tr-override #id_reason", "бегут за край стола")
    mod.locator("#tr-override button").click()
    mod.wait_for_load_state()
    assert "бегут за край стола" in mod.locator("#tr-log").inner_text()

    tablet.goto(f"/g/{game.pk}/tr/{table.pk}/")
    tablet.locator("#tr-board").wait_for()
    assert "Копейщики" in tablet.content()            # in battle both armies stand in plain sight
    tablet.screenshot(path=str(shots / "tablet.png"), full_page=True)
    phone.goto(f"/g/{game.pk}/tr/{table.pk}/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 2

    projector = new_page(viewport={"width": 1280, "height": 800})
    sign_in(projector, "tr-mod", "tr-mod-password-1")
    projector.goto(f"/g/{game.pk}/tr/{table.pk}/projector/")
    assert table.dice.fingerprint in projector.content()
    projector.screenshot(path=str(shots / "projector.png"), full_page=True)
    mod.screenshot(path=str(shots / "moderator.png"), full_page=True)

    if mod.locator("#tr-end-box").get_attribute("open") is None:    # open already when a side has no unit standing
        mod.locator("summary", has_text="Завершить сражение").click()
    mod.select_option("#id_winner", "north")
    mod.select_option("#id_ended_by", "rout")
    mod.locator("#tr-end button").click()
    mod.wait_for_load_state()
    assert "Победа: Север" in mod.content()
    assert "Север" in mod.locator("[data-table-frame]").inner_text()
    projector.reload()
    assert "Север" in projector.locator("#tr-projector-turn").inner_text()
    projector.set_viewport_size({"width": 1920, "height": 1080})
    projector.screenshot(path=str(shots / "projector-1920.png"))
    assert projector.evaluate("document.querySelector('.tr-page').getBoundingClientRect().width") > 1700

    table.refresh_from_db()
    assert table.status == Table.FINISHED
    steps = [s for s in table.steps.order_by("seq") if not s.undone]
    replayed = sit.replay(table.setup, [(s.kind, s.payload, s.outcome) for s in steps])
    assert replayed == table.state == services.replay_table(table)
    assert table.result == {"winner": "north", "ended_by": "rout", "losses": sit.losses(replayed)}
    for i, s in enumerate(steps):
        if s.kind in sit.ACTIONS:
            before = sit.replay(table.setup, [(x.kind, x.payload, x.outcome) for x in steps[:i]])
            assert sit.rerun(before, s.kind, s.payload) == s.outcome
    assert Roll.objects.filter(stream=table.dice, source=Roll.HAND).count() >= 5
    assert Roll.objects.filter(stream=table.dice, source=Roll.SERVER, status=Roll.USED).exists()
    assert Roll.objects.filter(stream=table.dice, status=Roll.DISCARDED).exists()
    assert table.steps.filter(kind="override", reason="бегут за край стола").exists()
