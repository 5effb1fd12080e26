"""A whole turn of the default scenario through the pages only, the way a game night runs it.

Three players file every order type on their tablets (hold, one- and two-step march, attack, sea attack,
landing, fleet move, fleet attack); a real Celery worker closes the Strategy deadline; the moderator runs
movement, fights every battle from the console (hand dice, server dice, a modifier, an undo with its reason
and the battle fought again), applies regroup and opens the next turn. Then the map in the database equals
what `manage.py adjudicate turn` (the engine alone) makes of the same start, orders, dice and choices.
"""
import re

import pytest
from django.urls import reverse

from tests.browser.conftest import engine_turn, press, sign_in
from tests.workers import wait_until

pytestmark = pytest.mark.browser

STRATEGY_SECONDS = 50
# (faction, unit, order type, steps by value): every order type of R5, on the default scenario's map.
ORDERS = [
    ("bulgaria", "bulgaria-1", "march", ["sredets"]),                         # one step
    ("bulgaria", "bulgaria-2", "hold", []),
    ("bulgaria", "bulgaria-3", "march", ["strumica", "sredets"]),             # two steps
    ("bulgaria", "bulgaria-4", "attack", ["serres"]),
    ("venice", "venice-1", "sea_attack", ["south_aegean", "athens"]),
    ("venice", "venice-2", "landing", ["north_aegean", "south_aegean", "candia"]),
    ("venice", "venice-f2", "fleet_attack", ["ionian_sea", "achaea"]),
    ("nicaea", "nicaea-f1", "fleet_move", ["libyan_sea"]),
]


@pytest.fixture
def hall(transactional_db, worker_factory):
    """The default scenario with a short Strategy phase, a moderator, one player per faction that files."""
    from larp.campaign.services.members import add_moderator, create_player
    from larp.scenarios.loader import load_scenario
    from larp.tablet import services as tablet

    game = load_scenario("latin-east-1204", title="Игровой вечер", seed=1204)
    game.rules = {**game.rules, "phase_seconds": {**game.rules.get("phase_seconds", {}),
                                                  "strategy": STRATEGY_SECONDS}}
    game.save(update_fields=["rules"])
    mod, _ = add_moderator(game, "night-mod", password="night-mod-123")
    joins = {}
    for code in sorted({o[0] for o in ORDERS}):
        player, _ = create_player(game.factions.get(code=code), f"player-{code}")
        joins[code] = reverse("tablet:join", args=[tablet.link(tablet.issue_code(mod, game, player))])
    worker_factory("night")
    return game, joins


def file_on_tablet(page, unit, kind, steps):
    card = page.locator(f"#unit-{unit}")
    card.locator(f'fieldset.types label:has(input[value="{kind}"])').click()
    for depth, value in enumerate(steps, start=1):
        card.locator(f'fieldset[data-depth="{depth}"]:visible label:has(input[value="{value}"])').click()
    submit = card.locator("[data-submit]")
    assert submit.is_enabled(), f"{unit}: {kind} {steps} cannot be sent"
    submit.click()
    page.locator(f"#unit-{unit} [data-saved]").wait_for()


def console_step(page, game, expected):
    """The console home's one primary button: it must say what we expect to do next; press it."""
    page.goto(f"/g/{game.pk}/console/")
    primary = page.locator(".next-step .primary")
    assert primary.inner_text().startswith(expected), primary.inner_text()
    primary.click()
    page.wait_for_load_state()


def awaiting(page):
    return page.locator(".awaiting").count() > 0


def enter_dice(page, attacker, defender):
    for field in page.locator(".dice-form input[name=attacker]").all():
        field.fill(str(attacker))
    for field in page.locator(".dice-form input[name=defender]").all():
        field.fill(str(defender))
    press(page, ".dice-form button.primary")


def server_dice(page):
    press(page, "form[action$='battles/roll'] button")
    assert "Бросок сервера" in page.locator(".dice-form").inner_text()
    press(page, ".dice-form button.primary")


def test_a_whole_turn_through_the_pages_equals_the_engine(hall, new_page, artifacts, tmp_path):
    from larp.battles.models import DiceRoll, TurnResolution
    from larp.orders.models import Order
    from larp.turns.models import AuditEntry, Phase, Turn
    from larp.turns.services import current_phase
    from larp.turns.situation import case_from_game

    game, joins = hall
    mod = new_page(viewport={"width": 1280, "height": 900})
    asked = []
    mod.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    sign_in(mod, "night-mod", "night-mod-123")
    console_step(mod, game, "Начать игру")
    assert asked[-1].startswith("Начать игру?")

    # --- Strategy: the players file on their tablets, the console counts without revealing ---------------
    tablets = {}
    for faction, join in joins.items():
        tablets[faction] = new_page()
        tablets[faction].goto(join)
        tablets[faction].locator("[data-order-form]").first.wait_for()
    for faction, unit, kind, steps in ORDERS:
        file_on_tablet(tablets[faction], unit, kind, steps)
    tablets["venice"].screenshot(path=str(artifacts / "whole-turn-venice-tablet.png"), full_page=True)
    mod.goto(f"/g/{game.pk}/console/")
    grid = mod.locator(".filing-grid").inner_text()
    # Bulgaria; Venice: 7 units, but the 2 fleets its armies board take no order of their own (R5).
    assert "приказы: 4 из 4" in grid and "приказы: 3 из 5" in grid
    assert "Серре" not in mod.content()  # what the orders say is secret until the deadline (R3)
    mod.screenshot(path=str(artifacts / "whole-turn-console-strategy.png"), full_page=True)
    assert Order.objects.filter(turn__game=game, implicit=False).count() == len(ORDERS)

    # --- the deadline is closed by the worker, nobody presses anything ---------------------------------
    phase = current_phase(game)
    assert wait_until(lambda: Phase.objects.get(pk=phase.pk).state == Phase.CLOSED, STRATEGY_SECONDS + 30, 0.5)
    # Closed at the deadline with nobody pressing: by the worker, or (on a loaded machine) by a tablet's clock
    # request that noticed the deadline first; both are the hard deadline (tests/turns/test_deadline.py).
    closed = Phase.objects.get(pk=phase.pk)
    assert closed.closed_how in ("deadline", "request") and closed.closed_by is None
    tablets["bulgaria"].locator("[data-lock-note]").first.wait_for(state="visible", timeout=15000)

    # --- Movement ---------------------------------------------------------------------------------------
    console_step(mod, game, "Перейти к передвижению")
    mod.goto(f"/g/{game.pk}/console/")
    mod.locator("details.orders-table summary").click()
    assert "Захват: Серре" in mod.locator("details.orders-table").inner_text()  # revealed after the deadline
    # «Следующая фаза» from a tab opened before (the console no longer offers it now): refused, says why.
    token = mod.locator("input[name=csrfmiddlewaretoken]").first.get_attribute("value")
    stale_tab = mod.request.post(f"/g/{game.pk}/control/next",
                                 form={"phase": str(current_phase(game).pk), "csrfmiddlewaretoken": token})
    assert stale_tab.status == 409 and "Передвижение не применено" in stale_tab.text()
    assert current_phase(game).kind == Phase.MOVEMENT
    console_step(mod, game, "Провести передвижение")
    press(mod, "form[action$='movement/apply'] button")
    assert "переставлены" in mod.content()
    mod.screenshot(path=str(artifacts / "whole-turn-movement.png"), full_page=True)

    # --- Tactics: every battle, by hand and by the server, a modifier, an undo and the battle again ---------
    console_step(mod, game, "Перейти к сражениям")
    console_step(mod, game, "Провести сражение 1")
    assert awaiting(mod)
    enter_dice(mod, 5, 2)  # battle 1 by hand
    assert re.search(r"5(\+5)? : 2(\+2)?", mod.locator("table.fought tbody tr").first.inner_text())
    assert awaiting(mod), "the turn should have a second battle"
    mod.fill("form[action$='battles/modifier'] input[name=value]", "2")
    mod.select_option("form[action$='battles/modifier'] select[name=side]", "defender")
    mod.fill("form[action$='battles/modifier'] input[name=reason]", "туман над бродом")
    press(mod, "form[action$='battles/modifier'] button")
    server_dice(mod)  # battle 2 by the server, with the modifier
    mod.screenshot(path=str(artifacts / "whole-turn-battle-2.png"), full_page=True)
    mod.fill("form[action$='battles/undo'] input[name=reason]", "кубики прочитали не того сражения")
    press(mod, "form[action$='battles/undo'] button")
    assert asked[-1].startswith("Отменить сражение 2?")
    assert mod.locator(".awaiting h2").inner_text().startswith("Сражение 2")
    server_dice(mod)  # battle 2 again
    for _ in range(30):
        if not awaiting(mod):
            break
        server_dice(mod)
    assert "Все сражения проведены" in mod.content()
    mod.screenshot(path=str(artifacts / "whole-turn-battles-done.png"), full_page=True)

    # --- Regroup and the next turn -------------------------------------------------------------------------
    console_step(mod, game, "Перейти к перегруппировке")
    console_step(mod, game, "Применить перегруппировку")
    press(mod, "form[action$='regroup/apply'] button")
    assert asked[-1].startswith("Применить перегруппировку?")
    assert "Перегруппировка применена" in mod.content()
    console_step(mod, game, "Открыть ход 2")
    assert asked[-1].startswith("Открыть ход 2?")
    assert Turn.objects.filter(game=game).count() == 2 and current_phase(game).kind == Phase.STRATEGY
    log = mod.locator("ul.audit").inner_text()
    assert re.search(r"Ход 1: сражение 2 \([^)]+\) отменено\. Причина: «кубики прочитали не того сражения»\.", log), log
    assert "{" not in log and "T1" not in log
    mod.screenshot(path=str(artifacts / "whole-turn-console-turn-2.png"), full_page=True)
    assert not AuditEntry.objects.filter(game=game, action="phase_skipped").exists()

    # --- the same data through the engine alone -------------------------------------------------------------
    turn = Turn.objects.get(game=game, number=1)
    resolution = TurnResolution.objects.get(turn=turn)
    assert {r.source for r in DiceRoll.objects.filter(resolution=resolution)} == {"hand", "server"}
    assert DiceRoll.objects.filter(resolution=resolution, undone=True).count() == 1
    assert resolution.choices["modifiers"][0]["reason"] == "туман над бродом"
    expected = engine_turn(game, 1, tmp_path)[1]["state"]
    now = case_from_game(game)
    assert {a["id"]: (a["province"], sorted(a["troops"])) for a in now["armies"] if a["province"]} == \
        {k: (v["province"], sorted(v["troops"])) for k, v in expected["armies"].items() if v["province"]}
    assert {f["id"]: (f["sea"], sorted(f["troops"])) for f in now["fleets"] if f["sea"]} == \
        {k: (v["sea"], sorted(v["troops"])) for k, v in expected["fleets"].items() if v["sea"]}
    assert {p["id"]: (p["owner"], sorted(p["garrison"])) for p in now["provinces"]} == \
        {k: (v["owner"], sorted(v["garrison"])) for k, v in expected["provinces"].items()}
    assert now["special_state"] == expected["special_state"]
    moved = {a["id"]: a["province"] for a in now["armies"]}
    assert moved["bulgaria-1"] == "sredets" and moved["bulgaria-3"] == "sredets"  # one- and two-step marches
