"""Fixtures for the tablet pages: a started game, a south stack with content north must never see (R13)."""
import pytest

from larp.forces.models import Commander, TroopCard, TroopType
from larp.turns import services

# Names that exist only in South's stacks: if they appear on North's pages, the fog of war leaks (R13).
SOUTH_SECRET_COMMANDER = "Борис"
SOUTH_SECRET_TROOP = "Тайная гвардия"


@pytest.fixture
def south_secrets(tiny_game):
    """South's army gets a card type and a second commander that only South has."""
    army = tiny_game.armies.get(faction__code="south", number=1)
    guard = TroopType.objects.create(game=tiny_game, code="secret_guard", name_ru=SOUTH_SECRET_TROOP,
                                     name_en="Secret Guard", domain="land", power=6, men=2000)
    TroopCard.objects.create(game=tiny_game, troop_type=guard, army=army)
    Commander.objects.create(game=tiny_game, faction=army.faction, army=army, name_ru="Всеволод",
                             name_en="Vsevolod", power=1)
    return army


@pytest.fixture
def started(tiny_game, moderator, south_secrets):
    return services.start_game(tiny_game, moderator)


@pytest.fixture
def state_cache(settings):
    """Boards and the map kept per game state, as with Redis on a game night (larp.tablet.rendered)."""
    from django.core.cache import cache

    settings.STATE_CACHE = True
    cache.clear()
