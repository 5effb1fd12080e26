"""The console after a play-through, in a real browser: what a disabled button looks like and says, the
movement page once applied, the console after the deadline, the projector at 1920x1080."""
import pytest

from tests.browser.conftest import press, sign_in

DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def latin_started(transactional_db):
    from larp.campaign.services.members import add_moderator
    from larp.scenarios.loader import load_scenario
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


@pytest.fixture
def latin_fought(latin_started):
    """Turn 1 of the default scenario: two attacks filed, movement applied, both battles fought."""
    from larp.battles import services as battles
    from larp.campaign.services.members import create_player
    from larp.orders.services import file_order
    from larp.turns import services as turns

    game, mod = latin_started
    bulgar, _ = create_player(game.factions.get(code="bulgaria"), "p-bulgaria-fought")
    file_order(bulgar, game, "bulgaria-4", {"type": "attack", "path": ["serres"]})
    turns.next_phase(game, mod)
    battles.apply_movement(game, mod)
    turns.next_phase(game, mod)
    battles.confirm_battle(game, mod, 1, [5], [2])
    return game, mod


@pytest.mark.browser
def test_movement_map_is_large_and_the_fought_table_fits_at_1280(latin_fought, new_page, artifacts):
    game, _mod = latin_fought
    page = new_page(viewport={"width": 1280, "height": 800})
    sign_in(page, "polish-browser-mod", "polish-pass-123")
    page.goto(f"/g/{game.pk}/console/movement/")
    svg = page.locator(".stage-map .map svg[data-pan]").bounding_box()
    page.screenshot(path=str(artifacts / "polish-movement-1280.png"), full_page=True)
    assert svg["width"] >= 850, svg
    # Drawn at its own proportions: no empty band below the map.
    drawn = page.evaluate("""() => { const s = document.querySelector('.stage-map .map svg[data-pan]');
        const g = s.querySelector('g.nodes').getBoundingClientRect(); const b = s.getBoundingClientRect();
        return {gap: b.bottom - g.bottom, label: parseFloat(getComputedStyle(s.querySelector('.node-name text')).fontSize)
                * s.getScreenCTM().a}; }""")
    assert drawn["gap"] < 120, drawn
    label = page.evaluate("""() => { const t = document.querySelector('.stage-map .map svg[data-pan] .node-name text');
        return t.getBoundingClientRect().height; }""")
    assert label >= 11, label  # a province's name is at least 11 px tall on screen
    assert "Передвижение применено" in page.locator(".step-card").inner_text()

    page.goto(f"/g/{game.pk}/console/battles/")
    page.screenshot(path=str(artifacts / "polish-battles-1280.png"), full_page=True)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, overflow
    table = page.locator("table.fought").bounding_box()
    assert table["x"] >= 0 and table["x"] + table["width"] <= 1280 - 8, table


KEY_PLACES = ["Никея", "Афины", "Константинополь", "Дураццо", "Юг Эгейского моря", "Ионическое море",
              "Адриатическое море"]


@pytest.fixture
def latin_movement_shown(latin_started):
    """Movement of turn 1 with the console showing its first move (the projector shows the step panel)."""
    from larp.campaign.services.members import create_player
    from larp.orders.services import file_order
    from larp.turns import services as turns

    game, mod = latin_started
    bulgar, _ = create_player(game.factions.get(code="bulgaria"), "p-bulgaria-proj")
    file_order(bulgar, game, "bulgaria-4", {"type": "attack", "path": ["serres"]})
    turns.next_phase(game, mod)
    return game, mod


@pytest.mark.browser
def test_projector_at_1920_shows_every_faction_and_key_names_clear_of_flags(latin_movement_shown, new_page,
                                                                             artifacts):
    game, _mod = latin_movement_shown
    page = new_page(viewport={"width": 1920, "height": 1080})
    sign_in(page, "polish-browser-mod", "polish-pass-123")
    page.goto(f"/g/{game.pk}/console/movement/?step=1")  # the console shows the first move
    page.goto(f"/g/{game.pk}/projector/")
    page.locator(".projector-panel").wait_for()
    page.screenshot(path=str(artifacts / "polish-projector-1920.png"))
    draw = page.locator(".projector-draw")
    for faction in game.factions.all():
        item = draw.get_by_text(str(faction.name), exact=True)
        box = item.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 1920 and box["y"] + box["height"] <= 1080, \
            faction.name
    assert draw.evaluate("d => d.scrollWidth <= d.clientWidth")  # nothing cut off with «…»
    boxes = page.evaluate("""() => {
        const svg = document.querySelector('.map svg[data-pan]').getBoundingClientRect();
        const r = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
        const labels = [...document.querySelectorAll('.map svg[data-pan] .node-name text.label')]
            .filter(t => getComputedStyle(t).display !== 'none').map(t => ({name: t.textContent, box: r(t)}));
        const flags = [...document.querySelectorAll('.map svg[data-pan] .flag rect, .map svg[data-pan] .ship .hull')]
            .map(r);
        return {svg: [svg.left, svg.top, svg.right, svg.bottom], labels, flags}; }""")
    over = lambda a, b: a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1  # noqa: E731
    shown = {label["name"]: label["box"] for label in boxes["labels"]}
    for name in KEY_PLACES:
        assert name in shown, f"{name} has no label on the projector"
        box = shown[name]
        sx0, sy0, sx1, sy1 = boxes["svg"]
        assert box[0] >= sx0 and box[2] <= sx1 and box[1] >= sy0 and box[3] <= sy1, f"{name} is clipped"
        assert not any(over(box, flag) for flag in boxes["flags"]), f"a flag covers {name}"
        assert not any(over(box, other["box"]) for other in boxes["labels"] if other["name"] != name), \
            f"{name} overlaps another name"


@pytest.mark.browser
def test_projector_follows_the_console_step_by_step_by_itself(latin_started, new_page, artifacts):
    from larp.campaign.services.members import create_player
    from larp.orders.services import file_order
    from larp.turns import services as turns

    game, mod = latin_started
    for faction, unit, target in (("bulgaria", "bulgaria-4", "serres"), ("epirus", "epirus-2", "bodonitsa"),
                                  ("rum", "rum-2", "attalia")):
        player, _ = create_player(game.factions.get(code=faction), f"p-{faction}-follow")
        file_order(player, game, unit, {"type": "attack", "path": [target]})
    turns.next_phase(game, mod)
    console = new_page(viewport=DESKTOP)
    sign_in(console, "polish-browser-mod", "polish-pass-123")
    console.goto(f"/g/{game.pk}/console/movement/?step=0")
    hall = console.context.new_page()
    hall.set_viewport_size({"width": 1920, "height": 1080})
    hall.goto(f"/g/{game.pk}/projector/")
    hall.locator(".projector-panel").wait_for()
    for step in (1, 2, 3):  # a quick moderator: one click after another
        press(console, "a[rel=next]")
        # The projector follows by itself (no reload); how fast is a benchmark's figure, not this test's.
        hall.locator(f"[data-projector-step='{step}']").wait_for(timeout=5000)
    hall.screenshot(path=str(artifacts / "polish-projector-step-3.png"))
