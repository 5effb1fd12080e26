"""History gives each past turn's case and result as JSON, so anyone can re-check the turn with the engine."""
import json

from django.urls import reverse

from larp.battles import services as console
from larp.engine import run_turn
from tests.battles.test_console_flow import fight_all, played  # noqa: F401


def test_the_downloaded_case_gives_the_stored_result(played, client_for):  # noqa: F811
    game, mod = played
    console.apply_movement(game, mod)
    assert fight_all(game, mod), "the turn fought no battle"
    c = client_for(mod)
    page = c.get(reverse("battles:history_turn", args=[game.pk, 1])).content.decode()
    case_url = reverse("battles:history_turn_case", args=[game.pk, 1, "case"])
    result_url = reverse("battles:history_turn_case", args=[game.pk, 1, "result"])
    assert case_url in page and result_url in page
    case = c.get(case_url)
    assert case.status_code == 200 and "attachment" in case["Content-Disposition"]
    stored = json.loads(c.get(result_url).content)
    assert stored["fought"] and run_turn(json.loads(case.content)) == stored


def test_only_a_played_turns_case_and_result_are_given(played, client_for):  # noqa: F811
    game, mod = played
    c = client_for(mod)
    assert c.get(reverse("battles:history_turn_case", args=[game.pk, 1, "snapshot"])).status_code == 404
    assert c.get(reverse("battles:history_turn_case", args=[game.pk, 9, "case"])).status_code == 404
