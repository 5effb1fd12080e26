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
    (artifacts / "ordonnance").mkdir(exist_ok=True)
    anna.goto(table_url)
    anna.screenshot(path=str(artifacts / "ordonnance" / "tablet.png"), full_page=True)
    anna.goto("about:blank")

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
    assert re.search(r"Победитель по территориям: (Анна|Борис)", mod.inner_text("#ord-result"))
    mod.screenshot(path=str(artifacts / "ordonnance" / "moderator.png"), full_page=True)
    proj = new_page({"width": 1920, "height": 1080})
    sign_in(proj, "ord-mod", "ord-mod-password")
    proj.goto(f"{table_url}projector/")
    assert re.search(r"Победитель по территориям: (Анна|Борис)", proj.inner_text(".proj-whose"))
    result = proj.locator("#ord-result .ord-standings").bounding_box()   # the final result is in view, no scrolling
    assert result["y"] + result["height"] <= 1080 and result["x"] + result["width"] <= 1920
    proj.screenshot(path=str(artifacts / "ordonnance" / "projector.png"))
    boris.goto(table_url)
    assert boris.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]   # nothing wider than the phone
    boris.screenshot(path=str(artifacts / "ordonnance" / "phone.png"), full_page=True)

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
