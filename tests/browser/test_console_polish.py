"""The console after a play-through, in a real browser: what a disabled button looks like and says, the
movement page once applied, the console after the deadline, the projector at 1920x1080."""
import pytest

from tests.browser.test_console import sign_in

DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def latin_started(transactional_db):
    from larp.campaign.services.members import add_moderator
    from larp.campaign.services.scenario import load_scenario
    from larp.turns import services as turns

    game = load_scenario("latin-east-1204", title="Polish console game", seed=11)
    mod, _ = add_moderator(game, "polish-browser-mod", password="polish-pass-123")
    turns.start_game(game, mod)
    return game, mod


@pytest.mark.browser
def test_paper_order_button_looks_disabled_and_says_what_is_missing(latin_started, new_page, artifacts):
    game, _mod = latin_started
    page = new_page(viewport=DESKTOP)
    sign_in(page, "polish-browser-mod", "polish-pass-123")
    page.goto(f"/g/{game.pk}/console/?unit=bulgaria-4")
    form = page.locator("form[data-paper-order]")
    button = form.locator("button[data-submit]")
    missing = form.locator("[data-missing]")
    assert "тип приказа" in missing.inner_text()
    form.locator("label.chip", has_text="Захват").click()
    assert button.is_disabled()
    background = button.evaluate("b => getComputedStyle(b).backgroundColor")
    red, green, blue = [int(x) for x in background[background.index("(") + 1:-1].split(",")[:3]]
    assert max(red, green, blue) - min(red, green, blue) < 16, background  # grey, not the accent red
    assert "Осталось выбрать: «Шаг 1" in missing.inner_text()
    # A first step that only passes through a friendly province: the form asks for the target.
    form.locator("fieldset:not([hidden]) label.chip:has(input[data-complete='0'])").first.click()
    assert button.is_disabled()
    assert "Осталось выбрать: «Шаг 2" in missing.inner_text()
    form.screenshot(path=str(artifacts / "polish-paper-order-missing.png"))
    form.locator("fieldset:not([hidden]) label.chip:has(input[data-complete='1'])").last.click()
    assert button.is_enabled() and missing.inner_text().strip() == ""
