"""A whole «Орда» battle to the engine's own end, past tour 30, as the hall plays it: a moderator at 1920×1080, the
Rus player on a tablet (768) and the North Mongolia player on a phone (390). Skirmish: Rus wins when the Mongol leader
is dead and the Mongol capital burnt (O6). The early tours are fast-forwarded through the services the pages call
(the test's time: the Mongols stand, Rus closes in from tour 31); the end — the last kills, a refused act followed by
the next act, the siege and the victory — is played through the pages only. The moderator's frame says the tour,
whose move and the next act, and follows the table live. The stored state must equal the engine's replay. The
numbers are the data set MADE UP FOR THE TESTS."""
import re

import pytest

from tests.browser.conftest import PHONE, TABLET, sign_in
from tests.browser.test_orda_table import fill_new_table, hall, hex_click  # noqa: F401  (the fixture)

pytestmark = pytest.mark.browser

FULL_HD = {"width": 1920, "height": 1080}
LAGGING = re.compile(r"/tables/\d+/(version|stream)$")  # how a page follows its table


def near_the_end(case) -> bool:
    """The Mongol leader still stands, with at most three other tokens left: the rest of the battle is the pages'."""
    left = [u for u in case["units"] if u["faction"] == "north_mongolia" and u["where"] != "dead"]
    return len(left) <= 4 and any(u["token"] == "batu_khan" for u in left)


def rus_choice(case):
    """The test's choice for Rus's next activation (the click is the page's): a unit that can strike, its first
    target; else the move that brings a unit nearest the enemy (or the enemy capital's walls once none stands),
    provoking nothing. None when nothing is left to do."""
    from larp.orda import situation as sit
    from larp.orda.engine.hexes import distance

    acted = set(case.get("activations") or {})
    mine = [u for u in case["units"] if u["faction"] == "rus" and u["where"] == "board" and u["id"] not in acted]
    for u in mine:
        targets = sit.legal_targets(case, u["id"])
        if targets:
            return "attack", u["id"], targets[0]["hex"]
    enemies = [u["hex"] for u in case["units"] if u["where"] == "board" and u["faction"] == "north_mongolia"]
    walls = [c["hex"] for c in case["cities"] if c["kind"] == "capital" and c["faction"] == "north_mongolia"
             and not c["destroyed"]]
    goals = enemies or walls
    if not goals:
        return None

    def gap(h):
        return min(distance(tuple(h), tuple(g)) for g in goals)

    best = None
    for u in mine:
        if not enemies and gap(u["hex"]) == 1:
            continue
        for h, move in sit.legal_moves(case, u["id"]).items():
            if move["provoked"] or move["trap"]:
                continue
            key = (gap(h) - gap(u["hex"]), gap(h), u["id"])
            if key[0] < 0 and (best is None or key < best[0]):
                best = (key, u["id"], list(h))
    return ("move", best[1], best[2]) if best else None


def test_a_whole_orda_battle_past_tour_30_to_its_end_through_the_pages(hall, new_page, artifacts):  # noqa: F811
    from django.urls import reverse
    from django.utils import translation

    from larp.orda import services
    from larp.orda import situation as sit
    from larp.tables import services as tables
    from larp.tables.models import Table
    from tests.orda_table.test_past_the_deck import Play, attack_everything

    game = hall
    out = artifacts / "orda-whole"
    out.mkdir(exist_ok=True)
    mod_user = game.memberships.get(user__username="orda-mod").user
    rus_user = game.memberships.get(user__username="rus-player").user
    nm_user = game.memberships.get(user__username="nm-player").user

    # The moderator makes the table on the pages.
    mod = new_page(viewport=FULL_HD)
    sign_in(mod, "orda-mod", "orda-mod-123")
    mod.goto(reverse("tables:list", args=[game.pk]))
    assert "Набор данных «Тестовый набор (выдуманные числа)»" in mod.locator('[data-readiness="orda"]').inner_text() \
        or "есть все значения" in mod.locator('[data-readiness="orda"]').inner_text()
    mod.click("a.button:has-text('Орда')")
    fill_new_table(mod, game, "Долгая схватка", "skirmish")
    table = Table.objects.get(title="Долгая схватка")
    url = reverse("orda:table", args=[game.pk, table.pk])
    frame = mod.locator("[data-table-frame]")
    assert frame.locator("[data-frame-round]").inner_text() == "Тур 1"
    assert frame.locator("[data-frame-whose]").inner_text() == "Ходит: Русь"
    assert frame.locator("[data-frame-next]").inner_text().startswith("Начало хода")

    # Tours 1-30 and on, through the services: the Mongols stand; Rus closes in from tour 31 and fights.
    with translation.override("ru"):
        play = Play(game, table, mod_user, rus_user, nm_user)
        play.until(31)
        for _turn in range(400):
            state = play.state
            if near_the_end(state["case"]) and state["case"]["game"]["active"] == "rus":
                break
            assert play.table.status != Table.FINISHED, "the battle ended before the pages' part"
            play.turn(fight=lambda p, f: attack_everything(p, f) if f == "rus" else None)
    start_tour = play.state["case"]["game"]["tour"]
    assert start_tour > 30

    rus = new_page(viewport=TABLET)
    sign_in(rus, "rus-player", "rus-player-123")
    nm = new_page(viewport=PHONE)
    sign_in(nm, "nm-player", "nm-player-123")

    def now():
        return services.current(Table.objects.get(pk=table.pk))

    def press(page, label):
        page.click(f"button:has-text('{label}')")
        page.wait_for_load_state()

    def finished():
        return Table.objects.get(pk=table.pk).status == Table.FINISHED

    refused_then_next = attacks = 0
    for _turn in range(40):
        if finished():
            break
        state = now()
        active, tour = state["case"]["game"]["active"], state["case"]["game"]["tour"]
        if active == "north_mongolia":
            if not refused_then_next:  # the hall's Wi-Fi: the phone lags (its table's stream and polls are lost)
                nm.route(LAGGING, lambda route: route.abort())
            nm.goto(url)
            assert f"Тур {tour}" in nm.locator("#orda-status").inner_text()
            if not refused_then_next:
                # The moderator begins the Mongol turn while the phone still shows «Начало хода»: the phone's press
                # is refused, said on its page (not a dead end), and its next act goes through.
                mod.goto(url)
                assert frame.locator("[data-frame-whose]").inner_text() == "Ходит: Северная Монголия"
                mod.screenshot(path=str(out / "moderator-1920.png"))
                press(mod, "Начало хода")
                assert frame.locator("[data-frame-next]").inner_text().startswith("Действия юнитов")
                press(nm, "Начало хода")
                assert "Ход уже начат" in nm.locator(".orda-errors").inner_text()
                nm.wait_for_function("() => !location.pathname.includes(\"/act/\")")
                assert nm.url.endswith(url)                          # back at the table's address
                nm.screenshot(path=str(out / "phone-refused-390.png"), full_page=True)
                nm.unroute(LAGGING)
                press(nm, "Итоги")
                assert nm.locator(".orda-errors").count() == 0
                # The moderator's page, not reloaded, follows: its frame now says Rus moves, Rus's turn to begin.
                mod.wait_for_function("() => document.querySelector('[data-frame-whose]').textContent === "
                                      "'Ходит: Русь'")
                assert frame.locator("[data-frame-next]").inner_text().startswith("Начало хода")
                refused_then_next = 1
                continue
            press(nm, "Начало хода")
            if not finished():
                press(nm, "Итоги")
            continue
        rus.goto(url)
        press(rus, "Начало хода")
        if not attacks:
            rus.screenshot(path=str(out / "tablet-768.png"))
        for _activation in range(3):
            case = now()["case"]
            choice = rus_choice(case)
            if choice is None or finished():
                break
            kind, uid, h = choice
            if kind == "move":                  # a move, then the same unit's attack if it now reaches (one activation)
                rus.click(f'a.button[href="?unit={uid}"]')
                rus.wait_for_load_state()
                hex_click(rus, f"{h[0]},{h[1]}")
                targets = sit.legal_targets(now()["case"], uid)
                if not targets:
                    continue
                h = targets[0]["hex"]
            rus.click(f'a.button[href="?unit={uid}"]')
            rus.wait_for_load_state()
            hex_click(rus, f"{h[0]},{h[1]}")
            while now().get("pending"):         # the attack (and a paired attack's second one): phone, moderator
                mod.goto(url)
                assert "выбирает контрмеру" in frame.locator("[data-frame-whose]").inner_text()
                nm.goto(url)
                assert "Выберите контрмеру" in nm.content()
                if not attacks:
                    nm.screenshot(path=str(out / "phone-counter-390.png"), full_page=True)
                nm.click("button:has-text('Оборона')")
                nm.wait_for_load_state()
                mod.goto(url)
                assert "бросает кубики атаки" in frame.locator("[data-frame-whose]").inner_text()
                mod.fill("input[name=die_attacker]", "6")
                mod.fill("input[name=die_defender]", "1")
                press(mod, "Ввести кубики")
                attacks += 1
                log = mod.locator("#orda-log").inner_text()
                assert "кубики: 6, 1" in log and "(с руки)" in log
        if not finished():
            rus.goto(url)
            press(rus, "Итоги")

    table = Table.objects.get(pk=table.pk)
    assert table.status == Table.FINISHED
    assert table.result["ended_by"] == "leaders_and_capitals" and table.result["winner"] == "rus"
    assert table.result["tour"] > 30 and refused_then_next and attacks >= 1
    replayed = sit.replay(table.setup, [(s.kind, s.payload) for s in tables.live_steps(table)])
    assert replayed == table.state
    assert services.result_of(table, replayed) == table.result
    # The end was the pages': the last acts were pressed there (after the services' fast-forward).
    assert table.steps.filter(kind="attack", payload__hand=True, undone=False).count() >= attacks

    mod.goto(url)
    assert frame.locator("[data-frame-whose]").inner_text().startswith("Победа: Русь и Китай")
    assert frame.locator("[data-frame-next]").count() == 0
    mod.screenshot(path=str(out / "moderator-end-1920.png"))
    for page, name in ((rus, "tablet-end-768"), (nm, "phone-end-390")):
        page.goto(url)
        text = page.content()
        assert "Победа: Русь и Китай" in text and "(O" not in page.locator("main").inner_text()
        page.screenshot(path=str(out / f"{name}.png"), full_page=True)
    proj = new_page(viewport=FULL_HD)
    sign_in(proj, "orda-mod", "orda-mod-123")
    proj.goto(reverse("orda:projector", args=[game.pk, table.pk]))
    assert proj.locator(".proj-winner").inner_text() == "Победа: Русь и Китай"
    losses = proj.locator(".proj-losses").inner_text()
    assert "Северная Монголия" in losses and "Русь" in losses
    size = proj.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert size == [1920, 1080]                                  # the whole screen, nothing below the fold
    board = proj.locator("svg.orda-board").bounding_box()
    assert board["height"] > 1000 and board["width"] > 1000
    winner_px = proj.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.proj-winner')).fontSize)")
    assert winner_px >= 80                                       # read from 10 m
    proj.screenshot(path=str(out / "projector-end-1920.png"))
