"""The database connection lost in the middle of confirming a battle or applying regroup: nothing half-applied.

Two ways: an error raised at the last write of the transaction (any database), and
the real thing on PostgreSQL: another session kills ours with pg_terminate_backend
after every write of regroup but the last, through the moderator's HTTP request.
"""
import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse

from larp.battles import services as console
from larp.battles.models import DiceRoll, TurnResolution
from larp.campaign.services.members import add_moderator, create_player
from larp.scenarios.loader import load_scenario
from larp.engine import run_turn
from larp.forces.models import TroopCard
from larp.orders.services import file_order
from larp.turns import services as turns
from larp.turns.models import AuditEntry
from larp.turns.situation import case_from_game
from tests.battles.test_console_flow import DRAW, ORDERS, fight_all


def play(game, mod):
    """Orders of the console tests, Strategy closed, movement applied: the battles await dice."""
    turns.enter_draw(game, mod, DRAW)
    turns.start_game(game, mod)
    for faction, unit, order in ORDERS:
        player, _ = create_player(game.factions.get(code=faction), f"p-{faction}")
        file_order(player, game, unit, order)
    turns.next_phase(game, mod)  # Movement
    console.apply_movement(game, mod)
    turns.next_phase(game, mod)  # Tactics


def to_regroup(game, mod):
    play(game, mod)
    rolls = fight_all(game, mod)
    turns.next_phase(game, mod)  # Regroup
    return rolls


def world(game) -> dict:
    """Everything regroup may write: positions, stacks, garrisons, owners, specials."""
    case = case_from_game(game)
    return {k: case[k] for k in ("provinces", "armies", "fleets", "special_state")}


def failing_at(monkeypatch, action, fail):
    """Make the audit entry of `action` (the transaction's last write) fail through `fail()`."""
    real = console.audit

    def audit(game, by, act, *args, **kwargs):
        if act == action:
            fail()
        return real(game, by, act, *args, **kwargs)

    monkeypatch.setattr(console, "audit", audit)


def lost_connection():
    raise OperationalError("server closed the connection unexpectedly")


def test_regroup_failing_at_its_last_write_applies_nothing(latin_game, monkeypatch):
    mod, _ = add_moderator(latin_game, "mod")
    rolls = to_regroup(latin_game, mod)
    before, cards = world(latin_game), TroopCard.objects.filter(game=latin_game).count()
    failing_at(monkeypatch, "regroup_applied", lost_connection)
    with pytest.raises(OperationalError):
        console.apply_regroup(latin_game, mod)
    assert world(latin_game) == before
    assert TroopCard.objects.filter(game=latin_game).count() == cards
    assert TurnResolution.objects.get(turn__game=latin_game).applied_at is None
    assert not AuditEntry.objects.filter(game=latin_game, action="regroup_applied").exists()

    monkeypatch.undo()
    turn = turns.current_phase(latin_game).turn
    final = console.apply_regroup(latin_game, mod)  # the moderator presses again: applied once, in full
    case = dict(turn.start_state, orders=[o.payload for o in turn.orders.order_by("implicit", "filed_at", "id")],
                dice=rolls)
    assert final["state"] == run_turn(case)["state"]
    assert world(latin_game) != before
    assert AuditEntry.objects.filter(game=latin_game, action="regroup_applied").count() == 1


def test_confirming_a_battle_failing_at_its_last_write_keeps_no_dice(latin_game, monkeypatch):
    mod, _ = add_moderator(latin_game, "mod")
    play(latin_game, mod)
    failing_at(monkeypatch, "battle_confirmed", lost_connection)
    with pytest.raises(OperationalError):
        console.confirm_battle(latin_game, mod, 1, [6], [1])
    resolution = TurnResolution.objects.get(turn__game=latin_game)
    assert resolution.dice == [] and not DiceRoll.objects.filter(resolution=resolution).exists()
    assert resolution.result["awaiting"]["n"] == 1
    monkeypatch.undo()
    assert console.confirm_battle(latin_game, mod, 1, [6], [1])["already"] is False
    assert len(TurnResolution.objects.get(turn__game=latin_game).dice) == 1


# --- the real thing: PostgreSQL kills the moderator's connection mid-transaction ---------------------


def _kill_my_connection():
    import psycopg

    pid = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


@pytest.mark.postgres("pg_terminate_backend needs PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_regroup_over_http_with_the_connection_killed(monkeypatch):
    game = load_scenario("latin-east-1204", title="killed connection", seed=1204)
    mod, _ = add_moderator(game, "mod")
    to_regroup(game, mod)
    before = world(game)
    browser = Client(raise_request_exception=False)
    browser.force_login(mod)
    url = reverse("battles:regroup_action", args=[game.pk, "apply"])

    failing_at(monkeypatch, "regroup_applied", _kill_my_connection)
    response = browser.post(url)
    assert response.status_code == 500  # the database is gone for this request; nothing else to say
    monkeypatch.undo()
    connection.close()  # what the next request does by itself (conn_health_checks)
    assert world(game) == before
    assert TurnResolution.objects.get(turn__game=game).applied_at is None

    assert browser.post(url).status_code == 302  # pressed again: applied, once
    assert TurnResolution.objects.get(turn__game=game).applied_at is not None
    assert world(game) != before
    assert AuditEntry.objects.filter(game=game, action="regroup_applied").count() == 1
    assert browser.post(url).status_code == 302  # a third press changes nothing
    assert AuditEntry.objects.filter(game=game, action="regroup_applied").count() == 1


@pytest.mark.postgres("pg_terminate_backend needs PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_battle_confirm_over_http_with_the_connection_killed(monkeypatch):
    game = load_scenario("latin-east-1204", title="killed connection 2", seed=1204)
    mod, _ = add_moderator(game, "mod")
    play(game, mod)
    browser = Client(raise_request_exception=False)
    browser.force_login(mod)
    url = reverse("battles:battle_action", args=[game.pk, "confirm"])
    failing_at(monkeypatch, "battle_confirmed", _kill_my_connection)
    assert browser.post(url, {"battle": 1, "attacker": [6], "defender": [1]}).status_code == 500
    monkeypatch.undo()
    connection.close()
    resolution = TurnResolution.objects.get(turn__game=game)
    assert resolution.dice == [] and not DiceRoll.objects.filter(resolution=resolution).exists()
    assert browser.post(url, {"battle": 1, "attacker": [6], "defender": [1]}).status_code == 302
    assert len(TurnResolution.objects.get(turn__game=game).dice) == 1
