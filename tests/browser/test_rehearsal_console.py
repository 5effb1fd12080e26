"""The console's «Репетиция» through the pages only: the moderator opens it from the frame's menu, starts a
one-turn fast rehearsal, watches its progress to the end, reads the report, opens the copy's projector and a
bot's tablet page (both marked «Репетиция»), and deletes the copy in one click. A real worker plays the night
(a second one closes the deadlines meanwhile). Screenshots at 390, 768 and 1920×1080."""
from pathlib import Path

import pytest

from larp.campaign.models import Game
from tests.browser.conftest import PHONE, TABLET, press, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.worker]
HALL = {"width": 1920, "height": 1080}
SHOTS = Path("/tmp/rh-console-shots")


@pytest.fixture
def night(transactional_db, worker_factory):
    from larp.campaign.services.members import add_moderator
    from larp.scenarios.loader import load_scenario

    game = load_scenario("tiny", title="Ночь перед игрой", seed=5)
    add_moderator(game, "rh-mod", password="rh-mod-password-1")
    worker_factory("rehearsal-a")
    worker_factory("rehearsal-b")
    return game


def shoot(page, name, viewport):
    SHOTS.mkdir(exist_ok=True)
    page.set_viewport_size(viewport)
    page.screenshot(path=str(SHOTS / f"{name}-{viewport['width']}.png"), full_page=True)


def test_a_moderator_rehearses_the_night_from_the_console_and_deletes_the_copy(night, new_page):
    page = new_page(viewport=HALL)
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    sign_in(page, "rh-mod", "rh-mod-password-1")
    page.get_by_role("link", name="Пульт").first.click()
    page.wait_for_load_state()
    press(page, page.locator("[data-console-menu] nav a", has_text="Репетиция"))
    assert page.locator("h1").inner_text() == "Репетиция"
    form = page.locator("[data-rehearsal-form]")
    assert form.locator("input[name=tables][value=tactical]").is_visible()
    form.locator("input[name=turns]").fill("1")
    form.locator("input[name=tablets]").fill("1")
    assert form.locator("input[name=fast]").is_checked()
    for viewport in (PHONE, TABLET, HALL):
        shoot(page, "form", viewport)
    press(page, form.locator("[data-start-rehearsal]"))

    # The copy's page: marked, progress polled until the report.
    copy = Game.objects.get(rehearsal_of=night)
    assert page.url.rstrip("/").endswith(f"/g/{copy.pk}/rehearsal")
    assert page.locator("[data-rehearsal]").first.is_visible()
    assert "РЕПЕТИЦИЯ" in page.locator("[data-rehearsal]").first.inner_text().upper()
    run = page.locator("#rehearsal-run")
    page.wait_for_function("() => ['running', 'done'].includes("
                           "document.querySelector('#rehearsal-run').dataset.runState)", timeout=60000)
    shoot(page, "progress", HALL)
    page.wait_for_function("() => ['done', 'failed'].includes("
                           "document.querySelector('#rehearsal-run').dataset.runState)", timeout=300000)
    assert run.get_attribute("data-run-state") == "done", run.inner_text()
    assert "Все проверки пройдены" in page.locator("[data-report-verdict]").inner_text(), run.inner_text()
    rows = page.locator("[data-report-checks] tbody tr")
    assert rows.count() >= 10 and "http" in rows.first.inner_text()
    assert "Ход 1 из 1" in page.locator("[data-progress]").inner_text()
    for viewport in (PHONE, TABLET, HALL):
        shoot(page, "report", viewport)

    # The copy's projector and a bot's tablet page, each in its own window, both marked «Репетиция».
    with page.context.expect_page() as opened:
        page.locator("[data-rehearsal-projector]").click()
    projector = opened.value
    projector.wait_for_load_state()
    assert f"/g/{copy.pk}/" in projector.url and projector.locator("[data-rehearsal]").is_visible()
    projector.set_viewport_size(HALL)
    projector.screenshot(path=str(SHOTS / "projector-1920.png"))
    bots = page.locator("[data-bot-tablet]")
    assert bots.count() == copy.factions.count()
    with page.context.expect_page() as opened:
        bots.first.click()
    tablet = opened.value
    tablet.wait_for_load_state()
    assert f"/g/{copy.pk}/f/" in tablet.url and tablet.locator("[data-rehearsal]").is_visible()
    assert tablet.locator("article[data-unit]").count() >= 1
    for viewport in (PHONE, TABLET):
        shoot(tablet, "bot-tablet", viewport)
    tablet.close()
    projector.close()

    # Deleted in one click (after its question): back on the game's page, nothing of the copy left.
    press(page, page.locator("[data-delete-rehearsal]"))
    assert asked and "Удалить копию" in asked[-1]
    assert page.url.rstrip("/").endswith(f"/g/{night.pk}/rehearsal")
    assert "Копия для репетиции удалена" in page.locator("#flash").inner_text()
    assert not Game.objects.filter(pk=copy.pk).exists() and Game.objects.filter(pk=night.pk).exists()
    assert not page.locator("[data-rehearsal]").count()
    shoot(page, "after-delete", TABLET)
