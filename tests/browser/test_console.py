"""The moderators' console in a real browser: dice entered and confirmed, regroup applied, the map recoloured."""
import pytest

from tests.browser.conftest import press, sign_in


@pytest.fixture
def storm_ready(transactional_db):
    """Tiny scenario: North I ordered to storm neutral Midtown; the Strategy phase closed, Movement running."""
    from larp.campaign.services.members import add_moderator, create_player
    from larp.scenarios.loader import load_scenario
    from larp.orders.services import file_order
    from larp.turns import services as turns

    game = load_scenario("tiny", title="Console browser game", seed=3)
    mod, _ = add_moderator(game, "console-browser-mod", password="console-pass-123")
    turns.start_game(game, mod)
    player, _ = create_player(game.factions.get(code="north"), "north-browser")
    file_order(player, game, "north-1", {"type": "attack", "path": ["midtown"]})
    turns.next_phase(game, mod)
    return game


@pytest.mark.browser
def test_moderator_confirms_dice_and_the_map_shows_the_new_owner(storm_ready, new_page, artifacts):
    game = storm_ready
    page = new_page(viewport={"width": 1280, "height": 900})
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    sign_in(page, "console-browser-mod", "console-pass-123")

    page.goto(f"/g/{game.pk}/console/battles/")
    assert page.locator(".awaiting h2").inner_text().startswith("Сражение 1")
    assert "Шансы до броска" in page.locator(".odds").inner_text()
    page.fill("input[name=attacker]", "6")
    page.fill("input[name=defender]", "1")
    page.screenshot(path=str(artifacts / "console-battle-1280.png"), full_page=True)
    press(page, "text=Подтвердить сражение")
    row = page.locator("table.fought tbody tr").first.inner_text()
    assert "Серединград" in row and "6 : 1" in row
    assert "Все сражения проведены" in page.content()

    page.goto(f"/g/{game.pk}/console/regroup/")
    assert "Серединград" in page.locator("text=Провинции, сменившие владельца").locator("xpath=following::ul[1]").inner_text()
    press(page, "form[action$='regroup/apply'] button.primary")
    assert asked and asked[-1].startswith("Применить перегруппировку?")  # asked before writing to the map
    assert "Перегруппировка применена" in page.content()

    page.goto(f"/g/{game.pk}/map/")
    fill = page.locator("[data-province=midtown] circle.land").get_attribute("fill")
    assert fill.lower() == game.factions.get(code="north").colour.lower()
    page.screenshot(path=str(artifacts / "console-map-after-regroup.png"), full_page=True)


@pytest.fixture
def latin_with_moderator(transactional_db):
    from larp.campaign.services.members import add_moderator
    from larp.scenarios.loader import load_scenario

    game = load_scenario("latin-east-1204", title="Whole turn in the browser", seed=11)
    add_moderator(game, "whole-turn-mod", password="whole-turn-123")
    return game


@pytest.mark.browser
def test_a_whole_turn_of_the_default_scenario_by_one_moderator(latin_with_moderator, new_page, artifacts):
    """Start, orders written by the moderator (R14), movement, every battle with server dice, regroup, next turn;
    the console home shows one next thing to do at each step, and every destructive act asks first."""
    from larp.campaign.models import Province
    from larp.turns.models import AuditEntry, Turn

    game = latin_with_moderator
    page = new_page(viewport={"width": 1280, "height": 900})
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    sign_in(page, "whole-turn-mod", "whole-turn-123")
    page.goto(f"/g/{game.pk}/console/")
    page.screenshot(path=str(artifacts / "console-home-before-start.png"), full_page=True)
    page.click(".next-step button.primary")  # «Начать игру»
    assert asked and "Начать игру?" in asked[-1]
    assert "Стратегия" in page.locator("[data-clock-phase]").inner_text()
    assert "приказы: 0 из" in page.locator(".filing-grid").inner_text()

    for unit, target in (("bulgaria-4", "Серре"), ("epirus-2", "Бодоница"), ("rum-2", "Атталия")):
        if not page.locator("select[name=unit]").is_visible():
            page.click("text=Записать или исправить приказ (R14)")
        page.select_option("select[name=unit]", unit)  # the unit's legal pickers arrive in place
        form = page.locator("form[data-paper-order]")
        form.locator("input[name=unit][value='%s']" % unit).wait_for(state="attached")
        form.locator("label.chip", has_text="Захват").click()
        assert form.locator("button[data-submit]").is_disabled()  # not a whole order yet
        form.locator("fieldset:not([hidden]) label.chip", has_text=target).click()
        form.locator("input[name=reason]").fill("written for the player at the table")
        form.screenshot(path=str(artifacts / f"console-paper-order-{unit}.png"))
        form.locator("button[data-submit]").click()
        page.wait_for_load_state()
        assert "Приказ сохранён" in page.content(), page.locator(".messages").inner_text()
    assert "приказы: 1 из" in page.locator(".filing-grid tr", has_text="Болгария").inner_text()
    page.screenshot(path=str(artifacts / "console-home-strategy.png"), full_page=True)

    page.fill("form[action$='control/end'] input[name=reason]", "everyone is ready")
    page.click("form[action$='control/end'] button")  # Strategy closes at once
    assert "Закончить фазу сейчас?" in asked[-1]
    page.click(".next-step button.primary")  # «Перейти к передвижению»
    assert "Передвижение" in page.locator("[data-clock-phase]").inner_text()
    assert "Передвижение не применено" in page.locator(".unfinished").inner_text()
    page.screenshot(path=str(artifacts / "console-home-movement.png"), full_page=True)
    page.click(".next-step a.primary")  # «Провести передвижение»
    press(page, "text=Переставить флажки на карте")
    assert "переставлены" in page.content()

    page.goto(f"/g/{game.pk}/console/")
    page.click(".next-step button.primary")  # «Перейти к сражениям»
    page.click(".next-step a.primary")  # «Провести сражение 1»
    for _ in range(20):
        if page.locator(".awaiting").count() == 0:
            break
        press(page, "text=Бросить на сервере")
        press(page, "text=Подтвердить сражение")
    assert "Все сражения проведены" in page.content()
    page.screenshot(path=str(artifacts / "console-battles-done-1280.png"), full_page=True)

    page.goto(f"/g/{game.pk}/console/")
    page.click(".next-step button.primary")  # «Перейти к перегруппировке»
    page.click(".next-step a.primary")  # «Применить перегруппировку»
    page.click("form[action$='regroup/apply'] button")
    assert "Применить перегруппировку?" in asked[-1]
    assert "Перегруппировка применена" in page.content()
    assert Province.objects.get(game=game, code="bodonitsa").owner.code in ("epirus", "athens")

    page.goto(f"/g/{game.pk}/console/")
    assert page.locator(".next-step button.primary").inner_text() == "Открыть ход 2"
    page.click(".next-step button.primary")
    assert Turn.objects.filter(game=game).count() == 2
    assert "Ход 2" in page.locator("[data-clock-phase]").inner_text()
    assert not AuditEntry.objects.filter(game=game, action="phase_skipped").exists()
    log = page.locator("ul.audit").inner_text()
    assert "Ход 1: перегруппировка применена" in log and "{" not in log
    page.screenshot(path=str(artifacts / "console-home-turn-2.png"), full_page=True)
    page.goto(f"/g/{game.pk}/history/1/")
    assert "Бодоница" in page.content()


@pytest.mark.browser
def test_a_phase_with_work_is_skipped_only_with_a_reason_and_the_loss_is_said(storm_ready, new_page, artifacts):
    from larp.turns.models import AuditEntry
    from larp.turns.services import current_phase

    game = storm_ready
    page = new_page(viewport={"width": 1280, "height": 900})
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.dismiss() if len(asked) == 1 else d.accept()))
    sign_in(page, "console-browser-mod", "console-pass-123")
    page.goto(f"/g/{game.pk}/console/")
    unfinished = page.locator(".unfinished").inner_text()
    assert "Передвижение не применено" in unfinished
    assert page.locator(".next-step .primary").inner_text().startswith("Провести передвижение")
    assert page.locator("form[action$='control/end']").count() == 0  # «end now» waits for the work too
    page.fill(".skip-form input[name=reason]", "зал закрывается")
    page.screenshot(path=str(artifacts / "console-skip-1280.png"), full_page=True)
    page.click(".skip-form button")  # first time: the moderator reads what is lost and says no
    assert asked[0].startswith("Пропустить эту фазу? Будет потеряно:") and "Передвижение не применено" in asked[0]
    assert current_phase(game).kind == "movement"
    press(page, ".skip-form button")
    assert current_phase(game).kind == "tactics"
    skipped = AuditEntry.objects.get(game=game, action="phase_skipped")
    assert skipped.reason == "зал закрывается"
    assert "фаза «Передвижение» пропущена" in page.locator("ul.audit").inner_text()
