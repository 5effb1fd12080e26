"""A whole «Ордонанс» contest through the pages only, the way a table in the hall plays it.

The moderator imports a deck list made up for the tests, creates a virtual contest for two factions'
players, deals (the first player entered after a lot at the table: a hand die; the shuffle: server
dice, one per position); the two players play every card on their tablets (768x1024 and 390 px);
the moderator undoes one play with its reason and gives the turn away once with a reason; the
contest runs to its fifth victory marker. Then the stored result equals the engine's own replay of
the stored log from the recorded dice, and the screenshots are saved.
"""
import re
from pathlib import Path

import pytest

from tests.browser.conftest import PHONE, TABLET, sign_in

pytestmark = pytest.mark.browser

SIZES = {"390": PHONE, "768": TABLET, "1920": {"width": 1920, "height": 1080}}
TEST_DECK = (Path(__file__).resolve().parents[1] / "ordonnance_table" / "test-deck.yaml").read_text(encoding="utf-8")


@pytest.fixture
def hall(transactional_db):
    from larp.campaign.services.members import add_moderator, create_player
    from larp.scenarios.loader import load_scenario

    game = load_scenario("tiny", title="Вечер в зале", seed=5)
    add_moderator(game, "ord-mod", password="ord-mod-password")
    north = game.factions.get(code="north")
    south = game.factions.get(code="south")
    create_player(north, "anna", password="anna-password-1")
    create_player(south, "boris", password="boris-password-1")
    return game, north, south


def shots_of(page, folder, seat):
    """The seat's page at 390, 768 and 1920x1080 px, each screenshot saved to be looked at: nothing wider than the
    screen, and no rule number (C7, C13...) on a player's or the hall's screen."""
    seat_size = page.viewport_size
    for label, size in SIZES.items():
        page.set_viewport_size(size)
        page.reload()
        page.wait_for_load_state()
        wide = page.evaluate("""w => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > w + 2)
            .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))""",
                             size["width"])
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"] + 2, (seat, label, wide)
        if "moderator" not in seat:
            assert not re.search(r"\(C\d", page.inner_text("body")), (seat, label)
        page.screenshot(path=str(folder / f"{seat}-{label}.png"), full_page=label != "1920")
    page.set_viewport_size(seat_size)


def test_a_whole_contest_through_the_pages_equals_the_engine(hall, new_page, artifacts):
    from larp.ordonnance import situation
    from larp.ordonnance.engine import modes
    from larp.tables import services as tables
    from larp.tables.models import Table

    game, north, south = hall
    mod = new_page(TABLET)
    sign_in(mod, "ord-mod", "ord-mod-password")

    # The deck list: the rules give none; one made up for the tests is pasted in as YAML.
    mod.goto(f"/g/{game.pk}/ord/decks/")
    assert "Колода: неизвестна" in mod.content()
    mod.fill("textarea[name=text]", TEST_DECK)
    mod.click("form[action$='decks/import'] button")
    mod.wait_for_load_state()
    assert "выдумана для тестов" in mod.content()

    # The moderator creates the contest from the game's list of tables.
    mod.goto(f"/g/{game.pk}/tables/")
    mod.click("a.button:has-text('Ордонанс')")
    mod.fill("input[name=title]", "Спор за Антиохию")
    mod.fill("input[name=player1]", "Анна")
    mod.select_option("select[name=faction1]", str(north.pk))
    mod.fill("input[name=player2]", "Борис")
    mod.select_option("select[name=faction2]", str(south.pk))
    mod.check("input[name=mode][value=virtual]")
    mod.select_option("select[name=deck]", label="Колода для тестов (выдуманная)")
    mod.fill("textarea[name=territory_names]", "Иерусалим\nЭдесса\nАнтиохия\nТриполи\nАккра")
    mod.click("form.ord-new button.primary")
    mod.wait_for_load_state()
    table = Table.objects.get(title="Спор за Антиохию")
    table_url = f"/g/{game.pk}/ord/{table.pk}/"
    assert mod.url.endswith(table_url)
    assert table.dice.fingerprint in mod.content()

    # The deal: the lot was drawn at the table (Борис), typed in; the shuffle is the server's dice.
    mod.click("form.lot-form button[value=p2]")
    mod.wait_for_load_state()
    assert "Ход: Борис" in mod.inner_text("#ord-head")

    anna = new_page(TABLET)
    sign_in(anna, "anna", "anna-password-1")
    boris = new_page(PHONE)
    sign_in(boris, "boris", "boris-password-1")
    pages = {"p1": anna, "p2": boris}

    def play_one():
        table.refresh_from_db()
        key = table.state["to_move"]
        page = pages[key]
        page.goto(table_url, wait_until="domcontentloaded")
        page.locator("#ord-hand .card-pick").first.click()
        with page.expect_navigation(wait_until="domcontentloaded"):
            page.locator("#ord-hand .territories button").first.click()
        assert not page.locator(".messages .error").count(), page.inner_text(".messages")
        page.goto("about:blank")   # a page left open polls the table: only the one acting is open
        return key

    mod.goto("about:blank")
    for _ in range(6):
        play_one()
    folder = artifacts / "ordonnance"
    folder.mkdir(exist_ok=True)
    # each seat in the middle of the contest (hands in play), at 390, 768 and 1920 px
    table.refresh_from_db()
    to_move = {"p1": "Анна", "p2": "Борис"}[table.state["to_move"]]
    for page, seat in ((anna, "tablet"), (boris, "phone")):
        page.goto(table_url)
        assert page.locator("#ord-hand .card-pick").count() >= 5
        shots_of(page, folder, seat)
        page.goto("about:blank")
    mod.goto(table_url)
    frame = mod.locator("[data-table-frame]")
    assert frame.locator("[data-frame-round]").inner_text() == "Карта № 7"
    assert frame.locator("[data-frame-whose]").inner_text() == f"Ходит {to_move}"
    assert frame.locator("[data-frame-next]").inner_text() == "Руки игроков ↓"
    shots_of(mod, folder, "moderator")
    mod.goto("about:blank")

    # One undo, with its reason, from the moderator's page.
    mod.goto(table_url)
    mod.fill("form[action$='/undo'] input[name=reason]", "карта легла не в ту территорию")
    mod.click("form[action$='/undo'] button")
    mod.wait_for_load_state()
    assert "Последний шаг отменён." in mod.content()
    table.refresh_from_db()
    assert len([s for s in tables.live_steps(table) if s.kind == "play"]) == 5

    # One override with a reason: the turn goes to the other player.
    waiting = "p1" if table.state["to_move"] == "p2" else "p2"
    mod.select_option("form[action$='/turn'] select[name=to_move]", waiting)
    mod.fill("form[action$='/turn'] input[name=reason]", "игрок отошёл, ходит соперник")
    mod.click("form[action$='/turn'] button")
    mod.wait_for_load_state()
    table.refresh_from_db()
    assert table.state["to_move"] == waiting

    mod.goto("about:blank")
    for _ in range(120):
        table.refresh_from_db()
        if table.status == Table.FINISHED:
            break
        play_one()
    table.refresh_from_db()
    assert table.status == Table.FINISHED

    mod.goto(table_url)
    assert "Партия окончена." in mod.inner_text("#ord-head")
    winner = {"p1": "Анна", "p2": "Борис"}[table.result["winner"]]
    laid = len([s for s in tables.live_steps(table) if s.kind == "play"])
    assert frame.locator("[data-frame-round]").inner_text() == f"Окончена, выложено карт: {laid}"
    assert frame.locator("[data-frame-whose]").inner_text() == f"Победитель: {winner}"
    assert re.search(r"Победитель по территориям: (Анна|Борис)", mod.inner_text("#ord-result"))
    mod.screenshot(path=str(folder / "moderator-end.png"), full_page=True)
    proj = new_page({"width": 1920, "height": 1080})
    sign_in(proj, "ord-mod", "ord-mod-password")
    proj.goto(f"{table_url}projector/")
    assert re.search(r"Победитель по территориям: (Анна|Борис)", proj.inner_text(".proj-whose"))
    result = proj.locator("#ord-result .ord-standings").bounding_box()   # the final result is in view, no scrolling
    assert result["y"] + result["height"] <= 1080 and result["x"] + result["width"] <= 1920
    shots_of(proj, folder, "projector")
    boris.goto(table_url)
    assert boris.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]   # nothing wider than the phone
    boris.screenshot(path=str(folder / "phone-end.png"), full_page=True)

    # The stored result is the engine's replay of the stored log from the recorded dice.
    setup = situation.setup_of(table.setup, ["p1", "p2"])
    steps = tables.live_steps(table)
    deal = steps[0]
    assert deal.kind == "deal" and deal.payload["how"] == "hand" and len(deal.payload["picks"]) == 43
    order = situation.shuffled_order([c["id"] for c in setup["deck"]], deal.payload["picks"])
    dealt = modes.deal({"players": setup["players"], "deck": setup["deck"], "order": order,
                        "first_player": deal.payload["first_player"]})
    engine_state = {"draw_pile": dealt["draw_pile"], "hands": dealt["hands"], "plays": [], "to_move": dealt["to_move"]}
    moves = []
    out = None
    for step in steps[1:]:
        if step.kind == "override_turn":
            out = modes.play({"players": setup["players"], "deck": setup["deck"], **engine_state, "moves": moves})
            engine_state = {**out["state"], "to_move": step.payload["to_move"]}
            moves = []
        else:
            moves.append({k: step.payload[k] for k in ("player", "card", "territory")})
    out = modes.play({"players": setup["players"], "deck": setup["deck"], **engine_state, "moves": moves})
    assert all(e["result"] == "laid" for e in out["events"]) and out["game_over"]
    assert table.result["winner"] == out["winner"]
    assert table.result["markers"] == out["markers"] and table.result["points"] == out["points"]
    assert table.result["losses"] == {k: {"start": 5, "lost": 5 - out["territories_won"][k]} for k in ("p1", "p2")}


def test_a_physical_contest_refuses_a_card_out_of_turn_then_takes_the_right_one(hall, new_page, artifacts):
    """A short physical contest through the pages: the moderator enters a card for the player out of turn and the
    page refuses it (at the table's address, in Russian, nothing recorded); the right player's card goes through;
    a card out of turn is then accepted as a ruling with its reason; the moderator ends the contest at a dead end
    (C13) with a reason. The frame follows every moment; the stored result is the engine's own replay."""
    from larp.ordonnance.engine import parse
    from larp.ordonnance.engine.data import load_rules
    from larp.ordonnance.engine.table import Table as EngineTable
    from larp.tables import services as tables
    from larp.tables.models import Table

    game, north, south = hall
    mod = new_page(TABLET)
    sign_in(mod, "ord-mod", "ord-mod-password")
    mod.goto(f"/g/{game.pk}/ord/new/")
    mod.fill("input[name=title]", "Спор за Эдессу")
    mod.fill("input[name=player1]", "Анна")
    mod.select_option("select[name=faction1]", str(north.pk))
    mod.fill("input[name=player2]", "Борис")
    mod.select_option("select[name=faction2]", str(south.pk))
    mod.check("input[name=mode][value=physical]")
    mod.click("form.ord-new button.primary")
    mod.wait_for_load_state()
    table = Table.objects.get(title="Спор за Эдессу")
    table_url = f"/g/{game.pk}/ord/{table.pk}/"
    assert mod.url.endswith(table_url)
    frame = mod.locator("[data-table-frame]")
    assert frame.locator("[data-frame-round]").inner_text() == "До жребия"
    assert "Первый игрок" in frame.locator("[data-frame-next]").inner_text()

    mod.click("form.lot-form button[value=p1]")   # the lot at the table went to Анна
    mod.wait_for_load_state()

    def bar():
        return (frame.locator("[data-frame-round]").inner_text(), frame.locator("[data-frame-whose]").inner_text(),
                frame.locator("[data-frame-next]").inner_text() if frame.locator("[data-frame-next]").count() else "")

    assert bar() == ("Карта № 1", "Ходит Анна", "Выложенная карта ↓")
    # the bar's button brings the moderator to the act's form from anywhere on the page
    in_view = ("() => { const r = document.querySelector('#entry').getBoundingClientRect();"
               " const bar = document.querySelector('[data-table-frame]').getBoundingClientRect();"
               " return r.top >= bar.bottom - 1 && r.top < window.innerHeight; }")
    mod.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert not mod.evaluate(in_view)
    frame.locator("[data-frame-next]").click()
    mod.wait_for_function(in_view)            # below the bar that stays at the top, not hidden under it

    def lay(player, territory, symbols, correction=""):
        mod.click(f"#entry label:has(input[name=player][value={player}])")
        mod.click(f"#entry label:has(input[name=territory][value='{territory}'])")
        for s in symbols:
            mod.click(f"#entry label.sym-{s}")
        if correction:
            mod.click("#entry details.out-of-turn summary")
            mod.fill("#entry input[name=correction]", correction)
        with mod.expect_navigation():
            mod.click("#entry button.primary")

    # Борис's card entered while it is Анна's turn: refused on the table's page, in Russian, nothing recorded
    lay("p2", 1, ["spear"])
    assert mod.url.endswith(table_url)                         # the address is the table's, not the act's
    refusal = mod.inner_text("[data-refusal]")
    assert "Сейчас ходит Анна, а не Борис" in refusal, refusal
    assert not table.steps.filter(kind="play").exists()
    assert bar()[:2] == ("Карта № 1", "Ходит Анна")
    # the next act: Анна's card goes through, the turn passes to Борис
    lay("p1", 1, ["flag", "helmet"])
    assert not mod.locator("[data-refusal]").count()
    assert bar() == ("Карта № 2", "Ходит Борис", "Выложенная карта ↓")
    # Анна lays again before Борис: accepted only as the moderator's ruling with its reason, on the record
    lay("p1", 2, ["swords"], correction="Борис уступил ход: карта уже легла на стол")
    ruled = table.steps.get(kind="play", payload__out_of_turn=True)
    assert ruled.reason == "Борис уступил ход: карта уже легла на стол" and ruled.payload["player"] == "p1"
    log = mod.inner_text("#ord-log")
    assert "Решение мастера, вне очереди" in log and "Борис уступил ход" in log
    assert bar()[:2] == ("Карта № 3", "Ходит Борис")          # the turn goes on from Анна
    lay("p2", 1, ["spear", "bow", "swords", "helmet", "flag"])
    lay("p1", 2, ["bow"])
    assert bar()[:2] == ("Карта № 5", "Ходит Борис")
    for player, territory, symbols in (("p2", 3, ["spear"]), ("p1", 2, ["spear"]), ("p2", 3, ["bow"]),
                                       ("p1", 2, ["flag"])):   # Анна's army in territory 2 is complete
        lay(player, territory, symbols)
    assert bar()[:2] == ("Карта № 9", "Ходит Борис")

    # each seat in the middle of the contest, at 390, 768 and 1920 px
    folder = artifacts / "ordonnance"
    folder.mkdir(exist_ok=True)
    anna = new_page(TABLET)
    sign_in(anna, "anna", "anna-password-1")
    anna.goto(table_url)
    assert "Ход: Борис" in anna.inner_text("#ord-head")
    shots_of(anna, folder, "physical-tablet")
    anna.close()
    boris = new_page(PHONE)
    sign_in(boris, "boris", "boris-password-1")
    boris.goto(table_url)
    shots_of(boris, folder, "physical-phone")
    boris.close()
    proj = new_page({"width": 1920, "height": 1080})
    sign_in(proj, "ord-mod", "ord-mod-password")
    proj.goto(f"{table_url}projector/")
    assert "Борис" in proj.inner_text(".proj-whose")
    shots_of(proj, folder, "physical-projector")
    shots_of(mod, folder, "physical-moderator")

    # the end: a dead end ruled with its reason (C13); the bar names the winner
    mod.fill("form#end input[name=reason]", "время вечера вышло, игроки согласились")
    with mod.expect_navigation():
        mod.click("form#end button")
    table.refresh_from_db()
    assert table.status == Table.FINISHED
    round_, whose, next_ = bar()
    assert round_ == "Окончена, выложено карт: 8"
    assert next_ == "Исход ↓"
    proj.reload()
    assert re.search(r"Победитель по территориям: (Анна|Борис)", proj.inner_text(".proj-whose"))
    proj.screenshot(path=str(folder / "physical-projector-end.png"))
    proj.close()

    # the stored result is the engine's own replay of the stored log
    steps = tables.live_steps(table)
    assert [s.kind for s in steps] == ["lot"] + ["play"] * 8 + ["override_end"]
    rules = load_rules()
    engine = EngineTable(rules, ("p1", "p2"), None)
    for number, step in enumerate(steps[1:9], start=1):
        pl = step.payload
        engine.lay(number, pl["player"], pl["territory"], parse.symbols_mask(pl["card"]["symbols"], "card", rules),
                   "card")
    engine.end_in_dead_end()
    out = engine.result()
    assert table.state["result"] == out
    assert table.result["winner"] == out["winner"] and table.result["ended_by"] == "dead_end"
    assert out["winner"] == "p1" and whose == "Победитель: Анна"   # the one complete army took its territory
