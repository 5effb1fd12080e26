"""The projector a hall can read, measured in a real browser at 1920×1080 (a full-screen projector), for each
phase's board: every province named, inside the screen, under no flag and no board, at least 32 px high; the
flags and the clock larger still; the page fills the screen without scrolling. Screenshots at 1920, 768 and
390 px go to test-artifacts/projector/ (a moderator may open it on a tablet or a phone)."""
import pytest

from tests.browser.test_console import sign_in

SCREEN = {"width": 1920, "height": 1080}
SHOTS = {"tablet": {"width": 768, "height": 1024}, "phone": {"width": 390, "height": 844}}

MEASURE = """() => {
    const r = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
    const svg = document.querySelector('.map svg[data-pan]');
    const labels = [...svg.querySelectorAll('.node-name text.label')].map(t => ({
        name: t.textContent, box: r(t), shown: getComputedStyle(t).display !== 'none' && getComputedStyle(t).visibility !== 'hidden'}));
    const flags = [...svg.querySelectorAll('.flag rect, .ship .hull, .ship .sail')].map(r);
    const panel = document.querySelector('.projector-panel');
    const time = document.querySelector('.clock-time');
    return {labels, flags, panel: panel ? r(panel) : null, board: panel ? panel.dataset.board : null,
            provinces: svg.querySelectorAll('.node').length, clock: time.getBoundingClientRect().height,
            flag: Math.min(...[...svg.querySelectorAll('.flag rect')].map(e => e.getBoundingClientRect().height)),
            scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight]}; }"""


def _over(a, b, slack=1):
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


def assert_hall_can_read(page, board):
    m = page.evaluate(MEASURE)
    assert m["board"] == board, m["board"]
    assert m["scroll"][0] <= SCREEN["width"] and m["scroll"][1] <= SCREEN["height"], m["scroll"]
    assert len(m["labels"]) == m["provinces"] > 60
    for label in m["labels"]:
        name, box = label["name"], label["box"]
        assert label["shown"], f"{name} is hidden"
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= SCREEN["width"] and box[3] <= SCREEN["height"], \
            f"{name} leaves the screen: {box}"
        assert box[3] - box[1] >= 32, f"{name} is {box[3] - box[1]:.1f} px high"
        assert not any(_over(box, flag) for flag in m["flags"]), f"a flag covers {name}"
        assert not (m["panel"] and _over(box, m["panel"])), f"the board covers {name}"
    for i, a in enumerate(m["labels"]):
        for b in m["labels"][i + 1:]:
            assert not _over(a["box"], b["box"], 2), f"{a['name']} and {b['name']} overlap"
    tallest = max(label["box"][3] - label["box"][1] for label in m["labels"])
    assert m["flag"] > tallest * 0.95 and m["clock"] > tallest * 1.5, (m["flag"], m["clock"], tallest)


def shoot(browser_page, game, name, artifacts):
    folder = artifacts / "projector"
    folder.mkdir(exist_ok=True)
    browser_page.screenshot(path=str(folder / f"{name}-1920.png"))
    context = browser_page.context
    for size, viewport in SHOTS.items():
        small = context.new_page()
        small.set_viewport_size(viewport)
        small.goto(f"/g/{game.pk}/projector/")
        small.screenshot(path=str(folder / f"{name}-{viewport['width']}.png"), full_page=True)
        overflow = small.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, (size, overflow)
        small.close()


@pytest.fixture
def latin_hall(transactional_db):
    from larp.campaign.services.members import add_moderator
    from larp.scenarios.loader import load_scenario
    from larp.turns import services as turns

    game = load_scenario("latin-east-1204", title="Вечер в зале", seed=11)
    mod, _ = add_moderator(game, "hall-projector-mod", password="hall-projector-pass-1")
    turns.start_game(game, mod)
    return game, mod


@pytest.mark.browser
def test_the_hall_reads_the_projector_in_every_phase(latin_hall, new_page, artifacts):
    from larp.battles import selectors, services as battles
    from larp.campaign.services.members import create_player
    from larp.orders.services import file_order
    from larp.turns import services as turns

    game, mod = latin_hall
    bulgar, _ = create_player(game.factions.get(code="bulgaria"), "p-bulgaria-hall")
    file_order(bulgar, game, "bulgaria-4", {"type": "attack", "path": ["serres"]})
    page = new_page(viewport=SCREEN)
    sign_in(page, "hall-projector-mod", "hall-projector-pass-1")

    # Strategy: the clock and the orders filed per faction.
    page.goto(f"/g/{game.pk}/projector/")
    assert "1 из" in page.locator("aside.board-strategy").inner_text()
    assert page.locator("[data-fullscreen]").is_visible()
    assert_hall_can_read(page, "strategy")
    shoot(page, game, "strategy", artifacts)
    # An order filed while the hall watches shows within seconds (filing is not audited; the poll counts orders).
    file_order(bulgar, game, "bulgaria-1", {"type": "hold"})
    page.locator("aside.board-strategy tr", has_text="Болгария").filter(has_text="2 из").wait_for(timeout=8000)

    # Movement: the step the console shows, with its path.
    turns.next_phase(game, mod)
    selectors.remember_shown(game, 1, "movement", 1)
    page.goto(f"/g/{game.pk}/projector/")
    assert "Болгария IV" in page.locator("aside.board-movement").inner_text()
    assert_hall_can_read(page, "movement")
    shoot(page, game, "movement", artifacts)

    # Tactics: the battles board, each result as it is confirmed.
    battles.apply_movement(game, mod)
    turns.next_phase(game, mod)
    page.goto(f"/g/{game.pk}/projector/")
    assert "Серре" in page.locator("aside.board-battles").inner_text()
    assert_hall_can_read(page, "battles")
    shoot(page, game, "battles-before", artifacts)
    battles.confirm_battle(game, mod, 1, [5], [2])
    page.goto(f"/g/{game.pk}/projector/")
    board = page.locator("aside.board-battles").inner_text()
    assert "ожидает" not in board
    assert_hall_can_read(page, "battles")
    shoot(page, game, "battles-after", artifacts)

    # Regroup: provinces changing hands, armies destroyed, who moves first next turn.
    turns.next_phase(game, mod)
    page.goto(f"/g/{game.pk}/projector/")
    text = page.locator("aside.board-results").inner_text()
    assert "Первым" in text or "первым" in text, text
    assert_hall_can_read(page, "results")
    shoot(page, game, "results", artifacts)
