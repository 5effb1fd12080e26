"""A battle of the turn sent from the console to a Red Plains table and its result confirmed back (docs/bridge.md).

The console's half in the browser: «Сыграть за столом», «Идёт за столом», the suggested losses edited and
confirmed, the turn finished, the map recoloured. The table itself is finished through the services (its
pages belong to the Red Plains app).
"""
import pytest

from tests.browser.test_bridge_red_plains import field_ready  # noqa: F401  (the fixture)
from tests.browser.conftest import press
from tests.browser.test_console import sign_in


@pytest.mark.browser
def test_a_battle_fought_at_a_red_plains_table_from_the_console(field_ready, new_page, artifacts):  # noqa: F811
    from larp.battles import services as console
    from larp.bridge.models import TableBattle
    from larp.campaign.models import Province
    from larp.tables import services as tables
    from larp.turns import services as turns

    game = field_ready
    mod = game.memberships.get(user__username="console-browser-mod").user
    console.apply_movement(game, mod)
    turns.next_phase(game, mod)                                   # Tactics
    page = new_page(viewport={"width": 1280, "height": 900})
    asked = []
    page.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    sign_in(page, "console-browser-mod", "console-pass-123")

    page.goto(f"/g/{game.pk}/console/battles/")
    page.click("text=Сыграть за столом")
    panel = page.locator("#at-table")
    panel.locator("select[name=system]").select_option("red-plains")
    panel.locator("input[name=reason]").fill("штурм решают командующие")
    page.screenshot(path=str(artifacts / "bridge-send-to-table.png"), full_page=True)
    press(page, panel.locator("button.primary"))
    state = page.locator(".at-table-state").inner_text()
    assert "Идёт за столом" in state and "Ход 1, сражение 1: Серединград" in state
    assert page.locator("input[name=attacker]").count() == 0      # no dice while the table plays
    assert "идёт за столом" in page.locator(".battle-queue").inner_text()
    page.screenshot(path=str(artifacts / "bridge-at-the-table.png"), full_page=True)

    tb = TableBattle.objects.get()
    table = tb.table
    assert table.system == "red-plains" and table.sides.get(key="north").faction.code == "north"
    north = sum(u["figures"] for u in table.setup["units"] if u["side"] == "north")
    south = sum(u["figures"] for u in table.setup["units"] if u["side"] == "south")
    with tables.locked(table.pk) as locked:                       # the table played to its end elsewhere
        tables.finish(locked, {"winner": "north", "ended_by": "rout",
                               "losses": {"north": {"start": north, "lost": 2}, "south": {"start": south,
                                                                                         "lost": south}}}, mod)

    page.reload()
    assert "Сражение за столом закончено" in page.locator(".at-table-state").inner_text()
    form = page.locator("form.table-result")
    suggested_defender = form.locator("input[name=defender_losses]").input_value()
    assert int(suggested_defender) == tb.power["defender"]        # every figure lost: the whole garrison
    form.locator("input[name=attacker_losses]").fill("3")          # the moderator edits the suggestion
    form.locator("input[name=reason]").fill("раненых не считаем")
    page.screenshot(path=str(artifacts / "bridge-result-to-confirm.png"), full_page=True)
    press(page, form.locator("button.primary"))
    row = page.locator("table.fought tbody tr").first.inner_text()
    assert "Серединград" in row and "сыграно за столом" in row and "3 : " + suggested_defender in row
    assert "Все сражения проведены" in page.content()
    page.screenshot(path=str(artifacts / "bridge-fought-at-the-table.png"), full_page=True)

    turns.next_phase(game, mod)                                   # Regroup
    page.goto(f"/g/{game.pk}/console/regroup/")
    press(page, "main button:has-text(\"Применить перегруппировку\")")
    assert "Перегруппировка применена" in page.content()
    assert Province.objects.get(game=game, code="midtown").owner.code == "north"
    page.goto(f"/g/{game.pk}/map/")
    fill = page.locator("[data-province=midtown] circle.land").get_attribute("fill")
    assert fill.lower() == game.factions.get(code="north").colour.lower()
    page.screenshot(path=str(artifacts / "bridge-map-recoloured.png"), full_page=True)
