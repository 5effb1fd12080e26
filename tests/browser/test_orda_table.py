"""A whole «Орда» battle through the pages only: the moderator sets the table up, two players act on tablets
(768x1024 and a 390 px phone), the moderator resolves with hand-entered and server dice, undoes one roll, overrides
with a reason, and the battle ends by the rules (Border: the Mongol capital destroyed by siege). The stored result
must equal the engine's replay of the stored log. The numbers are the data set MADE UP FOR THE TESTS."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, TABLET, sign_in

pytestmark = pytest.mark.browser



def fill_new_table(mod, game, title, mode):
    """The «new table» page of «Орда» as the moderator fills and sends it: Rus (north) against North Mongolia
    (south) in this mode; waits for the table's board."""
    mod.fill("input[name=title]", title)
    mod.select_option("select[name=mode]", mode)
    mod.select_option("select[name=rus_china]", "rus")
    mod.select_option("select[name=mongolia]", "north_mongolia")
    mod.select_option("select[name=faction_rus]", label=str(game.factions.get(code="north")))
    mod.select_option("select[name=faction_north_mongolia]", label=str(game.factions.get(code="south")))
    mod.click("button:has-text('Создать стол')")
    mod.wait_for_selector("svg.orda-board")

@pytest.fixture
def hall(transactional_db):
    from larp.campaign.services.members import add_moderator, create_player
    from larp.orda import services
    from larp.scenarios.loader import load_scenario
    from tests.orda_table.data import complete_data

    game = load_scenario("tiny", title="Вечер «Орды»", seed=7)
    add_moderator(game, "orda-mod", password="orda-mod-123")
    create_player(game.factions.get(code="north"), "rus-player", password="rus-player-123")
    create_player(game.factions.get(code="south"), "nm-player", password="nm-player-123")
    mod = game.memberships.get(user__username="orda-mod").user if hasattr(game, "memberships") else None
    services.create_dataset(game, "Тестовый набор (выдуманные числа)", mod, complete_data())
    return game


def hex_click(page, key):
    page.locator(f'svg.orda-board g.hex[data-hex="{key}"]').click()
    page.wait_for_load_state()


def test_a_whole_orda_battle_through_the_pages(hall, new_page, artifacts):
    from django.urls import reverse

    from larp.orda import services
    from larp.orda import situation as sit
    from larp.tables import services as tables
    from larp.tables.models import Table

    game = hall
    mod = new_page(viewport={"width": 1280, "height": 900})
    sign_in(mod, "orda-mod", "orda-mod-123")
    mod.goto(reverse("tables:list", args=[game.pk]))
    mod.click(".new-table a:has-text('Орда')")
    fill_new_table(mod, game, "Бой у брода", "border")
    table = Table.objects.get()
    url = reverse("orda:table", args=[game.pk, table.pk])
    assert table.dice.fingerprint in mod.content()

    rus = new_page(viewport=TABLET)
    sign_in(rus, "rus-player", "rus-player-123")
    rus.goto(url)
    nm = new_page(viewport=PHONE)
    sign_in(nm, "nm-player", "nm-player-123")
    nm.goto(url)
    assert "Ходит: Русь" in nm.content()

    # Tour 1, Rus: Иван III goes next to the Mongol capital and strikes the Налётчик с длинным луком.
    rus.click("button:has-text('Начало хода')")
    rus.click("a.button:has-text('Иван III')")
    rus.locator("g.hex.can-move").nth(2).wait_for()  # the unit's page has loaded: three moves at least
    (artifacts / "orda").mkdir(exist_ok=True)
    rus.screenshot(path=str(artifacts / "orda" / "tablet.png"), full_page=True)
    hex_click(rus, "0,-1")
    rus.click("a.button:has-text('Иван III')")
    expect(rus.locator('g.hex.can-target[data-hex="-1,-1"]')).to_have_count(1)  # once the unit's page has loaded
    hex_click(rus, "-1,-1")
    # The target's player chooses the counter-measure on the phone, with the odds.
    nm.goto(url)
    assert "Выберите контрмеру" in nm.content() and "гибель" in nm.content()
    nm.screenshot(path=str(artifacts / "orda" / "phone-counter.png"), full_page=False)
    nm.click("button:has-text('Оборона')")
    # The moderator types in the two physical dice.
    mod.goto(url)
    mod.screenshot(path=str(artifacts / "orda" / "moderator.png"), full_page=True)
    mod.fill("input[name=die_attacker]", "6")
    mod.fill("input[name=die_defender]", "1")
    mod.click("button:has-text('Ввести кубики')")
    assert "попадание" in mod.locator("#orda-log").inner_text()
    rus.goto(url)
    rus.click("button:has-text('Итоги')")

    # Tour 1, North Mongolia: the archer shoots back; the server rolls, the moderator undoes the roll and re-rolls.
    nm.goto(url)
    nm.click("button:has-text('Начало хода')")
    nm.click("a.button:has-text('Налётчик с длинным луком')")
    hex_click(nm, "0,-1")
    rus.goto(url)
    assert "Выберите контрмеру" in rus.content()
    rus.click("button:has-text('Оборона')")
    mod.goto(url)
    mod.click("button:has-text('Бросить кубики сервера')")
    assert "сервер" in mod.locator("#orda-log").inner_text()
    mod.fill("form.tool:has(button:has-text('Отменить')) input[name=reason]", "кубик скатился со стола")
    mod.click("form.tool button:has-text('Отменить')")
    assert "кубик скатился со стола" in mod.locator("#orda-log").inner_text()
    mod.click("button:has-text('Бросить кубики сервера')")
    # An event card's effect, entered by the moderator as a modifier with its reason.
    tool = mod.locator("form.tool:has(button:has-text('Добавить модификатор'))")
    tool.locator("select[name=unit]").select_option(label="Налётчик 1 (Северная Монголия)")
    tool.locator("select[name=param]").select_option("defence")
    tool.locator("input[name=reason]").fill("Карта «Буран»: −1 к защите")
    tool.locator("button").click()
    assert "Карта «Буран»" in mod.locator("#orda-log").inner_text()
    nm.goto(url)
    nm.click("button:has-text('Итоги')")

    # Tour 2, Rus: Иван III has stood at the capital's walls since the start of the turn: the siege destroys it.
    rus.goto(url)
    rus.click("button:has-text('Начало хода')")
    rus.click("button:has-text('Итоги')")
    rus.get_by_text("Победа: Русь и Китай").first.wait_for(timeout=10000)  # the act's answer, on a busy machine
    assert "Победа: Русь и Китай" in rus.content()

    mod.goto(url)
    assert "Победа: Русь и Китай — столицы Монголии разрушены" in mod.content()
    mod.screenshot(path=str(artifacts / "orda" / "moderator-end.png"), full_page=True)
    nm.goto(url)
    nm.screenshot(path=str(artifacts / "orda" / "phone.png"), full_page=True)
    proj = new_page(viewport={"width": 1280, "height": 800})
    sign_in(proj, "orda-mod", "orda-mod-123")
    proj.goto(reverse("orda:projector", args=[game.pk, table.pk]))
    assert table.dice.fingerprint in proj.content()
    proj.screenshot(path=str(artifacts / "orda" / "projector.png"), full_page=True)

    table = Table.objects.get(pk=table.pk)
    assert table.status == Table.FINISHED
    replayed = sit.replay(table.setup, [(s.kind, s.payload) for s in tables.live_steps(table)])
    assert replayed == table.state
    assert services.result_of(table, replayed) == table.result
    assert table.result["winner"] == "rus" and table.result["ended_by"] == "mongol_capitals_destroyed"
    kinds = [s.kind for s in table.steps.order_by("seq")]
    assert kinds.count("attack") == 3 and table.steps.filter(undone=True, kind="attack").count() == 1
    hand = table.steps.get(kind="attack", payload__hand=True)
    assert hand.payload["dice"] == {"attacker": [6], "defender": [1]}


@pytest.fixture
def bolt_hall(transactional_db):
    """China (the north's player) against North Mongolia (the south's) on a board arranged as the bridge would set it
    up, its first turn waiting for a roll-off; the table's dice seed makes the first server round a tie. The numbers
    and the positions are MADE UP FOR THE TESTS (tests/orda_table/data.py)."""
    from larp.campaign.services.members import add_moderator, create_player
    from larp.rules.dice import die
    from larp.scenarios.loader import load_scenario
    from larp.tables import services as tables
    from tests.orda_table.data import CROSSBOW_AND_SAPPER, arranged_setup

    game = load_scenario("tiny", title="Вечер «Орды»: болты и порох", seed=7)
    mod, _ = add_moderator(game, "orda-mod", password="orda-mod-123")
    create_player(game.factions.get(code="north"), "cn-player", password="cn-player-123")
    create_player(game.factions.get(code="south"), "nm-player", password="nm-player-123")
    seed = next(s for s in range(1, 500) if die(s, 0) == die(s, 1))
    table = tables.create_table(game, "orda", "Болты и порох",
                                [("china", "Китай", game.factions.get(code="north")),
                                 ("north_mongolia", "Северная Монголия", game.factions.get(code="south"))],
                                mod, setup=arranged_setup(["china", "north_mongolia"], CROSSBOW_AND_SAPPER,
                                                          rolloff=True), seed=seed)
    return game, table


def test_rolloff_push_direction_and_a_paired_attack_through_the_pages(bolt_hall, new_page, artifacts):
    from django.urls import reverse

    from larp.orda import services
    from larp.orda import situation as sit
    from larp.tables import services as tables
    from larp.tables.models import Table

    game, table = bolt_hall
    url = reverse("orda:table", args=[game.pk, table.pk])
    shots = artifacts / "orda"
    shots.mkdir(exist_ok=True)
    mod = new_page(viewport={"width": 1280, "height": 900})
    sign_in(mod, "orda-mod", "orda-mod-123")
    cn = new_page(viewport=TABLET)
    sign_in(cn, "cn-player", "cn-player-123")
    nm = new_page(viewport=PHONE)
    sign_in(nm, "nm-player", "nm-player-123")

    # The roll-off (O8, O10): the first turn waits; the server's dice tie, the tied roll again by hand.
    cn.goto(url)
    assert "Первый ход ждёт жеребьёвки" in cn.content() and cn.locator("button:has-text('Начало хода')").count() == 0
    mod.goto(url)
    mod.click("button:has-text('Жеребьёвка кубиками сервера')")
    rolloff = mod.locator("section.rolloff").inner_text()
    assert "Ничья за лучший результат, перебрасывают — Китай, Северная Монголия" in rolloff
    mod.locator("section.rolloff").screenshot(path=str(shots / "rolloff-tie.png"))
    mod.fill("input[name=die_china]", "6")
    mod.fill("input[name=die_north_mongolia]", "3")
    mod.click("button:has-text('Ввести кубики жеребьёвки')")
    assert "Первый ход — Китай." in mod.locator("section.rolloff").inner_text()
    log = mod.locator("#orda-log").inner_text()
    assert "бросок 1" in log and "ничья" in log and "бросок 2: Китай 6, Северная Монголия 3" in log
    mod.screenshot(path=str(shots / "rolloff-done.png"), full_page=True)

    # The Арбалетчик shoots; its side chooses on the tablet where the bolt pushes the Налётчик (not the default).
    cn.goto(url)
    cn.click("button:has-text('Начало хода')")
    cn.click("a.button:has-text('Арбалетчик 1')")
    bolt = cn.locator("form:has(input[name=target][value='nm-raider-1'])")
    expect(bolt.locator("select[name=push_to] option")).to_have_count(3)       # once the unit's page has loaded
    assert bolt.locator("select[name=push_to] option").all_inner_texts() == \
        ["1,-2 (по умолчанию правил)", "2,-2", "2,-1"]
    bolt.locator("select[name=push_to]").select_option("2,-1")
    hex_click(cn, "1,-1")
    cn.wait_for_selector('g.hex.mark-push[data-hex="2,-1"]')
    assert cn.locator("g.hex.mark-push").count() == 1
    cn.screenshot(path=str(shots / "push-chosen.png"), full_page=True)
    nm.goto(url)
    assert "При попадании цель отбрасывается на 2,-1" in nm.content()
    nm.click("button:has-text('Оборона')")
    mod.goto(url)
    mod.fill("input[name=die_attacker]", "6")
    mod.fill("input[name=die_defender]", "1")
    mod.click("button:has-text('Ввести кубики')")
    assert "отброшен на 2,-1" in mod.locator("#orda-log").inner_text()
    mod.wait_for_selector('g.hex[data-hex="2,-1"] g.token[data-unit="nm-raider-1"]')

    # The Подрывник names both targets in one declaration; each answers for itself.
    cn.goto(url)
    cn.click("a.button:has-text('Подрывник 1')")
    pair = cn.locator("form:has(input[name=target][value='nm-thief-1'])")
    expect(pair.locator("select[name=second] option")).to_have_count(3)       # once the unit's page has loaded
    assert pair.locator("select[name=second] option").all_inner_texts() == \
        ["нет, только эта цель", "Налётчик 2", "Вор 2"]
    pair.locator("select[name=second]").select_option(label="Налётчик 2")
    cn.screenshot(path=str(shots / "pair-chosen.png"), full_page=True)
    pair.locator("button[data-kind=target]").click()
    nm.goto(url)
    assert "Затем вторая цель: Налётчик 2" in nm.content()
    assert nm.locator('g.hex.mark-second[data-hex="-1,0"]').count() == 1
    nm.screenshot(path=str(shots / "pair-phone.png"), full_page=False)
    nm.click("button:has-text('Оборона')")
    mod.goto(url)
    mod.click("button:has-text('Бросить кубики сервера')")
    assert "Следом вторая атака: на юнита «Налётчик 2»" in mod.locator("#orda-log").inner_text()
    nm.goto(url)
    assert "Выберите контрмеру" in nm.content() and "Затем вторая цель" not in nm.content()
    nm.click("button:has-text('Оборона')")
    mod.goto(url)
    mod.fill("input[name=die_attacker]", "1")
    mod.fill("input[name=die_defender]", "6")
    mod.click("button:has-text('Ввести кубики')")
    mod.screenshot(path=str(shots / "pair-done.png"), full_page=True)

    table = Table.objects.get(pk=table.pk)
    steps = tables.live_steps(table)
    assert [s.kind for s in steps if s.kind in ("rolloff", "declare", "counter", "attack")] == \
        ["rolloff", "rolloff", "declare", "counter", "attack", "declare", "counter", "attack", "counter", "attack"]
    assert sit.replay(table.setup, [(s.kind, s.payload) for s in steps]) == table.state
    assert services.current(table)["case"]["game"]["order"] == ["china", "north_mongolia"]
    case = table.state["case"]
    raider_1 = next(u for u in case["units"] if u["id"] == "nm-raider-1")
    assert raider_1["hex"] == [2, -1] and raider_1["damage"] == 1
    assert case["activations"] == {"cn-crossbowman-1": ["attack"], "cn-sapper-1": ["attack", "attack"]}
    assert table.state["pending"] is None


def test_the_event_deck_runs_out_at_tour_25_and_the_table_plays_on_to_thirty_tours(hall, new_page, artifacts):
    """The live game's blocker: once the 24 event cards were used, «Начало хода» was refused for ever. Tours 1-23
    are played through the services the pages call (the test's time), then the players press through the pages
    from tour 24 across the reshuffle at tour 25 to Border's thirty tours."""
    from django.urls import reverse
    from django.utils import translation

    from larp.orda import services
    from larp.orda import situation as sit
    from larp.tables import services as tables
    from larp.tables.access import seat
    from larp.tables.models import Table

    game = hall
    mod_user = game.memberships.get(user__username="orda-mod").user
    players = {f: game.memberships.get(user__username=u).user
               for f, u in (("rus", "rus-player"), ("north_mongolia", "nm-player"))}
    with translation.override("ru"):
        table = services.create(game, mod_user, title="Долгий бой", data=game.orda_data.get(), mode="border",
                                order=["rus", "north_mongolia"],
                                factions={"rus": game.factions.get(code="north"),
                                          "north_mongolia": game.factions.get(code="south")})
        while services.current(table)["case"]["game"]["tour"] < 24:
            active = services.current(table)["case"]["game"]["active"]
            s = seat(players[active], game.pk, table.pk)
            services.act(table.pk, players[active], s, "turn_start", {})
            table = services.act(table.pk, players[active], s, "turn_end", {})
    url = reverse("orda:table", args=[game.pk, table.pk])
    pages = {}
    for faction, (name, password, viewport) in {"rus": ("rus-player", "rus-player-123", TABLET),
                                                "north_mongolia": ("nm-player", "nm-player-123", PHONE)}.items():
        pages[faction] = new_page(viewport=viewport)
        sign_in(pages[faction], name, password)

    def press(page, label):
        page.click(f"button:has-text('{label}')")
        page.wait_for_load_state()

    def now():
        return Table.objects.get(pk=table.pk).state["case"]

    seen_reshuffle = False
    while Table.objects.get(pk=table.pk).status != Table.FINISHED:
        case = now()
        tour, active = case["game"]["tour"], case["game"]["active"]
        page = pages[active]
        page.goto(url)
        assert f"Тур {tour}" in page.locator("#orda-status").inner_text()
        press(page, "Начало хода")
        after = now()
        assert after["game"]["tour"] == tour and "осталось активаций" in page.locator("#orda-status").inner_text()
        if tour == 25 and active == "rus":
            assert case["event"]["draw_pile"] == []                     # the 24 cards were used
            log = page.locator("#orda-log").inner_text()
            assert "Колода событий закончилась и перетасована кубиками сервера." in log
            assert "O10" not in log and "Движок правил" not in page.content()
            assert f"Тестовая карта {after['event']['current']}" in page.locator("#orda-status").inner_text()
            assert len(after["event"]["draw_pile"]) == 23
            page.screenshot(path=str(artifacts / "orda" / "reshuffled.png"), full_page=True)
            seen_reshuffle = True
        if tour == 26 and active == "rus":                              # the next tour draws from the new deck
            order = next(s.payload["choices"]["reshuffle"] for s in table.steps.filter(kind="turn_start")
                         if (s.payload.get("choices") or {}).get("reshuffle"))
            assert after["event"]["current"] == order[1]
        press(page, "Итоги")
        assert now() != after or Table.objects.get(pk=table.pk).status == Table.FINISHED
    assert seen_reshuffle
    table = Table.objects.get(pk=table.pk)
    assert table.result["ended_by"] == "tours_elapsed" and table.result["tour"] == 30
    mod = new_page(viewport={"width": 1280, "height": 900})
    sign_in(mod, "orda-mod", "orda-mod-123")
    mod.goto(url)
    assert "Победа: Русь и Китай — прошло 30 туров, а Монголия не перешла границу" in mod.content()
    assert sit.replay(table.setup, [(s.kind, s.payload) for s in tables.live_steps(table)]) == table.state
