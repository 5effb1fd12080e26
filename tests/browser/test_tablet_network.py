"""The tablet on the hall's Wi-Fi, in a real browser: the network drops, answers get lost, polls hang.
In every case the player either has the order on the server or sees, unmistakably, that it is not."""
import time

import pytest
from django.urls import reverse

from larp.orders.models import Order, OrderEvent
from tests.browser.test_tablet import card, pick

pytestmark = pytest.mark.browser

PENDING = "Приказ не отправлен — ждём связь"
FAILED = "Приказ НЕ дошёл до модераторов — армия стоит на месте"


def filed(unit="north-1"):
    faction, number = unit.split("-")
    return Order.objects.filter(army__faction__code=faction, army__number=int(number), implicit=False).first()


def wait_for(predicate, timeout=10.0, step=0.1):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


def test_an_order_tapped_offline_is_shown_unsent_and_sent_the_moment_the_network_returns(new_page, game_for, artifacts):
    game, _mod, _player, join = game_for()
    page = new_page()
    page.goto(join)
    page.context.set_offline(True)
    c = pick(page, "north-1", "Захват", "Серединград")
    c.locator("[data-submit]").click()
    pending = c.locator("[data-pending]")
    pending.wait_for()
    assert PENDING in pending.inner_text() and "Захват: Серединград" in pending.inner_text()
    banner = page.locator("[data-offline-banner]")
    assert banner.is_visible() and "Нет связи с сервером модераторов" in banner.inner_text()
    assert "часы могут показывать неверное время" in page.locator("[data-clock-note]").inner_text()
    assert "Отдано приказов: 0 из 3." in page.locator("[data-summary]").inner_text()  # only what the server has
    page.screenshot(path=artifacts / "faction-768x1024-offline-pending.png")
    page.wait_for_timeout(8000)  # long enough for any back-off to have grown past a few seconds
    assert filed() is None
    page.context.set_offline(False)
    assert wait_for(lambda: filed() is not None, timeout=2.5), "the order was not sent when the network returned"
    card(page, "north-1").locator("[data-saved]").wait_for()
    assert card(page, "north-1").locator("[data-pending]").is_hidden()
    banner.wait_for(state="hidden")
    page.wait_for_function("document.querySelector('[data-summary]').textContent.includes('1 из 3')")
    assert filed().payload == {"unit": "north-1", "type": "attack", "path": ["midtown"]}
    assert OrderEvent.objects.filter(unit="north-1").count() == 1


@pytest.mark.parametrize("pushed", [False, True], ids=["clock-polled", "clock-pushed"])
def test_an_order_still_unsent_at_the_deadline_turns_red_and_stays(new_page, game_for, artifacts, settings, pushed):
    # Pushed, the closed phase may reach the tablet while its other requests fail: the board is asked again.
    settings.CLOCK_STREAM = pushed
    game, _mod, _player, join = game_for(strategy_seconds=12)
    page = new_page()
    page.goto(join)
    page.context.set_offline(True)
    c = pick(page, "north-1", "Захват", "Серединград")
    c.locator("[data-submit]").click()
    c.locator("[data-pending]").wait_for()
    failed = card(page, "north-1").locator("[data-pending].failed")
    failed.wait_for(timeout=20000)
    assert FAILED in failed.inner_text() and "Захват: Серединград" in failed.inner_text()
    page.context.set_offline(False)
    # The page learns the phase is closed and reloads the board; the red notice is still there.
    page.wait_for_function("document.querySelector('[data-clock-note]').textContent.includes('Фаза стратегии закрыта')",
                           timeout=15000)
    page.wait_for_function("document.querySelector('[data-summary]').textContent.includes('Без приказа')",
                           timeout=15000)
    assert FAILED in card(page, "north-1").locator("[data-pending].failed").inner_text()
    assert "Отдано приказов: 0 из 3." in page.locator("[data-summary]").inner_text()
    card(page, "north-1").scroll_into_view_if_needed()
    page.screenshot(path=artifacts / f"faction-768x1024-order-not-delivered{'-pushed' if pushed else ''}.png")
    # ... and after a reload too.
    page.reload()
    assert FAILED in card(page, "north-1").locator("[data-pending].failed").inner_text()
    assert filed() is None


def test_a_retry_sends_the_confirmed_order_or_nothing(new_page, game_for):
    game, _mod, _player, join = game_for()
    page = new_page()
    page.goto(join)
    page.context.set_offline(True)
    c = pick(page, "north-1", "Захват", "Серединград")
    c.locator("[data-submit]").click()
    c.locator("[data-pending]").wait_for()
    # The player changes the picks without confirming: the unsent order is dropped, and they are told.
    c.locator("fieldset.types label", has_text="Стоять").click()
    assert card(page, "north-1").locator("[data-pending]").is_hidden()
    assert "Неотправленный приказ отменён" in c.locator("[data-net-note]").inner_text()
    page.context.set_offline(False)
    page.wait_for_timeout(3000)
    assert filed() is None and not OrderEvent.objects.exists()
    # A new confirmation is what is sent.
    page.context.set_offline(True)
    c.locator("[data-submit]").click()
    c.locator("[data-pending]").wait_for()
    pick(page, "north-2", "Проход", "Северные Врата").locator("[data-submit]").click()
    page.context.set_offline(False)
    assert wait_for(lambda: filed() is not None and filed("north-2") is not None, timeout=5)
    assert filed().payload == {"unit": "north-1", "type": "hold"}
    assert filed("north-2").payload["path"] == ["northgate"]


def test_an_order_whose_answer_was_lost_is_resent_and_recorded_once(new_page, game_for):
    game, _mod, player, join = game_for()
    page = new_page()
    page.goto(join)
    url = reverse("tablet:file_order", args=[game.pk, "north", "north-1"])
    answers = {"lost": 0}

    def lose_the_first_answer(route):
        if answers["lost"] == 0:
            answers["lost"] += 1
            route.fetch()  # the server saves it...
            route.abort("connectionreset")  # ...and the answer never reaches the tablet
        else:
            route.continue_()

    page.route(f"**{url}", lose_the_first_answer)
    c = pick(page, "north-1", "Захват", "Серединград")
    c.locator("[data-submit]").click()
    card(page, "north-1").locator("[data-saved]").wait_for(timeout=15000)
    order = filed()
    assert answers["lost"] == 1 and order is not None
    events = list(OrderEvent.objects.filter(unit="north-1").values_list("action", "at"))
    assert events == [("filed", order.filed_at)]  # not a second, 'replaced' entry with the retry's time


def test_a_reload_warns_and_keeps_the_pending_order(new_page, game_for):
    game, _mod, _player, join = game_for()
    page = new_page()
    page.goto(join)
    url = reverse("tablet:file_order", args=[game.pk, "north", "north-1"])
    page.route(f"**{url}", lambda route: route.abort("internetdisconnected"))
    c = pick(page, "north-1", "Захват", "Серединград")
    c.locator("[data-submit]").click()
    c.locator("[data-pending]").wait_for()
    dialogs = []

    def answer(dialog):
        dialogs.append(dialog.type)
        dialog.accept()

    page.on("dialog", answer)
    page.unroute(f"**{url}")
    page.route(f"**{url}", lambda route: route.abort("internetdisconnected"))
    page.reload()
    assert dialogs == ["beforeunload"]
    # After the reload the order is still shown as unsent, and goes as soon as it can.
    assert PENDING in card(page, "north-1").locator("[data-pending]").inner_text()
    page.unroute(f"**{url}")
    assert wait_for(lambda: filed() is not None, timeout=15)
    card(page, "north-1").locator("[data-pending]").wait_for(state="hidden")
    assert OrderEvent.objects.filter(unit="north-1").count() == 1


def test_a_hung_clock_poll_never_holds_more_than_one_request_nor_an_order(new_page, game_for, settings):
    settings.CLOCK_STREAM = False  # the polling tablet (a pushed one polls every 30 s, for the time only)
    game, _mod, _player, join = game_for()
    page = new_page()
    page.goto(join)
    page.wait_for_function("document.querySelector('[data-clock-time]').textContent.startsWith('0')")
    clock_url = reverse("turns:clock", args=[game.pk])
    hung, failed = [], []
    page.route(f"**{clock_url}*", lambda route: hung.append(route))  # never answered
    page.on("requestfailed", lambda r: failed.append(r.url) if clock_url in r.url else None)
    for _ in range(8):  # the tablet wakes, the network flaps: each would ask the clock again
        page.evaluate("window.dispatchEvent(new Event('pageshow')); window.dispatchEvent(new Event('online'))")
    for _ in range(50):  # the poll they start reaches the route (later on a busy machine)
        if hung:
            break
        page.wait_for_timeout(100)
    page.wait_for_timeout(500)  # and no second one is sent while it hangs
    assert len(hung) == 1
    c = pick(page, "north-1", "Захват", "Серединград")
    c.locator("[data-submit]").click()
    card(page, "north-1").locator("[data-saved]").wait_for(timeout=5000)
    assert filed() is not None
    # The hung poll is given up after a few seconds (every request has a time limit), then asked again.
    for _ in range(80):
        if failed and len(hung) >= 2:
            break
        page.wait_for_timeout(100)
    assert failed and len(hung) >= 2


def test_the_submit_button_is_inert_until_the_script_is_ready(new_page, game_for):
    from larp.orders.services import file_order

    game, _mod, player, join = game_for()
    file_order(player, game, "north-1", {"type": "hold"})  # a current order: the form is complete as drawn
    page = new_page()
    page.route("**/tablet.js*", lambda route: route.abort())  # the script never arrives (a slow link, forever)
    page.goto(join)
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    button = card(page, "north-1").locator("[data-submit]")
    assert button.is_disabled()
    button.dblclick(force=True)
    page.wait_for_timeout(500)
    assert posts == [] and page.url.endswith(reverse("tablet:faction", args=[game.pk, "north"]))
    assert OrderEvent.objects.filter(unit="north-1").count() == 1


def test_a_pause_and_a_resume_reach_an_open_tablet_by_themselves(new_page, game_for):
    from larp.turns import services as turns

    game, mod, _player, join = game_for()
    page = new_page()
    page.goto(join)
    page.wait_for_function("document.querySelector('[data-clock-time]').textContent.startsWith('0')")
    page.wait_for_timeout(1200)
    for act, words in ((turns.pause, "Пауза"), (turns.resume, "Отдайте приказы")):
        act(game, mod)
        # The open tablet is told by itself (no reload); how fast is benchmarks/phase_change.py's figure.
        page.wait_for_function(f"document.querySelector('[data-clock-note]').textContent.includes('{words}')",
                               timeout=5000, polling=50)


def test_the_map_page_has_the_clock_and_redraws_a_changed_map_at_a_phase_change(new_page, game_for):
    from larp.campaign.models import Province
    from larp.forces.models import Army
    from larp.turns import services as turns

    game, mod, _player, join = game_for()
    page = new_page()
    page.goto(join)  # the faction page: its own map is fetched by the script after the page's load event
    page.locator("#map svg[data-pan][data-ready]").wait_for()  # so count only the map page's requests
    svgs = []
    page.on("request", lambda r: svgs.append(r.url) if "/map/svg" in r.url else None)
    page.goto(reverse("tablet:map", args=[game.pk]))
    page.locator("#map svg[data-pan][data-ready]").wait_for()
    assert page.locator("#clock [data-clock-time]").inner_text().startswith("0")
    assert page.locator('#map .flag[data-unit="east-1"] title').text_content().endswith("Восточные Врата")
    assert len(svgs) == 1
    turns.pause(game, mod)  # a state change that does not touch the map: no new map is fetched
    page.wait_for_function("document.querySelector('[data-clock-note]').textContent.includes('Пауза')")
    page.wait_for_timeout(1500)
    assert len(svgs) == 1
    Army.objects.filter(faction__code="east").update(province=Province.objects.get(game=game, code="midtown"))
    turns.next_phase(game, mod, reason="test")
    page.wait_for_function("""document.querySelector('#map .flag[data-unit="east-1"] title')
        ?.textContent.endsWith('Серединград')""", timeout=5000)
    assert len(svgs) == 2
