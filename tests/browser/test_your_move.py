"""«Your move» on the tablets (issue 34): when the turn passes to a seat, that tablet — refreshed live, not
reloaded — shows the banner, and vibrates where its player turned sound and vibration on (navigator.vibrate is
stubbed in the page to count its calls). Two seats of an «Ордонанс» contest: Anna plays a card, Boris's
tablet announces his move; then Boris plays, and Anna's does."""
from pathlib import Path

import pytest

from tests.browser.conftest import PHONE, TABLET, sign_in

pytestmark = pytest.mark.browser

TEST_DECK = (Path(__file__).resolve().parents[1] / "ordonnance_table" / "test-deck.yaml").read_text(encoding="utf-8")
COUNT_VIBRATIONS = """
window.__vibrations = 0;
Object.defineProperty(Navigator.prototype, "vibrate", {configurable: true, value: function () {
  window.__vibrations += 1; return true; }});
"""


@pytest.fixture
def contest(transactional_db):
    from larp.campaign.services.members import add_moderator, create_player
    from larp.ordonnance import services
    from larp.scenarios.loader import load_scenario

    game = load_scenario("tiny", title="Вечер в зале", seed=5)
    mod, _ = add_moderator(game, "ord-mod", password="ord-mod-password")
    north, south = game.factions.get(code="north"), game.factions.get(code="south")
    create_player(north, "anna", password="anna-password-1")
    create_player(south, "boris", password="boris-password-1")
    deck = services.import_yaml(game, mod, TEST_DECK)
    table = services.create(game, mod, title="Спор за Антиохию", sides=[("p1", "Анна", north), ("p2", "Борис", south)],
                            mode="virtual", deck=deck, territory_names=None, announce="territories", seed=99)
    services.deal(table.pk, mod, first_player="p1")
    return game, table


def _tablet(new_page, viewport, user, password, url):
    page = new_page(viewport)
    page.add_init_script(COUNT_VIBRATIONS)
    sign_in(page, user, password)
    page.goto(url)
    return page


def _play_first_card(page):
    page.locator("#ord-hand .card-pick").first.click()
    with page.expect_navigation():
        page.locator("#ord-hand .territories button").first.click()


def test_the_turn_passing_is_announced_on_the_other_tablet(contest, new_page, artifacts):
    game, table = contest
    url = f"/g/{game.pk}/ord/{table.pk}/"
    anna = _tablet(new_page, TABLET, "anna", "anna-password-1", url)
    boris = _tablet(new_page, PHONE, "boris", "boris-password-1", url)

    # Anna opens on her move: the banner is there, without a sound (nothing changed under her eyes).
    assert anna.get_attribute("#your-move", "data-your-move") == "1"
    assert "Ваш ход!" in anna.inner_text("#your-move")
    assert boris.get_attribute("#your-move", "data-your-move") == "0"
    assert boris.inner_text("#your-move").strip() == ""

    # Sound and vibration are off by default; Boris turns them on (his tablet remembers it).
    toggle = boris.locator("[data-your-move-sound]")
    assert toggle.get_attribute("aria-pressed") == "false" and "выключены" in toggle.inner_text()
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true" and "включены" in toggle.inner_text()
    assert boris.evaluate("localStorage.getItem('larp.yourMove.sound')") == "on"
    before = boris.evaluate("window.__vibrations")

    # Anna plays a card: the turn passes; Boris's tablet, refreshed live, announces his move and vibrates.
    _play_first_card(anna)
    boris.wait_for_function("document.querySelector('#your-move').dataset.yourMove === '1'")
    boris.wait_for_function("Number(document.documentElement.dataset.yourMoveAnnounced || 0) === 1")
    assert "Ваш ход!" in boris.inner_text("#your-move")
    assert boris.evaluate("window.__vibrations") == before + 1
    assert boris.locator("#your-move").is_visible()
    boris.screenshot(path=str(artifacts / "your-move-390.png"))

    # Anna's banner is gone; her sound is off (the default), so her turn coming back makes no vibration.
    anna.wait_for_function("document.querySelector('#your-move').dataset.yourMove === '0'")
    _play_first_card(boris)
    anna.wait_for_function("Number(document.documentElement.dataset.yourMoveAnnounced || 0) === 1")
    assert anna.evaluate("window.__vibrations") == 0
    anna.screenshot(path=str(artifacts / "your-move-768.png"))

    # The choice outlives the page: Boris's tablet reloaded keeps sound and vibration on.
    boris.reload()
    assert boris.locator("[data-your-move-sound]").get_attribute("aria-pressed") == "true"
