"""A world built from nothing in the scenario editor, in a real browser: a map picture, eight provinces and two sea
zones placed by clicks, one dragged and one renamed, borders drawn by clicking two places, three factions with
their provinces, capitals, armies and a fleet, a troop type of its own; two problems the editor shows are fixed
from its list, a turn is tried on the engine, the game is made in one click and the console's map is drawn on
the picture. Then the new world's first turn is played through the pages: two players join by the links of the
players page, file on their tablets (the east attacks the north's army), the moderator runs every phase on the
console with typed dice and prints the battle sheets; the stored turn is `adjudicate turn`'s own. Screenshots at
390, 768 and 1920x1080 go to test-artifacts/editor/."""
import re

import pytest
from PIL import Image, ImageDraw

from tests.browser.conftest import PHONE, TABLET, engine_turn, press, sign_in
from tests.browser.test_whole_turn import console_step, enter_dice, file_on_tablet
from tests.sheets.pdf import pdf_pages, squash

DESKTOP = {"width": 1920, "height": 1080}
LAND = {"p1": (150, 150), "p2": (400, 150), "p3": (650, 150), "p4": (850, 200),
        "p5": (150, 400), "p6": (400, 400), "p7": (650, 400), "p8": (850, 450)}
SEAS = {"sea1": (250, 620), "sea2": (700, 620)}
# p8 is left without a border at first: the editor names it, and the test fixes it from the list.
BORDERS = [("p1", "p2"), ("p2", "p3"), ("p3", "p4"), ("p1", "p5"), ("p2", "p6"), ("p3", "p7"), ("p5", "p6"),
           ("p6", "p7"), ("sea1", "p5"), ("sea1", "p6"), ("sea2", "p7"), ("sea1", "sea2")]
# (code, Russian, English, provinces, capital, where its army stands): the north's army guards the border at p2,
# which the east's army attacks in the game's first turn.
FACTIONS = [("north", "Север", "North", ["p1", "p2", "p5"], "p1", "p2"),
            ("south", "Юг", "South", ["p6", "p7"], "p6", "p6"),
            ("east", "Восток", "East", ["p3", "p4", "p8"], "p3", "p3")]


def _picture(tmp_path):
    img = Image.new("RGB", (1000, 700), (200, 222, 240))
    draw = ImageDraw.Draw(img)
    draw.polygon([(60, 60), (940, 80), (960, 520), (80, 500)], fill=(226, 210, 160), outline=(110, 80, 40))
    path = tmp_path / "world.png"
    img.save(path, "PNG")
    return path


@pytest.fixture
def editor_user(transactional_db):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("editor-staff", password="editor-pass-123", is_staff=True)
    return user


def _screen(page, x, y):
    """The window point of a pixel of the map picture, scrolled into view first."""
    js = """([x, y]) => { const s = document.getElementById('editor-map'); const p = s.createSVGPoint();
        p.x = x; p.y = y; let q = p.matrixTransform(s.getScreenCTM());
        if (q.y < 80 || q.y > innerHeight - 40) { window.scrollBy(0, q.y - innerHeight / 2);
            q = p.matrixTransform(s.getScreenCTM()); }
        return [q.x, q.y]; }"""
    return page.evaluate(js, [x, y])


def _click_map(page, x, y):
    cx, cy = _screen(page, x, y)
    press(page, lambda: page.mouse.click(cx, cy))


def _mode(page, value):
    page.locator(f".modes label:has(input[value={value}])").click()


def _place_at(page, pid):
    g = page.locator(f"#editor-map .place[data-id={pid}]")
    return float(g.get_attribute("data-x")), float(g.get_attribute("data-y"))


def _border(page, a, b):
    ax, ay = _screen(page, *_place_at(page, a))
    page.mouse.click(ax, ay)
    bx, by = _screen(page, *_place_at(page, b))
    press(page, lambda: page.mouse.click(bx, by))


def _act_form(page, selector, button):
    press(page, page.locator(selector).get_by_role("button", name=button))


def _problems(page) -> str:
    return page.locator(".problems-list").inner_text()


@pytest.mark.browser
def test_a_world_from_nothing_to_a_game_on_its_picture(editor_user, new_page, artifacts, tmp_path):
    from larp.campaign.models import Game, MapPicture

    folder = artifacts / "editor"
    folder.mkdir(exist_ok=True)
    page = new_page(viewport=DESKTOP)
    sign_in(page, "editor-staff", "editor-pass-123")
    page.goto("/")
    press(page, page.get_by_role("link", name="Редактор сценариев"))
    page.fill("input[name=title]", "Новый мир")
    press(page, page.get_by_role("button", name="Начать новый сценарий"))
    assert "фракций ещё нет" in _problems(page) and "на карте ещё нет ни одного места" in _problems(page)

    # The picture: re-encoded and drawn under the map.
    page.set_input_files("input[name=picture]", str(_picture(tmp_path)))
    press(page, page.get_by_role("button", name="Загрузить"))
    assert page.locator("#editor-map image").count() == 1
    assert page.locator("#editor-map").get_attribute("viewBox") == "0 0 1000 700"

    # Eight provinces and two sea zones, each by one click at its point.
    _mode(page, "land")
    for x, y in LAND.values():
        _click_map(page, x, y)
    _mode(page, "sea")
    for x, y in SEAS.values():
        _click_map(page, x, y)
    assert page.locator("#editor-map .place").count() == 10
    assert page.locator("#editor-map .place.sea").count() == 2
    assert _place_at(page, "p6") == pytest.approx((400, 400), abs=1.5)

    # Borders by clicking two places; the same two again take the border away.
    _mode(page, "border")
    for a, b in BORDERS:
        _border(page, a, b)
    assert page.locator("#editor-map line.hit").count() == len(BORDERS)
    assert page.locator("#editor-map line.border.coast").count() == 3
    assert page.locator("#editor-map line.border.sea").count() == 1
    _border(page, "p1", "p2")
    assert page.locator("#editor-map line.hit[data-a=p1][data-b=p2]").count() == 0
    _border(page, "p1", "p2")

    # A drag moves a place; a click chooses it and its form renames it.
    _mode(page, "select")
    sx, sy = _screen(page, 850, 200)
    tx, ty = _screen(page, 870, 235)
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move((sx + tx) / 2, (sy + ty) / 2, steps=4)
    page.mouse.move(tx, ty, steps=4)
    press(page, lambda: page.mouse.up())
    assert _place_at(page, "p4") == pytest.approx((870, 235), abs=2)
    _click_map(page, *LAND["p1"])
    assert page.locator("#editor-map .place.selected").get_attribute("data-id") == "p1"
    page.fill("#place-form input[name=name_ru]", "Северная марка")
    page.fill("#place-form input[name=name_en]", "North March")
    _act_form(page, "#place-form form:has(input[value=rename_place])", "Переименовать")
    assert page.locator("#editor-map .place[data-id=p1] text").text_content() == "Северная марка"
    page.locator("#place-form input[name=fortress]").check()
    _act_form(page, "#place-form form:has(input[value=set_place])", "Сохранить")
    assert page.locator("#editor-map .place[data-id=p1] rect.fort").count() == 1

    # A troop type of the scenario's own.
    press(page, page.get_by_role("link", name="Войска и правила"))
    page.fill("#new-troop-type input[name=name_ru]", "Конница")
    page.fill("#new-troop-type input[name=name_en]", "Cavalry")
    _act_form(page, "#new-troop-type", "Добавить")
    page.fill("form[data-troop-type=cavalry] input[name=power]", "3")
    page.fill("form[data-troop-type=cavalry] input[name=men]", "2000")
    _act_form(page, "form[data-troop-type=cavalry]", "Сохранить")
    assert page.locator("form[data-troop-type=cavalry] input[name=power]").input_value() == "3"

    # Three factions with their provinces, capitals and armies; the north's fleet.
    press(page, page.get_by_role("link", name="Фракции и войска"))
    for fid, ru, en, provinces, capital, post in FACTIONS:
        page.fill("#new-faction input[name=name_ru]", ru)
        page.fill("#new-faction input[name=name_en]", en)
        _act_form(page, "#new-faction", "Добавить фракцию")
        card = f"#faction-{fid}"
        page.locator(f"{card} details summary").click()
        for pid in provinces:
            page.locator(f"{card} input[name=provinces][value={pid}]").check()
        _act_form(page, f"{card} form:has(input[value=set_provinces])", "Сохранить провинции")
        page.select_option(f"{card} form:has(input[value=set_faction]) select[name=capital]", capital)
        _act_form(page, f"{card} form:has(input[value=set_faction])", "Сохранить")
        page.select_option(f"{card} form:has(input[name=kind][value=army]) select[name=place]", post)
        _act_form(page, f"{card} form:has(input[value=add_unit]):has(input[name=kind][value=army])",
                  "Добавить армию")
        unit = f"form[data-unit={fid}-army-1]"
        page.fill(f"{unit} input[name=count_infantry]", "3")
        page.fill(f"{unit} input[name=count_cavalry]", "1")
        _act_form(page, unit, "Сохранить")
        assert "5000" in page.locator(unit).inner_text().replace(" ", "").replace("\u00a0", "")
    page.select_option("#faction-north form:has(input[name=kind][value=fleet]) select[name=place]", "sea1")
    _act_form(page, "#faction-north form:has(input[value=add_unit]):has(input[name=kind][value=fleet])",
              "Добавить флот")
    page.fill("form[data-unit=north-fleet-1] input[name=count_ships]", "2")
    _act_form(page, "form[data-unit=north-fleet-1]", "Сохранить")

    # An alliance at the start.
    page.select_option("#new-relation select[name=a]", "north")
    page.select_option("#new-relation select[name=kind]", "alliance")
    page.select_option("#new-relation select[name=b]", "south")
    _act_form(page, "#new-relation", "Добавить")
    assert "Север и Юг — союзники" in page.locator(".relations").inner_text()

    # A second problem, made on purpose: the east's colour too close to the north's blue.
    page.fill("#faction-east form:has(input[value=set_faction]) input[name=colour]", "#1565c8")
    _act_form(page, "#faction-east form:has(input[value=set_faction])", "Сохранить")
    problems = _problems(page)
    assert "Что исправить: 2" in problems, problems
    assert "«Провинция 8»: не граничит" in problems
    assert "«Восток»: её цвет #1565c8 слишком похож на цвет «Север»" in problems
    assert page.get_by_role("button", name="Сделать игру").is_disabled()
    for viewport, name in ((DESKTOP, "1920"), (TABLET, "768"), (PHONE, "390")):
        page.set_viewport_size(viewport)
        page.screenshot(path=str(folder / f"factions-{name}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)

    # Fixing them from the list: the place's problem shows it on the map, chosen; a border from it to p7.
    press(page, page.locator(".problems-list a[data-show=p8]"))
    assert page.locator("#editor-map .place.selected").get_attribute("data-id") == "p8"
    _mode(page, "border")
    _border(page, "p8", "p7")
    assert "не граничит" not in _problems(page)
    press(page, page.get_by_role("link", name="Фракции и войска"))
    page.fill("#faction-east form:has(input[value=set_faction]) input[name=colour]", "#f9a825")
    _act_form(page, "#faction-east form:has(input[value=set_faction])", "Сохранить")
    assert "Ошибок нет" in _problems(page)

    press(page, page.get_by_role("link", name="Карта"))
    for viewport, name in ((DESKTOP, "1920"), (TABLET, "768"), (PHONE, "390")):
        page.set_viewport_size(viewport)
        page.screenshot(path=str(folder / f"map-{name}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)

    # Try it: the engine adjudicates a generated turn, shown on the map and in words.
    press(page, page.get_by_role("link", name="Пробный ход"))
    page.fill("input[name=seed]", "4")
    press(page, page.get_by_role("button", name="Рассчитать ход"))
    lines = page.locator(".trial li").all_inner_texts()
    assert len(lines) >= 5 and any("Армия 1 фракции Север" in line for line in lines), lines
    page.screenshot(path=str(folder / "try-1920.png"), full_page=True)

    # One click makes the game; its console's map is drawn on the picture.
    page.fill(".make input[name=title]", "Игра на новом мире")
    press(page, page.get_by_role("button", name="Сделать игру"))
    page.wait_for_url(re.compile(r"/g/\d+/console/"))
    game = Game.objects.get(title="Игра на новом мире")
    picture = MapPicture.objects.get(game=game)
    assert game.relations.get().kind == "alliance"
    assert (picture.width, picture.height) == (1000, 700)
    page.goto(f"/g/{game.pk}/projector/")
    image = page.locator("svg image.map-picture")
    assert image.count() == 1
    assert page.request.get(image.get_attribute("href")).status == 200
    north = page.locator("svg g.node[data-province=p1]")
    assert re.match(r"translate\(150(\.0)? 150(\.0)?\)", north.get_attribute("transform"))
    page.screenshot(path=str(folder / "projector-1920.png"))
    _play_the_first_turn(page, game, new_page, folder)


def _join_link(page, game, faction, login, name) -> str:
    """A player added on the console's players page; their card's join link."""
    page.goto(f"/g/{game.pk}/players/")
    form = page.locator("form[action$='players/add']")
    form.locator("select[name=faction]").select_option(faction)
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=username]").fill(login)
    press(page, form.get_by_role("button", name="Добавить игрока"))
    return page.locator(f".player-card[data-player={login}] a[rel=nofollow]").get_attribute("href")


def _play_the_first_turn(page, game, new_page, folder):
    """The new world's first turn through the pages: players join on tablets by the players page's links, the east
    attacks the north's army at p2, the moderator ends Strategy, steps movement, types the battle's dice, applies
    regroup and prints the battle sheets; the stored turn is `adjudicate turn`'s own on its case."""
    from larp.sheets import services as sheets
    from larp.sheets.models import PrintJob

    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    joins = {code: _join_link(page, game, code, f"new-{code}", name)
             for code, name in (("north", "Ольга Северная"), ("east", "Игорь Восточный"))}
    console_step(page, game, "Начать игру")

    tablets = {}
    for code, viewport in (("north", PHONE), ("east", TABLET)):
        tablets[code] = new_page(viewport=viewport)
        tablets[code].goto(joins[code])
        tablets[code].locator("[data-order-form]").first.wait_for()
    file_on_tablet(tablets["east"], "east-1", "attack", ["p2"])
    file_on_tablet(tablets["north"], "north-1", "hold", [])
    for code, tablet in tablets.items():
        for viewport, name in ((PHONE, "390"), (TABLET, "768")):
            tablet.set_viewport_size(viewport)
            tablet.screenshot(path=str(folder / f"tablet-{code}-{name}.png"), full_page=True)
            assert tablet.evaluate("document.documentElement.scrollWidth") <= viewport["width"], (code, name)
            # The map is as tall as the 1000 x 700 picture at the page's width: no empty bands above and below.
            box = tablet.locator(".map-frame svg").bounding_box()
            assert box["height"] == pytest.approx(box["width"] * 0.7, abs=2), (code, name, box)
            if viewport is PHONE:  # on a phone the zoom buttons stand above the map, not over it
                tools = tablet.locator(".map-tools").bounding_box()
                assert tools["y"] + tools["height"] <= box["y"] + 1, (code, tools, box)

    page.goto(f"/g/{game.pk}/console/")
    page.fill("form[action$='control/end'] input[name=reason]", "все приказы сданы")
    press(page, "form[action$='control/end'] button")
    console_step(page, game, "Перейти к передвижению")
    console_step(page, game, "Провести передвижение")
    press(page, "form[action$='movement/apply'] button")
    console_step(page, game, "Перейти к сражениям")
    console_step(page, game, "Провести сражение 1")
    heading = page.locator(".awaiting h2").inner_text()
    assert "Провинция 2" in heading, heading
    enter_dice(page, 6, 1)
    assert "Все сражения проведены" in page.content()
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(folder / "console-battles-1920.png"), full_page=True)
    console_step(page, game, "Перейти к перегруппировке")
    console_step(page, game, "Применить перегруппировку")
    press(page, "form[action$='regroup/apply'] button")
    assert "Перегруппировка применена" in page.content()
    page.goto(f"/g/{game.pk}/console/")
    page.screenshot(path=str(folder / "console-1920.png"))
    page.goto(f"/g/{game.pk}/map/")
    page.locator(".map-frame svg image.map-picture").wait_for()
    page.screenshot(path=str(folder / "console-map-1920.png"))

    # The battle sheets, from the printing page (the worker's part done here, as the worker would).
    page.goto(f"/g/{game.pk}/print/")
    page.click("button[value=battle-sheets]")
    jobs = page.locator(f"#print-jobs-{game.pk}")
    jobs.locator("[id^=print-job-]").first.wait_for()
    sheets.run_job(PrintJob.objects.get(game=game, kind="battle-sheets").pk)
    link = jobs.get_by_role("link", name="Открыть PDF")
    link.wait_for()
    response = page.request.get(link.get_attribute("href"))
    assert response.ok
    (folder / "battle-sheets.pdf").write_bytes(response.body())
    pages = [squash(p) for p in pdf_pages(response.body())]
    assert [p.split()[2] for p in pages] == ["Восток", "Север", "Юг"], pages
    # The east's army stands where it won, the north's has fallen back to its capital with its losses (R1).
    assert "I Провинция 2 Конница, Пехота ×3 6 5 000" in pages[0], pages[0]
    assert "I Северная марка Конница, Пехота 4 3 000" in pages[1], pages[1]
    assert "I Морская зона 1 Корабли ×2 2 1 000" in pages[1], pages[1]
    assert "I Провинция 6 Конница, Пехота ×3 6 5 000" in pages[2], pages[2]

    # The stored turn is the engine's own for the turn's case.
    stored, expected = engine_turn(game, 1, folder)
    assert [(f["province"], f["winner"]) for f in expected["fought"]] == [("p2", "attacker")], expected["fought"]
    assert stored["fought"] == expected["fought"]
    assert stored["state"] == expected["state"] and stored["recoloured"] == expected["recoloured"]
    assert {r["province"]: r["to"] for r in expected["recoloured"]} == {"p2": "east"}


@pytest.mark.browser
def test_a_tap_on_a_tablet_adds_a_place_and_chooses_it(editor_user, new_page, tmp_path):
    from larp.editor import services

    draft = services.new_draft(editor_user, "Планшет")
    services.set_picture(draft.pk, draft.version, _picture(tmp_path).read_bytes(), "world.png", editor_user)
    page = new_page(viewport=TABLET, has_touch=True, is_mobile=True)
    sign_in(page, "editor-staff", "editor-pass-123")
    page.goto(f"/editor/{draft.pk}/")
    page.locator(".modes label:has(input[value=land])").tap()
    cx, cy = _screen(page, 300, 300)
    press(page, lambda: page.touchscreen.tap(cx, cy))
    assert page.locator("#editor-map .place").count() == 1
    assert _place_at(page, "p1") == pytest.approx((300, 300), abs=3)
    page.locator(".modes label:has(input[value=select])").tap()
    cx, cy = _screen(page, *_place_at(page, "p1"))
    press(page, lambda: page.touchscreen.tap(cx, cy))
    assert page.locator("#editor-map .place.selected").get_attribute("data-id") == "p1"
    assert page.locator("#place-form input[name=name_ru]").input_value() == "Провинция 1"
