"""A player's pages on a 390 px phone: nothing wider than the screen, so nothing scrolls sideways."""
import pytest

from tests.browser.conftest import PHONE

WIDE = """() => [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1 && e.getClientRects().length)
    .slice(0, 6).map(e => e.tagName + '.' + (e.getAttribute('class') || '') + ' ' + Math.round(e.getBoundingClientRect().right))"""


@pytest.fixture
def long_names(transactional_db):
    """The default scenario (its long faction and province names), Strategy running, a spy report granted."""
    from larp.campaign.services.members import add_moderator, create_player
    from larp.scenarios.loader import load_scenario
    from larp.tablet import services as tablet
    from larp.turns import services as turns

    game = load_scenario("latin-east-1204", title="Phone game", seed=3)
    mod, _ = add_moderator(game, "phone-mod", password="mod-password-1")
    faction = game.factions.get(code="latin_empire")
    player, _ = create_player(faction, "latin_empire")
    turns.start_game(game, mod)
    tablet.grant_spy_report(mod, game, faction, "army:%d" % game.armies.filter(faction__code="nicaea").first().pk)
    return game, player, tablet.link(tablet.issue_code(mod, game, player))


def _fits(page, name, artifacts):
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(artifacts / f"phone-390-{name}.png"))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], (name, width, page.evaluate(WIDE))
    lang = page.locator(".topbar .lang button").last.bounding_box()
    assert lang["x"] + lang["width"] <= PHONE["width"], (name, lang)  # the RU/EN switch is on screen


@pytest.mark.browser
def test_no_player_page_is_wider_than_a_phone(long_names, new_page, artifacts):
    from django.urls import reverse

    game, _player, token = long_names
    page = new_page(viewport=PHONE)
    page.goto(reverse("tablet:join", args=["not-a-code"]))
    _fits(page, "join-refused", artifacts)
    page.goto(reverse("tablet:join", args=[token]))
    _fits(page, "faction", artifacts)
    page.locator("[data-unit] .order-form").first.scroll_into_view_if_needed()
    page.locator("[data-unit] .chip").first.click()
    _fits(page, "faction-choosing", artifacts)
    page.goto(reverse("tablet:faction", args=[game.pk, "latin_empire"]) + "#reports")
    _fits(page, "reports", artifacts)
    page.goto(reverse("tablet:map", args=[game.pk]))
    _fits(page, "map", artifacts)
    title = page.locator("h1").first.bounding_box()
    assert title["x"] >= 0 and title["x"] + title["width"] <= PHONE["width"], title
