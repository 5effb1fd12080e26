"""The read pages the hall watches: movement one move at a time, the battle queue, the history, the projector."""
import re

import pytest
from django.urls import reverse

from larp.battles import selectors
from larp.battles import services as console
from larp.sheets import build
from larp.turns.models import AuditEntry
from larp.turns.selectors import names
from tests.battles.test_console_flow import played  # noqa: F401 - the fixture: orders filed, Movement running


def _flag_place(page: str, unit: str) -> str:
    """The place a unit's flag on the map says it stands at (its tooltip: «faction — army N, place»)."""
    match = re.search(rf'data-unit="{unit}"[^>]*>\s*<title>[^<]*, ([^<,]+)</title>', page)
    assert match, f"no flag for {unit}"
    return match.group(1)


def test_movement_steps_one_move_per_click_and_the_map_follows(played, client_for):  # noqa: F811
    game, mod = played
    c = client_for(mod)
    url = reverse("battles:movement", args=[game.pk])
    _turn, _res, result = console.current_result(game)
    steps = selectors.movement_steps(result, names(game))
    bulgar = next(s for s in steps if s["code"] == "bulgaria-4")

    before = c.get(url, {"step": 0}).content.decode()
    assert f"Перед первым перемещением (всего перемещений: {len(steps)})" in before
    assert _flag_place(before, "bulgaria-4") != "Серре"

    at = c.get(url, {"step": bulgar["n"]}).content.decode()
    assert f"Перемещение {bulgar['n']} из {len(steps)}" in at
    assert "Болгария IV" in at and "Захват" in at and "Серре" in at
    assert _flag_place(at, "bulgaria-4") == "Серре"          # the flag moved with the step
    assert 'class="route-line"' in at or 'class="route-end"' in at  # the move's path is drawn

    back = c.get(url, {"step": bulgar["n"] - 1}).content.decode()
    assert _flag_place(back, "bulgaria-4") != "Серре"        # one step back, the flag is back too
    # The projector shows the step the console shows.
    projector = c.get(reverse("battles:projector", args=[game.pk])).content.decode()
    assert f'data-projector-step="{bulgar["n"] - 1}"' in projector
    # Nothing was written: the armies in the database have not moved (apply stays one service call).
    assert game.armies.get(faction__code="bulgaria", number=4).province.code != "serres"


def test_a_step_that_is_not_a_number_is_a_clear_400(played, client_for):  # noqa: F811
    game, mod = played
    response = client_for(mod).get(reverse("battles:movement", args=[game.pk]), {"step": "abc"})
    assert response.status_code == 400
    far = client_for(mod).get(reverse("battles:movement", args=[game.pk]), {"step": "999"})
    assert far.status_code == 200 and "Перемещение" in far.content.decode()


def test_movement_page_speaks_the_same_words_as_the_printed_turn_results(played, client_for):  # noqa: F811
    game, mod = played
    _turn, _res, result = console.current_result(game)
    page = client_for(mod).get(reverse("battles:movement", args=[game.pk]), {"step": 0}).content.decode()
    printed = build.turn_results({}, result, names(game))
    assert printed["moves"]
    for move in printed["moves"]:
        assert move["result"] in page, move["result"]
        assert move["order"] in page, move["order"]
    assert "прошла" not in page and "скована" not in page and " → " in page


def test_battles_page_queue_odds_dice_and_a_modifier_on_its_own_battle_only(played, client_for):  # noqa: F811
    game, mod = played
    console.apply_movement(game, mod)
    c = client_for(mod)
    url = reverse("battles:battles", args=[game.pk])
    console.add_modifier(game, mod, 1, "defender", 2, "дождь на переправе")
    first = c.get(url).content.decode()
    assert "дождь на переправе" in first and "обороняющийся +2" in first
    assert first.count('class="queue-current"') == 1 and 'class="queue-waiting"' in first
    odds = re.search(r'<p class="odds">(.*?)</p>', first, re.S).group(1)
    assert not re.search(r"\d+/\d+", odds), odds
    assert re.search(r"(\d+ из \d+ \((<1|>99|\d+) %\)|невозможно|наверняка)", odds), odds
    # The dice in Russian on the page (its text, not its attributes: a random CSRF token may hold "6d6").
    assert "1к6" in first and not re.search(r"\d\s*d6\b", re.sub(r'="[^"]*"', '=""', first))

    console.confirm_battle(game, mod, 1, [3], [3])
    second = c.get(url).content.decode()
    assert "дождь на переправе" not in second          # battle 1's modifier is not listed on battle 2
    assert 'class="queue-done"' in second
    assert "<th>разница</th><th>ступень силы</th>" in second


def test_history_shows_orders_in_words_and_players_by_name(played, client_for):  # noqa: F811
    game, mod = played
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(username="p-bulgaria").update(first_name="Иван", last_name="Асень")
    page = client_for(mod).get(reverse("battles:history_turn", args=[game.pk, 1])).content.decode()
    assert "Захват: Серре" in page
    assert "Иван Асень" in page and "p-bulgaria" not in page


def test_a_modifier_is_removed_from_its_battle_before_confirming(played, client_for):  # noqa: F811
    game, mod = played
    console.apply_movement(game, mod)
    c = client_for(mod)
    url = reverse("battles:battles", args=[game.pk])
    console.add_modifier(game, mod, 1, "attacker", 3, "ошибка: не та сторона")
    before = console.current_result(game)[2]["awaiting"]
    page = c.get(url).content.decode()
    index = re.search(r'name="index" value="(\d+)"', page).group(1)

    response = c.post(reverse("battles:battle_action", args=[game.pk, "remove_modifier"]),
                      {"battle": 1, "index": index}, follow=True)
    assert response.status_code == 200
    after_page = response.content.decode()
    assert "ошибка: не та сторона" not in after_page.split("Журнал")[0]
    _turn, resolution, result = console.current_result(game)
    assert resolution.choices.get("modifiers", []) == []
    assert before != result["awaiting"]  # the battle is computed without the modifier again
    entry = AuditEntry.objects.filter(game=game, action="modifier_removed").get()
    assert entry.detail["was"] == "ошибка: не та сторона" and entry.detail["value"] == 3

    again = c.post(reverse("battles:battle_action", args=[game.pk, "remove_modifier"]), {"battle": 1, "index": index})
    assert again.status_code == 409 and "Этой поправки уже нет" in again.content.decode()
    assert c.post(reverse("battles:battle_action", args=[game.pk, "remove_modifier"]),
                  {"battle": 1, "index": "x"}).status_code == 400
