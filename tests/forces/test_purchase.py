"""Buying cards on the economic module (R2) is a service of forces: drawn from the supply, audited, moderators only."""
import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import translation

from larp.campaign.models import AuditEntry
from larp.forces import services
from larp.forces.models import Army, TroopCard, TroopType


def test_a_moderator_buys_cards_from_the_supply_and_it_is_audited(tiny_game, moderator):
    army = Army.objects.get(game=tiny_game, faction__code="east", number=1)
    huge = TroopType.objects.get(game=tiny_game, code="huge")
    services.purchase(tiny_game, moderator, army, huge, 2)
    assert sorted(TroopCard.objects.filter(army=army).values_list("troop_type__code", flat=True)) == [
        "huge", "huge", "small", "small"]
    assert TroopType.objects.get(pk=huge.pk).supply == 0
    entry = AuditEntry.objects.get(game=tiny_game, action="purchase")
    assert entry.user == moderator
    assert entry.detail == {"army": army.code, "troop_type": "huge", "count": 2}


def test_a_purchase_beyond_the_supply_is_refused_and_neither_cards_nor_audit_are_saved(tiny_game, moderator):
    army = Army.objects.get(game=tiny_game, faction__code="east", number=1)
    huge = TroopType.objects.get(game=tiny_game, code="huge")
    TroopType.objects.filter(pk=huge.pk).update(supply=1)
    with translation.override("ru"), pytest.raises(ValidationError) as exc:
        services.purchase(tiny_game, moderator, army, huge, 2)
    assert "запас" in str(exc.value)
    assert TroopCard.objects.filter(army=army, troop_type=huge).count() == 0
    assert TroopType.objects.get(pk=huge.pk).supply == 1
    assert not AuditEntry.objects.filter(game=tiny_game, action="purchase").exists()


def test_an_army_of_another_game_is_refused(tiny_game, latin_game, moderator):
    foreign = Army.objects.filter(game=latin_game).first()
    small = TroopType.objects.get(game=tiny_game, code="small")
    with translation.override("ru"), pytest.raises(ValidationError, match="другой игры"):
        services.purchase(tiny_game, moderator, foreign, small, 1)
    assert not AuditEntry.objects.filter(action="purchase").exists()


def test_a_player_cannot_buy_cards(tiny_game, player):
    army = Army.objects.get(game=tiny_game, faction__code="north", number=1)
    small = TroopType.objects.get(game=tiny_game, code="small")
    with pytest.raises(PermissionDenied):
        services.purchase(tiny_game, player, army, small, 1)
    assert TroopCard.objects.filter(army=army, troop_type=small).count() == 1


def test_the_console_buys_through_the_service_and_a_purchase_beyond_the_supply_is_a_4xx(tiny_game, moderator):
    from django.test import Client
    from django.urls import reverse

    client = Client(raise_request_exception=False)
    client.force_login(moderator)
    army = Army.objects.get(game=tiny_game, faction__code="east", number=1)
    huge = TroopType.objects.get(game=tiny_game, code="huge")
    TroopType.objects.filter(pk=huge.pk).update(supply=1)
    url = reverse("battles:regroup_action", args=[tiny_game.pk, "purchase"])
    response = client.post(url, {"army": army.pk, "troop_type": huge.pk, "count": 2})
    assert response.status_code in (400, 409) and "запас" in response.content.decode()
    assert TroopCard.objects.filter(army=army, troop_type=huge).count() == 0
    response = client.post(url, {"army": army.pk, "troop_type": huge.pk, "count": 1})
    assert response.status_code == 302
    assert TroopCard.objects.filter(army=army, troop_type=huge).count() == 1
    assert AuditEntry.objects.filter(game=tiny_game, action="purchase", user=moderator).count() == 1
