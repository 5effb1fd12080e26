"""The dice a player can check: the moderator fights a battle with server dice (one re-roll, with its reason),
reveals the war's seed, and a player opens the dice check and reads «всё сходится»."""
import pytest

from .test_console import sign_in


@pytest.fixture
def battle_ready(transactional_db):
    """Tiny scenario: North I storms neutral Midtown; Movement running; a player of North who can sign in."""
    from larp.campaign.services.members import add_moderator, create_player
    from larp.orders.services import file_order
    from larp.scenarios.loader import load_scenario
    from larp.turns import services as turns

    game = load_scenario("tiny", title="Кубики на виду", seed=4_417_902_553_120_871)
    mod, _ = add_moderator(game, "dice-browser-mod", password="dice-mod-pass-1")
    turns.start_game(game, mod)
    player, _ = create_player(game.factions.get(code="north"), "dice-north", password="dice-north-pass-1")
    file_order(player, game, "north-1", {"type": "attack", "path": ["midtown"]})
    turns.next_phase(game, mod)
    return game


@pytest.mark.browser
def test_a_player_verifies_the_server_dice_after_the_reveal(battle_ready, new_page, artifacts):
    from larp.dice.models import Roll, fingerprint

    game = battle_ready
    out = artifacts / "dice"
    out.mkdir(exist_ok=True)
    page = new_page(viewport={"width": 1280, "height": 900})
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    sign_in(page, "dice-browser-mod", "dice-mod-pass-1")

    page.goto(f"/g/{game.pk}/console/")
    assert fingerprint(game.seed) in page.locator(".dice-commitment").inner_text()
    page.goto(f"/g/{game.pk}/console/battles/")
    page.click("text=Бросить на сервере")
    page.wait_for_load_state()
    assert "кубики хода № 1–" in page.locator(".rolled").inner_text()
    page.fill("form.roll-form input[name=reason]", "кубик скатился под стол")
    page.click("text=Перебросить")
    page.wait_for_load_state()
    assert "кубики хода № 3–4" in page.locator(".rolled").inner_text()
    page.click("text=Подтвердить сражение")
    page.wait_for_load_state()
    assert "Все сражения проведены" in page.content()
    discarded = Roll.objects.filter(stream__game=game, status=Roll.DISCARDED)
    assert discarded.count() == 2 and all("скатился под стол" in r.reason for r in discarded)

    page.click("nav.console-nav >> text=Проверка кубиков")
    assert "проверить можно после раскрытия" in page.locator("tr[data-stream=game]").inner_text()
    page.click("tr[data-stream=game] >> text=Раскрыть зерно")
    page.wait_for_load_state()
    assert asked and asked[-1].startswith("Раскрыть зерно кубиков войны?")
    assert "Зерно кубиков войны раскрыто" in page.content()

    reader = new_page(viewport={"width": 768, "height": 1024})
    sign_in(reader, "dice-north", "dice-north-pass-1")
    reader.goto(f"/g/{game.pk}/f/north/")
    reader.click("text=Проверка кубиков")
    row = reader.locator("tr[data-stream=game]")
    assert "всё сходится" in row.locator(".dice-verdict").inner_text()
    assert str(game.seed) in row.inner_text() and fingerprint(game.seed) in row.inner_text()
    assert "проверено кубиков сервера: 4" in row.inner_text()
    assert reader.locator("text=Раскрыть зерно").count() == 0
    reader.screenshot(path=str(out / "verify.png"), full_page=True)
