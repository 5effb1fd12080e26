"""Stack edits through services (R1, R2): limits refused with a clear message, nothing saved."""
import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import translation

from larp.campaign.models import Adjacency, Province
from larp.forces import services
from larp.forces.models import Army, Fleet, TroopCard, TroopType


def types(game):
    return {t.code: t for t in TroopType.objects.filter(game=game)}


def cards(stack):
    field = "army" if isinstance(stack, Army) else "fleet" if isinstance(stack, Fleet) else "garrison"
    return sorted(TroopCard.objects.filter(**{field: stack}).values_list("troop_type__code", flat=True))


def test_army_over_60000_men_is_refused_and_nothing_saved(tiny_game):
    t = types(tiny_game)
    army = Army.objects.get(faction__game=tiny_game, faction__code="south", number=1)
    before = cards(army)
    supply_before = TroopType.objects.get(pk=t["huge"].pk).supply
    with translation.override("en"), pytest.raises(ValidationError) as exc:
        # 2 medium (14 000) + 2 huge (40 000) + 3 medium (21 000) = 75 000
        services.set_stack(army, [t["medium"]] * 5 + [t["huge"]] * 2)
    assert "75 000 men" in str(exc.value) and "60 000" in str(exc.value)
    assert cards(army) == before
    assert TroopType.objects.get(pk=t["huge"].pk).supply == supply_before


def test_message_is_russian_by_default(tiny_game):
    t = types(tiny_game)
    army = Army.objects.get(faction__game=tiny_game, faction__code="south", number=1)
    with translation.override("ru"), pytest.raises(ValidationError) as exc:
        services.add_cards(army, t["squadron"])
    assert "морск" in str(exc.value)


def test_naval_card_in_army_and_land_card_in_fleet_are_refused(tiny_game):
    t = types(tiny_game)
    army = Army.objects.get(faction__game=tiny_game, faction__code="north", number=1)
    fleet = Fleet.objects.get(faction__game=tiny_game, faction__code="north", number=1)
    with translation.override("en"):
        with pytest.raises(ValidationError, match="naval card"):
            services.add_cards(army, t["squadron"])
        with pytest.raises(ValidationError, match="land card"):
            services.add_cards(fleet, t["small"])
    assert cards(army) == ["medium", "small"]
    assert cards(fleet) == ["squadron"]


def test_supply_is_drawn_and_never_exceeded(tiny_game):
    t = types(tiny_game)
    army = Army.objects.get(faction__game=tiny_game, faction__code="east", number=1)
    garrison = Province.objects.get(game=tiny_game, code="midtown")  # no men limit on a garrison
    with translation.override("en"), pytest.raises(ValidationError, match="Only 2 card"):
        services.add_cards(garrison, t["huge"], 3)
    assert cards(garrison) == ["small"]
    services.add_cards(army, t["huge"], 2)
    assert cards(army) == ["huge", "huge", "small", "small"]
    assert TroopType.objects.get(pk=t["huge"].pk).supply == 0
    other = Army.objects.get(faction__game=tiny_game, faction__code="north", number=2)
    with pytest.raises(ValidationError):
        services.add_cards(other, t["huge"])
    # Losses never return to the supply (R2).
    services.remove_cards(army, t["huge"], 1)
    assert TroopType.objects.get(pk=t["huge"].pk).supply == 0


def test_garrison_only_in_a_fortress(tiny_game):
    t = types(tiny_game)
    field = Province.objects.get(game=tiny_game, code="northfield")
    with pytest.raises(ValidationError):
        services.add_cards(field, t["small"])
    assert cards(field) == []
    fortress = Province.objects.get(game=tiny_game, code="northgate")
    services.add_cards(fortress, t["detachment"])
    assert cards(fortress) == ["detachment", "small"]


def test_remove_more_than_present_is_refused(tiny_game):
    t = types(tiny_game)
    army = Army.objects.get(faction__game=tiny_game, faction__code="east", number=1)
    with pytest.raises(ValidationError):
        services.remove_cards(army, t["medium"])
    assert cards(army) == ["small", "small"]


def test_database_refuses_a_card_in_two_stacks(tiny_game):
    t = types(tiny_game)
    army = Army.objects.filter(game=tiny_game).first()
    fleet = Fleet.objects.filter(game=tiny_game).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        TroopCard.objects.create(game=tiny_game, troop_type=t["small"], army=army, fleet=fleet)


def test_database_refuses_self_adjacency_and_owned_sea(tiny_game):
    p = Province.objects.get(game=tiny_game, code="midtown")
    with pytest.raises(IntegrityError), transaction.atomic():
        Adjacency.objects.create(game=tiny_game, a=p, b=p)
    sea = Province.objects.get(game=tiny_game, code="north_sea")
    sea.owner = tiny_game.factions.get(code="north")
    with pytest.raises(IntegrityError), transaction.atomic():
        sea.save()
