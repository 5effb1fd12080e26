"""Shinobi in a Red Plains battle through the pages only (W6.4, W10): the moderator sets up a battle with shinobi,
both sides send theirs into the enemy army, and in turn 1 north's player on a tablet sends one shinobi to
sabotage and one to give signals; once both sides have confirmed, north alone reads the report and changes its
orders in the plan-change phase, and the moderator executes the turn. South's phone never shows the targets
before the execution; afterwards the log tells both what each shinobi did. The stored state equals the engine's
replay of the stored log; screenshots go to test-artifacts/red-plains/."""
import pytest
from django.urls import reverse

from tests.browser.conftest import PHONE, TABLET, fill_red_plains_battle, roll_until_executed, sign_in

pytestmark = pytest.mark.browser


def deploy(page, cells: dict[str, str], infiltrate: int, side: str) -> None:
    for unit, cell in cells.items():
        page.select_option(f'select[name="cell_{unit}"]', cell)
    page.fill("input[data-infiltrate]", str(infiltrate))
    page.click("form.rp-deploy button[type=submit]")
    page.click(f"#side-{side} [data-confirm]")


def test_shinobi_sabotage_and_signals_through_the_pages(red_plains_hall, new_page, artifacts):
    from larp.redplains import services
    from larp.redplains import situation as sit
    from larp.tables.models import Table

    game = red_plains_hall
    shots = artifacts / "red-plains"
    shots.mkdir(exist_ok=True)
    mod = new_page(viewport={"width": 1280, "height": 1000})
    sign_in(mod, "rp-mod", "rp-mod-password-1")
    mod.goto(reverse("redplains:new", args=[game.pk]))
    fill_red_plains_battle(mod, game, "Ночная вылазка",
                           {"north": [("cavalry", 16), ("cavalry", 16), ("", None)],
                            "south": [("ashigaru_spears", 8), ("ashigaru_spears", 8), ("", None)]},
                           {"north_shinobi": 2, "south_shinobi": 1})
    mod.click("form.rp-new button.primary")
    mod.wait_for_url("**/rp/*/")
    table = Table.objects.get(game=game)
    table_url = reverse("redplains:table", args=[game.pk, table.pk])

    # the deployment: every shinobi tries to get in, nobody guards, so all get through (W6.4)
    north = new_page(viewport=TABLET)
    sign_in(north, "rp-north", "rp-north-password-1")
    north.goto(table_url)
    deploy(north, {"n1": "A11", "n2": "B11"}, 2, "north")
    south = new_page(viewport=PHONE)
    sign_in(south, "rp-south", "rp-south-password-1")
    south.goto(table_url)
    deploy(south, {"s1": "C11", "s2": "D11"}, 1, "south")
    assert "Ваших синоби проникло: 1." in south.inner_text("#side-south")
    south.click("#side-south [data-confirm]")                  # the plan-change phase: no scouting, same plan
    north.goto(table_url)
    assert "Ваших синоби проникло: 2." in north.inner_text("#side-north")
    north.click("#side-north [data-confirm]")

    # turn 1 on north's tablet: stake, roll, orders, then a sabotage and signals
    north.click('form.rp-stake button[value="low"]')
    north.click("[data-roll-server]")
    north.select_option('select[name="o_n1_1"]', "ordinary:move")
    north.select_option('select[name="o_n2_1"]', "ordinary:move")
    north.click("form.rp-orders button[type=submit]")
    north.select_option("select[data-shinobi-task]", "sabotage")
    north.select_option("select[data-shinobi-unit]", "s2")
    north.click("[data-shinobi-go]")
    north.select_option("select[data-shinobi-task]", "signals")
    north.select_option("select[data-shinobi-unit]", "s1")
    north.click("[data-shinobi-go]")
    tasks = north.inner_text("[data-shinobi-tasks]")
    assert "саботаж в отряде «Асигару с копьями 2», бросок" in tasks
    assert "подаёт сигналы об отряде «Асигару с копьями 1»" in tasks
    assert "готовы к заданию: 0" in north.inner_text("[data-shinobi-panel]")
    assert north.locator("form.rp-shinobi-form").count() == 0               # both shinobi have done their task
    north.screenshot(path=str(shots / "tablet-shinobi-tasks.png"), full_page=True)
    north.click("#side-north [data-confirm]")

    # south: its roll typed in by the moderator, then on the phone s1 holds the position; it never sees the tasks
    mod.goto(table_url)
    mod.fill("#side-south input[data-roll-dice]", "5 5")
    mod.click("#side-south [data-roll-hand]")
    south.goto(table_url)
    south.select_option('select[name="o_s1_1"]', "special:hold")
    south.click("form.rp-orders button[type=submit]")
    for words in ("саботаж в отряде", "сигналы об отряде", "Асигару с копьями 2», бросок"):
        assert words not in south.content()
    south.select_option("select[data-shinobi-task]", "panic")              # south's own shinobi: panic in n2
    south.select_option("select[data-shinobi-unit]", "n2")
    south.click("[data-shinobi-go]")
    assert "сеет панику в отряде «Конные самураи 2»" in south.inner_text("[data-shinobi-tasks]")
    south.click("#side-south [data-confirm]")

    # the plan-change phase: north alone reads the report and changes its orders: n1 falls back instead of
    # charging s1 (any roll pays two ordinary orders)
    north.goto(table_url)
    north.wait_for_selector("[data-report]")
    report = north.inner_text("[data-report]")
    assert "сеет панику" not in north.content()
    assert "Приказ 1: Держать позицию! (особый)" in report
    north.screenshot(path=str(shots / "tablet-signals-report.png"), full_page=True)
    north.select_option('select[name="o_n1_1"]', "ordinary:retreat")
    north.click("form.rp-orders button[type=submit]")
    north.click("#side-north [data-confirm]")
    south.goto(table_url)
    assert south.locator("[data-report]").count() == 0
    assert "саботаж в отряде" not in south.content() and "сигналы об отряде" not in south.content()

    # the moderator sees the turn's shinobi, then executes with the server's dice
    mod.goto(table_url)
    assert "саботаж в отряде «Асигару с копьями 2»" in mod.inner_text("[data-shinobi-turn]")
    mod.screenshot(path=str(shots / "moderator-shinobi.png"), full_page=True)
    roll_until_executed(mod)
    mod.click("[data-execute]")

    # the executed turn's log tells both sides what each shinobi did
    south.goto(table_url)
    done = south.inner_text("[data-shinobi-done]")
    assert "Клан Журавля: синоби устраивает саботаж в отряде «Асигару с копьями 2»" in done
    assert "Клан Журавля: синоби подаёт сигналы об отряде «Асигару с копьями 1»" in done
    assert "Клан Скорпиона: синоби сеет панику в отряде «Конные самураи 2»" in done
    south.screenshot(path=str(shots / "phone-shinobi-log.png"), full_page=True)

    table.refresh_from_db()
    state = sit.replay(table.setup, services.step_dicts(table))
    assert state == table.state
    turn = state["turns"][0]
    assert [t["task"] for t in turn["shinobi"]["north"]] == ["sabotage", "signals"]
    assert turn["shinobi"]["south"] == [{"task": "panic", "unit": "n2"}]
    assert turn["orders"]["north"][0] == {"unit": "n1", "slot": 1, "kind": "ordinary", "type": "retreat"}
    assert table.steps.get(kind="execute").outcome == turn
    sabotage = table.steps.get(kind="shinobi", payload__task="sabotage")
    assert sabotage.payload["source"] == "server" and 1 <= sabotage.payload["roll"] <= 6
    assert sit.shinobi_tally(state, "north") == {"alive": 2, "through": 2, "used": 2, "ready": 0}
