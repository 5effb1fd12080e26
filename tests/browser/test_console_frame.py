"""The console's frame, walked as a moderator walks a turn: every page shows the phase, the live clock and the
next thing to do without scrolling; the moderator goes from page to page and from phase to phase through the
frame only (its menu and its button, or the N key), steps the movement with the → key and confirms battles
with the page's scroll kept. At 1280×800 the menu is one line; at 768×1024 it folds.
"""
import pytest

from larp.turns import services as turns
from larp.turns.models import Phase
from tests.browser.conftest import TABLET, latin_turn_one, press, sign_in

pytestmark = pytest.mark.browser
LAPTOP = {"width": 1280, "height": 800}
PAGES = ["Пульт", "Передвижение", "Сражения", "Перегруппировка", "Столы", "Игроки и коды входа", "История",
         "Журнал действий", "Проверка кубиков", "Карта", "Файлы игры", "Репетиция"]


@pytest.fixture
def closed_strategy(transactional_db):
    """The default scenario, its first Strategy phase over with seven attacks filed: the moderator goes on."""
    game, mod = latin_turn_one("Рамка пульта", "frame-mod", "frame-mod-123")
    turns.end_now(game, mod, "все готовы")
    assert turns.current_phase(game).state == Phase.CLOSED
    return game


def frame_in_view(page, *, next_label: str | None = None):
    """The frame's bar is at the top of the window, its clock running, its next step (if any) in view."""
    bar = page.locator(".console-frame .frame-bar").bounding_box()
    assert bar and bar["y"] <= 130 and bar["y"] + bar["height"] <= 240, bar  # under the site bar, or at the top
    clock = page.locator(".console-frame .clock-time")
    assert clock.is_visible() and ":" in clock.inner_text()
    if next_label is not None:
        button = page.locator("[data-frame-next]").first
        assert button.is_visible() and next_label in button.inner_text(), button.inner_text()
        box = button.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"], box


def go(page, name):
    """A page of the frame's menu, by its name (opening the folded menu first on a tablet)."""
    menu = page.locator("[data-console-menu]")
    if menu.get_attribute("open") is None:
        menu.locator("summary").click()
    press(page, menu.locator("nav a", has_text=name).first)


def test_a_turn_through_the_frame_only(closed_strategy, new_page, artifacts):
    game = closed_strategy
    asked = []
    page = new_page(viewport=LAPTOP)
    page.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    sign_in(page, "frame-mod", "frame-mod-123")
    page.get_by_role("link", name="Пульт").first.click()  # the games list: the console home
    page.wait_for_load_state()

    # Every page of the menu: the clock and the next step in view; the menu one line, the page marked.
    nav = page.locator(".console-frame nav")
    for name in PAGES:
        go(page, name)
        frame_in_view(page)
        assert nav.bounding_box()["height"] <= 48, f"{name}: the menu takes two lines"
        assert page.locator(".console-frame nav a[aria-current=page]").inner_text() == name, name
        assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"], name
        if name != "Пульт":
            assert "Перейти к передвижению" in page.locator("[data-frame-next]").inner_text(), name
        page.screenshot(path=str(artifacts / f"frame-1280-{PAGES.index(name):02d}.png"))
    assert "phase-later" in (nav.locator("a", has_text="Сражения").get_attribute("class") or "")

    # Strategy → Movement from the frame's button, from whichever page the moderator is on (here: History).
    go(page, "История")
    press(page, "[data-frame-next]")
    assert asked[-1].startswith("Закрыть эту фазу и перейти дальше?")
    assert "Передвижение" in page.locator(".console-frame .clock-phase").inner_text()
    page.keyboard.press("n")  # the N key presses the next step: «Провести передвижение»
    page.wait_for_url("**/console/movement/**")
    frame_in_view(page)

    # Stepping the movement: → and the «Дальше» button; the part of the page changes, the scroll stays.
    page.evaluate("window.scrollTo(0, 420)")
    before = page.evaluate("window.scrollY")
    assert before > 300
    press(page, lambda: page.keyboard.press("ArrowRight"))
    assert page.locator("#step").get_attribute("data-step") == "1"
    assert page.evaluate("window.scrollY") == before and "step=1" in page.url
    frame_in_view(page)  # sticky: the frame stays at the top of the scrolled page
    press(page, page.get_by_role("link", name="Дальше →"))
    assert page.locator("#step").get_attribute("data-step") == "2"
    assert page.evaluate("window.scrollY") == before
    page.screenshot(path=str(artifacts / "frame-1280-movement-scrolled.png"))
    press(page, page.get_by_role("button", name="Переставить флажки на карте"))
    assert "переставлены" in page.locator("#flash").inner_text()
    frame_in_view(page, next_label="Перейти к сражениям")  # the bar's step followed without a reload
    press(page, "[data-frame-next]")
    press(page, "[data-frame-next]")  # «Провести сражение 1»
    assert "/console/battles/" in page.url

    # Confirming battles with typed dice: the queue and the frame follow; the scroll stays.
    fought = 0
    while page.locator(".awaiting").count():
        n = page.locator("input[name=battle]").first.get_attribute("value")
        frame_in_view(page, next_label=f"Провести сражение {n}")
        page.evaluate("window.scrollTo(0, 200); window.__samePage = true")
        for box in page.locator(".dice-form input[type=number]").all():
            box.fill("4")
        press(page, page.get_by_role("button", name="Подтвердить сражение"))
        fought += 1
        assert f"Сражение {n}" in page.locator("#flash").inner_text()
        # No page load, and not back to the top: the part swapped in place, the browser keeps what the moderator
        # looks at where it was (its scroll anchoring follows the message that appeared above).
        assert page.evaluate("window.__samePage === true && window.scrollY > 100"), f"battle {n}: the page reloaded"
        assert fought < 12
    assert fought >= 3
    page.keyboard.press("u")  # U: the undo's reason box, ready to type in
    assert page.evaluate("document.activeElement.name") == "reason"
    assert page.locator("form.undo").count() == 1
    frame_in_view(page, next_label="Перейти к перегруппировке")
    page.screenshot(path=str(artifacts / "frame-1280-battles.png"), full_page=True)
    press(page, "[data-frame-next]")
    press(page, "[data-frame-next]")  # «Применить перегруппировку»
    assert "/console/regroup/" in page.url
    press(page, page.get_by_role("button", name="Применить перегруппировку"))
    frame_in_view(page, next_label="Открыть ход 2")
    press(page, "[data-frame-next]")
    assert "Ход 2 · Стратегия" in page.locator(".console-frame .clock-phase").inner_text()

    # A moderator's tablet: the menu folds; the clock and the step stay in the bar.
    tab = new_page(viewport=TABLET)
    sign_in(tab, "frame-mod", "frame-mod-123")
    tab.get_by_role("link", name="Пульт").first.click()
    tab.wait_for_load_state()
    for name in PAGES:
        assert not tab.locator(".console-frame nav").is_visible()  # folded until asked for
        go(tab, name)
        frame_in_view(tab)
        # Strategy of turn 2: nothing to press until the deadline, and the bar says why.
        assert name == "Пульт" or "Игроки подают приказы" in tab.locator("#frame-next").inner_text(), name
        assert tab.evaluate("document.documentElement.scrollWidth") <= TABLET["width"], name
    tab.screenshot(path=str(artifacts / "frame-768-audit.png"))
    tab.locator("[data-console-menu] summary").click()
    tab.screenshot(path=str(artifacts / "frame-768-menu.png"))
