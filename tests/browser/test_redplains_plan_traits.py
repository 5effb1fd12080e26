"""The Cunning plan, a charismatic general and a forest through the pages only (W9.3, W11.3, W38.2).

The moderator sets up a battle on the «new battle» page with north's general Akodo riding in the cavalry with
Charisma, and raises his impetus before play on the moderator's page; south's bowmen hide in the forest C13. In turn 1
north's command roll fails (typed in at the table): of the two Decisive attacks north files on its tablet Akodo's
extra special order (W9.2) pays one, the other is refused until the moderator grants a Cunning plan of one special
order; north confirms with it. The execution shows Akodo's
modifier and the impetus the engine used; north's second cavalry unit ends next to the forest and from then on north
sees the bowmen in it. The stored state equals the engine's replay; screenshots go to test-artifacts/red-plains/."""
import copy

import pytest
from django.urls import reverse

from tests.browser.conftest import PHONE, TABLET, fill_red_plains_battle, roll_until_executed, sign_in

pytestmark = pytest.mark.browser


def test_a_cunning_plan_a_charismatic_general_and_a_unit_in_a_forest(red_plains_hall, new_page, artifacts):
    from larp.redplains import services
    from larp.redplains import situation as sit
    from larp.redplains.engine.turn import turn_mode
    from larp.tables.models import Table

    game = red_plains_hall
    shots = artifacts / "red-plains"
    shots.mkdir(exist_ok=True)
    mod = new_page(viewport={"width": 1280, "height": 1000})
    sign_in(mod, "rp-mod", "rp-mod-password-1")
    mod.goto(reverse("redplains:new", args=[game.pk]))
    fill_red_plains_battle(mod, game, "Засада у леса",
                           {"north": [("cavalry", 8), ("cavalry", 8), ("samurai_spears", 8)],
                            "south": [("ashigaru_spears", 8), ("ashigaru_spears", 8), ("samurai_bows", 8)]},
                           {"north_messengers": 0, "south_messengers": 0})
    mod.fill("input[name=north_general_1]", "Акодо")
    mod.select_option("select[name=north_general_unit_1]", "1")
    mod.check("input[name=north_general_1_charisma]")
    mod.fill("input[name=north_general_1_charisma_impetus]", "1")
    mod.fill("input[name=forests]", "C13")
    mod.screenshot(path=str(shots / "new-battle-traits.png"), full_page=True)
    mod.click("form.rp-new button.primary")
    mod.wait_for_url("**/rp/*/")
    table = Table.objects.get(game=game, title="Засада у леса")
    assert table.setup["leaders"] == [{"name": "Акодо", "kind": "general", "unit": "n1",
                                       "traits": {"charisma": {"impetus": 1}}}]
    table_url = reverse("redplains:table", args=[game.pk, table.pk])

    # before play the moderator raises Akodo's Charisma to +2 impetus
    mod.select_option("select[data-traits-leader]", "0")
    mod.check('input[data-trait="charisma"]')
    mod.fill('input[data-trait-value="charisma_impetus"]', "2")
    mod.click("button[data-traits]")
    assert "Харизма (натиск +2)" in mod.inner_text('[data-leader-row="0"]')

    north = new_page(viewport=TABLET)
    sign_in(north, "rp-north", "rp-north-password-1")
    north.goto(table_url)
    for unit, cell in (("n1", "A11"), ("n2", "A15"), ("n3", "B11")):
        north.select_option(f'select[name="cell_{unit}"]', cell)
    north.click("form.rp-deploy button[type=submit]")
    north.click("#side-north [data-confirm]")
    south = new_page(viewport=PHONE)
    sign_in(south, "rp-south", "rp-south-password-1")
    south.goto(table_url)
    for unit, cell in (("s1", "C11"), ("s2", "D11"), ("s3", "C13")):
        south.select_option(f'select[name="cell_{unit}"]', cell)
    south.click("form.rp-deploy button[type=submit]")
    south.click("#side-south [data-confirm]")
    south.wait_for_selector('[data-unit="n1"]')
    table.refresh_from_db()
    assert table.status == Table.SETUP and table.state["leaders"][0]["traits"] == {"charisma": {"impetus": 2}}

    # the bowmen in the forest are hidden from north: nobody of north stands next to C13
    north.goto(table_url)
    assert north.locator('[data-unit="s3"]').count() == 0 and "Пешие самураи с луками 3" not in north.content()
    assert "Акодо, Харизма (натиск +2)" in north.inner_text("#side-north")
    assert "Харизма (натиск" not in south.content()                     # the enemy does not learn the trait

    # north's roll fails (typed in at the table): no special order, so its Decisive attack is refused
    mod.goto(table_url)
    mod.fill("#side-north input[data-roll-dice]", "1 1")
    mod.click("#side-north [data-roll-hand]")
    north.goto(table_url)
    assert "особых 0, обычных 3" in north.inner_text("#side-north .rp-count")
    north.select_option('select[name="o_n1_1"]', "special:decisive_attack")
    north.select_option('select[name="x_n1_1"]', "s1")
    north.select_option('select[name="o_n3_1"]', "special:decisive_attack")    # Akodo's own extra special pays
    north.select_option('select[name="x_n3_1"]', "s2")                          # one of the two (W9.2)
    north.select_option('select[name="o_n2_1"]', "ordinary:reform_left")
    north.select_option('select[name="x_n2_1"]', "move")
    north.click("form.rp-orders button[type=submit]")
    assert "не хватает особых приказов" in north.inner_text("#side-north")
    assert north.locator("#side-north [data-confirm]").count() == 0

    # the moderator grants a Cunning plan of one special order with the reason; the orders are paid again
    mod.goto(table_url)
    mod.click('[data-plan-panel="north"] summary')
    mod.fill('[data-plan-panel="north"] input[data-plan-count]', "1")
    mod.select_option('[data-plan-panel="north"] select[data-plan-kind]', "special")
    mod.fill('[data-plan-panel="north"] input[data-plan-reason]', "хитрый план князя Додзи")
    mod.click('[data-plan-panel="north"] button[data-plan]')
    north.goto(table_url)
    assert "особых 1 по Хитрому плану" in north.inner_text('[data-extras="north"]')
    assert north.locator("#side-north .rp-given .error").count() == 0
    north.screenshot(path=str(shots / "tablet-cunning-plan.png"), full_page=True)
    north.click("#side-north [data-confirm]")
    south.goto(table_url)
    assert "Хитрому плану" not in south.content()
    mod.goto(table_url)
    mod.fill("#side-south input[data-roll-dice]", "3 3")
    mod.click("#side-south [data-roll-hand]")
    south.goto(table_url)
    south.click("#side-south [data-confirm]")

    # the execution: Akodo's Charisma is named, and the melee line carries the impetus the engine used
    mod.goto(table_url)
    assert "Харизма — генерал Акодо, отряд «Конные самураи 1»: натиск +2" in mod.inner_text("[data-trait-mods]")
    roll_until_executed(mod)
    table.refresh_from_db()
    case = sit.turn_case(table.setup, table.state)
    engine = turn_mode(case)
    plain = copy.deepcopy(case)
    for u in plain["units"]:
        u.pop("modifiers", None)
    melee = next(e for e in engine["events"] if e["type"] == "melee" and "n1" in e["units"])
    bare = next(e for e in turn_mode(plain)["events"] if e["type"] == "melee" and "n1" in e["units"])
    impetus = melee["units"]["n1"]["impetus"]
    assert impetus == bare["units"]["n1"]["impetus"] + 2
    assert f"натиск {impetus}" in mod.inner_text(".rp-events")
    mod.screenshot(path=str(shots / "moderator-charisma.png"), full_page=True)
    mod.click("[data-execute]")

    table.refresh_from_db()
    state = sit.replay(table.setup, services.step_dicts(table))
    assert state == table.state
    assert state["turns"][0]["events"] == engine["events"]
    assert state["turns"][0]["command"]["north"]["result"]["extra"]["cunning_plan"] == {"special": 1, "ordinary": 0}
    assert sit.unit_map(state)["n2"]["cell"] == "A14" and state["turns"][0]["unseen"] == []
    plan = table.steps.get(kind="plan")
    assert plan.reason == "хитрый план князя Додзи" and plan.payload == {"kind": "special", "count": 1}

    # north's cavalry now stands next to the forest: north's tablet and the hall see the bowmen in it
    north.goto(table_url)
    assert north.locator('g[data-unit="s3"]').count() == 1
    assert "Пешие самураи с луками 3" in north.inner_text("#rp-units")
    north.screenshot(path=str(shots / "tablet-forest-in-sight.png"), full_page=True)
    projector = new_page(viewport={"width": 1280, "height": 800})
    sign_in(projector, "rp-mod", "rp-mod-password-1")
    projector.goto(reverse("redplains:projector", args=[game.pk, table.pk]))
    assert projector.locator('g[data-unit="s3"]').count() == 1
