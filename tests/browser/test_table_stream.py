"""A table followed by its stream (issue 36): an act on one seat's tablet shows on the other seat's open page,
pushed, without a single poll of the table's version; and when the server has no stream left for the page, the
page polls as before and the act shows all the same. Two seats of an «Ордонанс» contest: Anna plays a card."""
import time
from pathlib import Path

import pytest

from tests.browser.conftest import PHONE, TABLET, sign_in

pytestmark = pytest.mark.browser

TEST_DECK = (Path(__file__).resolve().parents[1] / "ordonnance_table" / "test-deck.yaml").read_text(encoding="utf-8")


@pytest.fixture
def contest(transactional_db, settings):
    from larp.campaign.services.members import add_moderator, create_player
    from larp.ordonnance import services
    from larp.scenarios.loader import load_scenario

    settings.CLOCK_STREAM = settings.TABLE_STREAM = True
    # The test server cannot see a page leave: streams short enough to be over before the test's data is flushed.
    settings.CLOCK_STREAM_SECONDS = 3
    settings.STATE_CACHE = True  # the tests' cache is the live server's too: the pass and the fast lane, as with Redis
    game = load_scenario("tiny", title="Вечер в зале", seed=5)
    mod, _ = add_moderator(game, "ord-mod", password="ord-mod-password")
    north, south = game.factions.get(code="north"), game.factions.get(code="south")
    create_player(north, "anna", password="anna-password-1")
    create_player(south, "boris", password="boris-password-1")
    deck = services.import_yaml(game, mod, TEST_DECK)
    table = services.create(game, mod, title="Спор за Антиохию", sides=[("p1", "Анна", north), ("p2", "Борис", south)],
                            mode="virtual", deck=deck, territory_names=None, announce="territories", seed=99)
    services.deal(table.pk, mod, first_player="p1")
    yield game, table
    time.sleep(settings.CLOCK_STREAM_SECONDS + 1)  # the pages are closed by now: their streams end before the flush


def _tablet(new_page, viewport, user, password, url):
    page = new_page(viewport)
    sign_in(page, user, password)
    asked = {"version": 0, "stream": 0, "refused": 0}

    def count(request):
        path = request.url.split("?")[0]
        for what in ("version", "stream"):
            if path.endswith(f"/tables/{url.split('/')[-2]}/{what}"):
                asked[what] += 1

    def refused(response):
        if response.url.endswith("/stream") and response.status == 204:
            asked["refused"] += 1

    page.on("request", count)
    page.on("response", refused)
    page.goto(url)
    return page, asked


def _play_first_card(page):
    page.locator("#ord-hand .card-pick").first.click()
    with page.expect_navigation():
        page.locator("#ord-hand .territories button").first.click()


def test_an_act_reaches_the_other_seat_through_the_stream(contest, new_page):
    game, table = contest
    url = f"/g/{game.pk}/ord/{table.pk}/"
    anna, _ = _tablet(new_page, TABLET, "anna", "anna-password-1", url)
    boris, asked = _tablet(new_page, PHONE, "boris", "boris-password-1", url)
    assert boris.locator(f"[data-table-stream-url='/g/{game.pk}/tables/{table.pk}/stream']").count() == 1
    assert boris.get_attribute("#your-move", "data-your-move") == "0"
    boris.wait_for_timeout(1200)  # two and more ticks of the page: a polling page would have polled by now

    _play_first_card(anna)
    boris.wait_for_function("document.querySelector('#your-move').dataset.yourMove === '1'")
    assert "Ваш ход!" in boris.inner_text("#your-move")
    assert asked["stream"] >= 1 and asked["refused"] == 0
    assert asked["version"] == 0, asked  # pushed: not one poll of the table's version


def test_without_a_stream_slot_the_page_polls(contest, new_page, settings):
    settings.CLOCK_STREAM_SLOTS = 0  # every stream refused (204): the page's EventSource ends, the page polls
    game, table = contest
    url = f"/g/{game.pk}/ord/{table.pk}/"
    anna, _ = _tablet(new_page, TABLET, "anna", "anna-password-1", url)
    boris, asked = _tablet(new_page, PHONE, "boris", "boris-password-1", url)
    boris.wait_for_timeout(1200)
    assert asked["refused"] >= 1 and asked["version"] >= 1, asked

    _play_first_card(anna)
    boris.wait_for_function("document.querySelector('#your-move').dataset.yourMove === '1'")
    assert "Ваш ход!" in boris.inner_text("#your-move")
