"""Close Strategy when everyone has filed: each faction marks «Приказы готовы» on its tablet; with the game's
option on (off by default), the last mark closes the phase at once. The console shows who is ready."""
import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from larp.campaign.services.members import create_player
from larp.turns import services
from larp.turns.models import AuditEntry, Phase, ReadyMark


@pytest.fixture
def players(tiny_game, player, other_player):
    east, _ = create_player(tiny_game.factions.get(code="east"), "east-player", password="east-password-1")
    return {"north": player, "south": other_player, "east": east}


def faction(game, code):
    return game.factions.get(code=code)


def test_everyone_ready_closes_nothing_while_the_option_is_off(tiny_game, moderator, players, client_for):
    phase = services.start_game(tiny_game, moderator)
    assert services.turn_settings(tiny_game).close_when_ready is False
    for code, user in players.items():
        services.mark_ready(user, faction(tiny_game, code))
    phase.refresh_from_db()
    assert phase.state == Phase.RUNNING
    page = client_for(moderator).get(reverse("battles:console", args=[tiny_game.pk])).content.decode()
    assert page.count("готовы в ") == 3


def test_the_last_faction_ready_closes_strategy_at_once(tiny_game, moderator, players, client_for):
    phase = services.start_game(tiny_game, moderator)
    services.set_close_when_ready(tiny_game, moderator, True)
    services.mark_ready(players["north"], faction(tiny_game, "north"))
    services.mark_ready(players["south"], faction(tiny_game, "south"))
    services.mark_ready(players["south"], faction(tiny_game, "south"), ready=False)  # taken back
    services.mark_ready(players["east"], faction(tiny_game, "east"))
    phase.refresh_from_db()
    assert phase.state == Phase.RUNNING  # south is no longer ready
    answer = client_for(players["south"]).post(reverse("tablet:orders_ready", args=[tiny_game.pk, "south"]),
                                               {"ready": "1"})
    assert answer.status_code == 302
    phase.refresh_from_db()
    assert phase.state == Phase.CLOSED and phase.closed_how == "ready"
    assert phase.turn.orders.filter(implicit=True).count() == 5  # every unit without an order holds (R3)
    actions = list(AuditEntry.objects.filter(game=tiny_game).values_list("action", flat=True))
    assert actions.count("orders_ready") == 4 and actions.count("orders_not_ready") == 1
    assert "close_when_ready" in actions and actions.count("phase_closed") == 1
    closed = AuditEntry.objects.get(game=tiny_game, action="phase_closed")
    assert closed.detail["how"] == "ready"
    with pytest.raises(services.PhaseError):
        services.mark_ready(players["north"], faction(tiny_game, "north"), ready=False)


def test_turning_the_option_on_when_everyone_is_ready_closes_at_once(tiny_game, moderator, players):
    phase = services.start_game(tiny_game, moderator)
    for code, user in players.items():
        services.mark_ready(user, faction(tiny_game, code))
    services.set_close_when_ready(tiny_game, moderator, True)
    phase.refresh_from_db()
    assert phase.closed_how == "ready"


def test_only_the_factions_players_mark_it(tiny_game, moderator, players, client_for):
    services.start_game(tiny_game, moderator)
    with pytest.raises(PermissionDenied):
        services.mark_ready(players["north"], faction(tiny_game, "south"))
    answer = client_for(players["north"]).post(reverse("tablet:orders_ready", args=[tiny_game.pk, "south"]),
                                               {"ready": "1"})
    assert answer.status_code == 403
    assert not ReadyMark.objects.exists()
    with pytest.raises(PermissionDenied):
        services.set_close_when_ready(tiny_game, players["north"], True)


def test_the_tablet_offers_the_button_only_while_orders_are_open(tiny_game, moderator, players, client_for):
    url = reverse("tablet:faction", args=[tiny_game.pk, "north"])
    tablet = client_for(players["north"])
    assert "Приказы готовы" not in tablet.get(url).content.decode()  # not started
    services.start_game(tiny_game, moderator)
    assert "Приказы готовы" in tablet.get(url).content.decode()
    services.mark_ready(players["north"], faction(tiny_game, "north"))
    page = tablet.get(url).content.decode()
    assert "Приказы отмечены как готовые" in page and "Ещё не готовы" in page
    services.end_now(tiny_game, moderator)
    assert "data-orders-ready" not in tablet.get(url).content.decode()
