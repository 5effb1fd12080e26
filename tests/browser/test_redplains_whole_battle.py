"""A whole Red Plains battle across a river, to the engine's own end, through the pages only (issue 34): the moderator
sets up the river and the bridge on the «new battle» page, north plays on a tablet (768 px), south on a phone
(390 px); the moderator rules on a unit with a reason (the tablets show it), types in too many dice (refused, the
page stays usable) and then rolls all the remaining dice in one press, turn after turn, until the engine ends the
battle. The frame on the moderator's page follows the game; the players' screens carry no rule numbers; the
projector fills 1920×1080 with whose move and, at the end, the winner and the losses. The stored state equals the
engine's replay of the stored log. Each seat is photographed at 390, 768 and 1920 px."""
import re

import pytest
from django.urls import reverse

from tests.browser.conftest import PHONE, TABLET, fill_red_plains_battle, sign_in

pytestmark = pytest.mark.browser

WIDTHS = ((390, 844), (768, 1024), (1920, 1080))
RULE = re.compile(r"\bW\d+(\.\d+)?\b")


def shoot(page, folder, name):
    """The seat's page at a phone's, a tablet's and a projector's width (then back to its own)."""
    own = page.viewport_size
    for w, h in WIDTHS:
        page.set_viewport_size({"width": w, "height": h})
        page.screenshot(path=str(folder / f"{name}-{w}.png"), full_page=True)
        wide = page.evaluate("""() => Array.from(document.querySelectorAll('body *')).filter(e =>
            !e.closest('svg') && !e.closest('#rp-all-units') && e.getBoundingClientRect().right > innerWidth + 1)
            .slice(0, 5).map(e => e.tagName + '.' + e.className)""")
        assert page.evaluate("document.documentElement.scrollWidth") <= w + 1, (name, w, wide)   # nothing off-screen
    page.set_viewport_size(own)


def frame(page):
    return {"round": page.inner_text("[data-frame-round]"), "whose": page.inner_text("[data-frame-whose]"),
            "next": page.inner_text("[data-frame-next]") if page.locator("[data-frame-next]").count() else ""}


def test_a_whole_battle_across_the_river_to_the_engines_end(red_plains_hall, new_page, artifacts):
    from larp.redplains import services
    from larp.redplains import situation as sit
    from larp.tables.models import Table

    game = red_plains_hall
    shots = artifacts / "red-plains-whole"
    shots.mkdir(exist_ok=True)

    # the moderator sets the battle up: the river along the line of contact, the bridge A11 — C11
    mod = new_page(viewport={"width": 1280, "height": 1000})
    sign_in(mod, "rp-mod", "rp-mod-password-1")
    mod.goto(reverse("redplains:new", args=[game.pk]))
    fill_red_plains_battle(mod, game, "Битва у реки",
                           {"north": [("cavalry", 16), ("cavalry", 16), ("", None)],
                            "south": [("ashigaru_spears", 4), ("ashigaru_spears", 4), ("", None)]},
                           {"south_messengers": 0})
    mod.check("input[name=river]")
    mod.select_option("select[name=bridge]", "A11 C11")
    shoot(mod, shots, "new")
    mod.click("form.rp-new button.primary")
    mod.wait_for_url("**/rp/*/")
    table = Table.objects.get(game=game)
    assert table.setup["field"]["river"] is True and table.setup["field"]["bridge"] == ["A11", "C11"]
    table_url = reverse("redplains:table", args=[game.pk, table.pk])
    assert mod.locator("[data-river]").count() == 1 and mod.get_attribute("[data-bridge]", "data-bridge") == \
        "A11 — C11"
    assert frame(mod)["round"] == "Ход расстановки"
    assert frame(mod)["whose"] == "Ждём: Клан Журавля, Клан Скорпиона — расстановка"

    # the deployment: north on a tablet taps its units onto the field, south picks cells on a phone
    north = new_page(viewport=TABLET)
    sign_in(north, "rp-north", "rp-north-password-1")
    north.goto(table_url)
    for unit, cell in (("n1", "A11"), ("n2", "B11")):
        north.click(f'[data-pick-unit="{unit}"] td >> nth=0')
        north.click(f'g[data-cell="{cell}"]')
    north.click("form.rp-deploy button[type=submit]")
    north.click("#side-north [data-confirm]")
    south = new_page(viewport=PHONE)
    sign_in(south, "rp-south", "rp-south-password-1")
    south.goto(table_url)
    label = south.locator('g[data-cell="C11"] text.rp-label').bounding_box()
    assert label["height"] >= 9                                          # the cell labels read on a phone
    south.select_option('select[name="cell_s1"]', "C11")
    south.select_option('select[name="cell_s2"]', "D11")
    south.click("form.rp-deploy button[type=submit]")
    south.click("#side-south [data-confirm]")
    south.wait_for_selector('[data-unit="n1"]')

    # the frame follows the table by itself (the live refresh): both sides confirmed, the command phase
    mod.wait_for_function("document.querySelector('[data-frame-round]').textContent.includes('Ход 1 из 12')")
    assert "ставка, бросок и приказы" in frame(mod)["whose"]

    # the moderator's ruling, with a reason: a fifth figure joins s1; the players' tablets show it
    mod.goto(table_url)
    mod.select_option("select[data-override-unit]", "s1")
    mod.fill("input[data-override-figures]", "5")
    mod.fill("input[data-override-reason]", "подошло подкрепление")
    mod.click("button[data-override]")
    for seat in (north, south):
        seat.goto(table_url)
        assert "подошло подкрепление" in seat.inner_text("#rp-rulings")

    projector = new_page(viewport={"width": 1920, "height": 1080})
    sign_in(projector, "rp-mod", "rp-mod-password-1")
    projector_url = reverse("redplains:projector", args=[game.pk, table.pk])

    refused_once = False
    for turn in range(1, 13):
        # north on the tablet: stake, roll, every cavalry unit moves on; south on the phone: a roll, no orders
        north.goto(table_url)
        north.click('form.rp-stake button[value="low"]')
        north.click("[data-roll-server]")
        for unit in ("n1", "n2"):
            picker = f'select[name="o_{unit}_1"]'
            legal = f'{picker} option[value="ordinary:move"]:not([disabled])'
            if north.locator(picker).count() and north.locator(legal).count():
                north.select_option(picker, "ordinary:move")
        if turn == 1:
            assert not RULE.search(north.inner_text("body"))             # no rule numbers on a player's tablet
            shoot(north, shots, "tablet-orders")
        north.click("form.rp-orders button[type=submit]")
        north.click("#side-north [data-confirm]")
        south.goto(table_url)
        south.click('form.rp-stake button[value="low"]')
        south.click("[data-roll-server]")
        if turn == 1:
            assert not RULE.search(south.inner_text("body"))
            shoot(south, shots, "phone-command")
        south.click("#side-south [data-confirm]")

        # the execution on the moderator's page
        mod.goto(table_url)
        assert frame(mod)["whose"] == "Мастер: кубики исполнения" and "Бросить кубики" in frame(mod)["next"]
        if not refused_once:                                             # too many dice typed: refused ...
            count = int(mod.get_attribute("[data-dice-count]", "data-dice-count"))
            mod.fill("input[data-exec-dice]", " ".join(["3"] * (count + 5)))
            mod.click("[data-exec-hand]")
            assert "Слишком много кубиков" in mod.inner_text("main")
            # The refused page answers at the act's address and shows itself at the table's (static/js/act-back.js):
            # a reload or the next form never meets the act's address.
            mod.wait_for_function("() => !location.pathname.includes('/act/')")
            assert mod.url.rstrip("/").endswith(table_url.rstrip("/"))
            shoot(mod, shots, "moderator-refused")
            refused_once = True                                          # ... and the next act goes on from there
        mod.click("[data-exec-all]")
        assert mod.locator("[data-exec-all]").count() == 0
        assert frame(mod)["whose"] == "Мастер: применить ход"
        if turn == 1:
            projector.goto(projector_url)
            assert "Мастер исполняет ход" in projector.inner_text("[data-proj-whose]")
            projector.screenshot(path=str(shots / "projector-execution-1920.png"))
            # during play the board takes the screen's height, whose move under it, nothing below the fold
            during = projector.locator("svg.rp-board").bounding_box()
            assert during["height"] >= 0.75 * 1080 and during["width"] >= 1600, during
            assert projector.evaluate("document.documentElement.scrollHeight") <= 1080
            whose = projector.locator("[data-proj-whose]").bounding_box()
            assert whose["y"] + whose["height"] <= 1080, whose
        mod.click("[data-execute]")
        if mod.locator("[data-end]").count():
            break
    else:
        pytest.fail("the battle did not end in 12 turns")

    assert "Битва окончена" in mod.inner_text("[data-end]")
    assert "Битва окончена" in frame(mod)["whose"] and frame(mod)["next"] == ""
    shoot(mod, shots, "moderator-end")
    for seat, name in ((north, "tablet-end"), (south, "phone-end")):
        seat.goto(table_url)
        assert "Битва окончена" in seat.inner_text("[data-end]") and not RULE.search(seat.inner_text("body"))
        shoot(seat, shots, name)

    # the projector at the end: the board fills the screen's width, the winner and the losses in large type
    projector.goto(projector_url)
    winner = projector.locator("[data-winner]")
    assert "Клан Журавля" in winner.inner_text()
    assert float(projector.evaluate("getComputedStyle(document.querySelector('[data-winner]')).fontSize")
                 .replace("px", "")) >= 48
    assert float(projector.evaluate("getComputedStyle(document.querySelector('[data-losses]')).fontSize")
                 .replace("px", "")) >= 36
    board = projector.locator("svg.rp-board").bounding_box()
    assert board["width"] >= 1200 and board["y"] + board["height"] <= 1080     # most of the screen, no scrolling
    projector.screenshot(path=str(shots / "projector-end-1920.png"), full_page=True)
    assert projector.evaluate("document.documentElement.scrollHeight") <= 1080

    # the record: the stored state is the engine's replay, the result its own end
    table.refresh_from_db()
    assert table.status == Table.FINISHED
    state = sit.replay(table.setup, services.step_dicts(table))
    assert state == table.state and table.result == sit.result_of(table.setup, state)
    assert table.result["winner"] == "north" and state["end"]
    assert table.steps.filter(kind="override", undone=False).count() == 1
    assert table.steps.filter(kind="dice", payload__source="hand").count() == 0      # the refused dice left none
    assert table.steps.filter(kind="dice", payload__source="server").count() >= 2
