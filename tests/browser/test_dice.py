"""The dice a player can check: the moderator fights a battle with server dice (one re-roll, with its reason),
reveals the war's seed, and a player opens the dice check and reads «всё сходится»."""
import pytest

from tests.browser.conftest import press

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
    press(page, "text=Бросить на сервере")
    assert "кубики хода № 1–" in page.locator(".rolled").inner_text()
    page.fill("form.roll-form input[name=reason]", "кубик скатился под стол")
    press(page, "text=Перебросить")
    assert "кубики хода № 3–4" in page.locator(".rolled").inner_text()
    press(page, "text=Подтвердить сражение")
    assert "Все сражения проведены" in page.content()
    discarded = Roll.objects.filter(stream__game=game, status=Roll.DISCARDED)
    assert discarded.count() == 2 and all("скатился под стол" in r.reason for r in discarded)

    page.click("nav.console-nav >> text=Проверка кубиков")
    assert "проверить можно после раскрытия" in page.locator("tr[data-stream=game]").inner_text()
    press(page, "tr[data-stream=game] >> text=Раскрыть зерно")
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


@pytest.fixture
def unseeded(transactional_db):
    """Tiny scenario made without --seed, not started: the war's contributions are open."""
    from larp.campaign.services.members import add_moderator, create_player
    from larp.scenarios.loader import load_scenario

    game = load_scenario("tiny", title="Кубики без заданного зерна")
    mod, _ = add_moderator(game, "dice-open-mod", password="dice-mod-pass-1")
    create_player(game.factions.get(code="north"), "dice-open-north", password="dice-north-pass-1")
    return game, mod


@pytest.mark.browser
def test_a_tablet_adds_its_randomness_and_the_dice_page_shows_it_and_recomputes(unseeded, new_page, artifacts):
    from larp.dice import services as dice
    from larp.dice.models import Contribution, Stream
    from larp.rules.dice import mixed_seed
    from larp.turns import services as turns

    game, mod = unseeded
    out = artifacts / "dice"
    out.mkdir(exist_ok=True)
    tablet = new_page(viewport={"width": 390, "height": 844})
    sign_in(tablet, "dice-open-north", "dice-north-pass-1")
    tablet.goto(f"/g/{game.pk}/f/north/")
    widget = tablet.locator("[data-dice-contribute]")
    tablet.wait_for_selector("[data-dice-contribute][data-state=mine]")
    assert "Ваша случайность уже в этих кубиках" in widget.inner_text()
    stream = Stream.objects.get(game=game, label="game")
    first = Contribution.objects.get(stream=stream)
    assert first.auto and first.who == "north" and len(first.value) == 64
    tablet.click("text=Добавить свою случайность")
    tablet.wait_for_function("() => document.querySelector('[data-dice-status]').textContent.includes('2')")
    values = list(Contribution.objects.filter(stream=stream).order_by("pk").values_list("value", "auto"))
    assert len(values) == 2 and values[1][1] is False and values[0][0] != values[1][0]
    widget.scroll_into_view_if_needed()
    tablet.screenshot(path=str(out / "tablet-contribution-390.png"), full_page=True)

    tablet.click("[data-dice-contribute] >> text=Проверка кубиков")
    section = tablet.locator("[data-dice-stream=game]")
    assert section.locator(".dice-contributions tr[data-who=north]").count() == 2
    assert values[0][0] in section.inner_text() and "Вклады принимаются до начала игры" in section.inner_text()
    tablet.screenshot(path=str(out / "page-open-390.png"), full_page=True)

    # The start closes the set; the server rolls; the moderator reveals; the player recomputes in the browser.
    turns.start_game(game, mod)
    stream.refresh_from_db()
    assert stream.seed == mixed_seed(stream.secret, [("north", v) for v, _a in values])
    dice.roll(dice.turn_stream(game, 1), 6, purpose="проба", ref="turn-1:battle-1")
    dice.reveal_game(game, mod)
    for name, viewport in (("768", {"width": 768, "height": 1024}), ("1920", {"width": 1920, "height": 1080})):
        reader = new_page(viewport=viewport)
        sign_in(reader, "dice-open-north", "dice-north-pass-1")
        reader.goto(f"/g/{game.pk}/dice/")
        section = reader.locator("[data-dice-stream=game]")
        assert section.locator("tr.dice-used").count() == 6
        assert "в зерно вошло вкладов: 2" in section.inner_text()
        reader.click("text=Пересчитать в этом браузере")
        reader.wait_for_selector("[data-dice-stream=game][data-recomputed=ok]")
        assert section.locator(".dice-recomputed").first.inner_text().endswith("✓")
        assert "всё сходится" in reader.locator("tr[data-stream=game] .dice-verdict").inner_text()
        reader.screenshot(path=str(out / f"page-recomputed-{name}.png"), full_page=name != "1920")
