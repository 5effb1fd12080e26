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


@pytest.fixture
def in_movement(in_tactics):
    game, mod = in_tactics
    phase = turns.current_phase(game)
    if phase.state == phase.CLOSED and phase.kind == phase.STRATEGY:
        turns.next_phase(game, mod)
    assert turns.current_phase(game).kind == "movement"
    return game, mod


def test_movement_page_once_applied_shows_final_positions_and_the_next_step(in_movement, client_for):
    game, mod = in_movement
    c = client_for(mod)
    url = reverse("battles:movement", args=[game.pk])
    c.get(url + "?step=1")  # the moderator stepped one move, then applied all
    assert c.post(reverse("battles:movement_apply", args=[game.pk]), {"turn": 1}).status_code == 302
    html = c.get(url).content.decode()
    page = _text(html)
    assert "Передвижение применено" in page and "На карте — итоговые позиции." in page
    assert 'rel="next"' not in html and "Перемещение 1 из" not in page  # no stepping as if not applied
    assert f'action="{reverse("battles:control", args=[game.pk, "next"])}"' in html  # the next step, right here
    assert "Перейти к сражениям" in page
    replay = _text(c.get(url + "?step=0").content.decode())
    assert "Это повтор" in replay and "Перед первым перемещением" in replay and "Закончить повтор" in replay


def test_console_after_the_deadline_has_no_empty_heading_and_no_secrecy_hint(latin_game, client_for):
    game = latin_game
    mod, _ = add_moderator(game, "deadline-mod")
    turns.start_game(game, mod)
    turns.end_now(game, mod, "everyone is ready", phase_id=turns.current_phase(game).pk)
    phase = turns.current_phase(game)
    assert phase.kind == phase.STRATEGY and phase.state == phase.CLOSED and phase.turn.orders_revealed
    page = _text(client_for(mod).get(reverse("battles:console", args=[game.pk])).content.decode())
    assert "Другие действия" not in page
    assert "тайно до конца срока" not in page
    assert "Перейти к передвижению" in page


def _flash(response) -> str:
    return " ".join(str(m) for m in response.wsgi_request._messages)


def test_each_act_says_what_it_did(latin_game, client_for):
    game = latin_game
    mod, _ = add_moderator(game, "says-mod")
    turns.enter_draw(game, mod, DRAW)
    c = client_for(mod)
    control = lambda action, **data: c.post(reverse("battles:control", args=[game.pk, action]), data, follow=True)  # noqa: E731
    said = _text(control("start").content.decode())
    assert "Игра началась: ход 1, фаза «Стратегия», 5 мин." in said and "Готово." not in said
    phase = turns.current_phase(game)
    assert "Фаза продлена на 1 мин." in _text(control("extend", phase=phase.pk, minutes="1").content.decode())
    assert "поставлена на паузу" in _text(control("pause", phase=phase.pk).content.decode())
    bulgar, _ = create_player(game.factions.get(code="bulgaria"), "p-bulgaria-says")
    file_order(bulgar, game, "bulgaria-4", {"type": "attack", "path": ["serres"]})
    turns.next_phase(game, mod)
    battles.apply_movement(game, mod)
    said = _text(control("next", phase=turns.current_phase(game).pk).content.decode())
    assert "Теперь: ход 1, фаза «Тактика»." in said
    said = _text(c.post(reverse("battles:battle_action", args=[game.pk, "confirm"]),
                        {"battle": 1, "attacker": ["6"], "defender": ["1"]}, follow=True).content.decode())
    assert "Сражение 1 (Серре): победа нападающего." in said and "Готово." not in said
