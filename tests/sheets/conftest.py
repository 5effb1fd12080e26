"""A resolved turn of the default scenario: the engine's real run_turn result, stored as the console stores it."""
from __future__ import annotations

import pytest

from larp.battles.models import TurnResolution
from larp.campaign.services.members import add_moderator
from larp.engine import run_turn
from larp.turns.models import Turn
from larp.turns.situation import case_from_game

# Athens first, as in the original's Bodonitsa example; the rest by code.
DRAW = ["athens", "achaea", "bulgaria", "cilicia", "epirus", "latin_empire", "nicaea", "rum", "thessalonica",
        "trebizond", "venice"]
ORDERS = [
    {"unit": "thessalonica-2", "type": "attack", "path": ["yanina"]},           # storm of Янина, repelled
    {"unit": "bulgaria-4", "type": "attack", "path": ["serres"]},               # field battle at Серре
    {"unit": "athens-2", "type": "march", "path": ["athens"]},                  # Бодоница left empty ...
    {"unit": "epirus-2", "type": "attack", "path": ["bodonitsa"]},              # ... and occupied without battle
    {"unit": "latin_empire-4", "type": "attack", "path": ["adrianople"]},       # storm of a neutral garrison
    {"unit": "venice-f1", "type": "fleet_attack", "sea": "south_aegean", "target_faction": "nicaea"},
    {"unit": "rum-4", "type": "attack", "path": ["nicaea"]},                    # refused: not adjacent
]
# One entry per autobattle in the order fought: Серре (Bulgaria wins), Адрианополь (the garrison falls),
# Янина (Thessalonica repelled), Юг Эгейского моря (Nicaea's fleet sunk).
DICE = [{"attacker": [5], "defender": [2]}, {"attacker": [3], "defender": [2]},
        {"attacker": [2], "defender": [2]}, {"attacker": [4], "defender": [4]}]
NEWS = "Феодор Ласкарис коронован в Никее.\n\nВенецианцы купили Крит у Бонифация."


def turn_case(game) -> dict:
    case = case_from_game(game, draw=DRAW)
    return dict(case, orders=ORDERS, dice=DICE, seed=None)


@pytest.fixture
def resolved_turn(latin_game):
    """Turn 1 of the default scenario with its engine result stored (as the console leaves it)."""
    start = case_from_game(latin_game, draw=DRAW)
    result = run_turn(turn_case(latin_game))
    assert "awaiting" not in result and len(result["fought"]) == 4
    turn = Turn.objects.create(game=latin_game, number=1, draw=DRAW, start_state=start)
    TurnResolution.objects.create(turn=turn, dice=DICE, result=result, news=NEWS)
    return result


@pytest.fixture
def latin_moderator(latin_game):
    user, _ = add_moderator(latin_game, "latin-mod", password="latin-mod-password-1")
    return user
