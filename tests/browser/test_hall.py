"""The hall in a real browser: the moderators step the movement and the projector follows; the battles page."""
import re

import pytest

from tests.browser.conftest import press, sign_in

ORDERS = [
    ("bulgaria", "bulgaria-4", {"type": "attack", "path": ["serres"]}),
    ("rum", "rum-2", {"type": "attack", "path": ["attalia"]}),
    ("cilicia", "cilicia-2", {"type": "attack", "path": ["attalia"]}),
    ("epirus", "epirus-2", {"type": "attack", "path": ["bodonitsa"]}),
    ("athens", "athens-2", {"type": "march", "path": ["athens"]}),
]
DRAW = ["athens", "bulgaria", "nicaea", "epirus", "rum", "latin_empire", "thessalonica", "cilicia", "achaea",
        "trebizond", "venice"]
PROJECTOR = {"width": 1920, "height": 1080}


@pytest.fixture
def hall(transactional_db):
    """The default scenario, a moderator, several factions' orders filed, the Movement phase running."""
    from larp.campaign.services.members import add_moderator, create_player
    from larp.scenarios.loader import load_scenario
    from larp.orders.services import file_order
    from larp.turns import services as turns

    game = load_scenario("latin-east-1204", title="Зал", seed=5)
    mod, _ = add_moderator(game, "hall-mod", password="hall-pass-123")
    turns.enter_draw(game, mod, DRAW)
    turns.start_game(game, mod)
    for faction, unit, order in ORDERS:
        player, _ = create_player(game.factions.get(code=faction), f"hall-{faction}")
        file_order(player, game, unit, order)
    turns.next_phase(game, mod)
    return game, mod


def flag_title(page, unit):
    return page.locator(f"[data-unit='{unit}'] title").first.text_content()


def overlapping_labels(page) -> list:
    """Pairs of visible province names on the map whose boxes overlap."""
    return page.evaluate("""() => {
        const boxes = [...document.querySelectorAll('.map .node-name .label')]
          .filter(t => getComputedStyle(t).display !== 'none')
          .map(t => { const r = t.getBoundingClientRect(); return [t.textContent, r.left, r.top, r.right, r.bottom]; });
        const out = [];
        for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i], b = boxes[j];
          if (a[1] < b[3] - 1 && b[1] < a[3] - 1 && a[2] < b[4] - 1 && b[2] < a[4] - 1) out.push([a[0], b[0]]);
        }
        return out;
    }""")


@pytest.mark.browser
def test_moderator_steps_the_movement_and_the_projector_shows_the_same_step(hall, new_page, artifacts):
    game, _mod = hall
    console = new_page(viewport={"width": 1280, "height": 900})
    missing = []
    console.context.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    sign_in(console, "hall-mod", "hall-pass-123")
    console.goto(f"/g/{game.pk}/console/movement/?step=0")
    assert "Перед первым перемещением" in console.locator("#step").inner_text()
    start = flag_title(console, "bulgaria-4")
    assert "Серре" not in start

    projector = console.context.new_page()
    projector.set_viewport_size(PROJECTOR)
    projector.goto(f"/g/{game.pk}/projector/")

    # One move per click, in draw order: Athens first, then Bulgaria's attack on Serres.
    seen = []
    for _ in range(10):
        press(console, "a[rel=next]")
        card = console.locator("#step").inner_text()
        seen.append(card)
        if "Болгария IV" in card:
            break
    assert "Захват: " in seen[-1] and "Серре" in seen[-1], seen
    assert re.search(r"Перемещение \d+ из \d+", seen[-1])
    assert "Серре" in flag_title(console, "bulgaria-4")        # the flag moved with the step
    assert console.locator(".map .route-end").count() == 1       # the move's end is marked on the map
    console.screenshot(path=str(artifacts / "hall-movement-step-1280.png"), full_page=True)

    step = console.locator("#step").get_attribute("data-step")
    panel = projector.locator(f"[data-projector-step='{step}']")
    panel.wait_for(timeout=10000)                                 # the projector refreshes by itself
    assert "Болгария IV" in panel.inner_text()
    assert "Серре" in flag_title(projector, "bulgaria-4")
    projector.screenshot(path=str(artifacts / "hall-projector-step-1920.png"))

    press(console, "a[rel=prev]")
    assert "Серре" not in flag_title(console, "bulgaria-4")      # back: the flag is back
    projector.locator(f"[data-projector-step='{int(step) - 1}']").wait_for(timeout=10000)

    # Readable at 10 m: the whole projector fits one 1920×1080 screen, the legend's icons stay small,
    # and no two province names cover each other.
    height = projector.evaluate("document.documentElement.scrollHeight")
    assert height <= PROJECTOR["height"], height
    for box in projector.locator(".legend svg").evaluate_all("els => els.map(e => e.getBoundingClientRect().width)"):
        assert box < 48, box
    assert overlapping_labels(projector) == []
    sizes = projector.locator(".map .node-name .label >> visible=true").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().height)")
    assert sizes and min(sizes) >= 18, min(sizes)                # legible from the back of the hall

    assert missing == []                                          # no /favicon.ico 404 on any page

    # Apply all remains, whatever step is shown.
    press(console, "text=Переставить флажки на карте")
    assert "переставлены" in console.content()


@pytest.mark.browser
def test_battles_page_queue_modifier_and_odds(hall, new_page, artifacts):
    from larp.battles import services

    game, mod = hall
    services.apply_movement(game, mod)
    page = new_page(viewport={"width": 1280, "height": 900})
    sign_in(page, "hall-mod", "hall-pass-123")
    page.goto(f"/g/{game.pk}/console/battles/")
    assert page.locator(".battle-queue li.queue-current").count() == 1
    queue_size = page.locator(".battle-queue li").count()
    assert queue_size >= 2
    odds = page.locator(".odds").inner_text()
    assert re.search(r"\d+ из \d+ \(", odds) or "невозможно" in odds, odds
    assert not re.search(r"\d+/\d+", odds), odds
    assert "к6" in page.locator(".dice-form").inner_text()

    page.select_option("select[name=side]", "defender")
    page.fill("input[name=value]", "2")
    page.fill("input[name=reason]", "туман над рекой")
    press(page, "text=Добавить поправку")
    assert "туман над рекой" in page.locator(".modifiers").inner_text()
    page.screenshot(path=str(artifacts / "hall-battles-1280.png"), full_page=True)

    page.fill("input[name=attacker]", "4")
    page.fill("input[name=defender]", "4")
    press(page, "text=Подтвердить сражение")
    assert page.locator(".battle-queue li.queue-done").count() >= 1
    if page.locator(".awaiting").count():
        assert "туман над рекой" not in page.locator(".awaiting").inner_text()

    projector = page.context.new_page()
    projector.set_viewport_size(PROJECTOR)
    projector.goto(f"/g/{game.pk}/projector/")
    if page.locator(".awaiting").count():
        assert projector.locator("[data-projector-battle]").count() == 1
    projector.screenshot(path=str(artifacts / "hall-projector-battle-1920.png"))


@pytest.mark.browser
def test_phone_after_regroup_one_line_header_and_the_turn_result(hall, new_page, artifacts):
    from django.urls import reverse

    from larp.battles import services
    from larp.tablet import services as tablet
    from tests.browser.conftest import PHONE

    game, mod = hall
    services.apply_movement(game, mod)
    for _ in range(20):
        _turn, _res, result = services.current_result(game)
        awaiting = result.get("awaiting")
        if awaiting is None:
            break
        services.confirm_battle(game, mod, awaiting["n"], [5] * awaiting["dice_count"]["attacker"],
                                [2] * awaiting["dice_count"]["defender"])
    services.apply_regroup(game, mod)
    player = game.memberships.get(faction__code="bulgaria").user
    token = tablet.issue_code(mod, game, player)

    page = new_page(viewport=PHONE)
    page.goto(reverse("tablet:join", args=[tablet.link(token)]))
    page.wait_for_load_state()
    header = page.locator("header.topbar").bounding_box()
    # At most two lines of whole links (a phone cannot fit them whole on one), never a third of the screen.
    assert header["height"] <= 110, header
    result = page.locator("#turn-result")
    assert "Итоги хода 1" in result.inner_text()
    assert "Серре" in result.inner_text()
    page.screenshot(path=str(artifacts / "hall-phone-turn-result-390.png"))

    # The map page's legend: small icons, not hundreds of pixels each (the page was 4482 px tall).
    page.goto(f"/g/{game.pk}/map/")
    widths = page.locator(".legend svg").evaluate_all("els => els.map(e => e.getBoundingClientRect().height)")
    assert widths and max(widths) < 40, widths
    assert page.evaluate("document.documentElement.scrollHeight") < 2000


@pytest.mark.browser
def test_join_cards_print_nine_to_an_a4_page_with_their_colours(hall, new_page, artifacts):
    from larp.campaign.services.members import create_player
    from larp.tablet import services as tablet
    from tests.sheets.pdf import pdf_pages

    game, mod = hall
    for faction in game.factions.exclude(players__isnull=False):
        create_player(faction, f"hall-{faction.code}")
    tablet.issue_missing_codes(mod, game)
    assert game.memberships.filter(role="player").count() == 11
    page = new_page(viewport={"width": 1280, "height": 900})
    sign_in(page, "hall-mod", "hall-pass-123")
    page.goto(f"/g/{game.pk}/players/")
    page.emulate_media(media="print")
    adjust = page.locator(".player-sheet .swatch").first.evaluate("e => getComputedStyle(e).printColorAdjust")
    assert adjust == "exact"                                    # the faction colours print
    pdf = page.pdf(format="A4", print_background=False)
    (artifacts / "hall-join-cards.pdf").write_bytes(pdf)
    assert len(pdf_pages(pdf)) == 2                             # 11 cards, 3 × 3 to a page
