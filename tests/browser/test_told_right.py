"""Layout a hall reads at a glance: the phone's top menu in whole words, nine join cards to a printed A4 page."""
import pytest

from tests.browser.conftest import PHONE
from tests.browser.test_phone import long_names  # noqa: F401 - the fixture: long names, a player's join code
from tests.sheets.pdf import pdf_pages

CUT = """() => [...document.querySelectorAll('.topbar nav > a, .topbar nav button')]
    .filter(e => e.getClientRects().length)
    .filter(e => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > window.innerWidth + 1
                 || e.getBoundingClientRect().left < -1)
    .map(e => e.textContent.trim())"""


@pytest.mark.browser
def test_the_phone_menu_shows_every_link_in_whole_words(long_names, new_page, artifacts):  # noqa: F811
    from django.urls import reverse

    game, _player, token = long_names
    page = new_page(viewport=PHONE)
    page.goto(reverse("tablet:join", args=[token]))
    page.wait_for_load_state("networkidle")
    (artifacts / "war-night").mkdir(exist_ok=True)
    page.screenshot(path=str(artifacts / "war-night" / "phone-390-menu.png"), clip={"x": 0, "y": 0, "width": 390,
                                                                                 "height": 160})
    links = page.locator(".topbar nav > a").all_inner_texts()
    assert "Латинская империя" in links and "Карта" in links, links
    assert page.evaluate(CUT) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.fixture
def many_players(transactional_db):
    """Eleven players of the default scenario, each with a join code: more than one A4 page of cards."""
    from larp.campaign.services.members import add_moderator, create_player
    from larp.scenarios.loader import load_scenario
    from larp.tablet import services as tablet

    game = load_scenario("latin-east-1204", title="Cards game", seed=3)
    mod, _ = add_moderator(game, "cards-mod", password="mod-password-1")
    for faction in game.factions.order_by("code"):
        player, _ = create_player(faction, f"p-{faction.code}", name="Константин Багрянородный")
        tablet.issue_code(mod, game, player)
    return game, mod


@pytest.mark.browser
def test_join_cards_print_nine_to_an_a4_page_and_keep_the_time_whole(many_players, new_page, artifacts):
    from django.urls import reverse

    from tests.browser.conftest import sign_in

    game, _mod = many_players
    page = new_page()
    sign_in(page, "cards-mod", "mod-password-1")
    page.goto(reverse("tablet:players", args=[game.pk]))
    page.emulate_media(media="print")
    (artifacts / "war-night").mkdir(exist_ok=True)
    page.screenshot(path=str(artifacts / "war-night" / "join-cards-print.png"), full_page=True)
    pdf = page.pdf(format="A4", print_background=True)
    (artifacts / "war-night" / "join-cards.pdf").write_bytes(pdf)
    pages = pdf_pages(pdf)
    per_page = [text.count("логин:") for text in pages]
    assert per_page == [9, 2], per_page
    # «действует до 28.11.2026 15:59»: the time is never broken across lines («15:5» / «9»).
    time_lines = page.evaluate("""() => [...document.querySelectorAll('.player-card .expires')].map(e => {
        const node = e.firstChild, at = node.textContent.search(/\\d\\d:\\d\\d/);
        const r = document.createRange(); r.setStart(node, at); r.setEnd(node, at + 5);
        return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; })""")
    assert len(time_lines) == 11 and set(time_lines) == {1}, time_lines
