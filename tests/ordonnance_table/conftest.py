"""«Ордонанс» tables in the tiny game: north against south; east's player is not at the table."""
from pathlib import Path

import pytest

from larp.campaign.services.members import create_player
from larp.ordonnance import services

TEST_DECK = (Path(__file__).parent / "test-deck.yaml").read_text(encoding="utf-8")


@pytest.fixture
def east_player(tiny_game):
    user, _ = create_player(tiny_game.factions.get(code="east"), "east-player", password="east-password-1")
    return user


@pytest.fixture
def sides(tiny_game):
    return [("p1", "Анна", tiny_game.factions.get(code="north")), ("p2", "Борис", tiny_game.factions.get(code="south"))]


@pytest.fixture
def deck(tiny_game, moderator):
    return services.import_yaml(tiny_game, moderator, TEST_DECK)


@pytest.fixture
def physical(tiny_game, moderator, sides):
    return services.create(tiny_game, moderator, title="Спор за Эдессу", sides=sides, mode="physical", deck=None,
                           territory_names=["Иерусалим", "Эдесса", "Антиохия", "Триполи", ""],
                           announce="territories", seed=77)


@pytest.fixture
def virtual(tiny_game, moderator, sides, deck):
    return services.create(tiny_game, moderator, title="Виртуальная партия", sides=sides, mode="virtual", deck=deck,
                           territory_names=None, announce="territories", seed=99)


def play_out(table, user, seat_for, limit=200):
    """Play a virtual game to its end: the player to move lays the first legal card (hand order, lowest territory)."""
    from larp.tables.models import Table

    for _ in range(limit):
        table.refresh_from_db()
        state = table.state
        if state["game_over"]:
            return state
        key = state["to_move"]
        hand = state["hands"][key] + state["draw_pile"][:1]
        counts = {t: sum(1 for p in state["plays"] if p["player"] == key and p["territory"] == t) for t in range(1, 6)}
        territory = min(t for t in range(1, 6) if counts[t] < 4)
        services.lay(table.pk, user, seat_for(table, key), player=key, territory=territory, card=hand[0])
    raise AssertionError("the game did not end")
