"""The clock in a browser (issue 36): a moderator shortens the phase on the console and the tablets count down
from the new deadline; the game closes Strategy when every faction has pressed «Приказы готовы» on its tablet.
Both audited. Screenshots at 390 px, 768 px and 1920x1080 in test-artifacts/clock/."""
import re

import pytest
from django.urls import reverse

from larp.campaign.services.members import create_player
from larp.tablet import services as tablet
from larp.turns.models import AuditEntry, Phase
from larp.turns import services as turns
from tests.browser.conftest import PHONE, TABLET, sign_in

pytestmark = pytest.mark.browser
DESKTOP = {"width": 1920, "height": 1080}


@pytest.fixture
def shots(artifacts):
    folder = artifacts / "clock"
    folder.mkdir(exist_ok=True)
    return folder


def clock_seconds(page) -> int:
    text = page.locator("[data-clock-time]").first.inner_text()
    minutes, seconds = re.match(r"(\d+):(\d+)", text).groups()
    return int(minutes) * 60 + int(seconds)


def test_a_moderator_shortens_the_phase_and_the_tablets_follow(game_for, new_page, shots):
    game, mod, player, join = game_for(strategy_seconds=600)
    tab = new_page(TABLET)
    tab.goto(join)
    tab.wait_for_selector("[data-clock-time]")
    assert clock_seconds(tab) > 9 * 60

    console = new_page(DESKTOP)
    sign_in(console, mod.username, "mod-password-1")
    console.goto(f"/g/{game.pk}/console/")
    form = console.locator("form[data-shorten]")
    old_clock = form.locator("input[name=clock]").get_attribute("value")
    token = console.locator("input[name=csrfmiddlewaretoken]").first.get_attribute("value")
    form.locator("input[name=minutes]").fill("4")
    form.locator("button").click()
    console.wait_for_load_state()
    assert "Фаза сокращена на 4 мин." in console.locator(".messages").inner_text()
    console.screenshot(path=str(shots / "console-shortened-1920.png"))
    entry = AuditEntry.objects.get(game=game, action="shortened")
    assert entry.user == mod and entry.detail["minutes"] == 4
    assert "сокращена на 4 мин." in console.locator("ul.audit").inner_text()

    # The tablet follows the new deadline within a poll or two, without a reload.
    tab.wait_for_function("() => { const t = document.querySelector('[data-clock-time]').textContent;"
                          " const [m, s] = t.split(':').map(Number); return m * 60 + s <= 6 * 60; }", timeout=10000)
    assert 5 * 60 < clock_seconds(tab) <= 6 * 60
    tab.screenshot(path=str(shots / "tablet-after-shorten-768.png"))

    # A second moderator's press made on the old clock does nothing and says who shortened it, and to when.
    phase = turns.current_phase(game)
    second = console.request.post(f"/g/{game.pk}/control/shorten", form={
        "phase": str(phase.pk), "clock": old_clock, "minutes": "4", "csrfmiddlewaretoken": token})
    assert second.status == 409 and "Срок уже сокращён" in second.text()
    assert AuditEntry.objects.filter(game=game, action="shortened").count() == 1

    # Taking more off than is left ends at now, never before it.
    console.goto(f"/g/{game.pk}/console/")
    form = console.locator("form[data-shorten]")
    form.locator("input[name=minutes]").fill("120")
    form.locator("button").click()
    console.wait_for_load_state()
    assert "до текущего момента" in console.locator(".messages").inner_text()
    entry = AuditEntry.objects.filter(game=game, action="shortened").latest("id")
    assert entry.detail["to_now"] and entry.detail["taken_minutes"] < 6.1


def test_strategy_closes_when_every_faction_is_ready(game_for, new_page, shots):
    game, mod, north, join_north = game_for(strategy_seconds=600)
    joins = {"north": join_north}
    for code in ("south", "east"):
        user, _ = create_player(game.factions.get(code=code), f"{code}-ready")
        joins[code] = reverse("tablet:join", args=[tablet.link(tablet.issue_code(mod, game, user))])

    console = new_page(DESKTOP)
    sign_in(console, mod.username, "mod-password-1")
    console.goto(f"/g/{game.pk}/console/")
    console.locator("form[data-ready-option] button").click()
    console.wait_for_load_state()
    assert "как только все фракции" in console.locator(".messages").inner_text()

    pages = {}
    for code, viewport in (("north", TABLET), ("south", PHONE), ("east", TABLET)):
        page = new_page(viewport)
        page.goto(joins[code])
        page.wait_for_selector("form[data-orders-ready] button")
        pages[code] = page
    pages["south"].screenshot(path=str(shots / "tablet-before-ready-390.png"), full_page=True)

    pages["north"].locator("form[data-orders-ready] button").click()
    pages["north"].wait_for_load_state()
    assert "Приказы отмечены как готовые" in pages["north"].locator("form[data-orders-ready]").inner_text()
    pages["north"].screenshot(path=str(shots / "tablet-ready-768.png"))
    pages["south"].locator("form[data-orders-ready] button").click()
    pages["south"].wait_for_load_state()
    pages["south"].screenshot(path=str(shots / "tablet-ready-390.png"), full_page=True)

    console.goto(f"/g/{game.pk}/console/")
    grid = console.locator(".filing-grid").inner_text()
    assert grid.count("готовы в ") == 2 and "Ещё не готовы" in grid
    console.screenshot(path=str(shots / "console-two-ready-1920.png"))
    assert Phase.objects.get(pk=turns.current_phase(game).pk).state == Phase.RUNNING

    pages["east"].locator("form[data-orders-ready] button").click()
    pages["east"].wait_for_load_state()
    assert "Все фракции готовы: фаза стратегии закрыта." in pages["east"].locator(".messages").inner_text()
    pages["east"].screenshot(path=str(shots / "tablet-all-ready-closed-768.png"))
    # The other tablets see the phase close by their clock, without a reload.
    pages["south"].wait_for_selector("[data-clock].closed", timeout=10000)

    phase = Phase.objects.get(pk=turns.current_phase(game).pk)
    assert phase.kind == Phase.STRATEGY and phase.state == Phase.CLOSED and phase.closed_how == "ready"
    actions = list(AuditEntry.objects.filter(game=game).values_list("action", flat=True))
    assert actions.count("orders_ready") == 3 and "close_when_ready" in actions
    console.goto(f"/g/{game.pk}/console/")
    assert "досрочно: все фракции готовы" in console.locator("ul.audit").inner_text()
    console.screenshot(path=str(shots / "console-closed-when-ready-1920.png"), full_page=True)
