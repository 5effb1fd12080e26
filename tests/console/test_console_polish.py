"""The console pages after a play-through: the real phase line everywhere, the turn in every audit entry,
acts that say what they did, a movement page that knows it was applied."""
import re

import pytest
from django.urls import reverse

from larp.battles import services as battles
from larp.campaign.services.members import add_moderator, create_player
from larp.orders.services import file_order
from larp.turns import services as turns

DRAW = ["athens", "bulgaria", "nicaea", "epirus", "rum", "latin_empire", "thessalonica", "cilicia", "achaea",
        "trebizond", "venice"]


@pytest.fixture
def in_tactics(latin_game):
    mod, _ = add_moderator(latin_game, "polish-mod")
    turns.enter_draw(latin_game, mod, DRAW)
    turns.start_game(latin_game, mod)
    bulgar, _ = create_player(latin_game.factions.get(code="bulgaria"), "p-bulgaria")
    file_order(bulgar, latin_game, "bulgaria-4", {"type": "attack", "path": ["serres"]})
    turns.next_phase(latin_game, mod)  # strategy closed now (a moderator ends it)
    return latin_game, mod


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_audit_page_shows_the_current_phase(in_tactics, client_for):
    game, mod = in_tactics
    page = _text(client_for(mod).get(reverse("turns:audit", args=[game.pk])).content.decode())
    assert "Игра не началась" not in page
    assert "Ход 1 ·" in page


def test_every_act_of_a_turn_names_the_turn_in_the_log(in_tactics, client_for):
    game, mod = in_tactics
    turn_no = turns.current_phase(game).turn.number
    phase = turns.current_phase(game)
    if phase.state == phase.CLOSED:
        turns.next_phase(game, mod)
    battles.apply_movement(game, mod)
    turns.next_phase(game, mod)
    battles.confirm_battle(game, mod, 1, [6], [1])
    battles.undo_last_battle(game, mod, "wrong dice", 1)
    phase = turns.current_phase(game)
    turns.pause(game, mod, "a break", phase_id=phase.pk)
    turns.extend(game, mod, 1, "more time", phase_id=phase.pk)
    page = _text(client_for(mod).get(reverse("turns:audit", args=[game.pk])).content.decode())
    assert f"Ход {turn_no}: сражение 1 (Серре) отменено." in page
    assert f"Ход {turn_no}: фаза «" in page and "поставлена на паузу" in page
    assert "продлена на 1 мин." in page
    assert f"Ход {turn_no}: сражение 1, Серре, подтверждено" in page
