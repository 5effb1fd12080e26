"""The faction page, its fragments and filing orders from the form, against the role matrix (R3, R5, R13)."""
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from larp.engine import check_order, order_from_path, parse_case
from larp.orders import pickers
from larp.orders.models import Order, OrderEvent
from larp.turns import services
from larp.turns.models import Phase
from tests.tablet.conftest import SOUTH_SECRET_COMMANDER, SOUTH_SECRET_TROOP

HTMX = {"HTTP_HX_REQUEST": "true"}


def page_url(game, faction="north"):
    return reverse("tablet:faction", args=[game.pk, faction])


def file_url(game, unit, faction="north"):
    return reverse("tablet:file_order", args=[game.pk, faction, unit])


# --- who may see what (R13) -------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "fragment"])
def test_own_player_sees_own_stacks_and_no_one_elses(client_for, tiny_game, player, started, htmx):
    response = client_for(player).get(page_url(tiny_game), **(HTMX if htmx else {}))
    text = response.content.decode()
    assert response.status_code == 200
    assert "Альберт" in text and "Среднее войско" in text  # North's commander and cards
    assert "Среднее войско<small>· мощь " in text  # a card's number is its power, not a count of cards
    assert SOUTH_SECRET_COMMANDER not in text and SOUTH_SECRET_TROOP not in text and "Всеволод" not in text
    assert "south-1" not in text.replace('data-unit="south-1"', "")  # no South order form or card
    if htmx:
        assert "<html" not in text and 'id="board"' in text


def test_own_orders_show_who_filed_them_and_when(client_for, tiny_game, player, other_player, started):
    from larp.orders.services import file_order

    file_order(player, tiny_game, "north-1", {"type": "attack", "path": ["northfield", "midtown"]})
    file_order(other_player, tiny_game, "south-1", {"type": "attack", "path": ["southfield", "midtown"]})
    text = client_for(player).get(page_url(tiny_game)).content.decode()
    assert "Захват: Северное Поле → Серединград" in text
    assert "— игрок фракции «Север»" in text and "north-player" not in text
    assert "Южное Поле" not in strip_map(text)  # South's order names Southfield: never on North's board
    assert "south-player" not in text


def strip_map(html: str) -> str:
    """The page without the map (whose labels name every province)."""
    return re.sub(r'<figure class="map".*?</figure>', "", html, flags=re.S)


def test_other_faction_player_is_refused_everything(client_for, tiny_game, player, other_player, started):
    spy = client_for(other_player)
    assert spy.get(page_url(tiny_game)).status_code == 403
    assert spy.get(page_url(tiny_game), **HTMX).status_code == 403
    response = spy.post(file_url(tiny_game, "north-1"), {"type": "hold"}, **HTMX)
    assert response.status_code == 403 and "Альберт" not in response.content.decode()
    # Posting a South unit through North's URL is refused too, and North's URL can't reach South's unit.
    assert client_for(player).post(file_url(tiny_game, "south-1"), {"type": "hold"}, **HTMX).status_code == 404
    assert client_for(player).post(file_url(tiny_game, "south-1", "south"), {"type": "hold"}).status_code == 403
    assert not Order.objects.exists()


def test_stranger_refused_and_anonymous_sent_to_login(client_for, tiny_game, stranger, started):
    assert client_for(stranger).get(page_url(tiny_game)).status_code == 403
    assert client_for(stranger).post(file_url(tiny_game, "north-1"), {"type": "hold"}).status_code == 403
    anon = Client()
    for response in (anon.get(page_url(tiny_game)), anon.post(file_url(tiny_game, "north-1"), {"type": "hold"})):
        assert response.status_code == 302 and reverse("login") in response["Location"]
    assert not Order.objects.exists()


def test_moderator_sees_every_faction_page(client_for, tiny_game, moderator, started):
    c = client_for(moderator)
    north = c.get(page_url(tiny_game)).content.decode()
    south = c.get(page_url(tiny_game, "south")).content.decode()
    assert "Альберт" in north and SOUTH_SECRET_COMMANDER not in north
    assert SOUTH_SECRET_COMMANDER in south and SOUTH_SECRET_TROOP in south and "Альберт" not in south
    assert reverse("tablet:players", args=[tiny_game.pk]) in north


def test_file_post_needs_csrf(tiny_game, player, started):
    c = Client(enforce_csrf_checks=True)
    c.force_login(player)
    assert c.post(file_url(tiny_game, "north-1"), {"type": "hold"}, **HTMX).status_code == 403
    assert not Order.objects.exists()
    # With the page's token it goes through.
    page = c.get(page_url(tiny_game)).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    assert c.post(file_url(tiny_game, "north-1"), {"type": "hold", "csrfmiddlewaretoken": token},
                  **HTMX).status_code == 200


# --- filing from the form (R5) -------------------------------------------------------------------


def test_two_step_attack_filed_and_confirmed_with_server_time(client_for, tiny_game, player, started):
    response = client_for(player).post(file_url(tiny_game, "north-1"),
                                       {"type": "attack", "s1": "northfield", "s2": "midtown"}, **HTMX)
    text = response.content.decode()
    assert response.status_code == 200
    order = Order.objects.get(army__faction__code="north", army__number=1)
    assert order.payload == {"unit": "north-1", "type": "attack", "path": ["northfield", "midtown"]}
    stamp = timezone.localtime(order.filed_at).strftime("%H:%M:%S")
    assert f"Приказ сохранён {stamp}" in text
    assert text.lstrip().startswith('<article id="unit-north-1"')


def test_sea_attack_builds_the_engine_order(client_for, tiny_game, player, started):
    client_for(player).post(file_url(tiny_game, "north-2"), {"type": "sea_attack", "s1": "north_sea", "s2": "isle"},
                            **HTMX)
    order = Order.objects.get(army__number=2, army__faction__code="north")
    assert order.payload == {"unit": "north-2", "type": "sea_attack", "fleet": "north-f1", "sea": ["north_sea"],
                             "target": "isle"}


def test_filing_twice_leaves_one_order(client_for, tiny_game, player, started):
    c = client_for(player)
    for _ in range(2):
        assert c.post(file_url(tiny_game, "north-1"), {"type": "march", "s1": "northfield"}, **HTMX).status_code == 200
    assert Order.objects.filter(army__faction__code="north", army__number=1).count() == 1


def test_refused_order_shows_the_engines_reason_and_keeps_the_picks(client_for, tiny_game, player, started):
    c = client_for(player)
    c.post(file_url(tiny_game, "north-2"), {"type": "sea_attack", "s1": "north_sea", "s2": "isle"}, **HTMX)
    response = c.post(file_url(tiny_game, "north-f1"), {"type": "fleet_move", "s1": "south_sea"}, **HTMX)
    text = response.content.decode()
    assert response.status_code == 422
    assert "Флот I перевозит армию II: действует приказ армии" in text and 'data-refused' in text
    # A direct POST is still refused; the card answers with what the fleet carries, not a form.
    assert "Перевозит армию II" in text and "data-order-form" not in text
    assert not Order.objects.filter(fleet__isnull=False).exists()


def test_illegal_path_typed_by_hand_is_refused(client_for, tiny_game, player, started):
    response = client_for(player).post(file_url(tiny_game, "north-1"), {"type": "march", "s1": "southgate"}, **HTMX)
    assert response.status_code == 422
    assert "Шаг 1 (Северные Врата → Южные Врата): провинции не граничат" in response.content.decode()
    assert not Order.objects.exists()


def test_army_order_drops_the_fleets_own_order_and_refreshes_its_card(client_for, tiny_game, player, started):
    c = client_for(player)
    c.post(file_url(tiny_game, "north-f1"), {"type": "fleet_move", "s1": "south_sea"}, **HTMX)
    response = c.post(file_url(tiny_game, "north-2"), {"type": "sea_attack", "s1": "north_sea", "s2": "isle"}, **HTMX)
    text = response.content.decode()
    assert 'id="unit-north-f1"' in text and 'hx-swap-oob="true"' in text
    assert not Order.objects.filter(fleet__isnull=False).exists()


FLEET_ORDER_WITHDRAWN = "Приказ флота снят, когда приказ армии посадил её на этот флот (R5)"


def test_a_fleet_order_an_army_boarded_away_stays_gone_and_its_seat_is_told(client_for, tiny_game, player, started):
    """Two seats of one faction (the rehearsal's orders_kept, 5 tablets): seat A orders the fleet; seat B's army
    boards it, which withdraws the fleet's order (R5); B's army then leaves the fleet. The fleet holds (its
    order does not come back), and seat A's page says its order was withdrawn, not just «no order»."""
    from larp.campaign.services.members import create_player

    second, _ = create_player(tiny_game.factions.get(code="north"), "north-player-2", password="north-password-2")
    seat_a, seat_b = client_for(player), client_for(second)
    assert seat_a.post(file_url(tiny_game, "north-f1"), {"type": "fleet_move", "s1": "south_sea"},
                       **HTMX).status_code == 200
    boarded = seat_b.post(file_url(tiny_game, "north-2"), {"type": "sea_attack", "s1": "north_sea", "s2": "isle"},
                          **HTMX)
    assert boarded.status_code == 200 and not Order.objects.filter(fleet__isnull=False).exists()
    card = _card(boarded.content.decode(), "north-f1")
    assert "Собственный приказ флота снят" in card and "data-withdrawn" in card
    left = seat_b.post(file_url(tiny_game, "north-2"), {"type": "hold"}, **HTMX)
    assert left.status_code == 200 and not Order.objects.filter(fleet__isnull=False).exists()
    actions = list(OrderEvent.objects.filter(unit="north-f1").order_by("at", "id").values_list("action", flat=True))
    assert actions == [OrderEvent.FILED, OrderEvent.DROPPED]
    told = FLEET_ORDER_WITHDRAWN
    card = _card(left.content.decode(), "north-f1")  # the fleet's card refreshed out of band
    assert told in card and "data-dropped" in card
    assert told in _card(seat_a.get(page_url(tiny_game)).content.decode(), "north-f1")
    # A new order for the fleet stands again, and the card no longer says it was withdrawn.
    again = seat_a.post(file_url(tiny_game, "north-f1"), {"type": "fleet_move", "s1": "south_sea"}, **HTMX)
    assert again.status_code == 200 and told not in again.content.decode()
    assert Order.objects.get(fleet__isnull=False).payload["type"] == "fleet_move"


def test_after_the_deadline_a_fleet_whose_order_was_boarded_away_still_says_so(client_for, tiny_game, player,
                                                                               started):
    """At the deadline the fleet gets the hold made for units without an order (R3): its card must not let the
    seat that ordered it believe it simply filed nothing."""
    c = client_for(player)
    c.post(file_url(tiny_game, "north-f1"), {"type": "fleet_move", "s1": "south_sea"}, **HTMX)
    c.post(file_url(tiny_game, "north-2"), {"type": "sea_attack", "s1": "north_sea", "s2": "isle"}, **HTMX)
    c.post(file_url(tiny_game, "north-2"), {"type": "hold"}, **HTMX)
    Phase.objects.filter(pk=started.pk).update(deadline=timezone.now() - timezone.timedelta(seconds=1))
    assert c.post(file_url(tiny_game, "north-1"), {"type": "hold"}, **HTMX).status_code == 409  # closes the phase
    assert Order.objects.get(fleet__isnull=False).implicit
    page = c.get(page_url(tiny_game)).content.decode()
    card = _card(page, "north-f1")
    assert FLEET_ORDER_WITHDRAWN in card and "Приказа не было" in card
    assert page.count(FLEET_ORDER_WITHDRAWN) == 1  # on that fleet's card only


def test_plain_post_without_htmx_redirects_with_a_message(client_for, tiny_game, player, started):
    c = client_for(player)
    response = c.post(file_url(tiny_game, "north-1"), {"type": "hold"})
    assert response.status_code == 302 and response["Location"].endswith("#unit-north-1")
    assert "Приказ сохранён" in c.get(response["Location"]).content.decode()


def test_after_the_deadline_the_form_is_locked_and_the_server_refuses(client_for, tiny_game, player, started):
    Phase.objects.filter(pk=started.pk).update(deadline=timezone.now() - timezone.timedelta(seconds=1))
    c = client_for(player)
    response = c.post(file_url(tiny_game, "north-1"), {"type": "hold"}, **HTMX)
    assert response.status_code == 409
    assert not Order.objects.filter(implicit=False).exists()  # closing made every unit hold (R3)
    page = c.get(page_url(tiny_game)).content.decode()
    assert "Приём приказов закрыт" in page
    assert re.search(r'data-lock-note role="status"\s*>', page)  # shown, not hidden
    assert re.search(r'<button type="submit" class="primary" data-submit\s+disabled', page)
    assert "Фаза стратегии закрыта" in page


def test_paused_strategy_still_takes_orders(client_for, tiny_game, moderator, player, started):
    services.pause(tiny_game, moderator)
    c = client_for(player)
    assert "Пауза" in c.get(page_url(tiny_game)).content.decode()
    assert c.post(file_url(tiny_game, "north-1"), {"type": "hold"}, **HTMX).status_code == 200


def test_before_the_game_starts(client_for, tiny_game, player, south_secrets):
    text = client_for(player).get(page_url(tiny_game)).content.decode()
    assert "Игра ещё не началась" in text and "data-order-form" not in text
    response = client_for(player).post(file_url(tiny_game, "north-1"), {"type": "hold"}, **HTMX)
    assert response.status_code == 409 and not Order.objects.exists()


def test_double_submit_is_one_event_when_nothing_changed(client_for, tiny_game, player, started):
    """The server stores one order; each filing is logged, so the client must not send twice (see browser tests)."""
    c = client_for(player)
    c.post(file_url(tiny_game, "north-1"), {"type": "hold"}, **HTMX)
    assert Order.objects.count() == 1 and OrderEvent.objects.count() == 1


# --- the form offers only legal choices (R5) -------------------------------------------------------


@pytest.mark.parametrize("scenario", ["tiny", "latin"])
def test_every_path_the_form_offers_is_legal(request, scenario, moderator):
    from larp.scenarios.loader import load_scenario

    game = request.getfixturevalue("tiny_game") if scenario == "tiny" else load_scenario(
        "latin-east-1204", title="Latin choices", seed=1)
    from larp.turns.situation import case_from_game

    case = parse_case(case_from_game(game))
    sit = case.situation
    from larp.turns.selectors import names as names_of

    names = names_of(game).places
    checked = 0
    for unit in list(sit.armies) + list(sit.fleets):
        kind = "fleet" if unit in sit.fleets else "army"
        choices = pickers.order_choices(sit, unit, kind, names, None)
        groups = {(g["type"], g["prefix"]): g for g in choices["groups"] if g["kind"] == "step"}
        for (otype, prefix), group in groups.items():
            for option in group["options"]:
                path = [p for p in prefix.split("|") if p] + [option["value"]]
                if option["complete"]:
                    order = order_from_path(sit, unit, otype, path)
                    assert check_order(sit, order) is None, (unit, otype, path)
                    checked += 1
                else:
                    assert (otype, "|".join(path)) in groups, (unit, otype, path)  # a next step is offered
    assert checked > 3


def test_english_on_request_and_russian_by_default(client_for, tiny_game, player, started):
    c = client_for(player)
    assert "Отдать приказ" in c.get(page_url(tiny_game)).content.decode()
    c.cookies["django_language"] = "en"
    text = c.get(page_url(tiny_game)).content.decode()
    assert "File the order" in text and "Army I" in text and "Northgate" in text
    response = c.post(file_url(tiny_game, "north-1"), {"type": "march", "s1": "northfield"}, **HTMX)
    assert "Order saved" in response.content.decode()


def test_unknown_faction_or_unit_is_404(client_for, tiny_game, moderator, started):
    c = client_for(moderator)
    assert c.get(page_url(tiny_game, "atlantis")).status_code == 404
    assert c.post(file_url(tiny_game, "north-9"), {"type": "hold"}, **HTMX).status_code == 404


def test_a_resent_confirmation_answers_with_the_first_filing_time(client_for, tiny_game, player, started):
    """The tablet's retry after a lost answer: same key, same order, recorded once, the first time shown."""
    c = client_for(player)
    data = {"type": "attack", "s1": "midtown", "key": "tablet-key-0001"}
    first = c.post(file_url(tiny_game, "north-1"), data, **HTMX)
    order = Order.objects.get(army__faction__code="north", army__number=1)
    second = c.post(file_url(tiny_game, "north-1"), data, **HTMX)
    stamp = timezone.localtime(order.filed_at).strftime("%H:%M:%S")
    assert first.status_code == second.status_code == 200
    assert f"Приказ сохранён {stamp}" in second.content.decode()
    assert 'data-order-key="tablet-key-0001"' in second.content.decode()
    assert list(OrderEvent.objects.values_list("action", flat=True)) == ["filed"]
    assert Order.objects.get(pk=order.pk).filed_at == order.filed_at


def test_a_double_plain_post_before_the_script_is_ready_files_once(client_for, tiny_game, player, started):
    """The page's own key rides in the form, so two plain posts of one rendered form are one filing."""
    c = client_for(player)
    page = c.get(page_url(tiny_game)).content.decode()
    key = re.search(r'name="key" value="([^"]+)"', page).group(1)
    for _ in range(2):
        response = c.post(file_url(tiny_game, "north-1"), {"type": "hold", "key": key})
        assert response.status_code == 302
    assert OrderEvent.objects.count() == 1
    assert "Приказ сохранён" in c.get(response["Location"]).content.decode()
    # The submit buttons wait for the script: none is enabled in the page as sent.
    assert re.findall(r"<button[^>]*data-submit[^>]*>", page)
    assert all("disabled" in b for b in re.findall(r"<button[^>]*data-submit[^>]*>", page))


def test_the_summary_counts_only_orders_the_players_filed(client_for, tiny_game, player, started):
    from larp.orders.services import file_order

    file_order(player, tiny_game, "north-1", {"type": "hold"})
    c = client_for(player)
    assert "Отдано приказов: 1 из 3." in c.get(page_url(tiny_game)).content.decode()
    Phase.objects.filter(pk=started.pk).update(deadline=timezone.now() - timezone.timedelta(seconds=1))
    c.post(file_url(tiny_game, "north-2"), {"type": "hold"}, **HTMX)  # too late: closes the phase, holds made
    text = c.get(page_url(tiny_game)).content.decode()
    assert "Отдано приказов: 1 из 3." in text and "Без приказа стоят на месте: 2." in text


def test_filing_refreshes_the_summary_beside_the_card(client_for, tiny_game, player, started):
    response = client_for(player).post(file_url(tiny_game, "north-1"), {"type": "hold"}, **HTMX)
    text = response.content.decode()
    assert re.search(r'<p id="summary"[^>]*hx-swap-oob="true"[^>]*>Отдано приказов: 1 из 3\.', text)


def _card(html: str, unit: str) -> str:
    match = re.search(rf'<article id="unit-{unit}".*?</article>', html, flags=re.S)
    assert match, unit
    return match.group(0)


def test_a_carrying_fleet_says_what_it_carries_and_offers_no_form(client_for, tiny_game, player, started):
    c = client_for(player)
    before = _card(c.get(page_url(tiny_game)).content.decode(), "north-f1")
    assert "data-order-form" in before  # a free fleet takes orders
    response = c.post(file_url(tiny_game, "north-2"), {"type": "sea_attack", "s1": "north_sea", "s2": "isle"}, **HTMX)
    oob = _card(response.content.decode(), "north-f1")  # the fleet's card changes with the army's order
    assert "Перевозит армию II" in oob and "data-order-form" not in oob
    card = _card(c.get(page_url(tiny_game)).content.decode(), "north-f1")
    assert "Перевозит армию II" in card and "data-carries" in card
    assert "data-order-form" not in card and 'name="type"' not in card
    # The army holds instead: the fleet is free again and its form comes back.
    response = c.post(file_url(tiny_game, "north-2"), {"type": "hold"}, **HTMX)
    assert "data-order-form" in _card(response.content.decode(), "north-f1")
    assert "data-order-form" in _card(c.get(page_url(tiny_game)).content.decode(), "north-f1")


def _sea_zones(html: str, unit: str) -> set[str]:
    """The first steps a unit's card offers for a sea attack or a landing."""
    import lxml.html

    card = lxml.html.fragment_fromstring(html, create_parent="div").xpath(f"//article[@data-unit='{unit}']")[0]
    return {i.get("value") for i in card.xpath(".//fieldset[@data-group='step'][@data-depth='1']"
                                               "[@data-type='sea_attack' or @data-type='landing']//input")}


@pytest.fixture
def latin_started(transactional_db):
    """The default scenario started, with a player of the Latin Empire (two armies by one fleet in Propontis)."""
    from larp.campaign.services.members import add_moderator, create_player
    from larp.scenarios.loader import load_scenario

    game = load_scenario("latin-east-1204", title="Флот на двоих", seed=1204)
    mod, _ = add_moderator(game, "fleet-mod")
    services.start_game(game, mod)
    player, _ = create_player(game.factions.get(code="latin_empire"), "fleet-latin")
    return game, player


def test_a_fleet_another_army_boards_is_not_offered_and_the_other_armies_cards_say_so(latin_started):
    """Found by the rehearsal (seed 1): army IV's form offered Propontis, whose only fleet army II's order
    already boards, and filing it was refused (`fleet_busy`, R5). The pickers leave such a fleet out, the answer
    to the order that boards it refreshes the other armies' cards, and taking it back offers the fleet again."""
    game, player = latin_started
    c = Client()
    c.force_login(player)
    url = lambda unit: reverse("tablet:file_order", args=[game.pk, "latin_empire", unit])  # noqa: E731
    page = c.get(reverse("tablet:faction", args=[game.pk, "latin_empire"])).content.decode()
    assert "propontis" in _sea_zones(page, "latin_empire-4") and "propontis" in _sea_zones(page, "latin_empire-2")
    response = c.post(url("latin_empire-2"), {"type": "sea_attack", "s1": "propontis", "s2": "nicaea"}, **HTMX)
    assert response.status_code == 200, response.content.decode()
    answer = response.content.decode()
    assert 'id="unit-latin_empire-4"' in answer and "propontis" not in _sea_zones(answer, "latin_empire-4")
    page = c.get(reverse("tablet:faction", args=[game.pk, "latin_empire"])).content.decode()
    assert "propontis" not in _sea_zones(page, "latin_empire-4")
    assert "propontis" in _sea_zones(page, "latin_empire-2")  # its own order's fleet stays offered to it
    again = c.post(url("latin_empire-2"), {"type": "hold"}, **HTMX).content.decode()
    assert "propontis" in _sea_zones(again, "latin_empire-4")


def test_an_armys_order_redraws_the_fleets_cards_without_reading_the_turn_again_for_each(
        client_for, tiny_game, player, started, django_assert_max_num_queries):
    """Filing an army's order redraws every fleet's card (R5: it may board one) and, when it boards one, the other
    armies' cards: the phase, the orders and the units are read once for all of them, not once a card."""
    c = client_for(player)
    c.post(page_url(tiny_game))  # the session and the join check are warm
    with django_assert_max_num_queries(55) as captured:  # 90 when each card read it all again
        response = c.post(file_url(tiny_game, "north-2"), {"type": "sea_attack", "s1": "north_sea", "s2": "isle"},
                          **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="unit-north-f1"' in body and 'id="unit-north-1"' in body  # the fleet's and the other army's cards
    phase_reads = [q for q in captured.captured_queries if "turns_turnsettings" in q["sql"]]
    assert len(phase_reads) <= 4, len(phase_reads)  # the cards before the order and after it, the filing twice
