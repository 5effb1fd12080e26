"""Moderator controls: pause/resume/extend arithmetic on the server's clock, each act audited (R3)."""
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone
from larp.turns import clock, services
from larp.turns.models import AuditEntry, Phase, Turn


def test_pause_keeps_the_remaining_time(tiny_game, moderator, frozen):
    phase = services.start_game(tiny_game, moderator)
    assert phase.kind == Phase.STRATEGY and phase.remaining() == 300
    frozen.advance(300 - 133)  # 02:13 left
    paused = services.pause(tiny_game, moderator, "a player fainted")
    assert paused.state == Phase.PAUSED and paused.paused_remaining == 133 and paused.deadline is None
    frozen.advance(600)  # the pause lasts ten minutes
    assert clock.payload(tiny_game.pk)["remaining"] == 133
    resumed = services.resume(tiny_game, moderator)
    assert resumed.remaining() == 133  # 02:13 again
    assert resumed.deadline == frozen.now + timedelta(seconds=133)
    entries = list(AuditEntry.objects.filter(game=tiny_game).order_by("at", "id").values_list("action", "reason"))
    assert ("paused", "a player fainted") in entries and ("resumed", "") in entries


def test_extend_running_and_paused(tiny_game, moderator, frozen):
    services.start_game(tiny_game, moderator)
    frozen.advance(100)
    phase = services.extend(tiny_game, moderator, 2, "queue at the table")
    assert phase.remaining() == 200 + 120
    services.pause(tiny_game, moderator)
    phase = services.extend(tiny_game, moderator, "1.5")
    assert phase.paused_remaining == 320 + 90
    assert AuditEntry.objects.filter(game=tiny_game, action="extended").count() == 2
    with pytest.raises(services.PhaseError):
        services.extend(tiny_game, moderator, "soon")
    with pytest.raises(services.PhaseError):
        services.extend(tiny_game, moderator, -5)


def do_the_work(game, moderator):
    """What each phase asks before it may be left: movement applied, battles fought, regroup applied."""
    from larp.battles import services as console

    phase = services.current_phase(game)
    if phase.kind == Phase.MOVEMENT:
        console.apply_movement(game, moderator)
    elif phase.kind == Phase.REGROUP:
        console.apply_regroup(game, moderator)


def test_phase_sequence_and_new_turn(tiny_game, moderator, frozen):
    services.start_game(tiny_game, moderator)
    kinds = []
    for _ in range(4):
        do_the_work(tiny_game, moderator)
        kinds.append(services.next_phase(tiny_game, moderator).kind)
    assert kinds == ["movement", "tactics", "regroup", "strategy"]
    assert Turn.objects.filter(game=tiny_game).count() == 2
    assert services.current_phase(tiny_game).turn.number == 2
    # Other phases' timers only show overtime; they do not close by themselves (R3).
    services.next_phase(tiny_game, moderator)
    frozen.advance(10_000)
    assert services.close_due(tiny_game.pk) == 0
    payload = clock.payload(tiny_game.pk)
    assert payload["phase"] == "movement" and payload["state"] == "running" and payload["remaining"] < 0


def test_end_now_closes_strategy_with_implicit_holds(tiny_game, moderator):
    phase = services.start_game(tiny_game, moderator)
    services.end_now(tiny_game, moderator, "everyone is ready")
    phase.refresh_from_db()
    assert phase.state == Phase.CLOSED and phase.closed_how == "moderator" and phase.closed_by == moderator
    assert phase.turn.orders.filter(implicit=True).count() == 5
    with pytest.raises(services.PhaseError):
        services.end_now(tiny_game, moderator)


def test_start_twice_and_players_are_refused(tiny_game, moderator, player):
    with pytest.raises(PermissionDenied):
        services.start_game(tiny_game, player)
    services.start_game(tiny_game, moderator)
    with pytest.raises(services.PhaseError):
        services.start_game(tiny_game, moderator)
    with pytest.raises(PermissionDenied):
        services.pause(tiny_game, player)


def test_draw_is_reproducible_and_fixed_unless_allowed(tiny_game, moderator):
    first = services.make_draw(tiny_game, moderator, seed=42)
    assert first == services.seeded_draw(42, ["east", "north", "south"])
    assert services.make_draw(tiny_game, moderator, seed=42) == first
    services.enter_draw(tiny_game, moderator, ["south", "east", "north"])
    with pytest.raises(services.PhaseError):
        services.enter_draw(tiny_game, moderator, ["south", "east"])
    services.start_game(tiny_game, moderator)
    assert services.current_phase(tiny_game).turn.draw == ["south", "east", "north"]
    with pytest.raises(services.PhaseError):
        services.make_draw(tiny_game, moderator)  # the draw holds for the game (R4)
    settings = services.turn_settings(tiny_game)
    settings.redraw_between_turns = True
    settings.save()
    for _ in range(3):
        do_the_work(tiny_game, moderator)
        services.next_phase(tiny_game, moderator)
    do_the_work(tiny_game, moderator)
    services.end_now(tiny_game, moderator)  # regroup closed: between turns
    redrawn = services.make_draw(tiny_game, moderator, seed=7)
    assert sorted(redrawn) == ["east", "north", "south"]
    assert services.next_phase(tiny_game, moderator).turn.draw == redrawn


def test_seeded_draw_is_stable_across_versions():
    # A recorded seed must give the same order on every machine and version.
    assert services.seeded_draw(1204, ["a", "b", "c", "d"]) == services.seeded_draw(1204, ["d", "c", "b", "a"])
    import hashlib

    expected = sorted(["athens", "bulgaria", "nicaea", "rum"],
                      key=lambda c: hashlib.sha256(f"1204:draw:{c}".encode()).digest())
    assert services.seeded_draw(1204, ["athens", "bulgaria", "nicaea", "rum"]) == expected


def test_clock_is_cached(tiny_game, moderator, django_assert_num_queries, settings):
    services.start_game(tiny_game, moderator)
    clock.payload(tiny_game.pk)
    with django_assert_num_queries(0):
        data = clock.payload(tiny_game.pk)
    assert data["phase"] == "strategy" and data["turn"] == 1 and 299 < data["remaining"] <= 300
    services.pause(tiny_game, moderator)
    assert clock.payload(tiny_game.pk)["paused"] is True  # invalidated on the change


# --- a phase with work is not left until the work is done, or skipped with a reason (audited) ------------

@pytest.fixture
def attack_filed(tiny_game, moderator, player):
    """North I attacks neutral Midtown; the Strategy phase closed, Movement running."""
    from larp.orders.services import file_order

    services.start_game(tiny_game, moderator)
    file_order(player, tiny_game, "north-1", {"type": "attack", "path": ["midtown"]})
    services.next_phase(tiny_game, moderator)
    return tiny_game


def test_movement_is_not_left_until_applied_or_skipped_with_a_reason(attack_filed, moderator):
    game = attack_filed
    movement = services.current_phase(game)
    assert movement.kind == Phase.MOVEMENT
    for leave in (services.next_phase, services.end_now):
        with pytest.raises(services.WorkPending) as refused:
            leave(game, moderator)
        assert any("1" in item for item in refused.value.pending)  # one unit would move, one battle
    assert services.current_phase(game).pk == movement.pk and services.current_phase(game).state == Phase.RUNNING
    with pytest.raises(services.PhaseError):
        services.next_phase(game, moderator, "  ", skip=True)  # a skip needs a reason
    tactics = services.next_phase(game, moderator, "the hall ran out of time", skip=True)
    assert tactics.kind == Phase.TACTICS
    skipped = AuditEntry.objects.get(game=game, action="phase_skipped")
    assert skipped.reason == "the hall ran out of time" and skipped.detail["phase"] == "movement"
    assert skipped.detail["lost"] == refused.value.pending


def test_each_phase_asks_for_its_work(attack_filed, moderator):
    from larp.battles import services as console

    game = attack_filed
    console.apply_movement(game, moderator)
    assert services.next_phase(game, moderator).kind == Phase.TACTICS
    with pytest.raises(services.WorkPending) as refused:
        services.next_phase(game, moderator)  # battle 1 awaits its dice
    assert "1" in refused.value.pending[0]
    console.confirm_battle(game, moderator, 1, [6], [1])
    assert services.next_phase(game, moderator).kind == Phase.REGROUP
    with pytest.raises(services.WorkPending):
        services.end_now(game, moderator)  # regroup not applied
    console.apply_regroup(game, moderator)
    following = services.next_phase(game, moderator)
    assert following.kind == Phase.STRATEGY and following.turn.number == 2
    assert not AuditEntry.objects.filter(game=game, action="phase_skipped").exists()


def test_an_act_names_its_phase_and_a_stale_one_is_refused(attack_filed, moderator):
    from larp.battles import services as console

    game = attack_filed
    movement = services.current_phase(game)
    console.apply_movement(game, moderator)
    services.next_phase(game, moderator, phase_id=movement.pk)
    with pytest.raises(services.StaleRequest):
        services.next_phase(game, moderator, phase_id=movement.pk)  # the second press of the same button
    with pytest.raises(services.StaleRequest):
        services.pause(game, moderator, phase_id=movement.pk)
    assert services.current_phase(game).kind == Phase.TACTICS


# --- paper orders (R14) with the tablet's legal pickers ------------------------------------------------

def test_paper_order_offers_only_legal_choices_by_name(client_for, tiny_game, moderator):
    import re

    from django.urls import reverse

    services.start_game(tiny_game, moderator)
    c = client_for(moderator)
    page = c.get(reverse("battles:console", args=[tiny_game.pk])).content.decode()
    assert "идентификатор" not in page and 'name="path"' not in page  # no ids typed by hand any more
    picker = c.get(reverse("battles:console", args=[tiny_game.pk]), {"unit": "north-1"}, HTTP_HX_REQUEST="true")
    text = picker.content.decode()
    assert picker.status_code == 200 and "<html" not in text
    offered = set(re.findall(r'name="s1" value="([^"]+)"', text))
    assert "midtown" in offered and "southgate" not in offered  # Southgate is not next to Northgate
    assert "Серединград" in text and "Южные Врата" not in text
    for hostile in ("north\x00-1", "north-1²", "x" * 500, "north-01", "-1", "north-f"):
        response = c.get(reverse("battles:console", args=[tiny_game.pk]), {"unit": hostile})
        assert response.status_code == 200 and "Такой армии или флота на карте нет" in response.content.decode()
    missing = c.get(reverse("battles:console", args=[tiny_game.pk]), {"unit": "north-99"}, HTTP_HX_REQUEST="true")
    assert "Такой армии или флота на карте нет" in missing.content.decode()


def test_paper_order_saved_through_the_pickers_and_hostile_picks_refused(client_for, tiny_game, moderator):
    from django.urls import reverse

    from larp.orders.models import Order

    services.start_game(tiny_game, moderator)
    services.end_now(tiny_game, moderator)  # after the deadline: only a moderator writes orders now (R14)
    c = client_for(moderator)
    url = reverse("battles:moderator_order", args=[tiny_game.pk])
    before = list(Order.objects.values_list("payload", flat=True).order_by("id"))
    for data, status in [({"unit": "north-1", "type": "attack", "s1": "southgate", "reason": "r"}, 422),
                         ({"unit": "north-1", "type": "zz", "reason": "r"}, 422),
                         ({"unit": "north-1", "type": "attack", "reason": "r"}, 422),
                         ({"unit": "north-1", "type": "fleet_attack", "s1": "north_sea", "reason": "r"}, 422),
                         ({"unit": "zz", "type": "hold", "reason": "r"}, 404),
                         ({"unit": "north-1²", "type": "hold", "reason": "r"}, 404),
                         ({"unit": "north\x00-1", "type": "hold", "reason": "r"}, 400),
                         ({"unit": "north-1", "type": "attack", "s1": "midtown"}, 400),
                         ({"type": "hold", "reason": "r"}, 400)]:
        response = c.post(url, data)
        assert response.status_code == status, (data, response.status_code)
        assert '<ul class="messages">' in response.content.decode()
    assert list(Order.objects.values_list("payload", flat=True).order_by("id")) == before
    response = c.post(url, {"unit": "north-1", "type": "attack", "s1": "midtown", "reason": "paper form"})
    assert response.status_code == 302
    order = Order.objects.get(army__faction__code="north", army__number=1)
    assert order.payload == {"unit": "north-1", "type": "attack", "path": ["midtown"]} and not order.implicit
    assert AuditEntry.objects.filter(game=tiny_game, action="order_changed", reason="paper form").exists()


def test_audit_log_reads_as_russian_sentences_in_local_time(client_for, attack_filed, moderator, settings):
    import re

    from django.urls import reverse

    from larp.battles import services as console

    game = attack_filed
    console.apply_movement(game, moderator)
    services.next_phase(game, moderator)
    console.add_modifier(game, moderator, 1, "defender", 2, "туман")
    console.confirm_battle(game, moderator, 1, [6], [1])
    console.undo_last_battle(game, moderator, "не тот кубик", 1)
    page = client_for(moderator).get(reverse("turns:audit", args=[game.pk])).content.decode()
    for sentence in ("Ход 1: передвижение применено; сражений к проведению: 1.",
                     "Ход 1: сражение 1: поправка +2, сторона — обороняющийся.",
                     "Ход 1: сражение 1, Серединград, подтверждено (кубики вручную 6 : 1",
                     "Ход 1: сражение 1 (Серединград) отменено.", "не тот кубик",
                     "Ход 1: фаза «Стратегия» закрыта модератором. Стоят на месте без приказа: 4."):
        assert sentence in page, sentence
    table = re.search(r'<table class="grid audit-log">(.*?)</table>', page, re.S).group(1)
    shown = re.sub(r"<[^>]+>", " ", table)  # what a moderator reads (tags and their attributes aside)
    assert not re.search(r"[{}]|'battle'|midtown|north-1|T\d\d:\d\d", shown)  # no dicts, no ids, no ISO UTC
    entry = AuditEntry.objects.filter(game=game).latest("at")
    local = timezone.localtime(entry.at).strftime("%H:%M:%S")
    assert settings.TIME_ZONE == "Europe/Moscow" and local in page


def test_the_strategy_close_reveals_orders_through_the_hook_orders_registered_once(tiny_game, moderator):
    from django.apps import apps

    from larp.orders.services import reveal_at_strategy_close
    from larp.turns.models import AuditEntry

    apps.get_app_config("orders").ready()  # a second ready() must not reveal twice
    assert services._strategy_close_hooks.count(reveal_at_strategy_close) == 1
    phase = services.start_game(tiny_game, moderator)
    services.end_now(tiny_game, moderator, "everyone is ready")
    phase.turn.refresh_from_db()
    assert phase.turn.orders_revealed
    closed = AuditEntry.objects.get(game=tiny_game, action="phase_closed", detail__phase=Phase.STRATEGY)
    assert closed.detail["implicit_holds"] == 5 == phase.turn.orders.filter(implicit=True).count()
