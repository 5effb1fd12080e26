"""A whole battle of Red Plains through the pages only: the moderator sets it up, two players deploy and give
orders on a tablet (768x1024) and a phone (390 px), the moderator executes the turn with dice typed in and by
the server, undoes a step and rules on a unit with a reason, to the end of the battle. Then the stored result
equals the engine's replay of the stored log, and the screenshots are saved for the closing note."""
import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, TABLET, fill_red_plains_battle, roll_until_executed, sign_in

pytestmark = pytest.mark.browser


def test_a_whole_battle_through_the_pages(red_plains_hall, new_page, artifacts):
    from larp.redplains import services
    from larp.redplains import situation as sit
    from larp.tables.models import Table

    game = red_plains_hall
    mod = new_page(viewport={"width": 1280, "height": 1000})
    sign_in(mod, "rp-mod", "rp-mod-password-1")
    mod.goto(reverse("tables:list", args=[game.pk]))
    mod.click(f'a[href="{reverse("redplains:new", args=[game.pk])}"]')
    fill_red_plains_battle(mod, game, "Битва у Красного брода",
                           {"north": [("cavalry", 16), ("cavalry", 16), ("", None)],
                            "south": [("ashigaru_spears", 4), ("ashigaru_spears", 4), ("", None)]},
                           {"south_messengers": 0})
    mod.click("form.rp-new button.primary")
    mod.wait_for_url("**/rp/*/")
    table = Table.objects.get(game=game)
    table_url = reverse("redplains:table", args=[game.pk, table.pk])

    # the deployment turn: north taps its units onto the field, south picks cells on a phone
    north = new_page(viewport=TABLET)
    sign_in(north, "rp-north", "rp-north-password-1")
    north.goto(table_url)
    for unit, cell in (("n1", "A11"), ("n2", "B11")):
        north.click(f'[data-pick-unit="{unit}"] td >> nth=0')
        north.click(f'g[data-cell="{cell}"]')
        assert north.input_value(f'select[name="cell_{unit}"]') == cell
    north.click("form.rp-deploy button[type=submit]")
    north.click("#side-north [data-confirm]")
    south = new_page(viewport=PHONE)
    sign_in(south, "rp-south", "rp-south-password-1")
    south.goto(table_url)
    assert south.locator('[data-unit="n1"]').count() == 0              # north's deployment is hidden
    (artifacts / "red-plains").mkdir(exist_ok=True)
    south.screenshot(path=str(artifacts / "red-plains" / "phone.png"), full_page=True)
    south.select_option('select[name="cell_s1"]', "C11")
    south.select_option('select[name="cell_s2"]', "D11")
    south.click("form.rp-deploy button[type=submit]")
    south.click("#side-south [data-confirm]")
    south.wait_for_selector('[data-unit="n1"]')

    # the moderator's ruling with a reason: a fifth figure joins s1
    mod.goto(table_url)
    mod.select_option("select[data-override-unit]", "s1")
    mod.fill("input[data-override-figures]", "5")
    mod.fill("input[data-override-reason]", "подошло подкрепление")
    mod.click("button[data-override]")

    # the command phase: north's stake before its roll, then orders picked from the legal ones
    north.goto(table_url)
    north.click('form.rp-stake button[value="low"]')
    north.click("[data-roll-server]")
    north.select_option('select[name="o_n1_1"]', "ordinary:move")
    north.select_option('select[name="o_n2_1"]', "ordinary:move")
    north.click("form.rp-orders button[type=submit]")
    expect(north.locator(".rp-given li")).to_have_count(2)                              # once the answer is in
    (artifacts / "red-plains").mkdir(exist_ok=True)
    north.screenshot(path=str(artifacts / "red-plains" / "tablet.png"), full_page=True)
    north.click("#side-north [data-confirm]")
    # south's roll made at the table and typed in by the moderator; south gives no order and confirms
    mod.goto(table_url)
    mod.fill("#side-south input[data-roll-dice]", "3 4")
    mod.click("#side-south [data-roll-hand]")
    south.goto(table_url)
    assert "rp-given" not in south.content() and "✎" not in south.content()   # north's orders stay hidden
    south.click("#side-south [data-confirm]")

    # the execution on the moderator's screen: dice typed in, an undo, the dice again, then the server's
    mod.goto(table_url)
    count = int(mod.get_attribute("[data-dice-count]", "data-dice-count"))
    mod.fill("input[data-exec-dice]", " ".join(["2"] * count))
    mod.click("[data-exec-hand]")
    mod.fill("input[data-undo-reason]", "кубик скатился со стола")
    mod.click("button[data-undo]")
    count = int(mod.get_attribute("[data-dice-count]", "data-dice-count"))
    mod.fill("input[data-exec-dice]", " ".join(["5"] * count))
    mod.click("[data-exec-hand]")
    roll_until_executed(mod)
    mod.screenshot(path=str(artifacts / "red-plains" / "moderator.png"), full_page=True)
    mod.click("[data-execute]")
    assert mod.locator("[data-end]").count() == 1
    assert "Битва окончена" in mod.inner_text("[data-end]")

    projector = new_page(viewport={"width": 1280, "height": 800})
    sign_in(projector, "rp-mod", "rp-mod-password-1")
    projector.goto(reverse("redplains:projector", args=[game.pk, table.pk]))
    assert table.dice.fingerprint in projector.content()
    projector.screenshot(path=str(artifacts / "red-plains" / "projector.png"), full_page=True)
    north.goto(table_url)
    assert "Битва окончена" in north.inner_text("[data-end]")

    table.refresh_from_db()
    assert table.status == Table.FINISHED
    state = sit.replay(table.setup, services.step_dicts(table))
    assert state == table.state
    assert table.result == sit.result_of(table.setup, state)
    assert table.result["winner"] == "north"
    kinds = [s.kind for s in table.steps.all()]
    assert "override" in kinds and table.steps.filter(undone=True, kind="dice").count() == 1
    assert table.steps.filter(kind="dice", payload__source="hand", undone=False).exists()
    assert table.steps.filter(kind="dice", payload__source="server").exists()


def test_cavalry_pair_leader_move_and_dragon_move_through_the_pages(red_plains_hall, new_page, artifacts):
    """A player on a tablet moves his general (W11.1), files a cavalry reform-then-move (W21.1) and the Dragon
    move (W12.4) from the two-select picker; the moderator executes with dice typed in and by the server; the
    stored state is the engine's replay of the log."""
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
    fill_red_plains_battle(mod, game, "Знамя над бродом",
                           {"north": [("cavalry", 8), ("cavalry", 8), ("samurai_spears", 8)],
                            "south": [("ashigaru_spears", 8), ("ashigaru_spears", 8), ("", None)]},
                           {"south_messengers": 0}, names=("Клан Дракона", "Клан Скорпиона"))
    mod.fill("input[name=north_general_1]", "Акодо")
    mod.select_option("select[name=north_general_unit_1]", "3")
    mod.check("input[name=north_banner_dragon]")
    mod.click("form.rp-new button.primary")
    mod.wait_for_url("**/rp/*/")
    table = Table.objects.get(game=game, title="Знамя над бродом")
    assert table.setup["sides"]["north"]["banners"] == {"dragon": 1}
    table_url = reverse("redplains:table", args=[game.pk, table.pk])

    north = new_page(viewport=TABLET)
    sign_in(north, "rp-north", "rp-north-password-1")
    north.goto(table_url)
    for unit, cell in (("n1", "A12"), ("n2", "B11"), ("n3", "A11")):
        north.select_option(f'select[name="cell_{unit}"]', cell)
    north.click("form.rp-deploy button[type=submit]")
    north.click("#side-north [data-confirm]")
    south = new_page(viewport=PHONE)
    sign_in(south, "rp-south", "rp-south-password-1")
    south.goto(table_url)
    south.select_option('select[name="cell_s1"]', "C11")
    south.select_option('select[name="cell_s2"]', "D11")
    south.click("form.rp-deploy button[type=submit]")
    south.click("#side-south [data-confirm]")
    south.wait_for_selector('[data-unit="n1"]')

    # north's command phase on the tablet: the general first (before the orders), then the stake and the roll
    north.goto(table_url)
    assert north.locator('select[data-leader-unit="0"] option').count() == 3      # stays, or n1, n2 next to him
    north.select_option('select[data-leader-unit="0"]', "n2")
    north.click('[data-leader-move="0"]')
    assert "перешёл в этом ходу" in north.inner_text("#side-north")
    north.click('form.rp-stake button[value="low"]')
    north.click("[data-roll-server]")
    # one choice: the second select hides; the cavalry's first action: it lists the second actions
    north.select_option('select[name="o_n3_1"]', "ordinary:move")
    assert north.is_hidden('select[name="x_n3_1"]')
    north.select_option('select[name="o_n3_1"]', "")
    north.select_option('select[name="o_n1_1"]', "ordinary:reform_right")
    assert north.is_visible('select[name="x_n1_1"]')
    seconds = north.locator('select[name="x_n1_1"] option').all_inner_texts()
    assert "без второго действия" in seconds and "затем перемещение" in seconds and len(seconds) == 5
    north.select_option('select[name="x_n1_1"]', "move")
    assert north.locator('select[name="o_n2_2"] option[value="dragon:dragon"]').count() == 0   # slot 1 only
    north.select_option('select[name="o_n2_1"]', "dragon:dragon")
    assert north.locator('select[name="x_n2_1"] option').count() == 6                       # 3 turns x 1-2 cells
    north.select_option('select[name="x_n2_1"]', "ahead:2")
    north.click("form.rp-orders button[type=submit]")
    expect(north.locator(".rp-given")).to_contain_text("Перестроение направо, затем перемещение")  # the answer in
    given = north.locator(".rp-given li").all_inner_texts()
    assert any("Перестроение направо, затем перемещение" in t for t in given)
    assert any("Бросок Дракона, прямо, до 2 клеток вперёд" in t for t in given)
    assert north.locator(".rp-given .error").count() == 0
    north.screenshot(path=str(shots / "tablet-commands.png"), full_page=True)
    north.click("#side-north [data-confirm]")

    # south on the phone: the picker fits 390 px; north's general and Dragon stay hidden
    south.goto(table_url)
    south.click("#side-south [data-roll-server]")
    assert south.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    text = south.content()
    assert "Бросок Дракона" not in text and "перешёл" not in text
    south.screenshot(path=str(shots / "phone-picker.png"), full_page=True)
    south.click("#side-south [data-confirm]")

    # the moderator executes: the Dragon's melee first, its dice typed in, the rest by the server
    mod.goto(table_url)
    count = int(mod.get_attribute("[data-dice-count]", "data-dice-count"))
    mod.fill("input[data-exec-dice]", " ".join(["5"] * count))
    mod.click("[data-exec-hand]")
    roll_until_executed(mod)
    mod.screenshot(path=str(shots / "moderator-dragon.png"), full_page=True)
    table.refresh_from_db()
    engine = turn_mode(sit.turn_case(table.setup, table.state))
    mod.click("[data-execute]")

    table.refresh_from_db()
    state = sit.replay(table.setup, services.step_dicts(table))
    assert state == table.state
    turn = state["turns"][0]
    assert turn["events"] == engine["events"]
    first = turn["events"][0]                          # the Dragon goes first: its attack on s2 in front, in S1 P0
    assert (first["step"], first["priority"], first["type"]) == ("S1", "P0", "melee") and "n2" in first["units"]
    n1 = sit.unit_map(state)["n1"]
    assert (n1["cell"], n1["facing"]) == (engine["units"]["n1"]["cell"], engine["units"]["n1"]["facing"]) == ("A13", "W")
    assert [g["unit"] for g in state["leaders"]] == ["n2"] and turn["leaders"][0]["to"] == "n2"
    assert state["banners_left"]["north"]["dragon"] == 0
    south.goto(table_url)
    assert "Генерал Акодо перешёл" in south.inner_text("#rp-log")
    south.screenshot(path=str(shots / "phone-after.png"), full_page=True)


def test_the_moderator_adds_a_cell_a_unit_moves_into_it_and_the_calculators_answer(red_plains_hall, new_page,
                                                                                  artifacts):
    """W2.5 and W42.1 through the pages: the moderator taps a place beyond the east edge, gives the reason; north's
    ashigaru on the edge move into the new cell; the stored state is the engine's replay. Then the calculators,
    reached from the «new battle» page, give the engine's exact odds."""
    from larp.campaign.labels import odds_text
    from larp.redplains import services
    from larp.redplains import situation as sit
    from larp.redplains.engine.modes import odds_mode
    from larp.tables.models import Step

    game = red_plains_hall
    setup = sit.make_setup({"north": [{"type": "samurai_spears", "figures": 8}, {"type": "samurai_spears", "figures": 8},
                                      {"type": "ashigaru_spears", "figures": 6}],
                            "south": [{"type": "ashigaru_spears", "figures": 8},
                                      {"type": "ashigaru_spears", "figures": 8}]})
    for u, cell in zip(setup["units"], ("A11", "B11", "B16", "C36", "D36")):
        u["cell"] = cell
    setup["units"][2]["facing"] = "E"
    moderator = game.memberships.get(user__username="rp-mod").user
    table = services.create(game, moderator, "Бой у края равнины", [
        ("north", "Клан Журавля", game.factions.get(code="north")),
        ("south", "Клан Скорпиона", game.factions.get(code="south"))], setup, seed=31)
    table_url = reverse("redplains:table", args=[game.pk, table.pk])
    shots = artifacts / "red-plains"
    shots.mkdir(exist_ok=True)

    mod = new_page(viewport={"width": 1280, "height": 1000})
    sign_in(mod, "rp-mod", "rp-mod-password-1")
    mod.goto(table_url)
    assert mod.locator('g[data-cell="B17"]').count() == 0
    mod.click('g[data-add-cell="B17"]')                                 # tap the dashed place east of B16
    assert mod.is_checked('input[data-extend-cell="B17"]')
    mod.fill("input[data-extend-reason]", "отряду не хватило места у края стола")
    mod.click("button[data-extend]")
    mod.wait_for_selector('g[data-cell="B17"].extra')
    mod.screenshot(path=str(shots / "moderator-added-cell.png"), full_page=True)

    north = new_page(viewport=TABLET)
    sign_in(north, "rp-north", "rp-north-password-1")
    north.goto(table_url)
    assert north.locator('g[data-cell="B17"]').count() == 1 and north.locator("[data-add-cell]").count() == 0
    north.click('form.rp-stake button[value="low"]')
    north.click("[data-roll-server]")
    north.select_option('select[name="o_n3_1"]', "ordinary:move")
    north.click("form.rp-orders button[type=submit]")
    north.click("#side-north [data-confirm]")
    mod.goto(table_url)
    mod.fill("#side-south input[data-roll-dice]", "3 3")
    mod.click("#side-south [data-roll-hand]")
    mod.click("#side-south [data-confirm]")
    mod.click("[data-execute]")
    assert "B16 → B17" in mod.inner_text("#rp-log")
    north.goto(table_url)
    counter = north.locator('g[data-unit="n3"] rect').first
    cell = north.locator('g[data-cell="B17"] rect').first
    assert int(counter.get_attribute("x")) == int(cell.get_attribute("x")) + 6
    north.screenshot(path=str(shots / "tablet-added-cell.png"), full_page=True)
    projector = new_page(viewport={"width": 1280, "height": 800})
    sign_in(projector, "rp-mod", "rp-mod-password-1")
    projector.goto(reverse("redplains:projector", args=[game.pk, table.pk]))
    assert projector.locator('g[data-cell="B17"]').count() == 1 and projector.locator("[data-add-cell]").count() == 0
    projector.screenshot(path=str(shots / "projector-added-cell.png"), full_page=True)

    table.refresh_from_db()
    step = Step.objects.get(table=table, kind="extend")
    assert step.reason == "отряду не хватило места у края стола" and step.user.username == "rp-mod"
    state = sit.replay(table.setup, services.step_dicts(table))
    assert state == table.state and sit.unit_map(state)["n3"]["cell"] == "B17"

    # the calculators, without a board: reached from the «new battle» page
    mod.goto(reverse("redplains:new", args=[game.pk]))
    mod.click("a[data-calc-link]")
    mod.select_option("select[name=m-a_type]", "cavalry")
    mod.fill("input[name=m-a_figures]", "8")
    mod.select_option("select[name=m-b_type]", "samurai_spears")
    mod.fill("input[name=m-b_figures]", "12")
    mod.check("input[name=m-b_hold]")
    mod.click("[data-calc-melee]")
    result = mod.inner_text("[data-calc-result]")
    engine = odds_mode({"melee": {"kind": "attack",
                                  "defender": {"id": "b", "side": "south", "type": "samurai_spears", "figures": 12,
                                               "hold": True},
                                  "attackers": [{"id": "a", "side": "north", "type": "cavalry", "figures": 8,
                                                 "attacks": "front"}]}})
    for key in ("repelled", "pushed_back", "routed", "destroyed"):
        if key in engine:
            assert odds_text(engine[key]) in result
    mod.screenshot(path=str(shots / "calculator-melee.png"), full_page=True)
    mod.fill("input[name=c-rerolls]", "1")
    mod.click("[data-calc-command]")
    assert "35 из 36 (97 %)" in mod.inner_text("[data-calc-result]")


def _roll_table(game):
    """A Red Plains table at the command roll, north with two messengers (so a second post would be a re-roll)."""
    from larp.redplains import services
    from larp.redplains import situation as sit

    setup = sit.make_setup({"north": [{"type": "samurai_spears", "figures": 8}],
                            "south": [{"type": "ashigaru_spears", "figures": 8}]},
                           messengers={"north": 2, "south": 2})
    for u, cell in zip(setup["units"], ("A11", "C11")):
        u["cell"] = cell
    moderator = game.memberships.get(user__username="rp-mod").user
    return services.create(game, moderator, "Двойное касание", [
        ("north", "Клан Журавля", game.factions.get(code="north")),
        ("south", "Клан Скорпиона", game.factions.get(code="south"))], setup, seed=5)


def _north_at_the_roll(game, table, new_page, cpu_rate=None, hold_scripts_ms=0):
    """North's tablet, signed in, stakes low; the table page with the roll button comes back (maybe still loading:
    the click waits for the navigation to start, not for the page's scripts). cpu_rate slows the tablet down (CDP),
    hold_scripts_ms holds the page's own scripts back on the way, as a slow tablet on the hall's Wi-Fi does."""
    north = new_page(viewport=TABLET)
    sign_in(north, "rp-north", "rp-north-password-1")
    north.goto(reverse("redplains:table", args=[game.pk, table.pk]))
    if cpu_rate:
        north.context.new_cdp_session(north).send("Emulation.setCPUThrottlingRate", {"rate": cpu_rate})
    if hold_scripts_ms:
        def late_script(route):
            try:
                north.wait_for_timeout(hold_scripts_ms)
                route.continue_()
            except Exception:  # noqa: BLE001 - the page left (the tap's post) or the test ended meanwhile
                pass
        north.route("**/js/*.js", late_script)
    north.click('form.rp-stake button[value="low"]')
    north.wait_for_selector("[data-roll-server]", state="attached")
    return north


def _slow_wifi(page, posts, answer_ms):
    """The act's post reaches the server at once; its answer comes back answer_ms later over the Wi-Fi."""
    def handle(route):
        posts.append(route.request.url)
        answer = route.fetch(max_redirects=0)
        page.wait_for_timeout(answer_ms)
        route.fulfill(response=answer)
    page.route("**/act/roll", handle)
    page.route("**/act/reroll", handle)


def _one_roll(table, north, posts):
    north.wait_for_selector(".rp-roll")
    north.wait_for_timeout(500)
    table.refresh_from_db()
    assert table.steps.filter(kind="roll", undone=False).count() == 1
    assert table.steps.filter(kind="reroll").count() == 0
    assert [p.rsplit("/", 1)[-1] for p in posts] == ["roll"]
    assert north.locator(".rp-roll").count() == 1 and "Переброс" not in north.inner_text(".rp-roll")
    north.unroute_all(behavior="ignoreErrors")   # no route handler of this page outlives the test


def test_a_double_tap_on_the_roll_rolls_once(red_plains_hall, new_page):
    """The hall's tablets are tapped twice when the Wi-Fi is slow: with re-rolls left, a second post of the roll form
    would be a re-roll the player never asked for. The table's pages send a form once
    (templates/tables/partials/send_once.html)."""
    table = _roll_table(red_plains_hall)
    north = _north_at_the_roll(red_plains_hall, table, new_page)
    posts = []
    _slow_wifi(north, posts, 800)
    north.evaluate("""() => { const b = document.querySelector('[data-roll-server]');
                              b.click(); setTimeout(() => b.click(), 300); }""")
    north.wait_for_timeout(1500)
    _one_roll(table, north, posts)


def test_a_double_tap_on_a_slow_tablet_while_its_page_loads_rolls_once(red_plains_hall, new_page):
    """A slow tablet (CPU throttled 8x) draws the roll button before the page's scripts have run, and the player taps
    it twice at once. The guard is inline in the page's head, so it holds from the first button drawn: a guard in a
    script at the end of the page did not (the first post's navigation stops the page's loading, so that script
    never ran and the second tap posted again). The page's scripts are held back on the way, so the taps surely come
    before them: without the inline guard this fails every time, not now and then."""
    table = _roll_table(red_plains_hall)
    north = _north_at_the_roll(red_plains_hall, table, new_page, cpu_rate=8, hold_scripts_ms=1500)
    posts = []
    _slow_wifi(north, posts, 800)
    north.evaluate("""() => { const b = document.querySelector('[data-roll-server]');
                              b.click(); setTimeout(() => b.click(), 300); }""")
    north.wait_for_timeout(1500)
    _one_roll(table, north, posts)


def test_the_second_tap_lands_on_the_button_already_sent_not_on_a_fresh_re_roll(red_plains_hall, new_page):
    """The roll reaches the server at once, its answer is slow: the page's live refresh would draw the table anew
    (the roll done, a re-roll button in its place) under the finger before the answer came. While an act that left
    the page is on its way, nothing is swapped, so the second tap meets the button already sent."""
    table = _roll_table(red_plains_hall)
    north = _north_at_the_roll(red_plains_hall, table, new_page)
    north.wait_for_load_state("load")
    posts = []
    _slow_wifi(north, posts, 4000)
    # The second tap, 2.5 s later, presses whatever roll button the page shows then: the version poll (once a
    # second) has seen the roll by now.
    north.evaluate("""() => { document.querySelector('[data-roll-server]').click();
                              setTimeout(() => document.querySelector('[data-roll-server]').click(), 2500); }""")
    north.wait_for_timeout(5000)
    _one_roll(table, north, posts)
