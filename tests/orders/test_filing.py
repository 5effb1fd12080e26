"""Filing orders (R5): checked by the engine, refused with a reason in the user's language, never lost."""
import pytest
from django.utils import translation

from larp.campaign.models import Relation
from larp.orders.models import Order, OrderEvent
from larp.orders.services import OrderRefused, file_order, visible_orders, withdraw_order
from larp.turns import services


@pytest.fixture
def started(tiny_game, moderator):
    return services.start_game(tiny_game, moderator)


def test_a_legal_march_is_saved_with_who_and_when(tiny_game, player, started):
    order = file_order(player, tiny_game, "north-2", {"type": "march", "path": ["northgate"]})
    assert order.payload == {"unit": "north-2", "type": "march", "path": ["northgate"]}
    assert order.filed_by == player and order.filed_at is not None and not order.implicit
    assert OrderEvent.objects.get(unit="north-2").action == "filed"


def test_replacing_keeps_one_order_and_logs_both(tiny_game, player, started):
    file_order(player, tiny_game, "north-1", {"type": "hold"})
    file_order(player, tiny_game, "north-1", {"type": "attack", "path": ["midtown"]})
    assert Order.objects.filter(turn=started.turn, army__number=1, faction__code="north").count() == 1
    assert list(OrderEvent.objects.filter(unit="north-1").values_list("action", flat=True)) == ["filed", "replaced"]
    assert withdraw_order(player, tiny_game, "north-1") is True
    assert not Order.objects.filter(turn=started.turn, faction__code="north").exists()
    assert OrderEvent.objects.filter(unit="north-1").last().action == "withdrawn"


def test_refusal_names_the_step_in_russian(tiny_game, player, started):
    with translation.override("ru"), pytest.raises(OrderRefused) as exc:
        file_order(player, tiny_game, "north-1", {"type": "march", "path": ["northfield", "southgate"]})
    assert exc.value.message == "Шаг 2 (Северное Поле → Южные Врата): провинции не граничат"
    assert exc.value.refusal["code"] == "not_adjacent" and exc.value.refusal["step"] == 2
    assert not Order.objects.filter(turn=started.turn).exists()


def test_refusal_in_english(tiny_game, player, started):
    with translation.override("en"), pytest.raises(OrderRefused) as exc:
        file_order(player, tiny_game, "north-1", {"type": "attack", "path": ["northfield"]})
    assert exc.value.message == "Step 1 (Northgate → Northfield): the target is friendly: to go there, order a march"


def test_march_through_an_allys_land_is_legal(tiny_game, player, started):
    with pytest.raises(OrderRefused) as exc:
        file_order(player, tiny_game, "north-1", {"type": "march", "path": ["eastgate"]})
    assert exc.value.refusal["code"] == "not_friendly"
    north, east = tiny_game.factions.get(code="north"), tiny_game.factions.get(code="east")
    Relation.objects.create(game=tiny_game, kind="alliance", from_faction=north, to_faction=east)
    # Orders are checked against the map at the START of the turn (R5): the new alliance counts next turn.
    with pytest.raises(OrderRefused):
        file_order(player, tiny_game, "north-1", {"type": "march", "path": ["eastgate"]})


def test_player_cannot_order_another_factions_unit(tiny_game, player, started):
    with pytest.raises(OrderRefused) as exc:
        file_order(player, tiny_game, "south-1", {"type": "hold"})
    assert exc.value.code == "forbidden"
    with pytest.raises(OrderRefused) as exc:
        file_order(player, tiny_game, "north-9", {"type": "hold"})
    assert exc.value.code == "unknown_unit"


def test_fleet_carrying_an_army_takes_no_order_of_its_own(tiny_game, player, started):
    file_order(player, tiny_game, "north-f1", {"type": "fleet_move", "sea": "south_sea"})
    order = file_order(player, tiny_game, "north-2", {"type": "sea_attack", "fleet": "north-f1",
                                                     "sea": ["north_sea"], "target": "isle"})
    # The army's form counts: the fleet's own order is dropped, and said so.
    assert order.dropped_fleet_order == "north-f1"
    assert not Order.objects.filter(turn=started.turn, fleet__isnull=False).exists()
    with pytest.raises(OrderRefused) as exc:
        file_order(player, tiny_game, "north-f1", {"type": "fleet_move", "sea": "south_sea"})
    assert exc.value.refusal["code"] == "fleet_carrying"


def test_bad_input_is_refused_not_crashed(tiny_game, player, started):
    for payload in ({}, {"type": "teleport"}, {"type": "march"}, {"type": "march", "path": "northgate"},
                    {"type": "march", "path": [1, 2]}, {"type": "landing", "fleet": None}):
        with pytest.raises(OrderRefused):
            file_order(player, tiny_game, "north-1", payload)
    assert not Order.objects.exists()


def test_orders_are_secret_until_revealed(tiny_game, moderator, player, other_player, started):
    file_order(player, tiny_game, "north-1", {"type": "hold"})
    file_order(other_player, tiny_game, "south-1", {"type": "hold"})
    assert {o.payload["unit"] for o in visible_orders(player, started.turn)} == {"north-1"}
    assert {o.payload["unit"] for o in visible_orders(moderator, started.turn)} == {"north-1", "south-1"}
    services.end_now(tiny_game, moderator)
    started.turn.refresh_from_db()
    assert len(visible_orders(player, started.turn)) == 5  # revealed in the Movement phase (R3)


def test_moderator_changes_an_order_after_the_deadline(tiny_game, moderator, player, started):
    from larp.battles.services import moderator_set_order
    from larp.turns.models import AuditEntry

    file_order(player, tiny_game, "north-1", {"type": "hold"})
    services.end_now(tiny_game, moderator)
    with pytest.raises(OrderRefused):
        file_order(player, tiny_game, "north-1", {"type": "attack", "path": ["midtown"]})
    with pytest.raises(OrderRefused):
        moderator_set_order(moderator, tiny_game, "north-1", {"type": "attack", "path": ["midtown"]}, "")
    order = moderator_set_order(moderator, tiny_game, "north-1", {"type": "attack", "path": ["midtown"]},
                                "the player's form was misread")
    assert order.type == "attack" and order.filed_by == moderator
    assert AuditEntry.objects.get(game=tiny_game, action="order_changed").reason == "the player's form was misread"
    with pytest.raises(OrderRefused) as exc:
        moderator_set_order(moderator, tiny_game, "north-1", {"type": "march", "path": ["southgate"]}, "typo")
    assert exc.value.refusal["code"] == "not_adjacent"
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        moderator_set_order(player, tiny_game, "north-1", {"type": "hold"}, "me")


# --- a confirmation sent twice (a retry, an answer lost on the way back) is one order ---------------------


def test_the_same_confirmation_sent_again_keeps_its_filing_time_and_history(tiny_game, player, started):
    first = file_order(player, tiny_game, "north-1", {"type": "attack", "path": ["midtown"]}, key="confirm-0001")
    again = file_order(player, tiny_game, "north-1", {"type": "attack", "path": ["midtown"]}, key="confirm-0001")
    assert again.pk == first.pk and again.repeated and not first.repeated
    assert Order.objects.get(pk=first.pk).filed_at == first.filed_at
    assert list(OrderEvent.objects.filter(unit="north-1").values_list("action", "key")) == [("filed", "confirm-0001")]
    # A new confirmation of the same order is a new filing (the player tapped again on purpose).
    file_order(player, tiny_game, "north-1", {"type": "attack", "path": ["midtown"]}, key="confirm-0002")
    assert list(OrderEvent.objects.filter(unit="north-1").values_list("action", flat=True)) == ["filed", "replaced"]


def test_a_late_copy_of_an_older_confirmation_does_not_undo_the_newer_order(tiny_game, player, started):
    file_order(player, tiny_game, "north-1", {"type": "attack", "path": ["midtown"]}, key="confirm-old1")
    newer = file_order(player, tiny_game, "north-1", {"type": "hold"}, key="confirm-new1")
    answer = file_order(player, tiny_game, "north-1", {"type": "attack", "path": ["midtown"]}, key="confirm-old1")
    assert answer.pk == newer.pk and answer.payload == {"unit": "north-1", "type": "hold"}
    assert Order.objects.get(pk=newer.pk).type == "hold"
    assert OrderEvent.objects.filter(unit="north-1").count() == 2


def test_a_saved_confirmation_sent_again_after_the_deadline_is_answered_not_refused(tiny_game, player, started):
    from django.utils import timezone

    from larp.turns.models import Phase

    first = file_order(player, tiny_game, "north-1", {"type": "attack", "path": ["midtown"]}, key="confirm-late")
    Phase.objects.filter(pk=started.pk).update(deadline=timezone.now() - timezone.timedelta(seconds=1))
    again = file_order(player, tiny_game, "north-1", {"type": "attack", "path": ["midtown"]}, key="confirm-late")
    assert again.pk == first.pk and again.filed_at == first.filed_at
    # A confirmation the server never had is too late, as before.
    with pytest.raises(OrderRefused) as exc:
        file_order(player, tiny_game, "north-2", {"type": "hold"}, key="confirm-none")
    assert exc.value.code == "late"


def test_a_malformed_key_matches_nothing(tiny_game, player, started):
    for key in ("", "short", "x" * 65, "bad key with spaces", ["list"]):
        file_order(player, tiny_game, "north-1", {"type": "hold"}, key=key)
    assert OrderEvent.objects.filter(unit="north-1").count() == 5
    assert not OrderEvent.objects.exclude(key="").exists()
