"""The players' tablet in a real browser at 768x1024 (and a 390-wide phone): sign in by QR link, file
orders through the pickers, refusals, double taps, a dropped connection, the clock locking the form (R3, R5)."""
import re

import pytest
from django.urls import reverse

from larp.orders.models import Order, OrderEvent
from larp.turns.models import Phase
from tests.browser.conftest import PHONE, TABLET

pytestmark = pytest.mark.browser


def card(page, unit):
    return page.locator(f"#unit-{unit}")


def pick(page, unit, order_label, *steps):
    """Tap the order type, then one chip per step in the group that the form shows next."""
    c = card(page, unit)
    c.locator("fieldset.types label", has_text=order_label).click()
    for depth, label in enumerate(steps, start=1):
        c.locator(f'fieldset[data-depth="{depth}"]:visible label', has_text=label).click()
    return c


def test_sign_in_by_code_and_file_a_two_step_attack(new_page, game_for, artifacts):
    game, _mod, player, join = game_for()
    page = new_page()
    page.goto(join)
    assert page.url.endswith(reverse("tablet:faction", args=[game.pk, "north"]))
    page.locator("h1", has_text="Север").wait_for()
    page.wait_for_function("document.querySelector('[data-clock-time]').textContent.startsWith('0')")
    page.screenshot(path=artifacts / "faction-768x1024.png")
    page.screenshot(path=artifacts / "faction-768x1024-full.png", full_page=True)

    c = card(page, "north-1")
    submit = c.locator("[data-submit]")
    c.locator("fieldset.types label", has_text="Захват").click()
    assert submit.is_disabled()  # nothing complete picked yet
    # Step 1 offers only the engine's legal choices.
    step1 = c.locator('fieldset[data-depth="1"]:visible label')
    assert sorted(step1.all_inner_texts()) == ["Восточные Врата", "Северное Поле", "Серединград"]
    c.locator('fieldset[data-depth="1"]:visible label', has_text="Северное Поле").click()
    assert submit.is_disabled()  # a friendly province: the attack needs a second step
    assert c.locator('fieldset[data-depth="2"]:visible label').all_inner_texts() == ["Серединград"]
    c.locator('fieldset[data-depth="2"]:visible label', has_text="Серединград").click()
    assert submit.is_enabled()
    submit.click()
    saved = card(page, "north-1").locator("[data-saved]")
    saved.wait_for()
    assert re.fullmatch(r"Приказ сохранён \d\d:\d\d:\d\d", saved.inner_text())
    order = Order.objects.get(army__faction__code="north", army__number=1)
    assert order.payload == {"unit": "north-1", "type": "attack", "path": ["northfield", "midtown"]}
    assert "Захват: Северное Поле → Серединград" in card(page, "north-1").inner_text()
    assert "игрок фракции «Север»" in card(page, "north-1").inner_text()  # by name, never the login
    assert player.username not in card(page, "north-1").inner_text()
    page.screenshot(path=artifacts / "faction-768x1024-order-saved.png")


def test_a_carrying_fleet_offers_no_order_of_its_own(new_page, game_for, artifacts):
    game, _mod, _player, join = game_for()
    page = new_page()
    page.goto(join)
    c = pick(page, "north-2", "Нападение с моря", "Северное море", "Остров")
    c.locator("[data-submit]").click()
    card(page, "north-2").locator("[data-saved]").wait_for()
    # The fleet now carries North II (R5): its card says so and offers no order of its own (no 422 to tap into).
    fleet = card(page, "north-f1")
    fleet.locator("[data-carries]").wait_for()
    assert "Перевозит армию II" in fleet.inner_text()
    assert fleet.locator("[data-order-form]").count() == 0
    assert not Order.objects.filter(fleet__isnull=False).exists()
    card(page, "north-f1").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "faction-768x1024-refused.png")


def test_a_double_tap_files_once(new_page, game_for):
    game, _mod, _player, join = game_for()
    page = new_page(has_touch=True)
    page.goto(join)
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    c = pick(page, "north-2", "Проход", "Северные Врата")
    c.locator("[data-submit]").dblclick()
    card(page, "north-2").locator("[data-saved]").wait_for()
    page.wait_for_timeout(500)
    assert len(posts) == 1
    assert Order.objects.filter(army__number=2, army__faction__code="north").count() == 1
    assert OrderEvent.objects.filter(unit="north-2").count() == 1


def test_a_dropped_connection_keeps_the_order_and_retries(new_page, game_for):
    game, _mod, _player, join = game_for()
    page = new_page()
    page.goto(join)
    url = reverse("tablet:file_order", args=[game.pk, "north", "north-1"])
    failures = {"left": 2}

    def flaky(route):
        if failures["left"] > 0:
            failures["left"] -= 1
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route(f"**{url}", flaky)
    c = pick(page, "north-1", "Захват", "Серединград")
    c.locator("[data-submit]").click()
    note = c.locator("[data-net-note]")
    note.wait_for()
    page.wait_for_function("document.querySelector('#unit-north-1 [data-net-note]')?.textContent.includes('Нет связи')")
    assert "Нет связи — повторяем…" in note.inner_text()
    assert c.locator('fieldset[data-type=attack][data-depth="1"] input[value="midtown"]').is_checked()  # the picks survive
    card(page, "north-1").locator("[data-saved]").wait_for(timeout=20000)
    assert failures["left"] == 0
    order = Order.objects.get(army__faction__code="north", army__number=1)
    assert order.payload["path"] == ["midtown"]


def test_the_clock_reaches_zero_and_locks_the_form(new_page, game_for, artifacts):
    game, _mod, _player, join = game_for(strategy_seconds=10)
    # A tablet whose own clock is an hour fast: the countdown follows the server's clock anyway.
    page = new_page()
    page.add_init_script("(() => { const real = Date.now; Date.now = () => real() + 3600 * 1000; })()")
    page.goto(join)
    clock = page.locator("#clock")
    clock.wait_for()
    seconds = int(page.locator("[data-clock-time]").inner_text().split(":")[1])
    assert 0 < seconds <= 10
    assert "urgent" in clock.get_attribute("class")  # red in the last 30 s
    c = pick(page, "north-1", "Захват", "Серединград")
    assert c.locator("[data-submit]").is_enabled()
    page.locator("[data-lock-note]").wait_for(state="visible", timeout=20000)
    assert page.locator("[data-clock-time]").inner_text() == "00:00"
    assert "Приём приказов закрыт" in page.locator("[data-lock-note]").inner_text()
    assert c.locator("[data-submit]").is_disabled()
    assert c.locator('fieldset.types input[value="hold"]').is_disabled()
    # The server closed the phase when the clock asked after the deadline (no worker needed).
    page.wait_for_function("document.querySelector('[data-clock-note]').textContent.includes('Фаза стратегии закрыта')",
                           timeout=15000)
    phase = Phase.objects.get(turn__game=game, kind="strategy")
    assert phase.state == "closed"
    page.screenshot(path=artifacts / "faction-768x1024-locked.png")
    # Even a request sent by hand is refused by the server (R3).
    status = page.evaluate("""async (url) => {
        const token = document.querySelector('input[name=csrfmiddlewaretoken]').value;
        const body = new URLSearchParams({type: 'hold', csrfmiddlewaretoken: token});
        const r = await fetch(url, {method: 'POST', body, headers: {'HX-Request': 'true'}});
        return r.status; }""", reverse("tablet:file_order", args=[game.pk, "north", "north-1"]))
    assert status == 409
    assert not Order.objects.filter(game=game, implicit=False).exists()


def test_the_map_at_tablet_size_zooms_and_pans(new_page, game_for, artifacts):
    game, _mod, _player, join = game_for()
    page = new_page(has_touch=True)
    page.goto(join)
    page.goto(reverse("tablet:map", args=[game.pk]))
    svg = page.locator("#map svg[data-pan][data-ready]")
    svg.wait_for()
    assert page.locator("#map .flag").count() == 4 and page.locator("#map .ship").count() == 1
    page.screenshot(path=artifacts / "map-768x1024.png")
    before = svg.get_attribute("viewBox")
    page.locator("[data-zoom=in]").click()
    zoomed = svg.get_attribute("viewBox")
    assert float(zoomed.split()[2]) < float(before.split()[2])
    box = svg.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 80, box["y"] + box["height"] / 2 + 40, steps=5)
    page.mouse.up()
    panned = svg.get_attribute("viewBox")
    assert panned.split()[:2] != zoomed.split()[:2] and panned.split()[2:] == zoomed.split()[2:]
    page.locator("[data-zoom=reset]").click()
    assert svg.get_attribute("viewBox") == " ".join(f"{float(v):.1f}" for v in svg.get_attribute("data-whole").split())


def test_the_big_map_at_tablet_size(new_page, live_server, transactional_db, artifacts):
    from larp.campaign.services.members import add_moderator
    from larp.scenarios.loader import load_scenario

    game = load_scenario("latin-east-1204", title="Browser Latin East", seed=1204)
    add_moderator(game, "latin-mod", password="latin-mod-password-1")
    page = new_page()
    page.goto("/login/")
    page.fill("input[name=username]", "latin-mod")
    page.fill("input[name=password]", "latin-mod-password-1")
    page.locator("form [type=submit]").last.click()
    page.goto(reverse("tablet:map", args=[game.pk]))
    page.locator("#map svg[data-pan][data-ready]").wait_for()
    page.screenshot(path=artifacts / "map-latin-768x1024.png")
    # A player's map opens on their own corner of the map (here Nicaea's).
    from larp.campaign.services.members import create_player

    create_player(game.factions.get(code="nicaea"), "nicaea-player", password="nicaea-password-1")
    player_page = new_page()
    player_page.goto("/login/")
    player_page.fill("input[name=username]", "nicaea-player")
    player_page.fill("input[name=password]", "nicaea-password-1")
    player_page.locator("form [type=submit]").last.click()
    player_page.goto(reverse("tablet:map", args=[game.pk]))
    player_page.locator("#map svg[data-pan][data-ready]").wait_for()
    assert player_page.locator("#map svg[data-pan]").get_attribute("viewBox") != \
        player_page.locator("#map svg[data-pan]").get_attribute("data-whole")
    player_page.screenshot(path=artifacts / "map-latin-768x1024-player.png")
    page.locator("[data-zoom=in]").click()
    page.locator("[data-zoom=in]").click()
    page.screenshot(path=artifacts / "map-latin-768x1024-zoomed.png")


def test_the_phone_layout(new_page, game_for, artifacts):
    game, _mod, _player, join = game_for()
    page = new_page(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    page.goto(join)
    pick(page, "north-1", "Захват", "Северное Поле")
    page.screenshot(path=artifacts / "faction-390.png")
    page.screenshot(path=artifacts / "faction-390-full.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    small = page.evaluate("""() => [...document.querySelectorAll(
            '#board button, #board .chip span, .jump a, .map-tools button')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.textContent.trim(), e.getBoundingClientRect().height, e.getBoundingClientRect().width])
        .filter(([_, h, w]) => h < 44 || w < 44)""")
    assert small == []


def test_touch_targets_at_tablet_size(new_page, game_for):
    game, _mod, _player, join = game_for()
    page = new_page(viewport=TABLET)
    page.goto(join)
    pick(page, "north-2", "Нападение с моря", "Северное море")
    assert page.evaluate("document.documentElement.scrollWidth") <= TABLET["width"]
    small = page.evaluate("""() => [...document.querySelectorAll('#board button, #board .chip span, .jump a')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.textContent.trim(), e.getBoundingClientRect().height])
        .filter(([_, h]) => h < 44)""")
    assert small == []


def test_moderator_prints_join_codes_and_a_scanned_code_signs_in(new_page, game_for, artifacts):
    game, mod, player, join = game_for()
    page = new_page()
    page.goto("/login/")
    page.fill("input[name=username]", mod.username)
    page.fill("input[name=password]", "mod-password-1")
    page.locator("form [type=submit]").last.click()
    page.goto(reverse("tablet:players", args=[game.pk]))
    card_ = page.locator(f'[data-player="{player.username}"]')
    assert card_.locator("svg.segno").count() == 1
    page.screenshot(path=artifacts / "players-768x1024.png", full_page=True)
    link = card_.locator("a", has_text="ссылка для входа").get_attribute("href")
    # The moderator revokes it: the tablet that scans it gets the Russian explanation.
    card_.locator("button", has_text="Отозвать").click()
    tablet = new_page()
    tablet.goto(link)
    assert "попросите у модератора новый код" in tablet.locator("main").inner_text().lower()
    tablet.screenshot(path=artifacts / "join-revoked-768x1024.png")


def test_a_one_step_march_can_be_filed(new_page, game_for):
    """«Проход» and one province is a whole order: step 2 is optional, so the button must not stay grey."""
    from larp.turns import services as turns

    game, mod, _player, join = game_for(start=False)
    # North holds Midtown too, so a march through Northfield may take a second step there.
    game.provinces.filter(code="midtown").update(owner=game.factions.get(code="north"))
    turns.start_game(game, mod)
    page = new_page()
    page.goto(join)
    c = pick(page, "north-1", "Проход", "Северное Поле")
    assert c.locator('fieldset[data-type=march][data-depth="2"]:visible').count() == 1  # the optional step shows
    submit = c.locator("[data-submit]")
    assert submit.is_enabled()
    submit.click()
    card(page, "north-1").locator("[data-saved]").wait_for()
    order = Order.objects.get(army__faction__code="north", army__number=1)
    assert order.payload == {"unit": "north-1", "type": "march", "path": ["northfield"]}
    # A second step is still offered and may be added.
    c = pick(page, "north-1", "Проход", "Северное Поле", "Серединград")
    assert c.locator("[data-submit]").is_enabled()
