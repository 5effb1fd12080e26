"""One battle of the turn fought as a Red Plains battle from the console to the end, through the pages only
(docs/bridge.md, docs/red-plains.md "Table").

The moderator sends the battle of Midtown (unwalled for this test: Red Plains takes no storm, docs/bridge.md
«Walls») to a Red Plains table from the Tactics phase's battles page, opens
the table from its link there and plays it to its end condition in the table's pages: his ruling with a reason
breaks the garrison's units, both sides roll their command dice and confirm, the turn is executed and the
engine's end check (W39.2, total defeat) ends the battle. Back in the console he confirms the suggested losses,
applies the regroup, and the map is recoloured exactly as `adjudicate turn` gives with the same outcome.
"""
import pytest

from tests.browser.conftest import press
from tests.browser.test_console import sign_in


@pytest.fixture
def field_ready(transactional_db):
    """The tiny scenario with Midtown unwalled: North I attacks its neutral garrison in the field (no storm, so
    Red Plains may take it); the Strategy phase closed, Movement running."""
    from larp.campaign.models import Province
    from larp.campaign.services.members import add_moderator, create_player
    from larp.orders.services import file_order
    from larp.scenarios.loader import load_scenario
    from larp.turns import services as turns

    game = load_scenario("tiny", title="Console browser game", seed=3)
    Province.objects.filter(game=game, code="midtown").update(fortress=False)
    mod, _ = add_moderator(game, "console-browser-mod", password="console-pass-123")
    turns.start_game(game, mod)
    player, _ = create_player(game.factions.get(code="north"), "north-browser")
    file_order(player, game, "north-1", {"type": "attack", "path": ["midtown"]})
    turns.next_phase(game, mod)
    return game


@pytest.mark.browser
def test_a_battle_played_through_the_red_plains_pages_comes_back_into_the_turn(field_ready, new_page, artifacts):
    from larp.battles import services as console
    from larp.bridge.models import TableBattle
    from larp.campaign.models import Province
    from larp.engine import run_turn
    from larp.redplains import situation as sit
    from larp.redplains import services as redplains
    from larp.tables.models import Table
    from larp.turns import services as turns
    from larp.turns.situation import case_from_game

    game = field_ready
    mod = game.memberships.get(user__username="console-browser-mod").user
    turn = turns.current_phase(game).turn
    console.apply_movement(game, mod)
    turns.next_phase(game, mod)                                   # Tactics
    (artifacts / "bridge").mkdir(exist_ok=True)
    page = new_page(viewport={"width": 1280, "height": 1000})
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    sign_in(page, "console-browser-mod", "console-pass-123")

    # The console: «Сыграть за столом» with Red Plains and a reason.
    battles_url = f"/g/{game.pk}/console/battles/"
    page.goto(battles_url)
    page.click("text=Сыграть за столом")
    panel = page.locator("#at-table")
    panel.locator("select[name=system]").select_option("red-plains")
    panel.locator("input[name=reason]").fill("бой решают командующие")
    press(page, panel.locator("button.primary"))
    assert "идёт за столом" in page.locator(".battle-queue").inner_text()
    assert "Идёт за столом" in page.locator(".at-table-state").inner_text()

    tb = TableBattle.objects.get()
    assert tb.sides == {"attacker": "north", "defender": "south"}
    garrison = [u["id"] for u in tb.table.setup["units"] if u["side"] == "south"]
    assert garrison

    # The table, opened from its link on the battles page.
    page.click(".at-table-state a")
    page.wait_for_url(f"**/rp/{tb.table_id}/")
    assert page.locator("[data-execute]").count() == 0
    for unit in garrison:                                         # the moderator's ruling, with its reason
        page.select_option("select[data-override-unit]", unit)
        page.fill("input[data-override-figures]", "0")
        page.select_option("form.rp-override select[name=status]", "destroyed")
        page.fill("input[data-override-reason]", "гарнизон сдался без боя")
        page.click("button[data-override]")
        page.wait_for_load_state()
        assert page.locator(".error").count() == 0, page.content()
    for side in ("north", "south"):                               # the command rolls, no orders, confirmed
        page.click(f"#side-{side} [data-roll-server]")
        page.wait_for_load_state()
        page.click(f"#side-{side} [data-confirm]")
        page.wait_for_load_state()
    for _ in range(20):                                           # any roll the execution awaits, by the server
        if page.locator("[data-execute]").count():
            break
        page.click("[data-exec-server]")
        page.wait_for_load_state()
    page.click("[data-execute]")
    page.wait_for_load_state()
    assert "Битва окончена" in page.inner_text("[data-end]")
    page.screenshot(path=str(artifacts / "bridge" / "rp-table.png"), full_page=True)

    table = Table.objects.get(pk=tb.table_id)
    assert table.status == Table.FINISHED
    assert table.state == sit.replay(table.setup, redplains.step_dicts(table))   # the log replays to the end
    assert table.result["winner"] == "north" and table.result["ended_by"] == "W39.2"
    assert table.steps.filter(kind="override", undone=False).count() == len(garrison)
    south = table.result["losses"]["south"]
    assert south["lost"] == south["start"] > 0 and table.result["losses"]["north"]["lost"] == 0

    # Back in the console: the suggested losses confirmed as they stand.
    page.goto(battles_url)
    assert "Сражение за столом закончено" in page.locator(".at-table-state").inner_text()
    form = page.locator("form.table-result")
    attacker_losses = int(form.locator("input[name=attacker_losses]").input_value())
    defender_losses = int(form.locator("input[name=defender_losses]").input_value())
    assert (attacker_losses, defender_losses) == (0, tb.power["defender"])   # no figure lost; the whole garrison
    assert form.locator("select[name=winner]").input_value() == "attacker"
    press(page, form.locator("button.primary"))
    row = page.locator("table.fought tbody tr").first.inner_text()
    assert "Серединград" in row and "сыграно за столом" in row and f"0 : {defender_losses}" in row
    assert "Все сражения проведены" in page.content()
    page.screenshot(path=str(artifacts / "bridge" / "rp-confirmed.png"), full_page=True)
    # the table's line in the fought battles wraps: the page stays as wide as the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280

    # The turn finished: the regroup applied, the map recoloured as `adjudicate turn` gives it.
    turns.next_phase(game, mod)                                   # Regroup
    page.goto(f"/g/{game.pk}/console/regroup/")
    press(page, "main button:has-text(\"Применить перегруппировку\")")
    assert "Перегруппировка применена" in page.content()

    case = dict(turn.start_state)
    case["orders"] = [o.payload for o in turn.orders.order_by("implicit", "filed_at", "id")]
    case["dice"] = []
    case["choices"] = {"outcomes": [{"battle": 1, "winner": "attacker",
                                     "losses": {"attacker": attacker_losses, "defender": defender_losses}}]}
    expected = run_turn(case)
    assert [(r["province"], r["to"]) for r in expected["recoloured"]] == [("midtown", "north")]
    _turn, _res, result = console.current_result(game)
    assert result["state"] == expected["state"] and result["recoloured"] == expected["recoloured"]
    now = case_from_game(game)
    assert {a["id"]: (a["province"], sorted(a["troops"])) for a in now["armies"]} == \
        {k: (v["province"], sorted(v["troops"])) for k, v in expected["state"]["armies"].items()}
    assert {p["id"]: (p["owner"], sorted(p["garrison"])) for p in now["provinces"]} == \
        {k: (v["owner"], sorted(v["garrison"])) for k, v in expected["state"]["provinces"].items()}
    assert expected["state"]["provinces"]["midtown"]["owner"] == "north"
    assert Province.objects.get(game=game, code="midtown").owner.code == "north"
    page.goto(f"/g/{game.pk}/map/")
    fill = page.locator("[data-province=midtown] circle.land").get_attribute("fill")
    assert fill.lower() == game.factions.get(code="north").colour.lower()
