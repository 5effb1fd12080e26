"""What the console, History, tablets and printouts say is what happened, in the words a moderator would use."""
import re

import pytest
from django.urls import reverse

from larp.orders.models import Order
from larp.orders.services import file_order
from larp.turns import services as turns
from tests.battles.test_console_flow import played  # noqa: F401 - the fixture: orders filed, Movement running


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def north_carries(tiny_game, moderator, player):
    """North's army 2 lands by sea on fleet 1 and army 1 holds: every North unit that takes an order has one."""
    turns.start_game(tiny_game, moderator)
    file_order(player, tiny_game, "north-1", {"type": "hold"})
    file_order(player, tiny_game, "north-2", {"type": "sea_attack", "fleet": "north-f1", "sea": ["north_sea"],
                                              "target": "isle"})
    return tiny_game


def test_a_carrying_fleet_is_not_counted_as_missing_an_order_on_the_console(north_carries, moderator, client_for):
    page = _text(client_for(moderator).get(reverse("battles:console", args=[north_carries.pk])).content.decode())
    north = north_carries.factions.get(code="north").name
    row = re.search(re.escape(north) + r" (приказы: \d+ из \d+)", page)
    assert row and row.group(1) == "приказы: 2 из 2"


def test_a_carrying_fleet_is_not_counted_as_missing_an_order_on_the_tablet(north_carries, player, client_for):
    page = _text(client_for(player).get(reverse("tablet:faction", args=[north_carries.pk, "north"])).content.decode())
    assert "Отдано приказов: 2 из 2." in page


def test_a_carrying_fleet_gets_no_implicit_hold_at_the_deadline(north_carries, moderator):
    turns.end_now(north_carries, moderator)
    assert not Order.objects.filter(faction__code="north", implicit=True).exists()


def test_the_battles_queue_numbers_battles_as_their_cards_do(played, client_for):  # noqa: F811
    from larp.battles import services as console

    game, mod = played
    console.apply_movement(game, mod)
    console.confirm_battle(game, mod, 1, [3], [3])
    _turn, _res, result = console.current_result(game)
    awaiting = result["awaiting"]
    html = client_for(mod).get(reverse("battles:battles", args=[game.pk])).content.decode()
    queue = _text(re.search(r'<ol class="battle-queue".*?</ol>', html, re.S).group(0))
    card = _text(re.search(r'<section class="awaiting".*?</h2>', html, re.S).group(0))
    assert f"Сражение {awaiting['n']}:" in card
    current = _text(re.search(r'<li class="queue-current">.*?</li>', html, re.S).group(0))
    assert re.search(rf"Сражени[ея] [\d, ]*\b{awaiting['n']}:", current), current
    for f in result["fought"]:
        assert re.search(rf"Сражени[ея] [\d, ]*\b{f['n']}\b[\d, ]*:", queue), queue
    for waiting in re.findall(r'<li class="queue-waiting">.*?</li>', html, re.S):
        assert not re.search(r"\d", _text(waiting))  # no number of its own before it is fought


def test_fighting_a_battle_puts_the_turn_in_tactics_and_the_header_says_so(played, client_for):  # noqa: F811
    from larp.battles import services as console

    game, mod = played
    assert turns.current_phase(game).kind == "movement"
    console.apply_movement(game, mod)
    c = client_for(mod)
    response = c.post(reverse("battles:battle_action", args=[game.pk, "confirm"]),
                      {"battle": 1, "attacker": "3", "defender": "3"})
    assert response.status_code == 302
    assert turns.current_phase(game).kind == "tactics"
    line = _text(re.search(r'<div class="clock-phase" data-clock-phase>.*?</div>',
                           c.get(reverse("battles:battles", args=[game.pk])).content.decode(), re.S).group(0))
    assert "Ход 1 · Тактика" in line and "Передвижение" not in line  # the frame's bar


def test_history_shows_each_battles_modifiers_and_the_reasons_of_undos(played, client_for):  # noqa: F811
    from larp.battles import services as console

    game, mod = played
    console.apply_movement(game, mod)
    console.add_modifier(game, mod, 1, "defender", 2, "дождь на переправе")
    console.confirm_battle(game, mod, 1, [3], [3])
    console.undo_last_battle(game, mod, "перепутали кубики", 1)
    console.confirm_battle(game, mod, 1, [4], [2])
    page = _text(client_for(mod).get(reverse("battles:history_turn", args=[game.pk, 1])).content.decode())
    assert "Поправки этого сражения: обороняющийся +2 «дождь на переправе»" in page
    assert "Решения модераторов" in page
    assert "отменено. Причина: «перепутали кубики»." in page


def test_a_tablet_card_says_the_order_was_filed_and_an_implicit_hold_once(tiny_game, moderator, player, client_for):
    turns.start_game(tiny_game, moderator)
    file_order(player, tiny_game, "north-1", {"type": "hold"})
    url = reverse("tablet:faction", args=[tiny_game.pk, "north"])
    before = _text(client_for(player).get(url).content.decode())
    assert re.search(r"Стоять Приказ отдан в \d\d:\d\d:\d\d", before), before
    assert "Стоять отдан" not in before
    turns.end_now(tiny_game, moderator)
    after = client_for(player).get(url).content.decode()
    card = _text(re.search(r'data-unit="north-2".*?<div class="current-order"[^>]*>(.*?)</div>', after, re.S).group(1))
    assert "Приказа не было: стоит на месте" in card and "Стоять" not in card
    console = _text(client_for(moderator).get(reverse("battles:console", args=[tiny_game.pk])).content.decode())
    assert "Приказа нет: стоит на месте" in console and "Стоять — приказа нет" not in console


def test_a_garrison_beside_its_faction_has_no_space_before_the_comma(played, client_for):  # noqa: F811
    from larp.battles import services as console

    game, mod = played
    _turn, resolution, result = console.current_result(game)
    holder = next(s for s in result["battles"][0]["stack"] if s.get("faction") and s.get("units"))
    holder.update(units=[], garrison=True)  # a faction's garrison holding the place with no army of its own
    resolution.result = result
    resolution.save(update_fields=["result"])
    html = client_for(mod).get(reverse("battles:movement", args=[game.pk])).content.decode()
    stacks = _text(" ".join(re.findall(r'<section class="battle-stack">.*?</section>', html, re.S)))
    assert re.search(r"\w, гарнизон", stacks), stacks
    assert " ," not in stacks


@pytest.mark.parametrize("page", ["battles:console", "battles:movement", "battles:battles", "battles:regroup",
                                  "battles:history", "turns:audit", "tablet:faction", "tablet:map"])
def test_before_the_game_a_page_says_it_has_not_started_once(page, tiny_game, moderator, player, client_for):
    args = [tiny_game.pk, "north"] if page == "tablet:faction" else [tiny_game.pk]
    user = player if page.startswith("tablet:") else moderator
    text = _text(client_for(user).get(reverse(page, args=args)).content.decode())
    assert text.count("не началась") == 1, text
    assert "Игра ещё не началась." in text
