"""Every console page says the turn it is in (issue 34: «Игра не началась.» on /tables/ and /dice/ in turn 3).

The cause was the console's menu reading `phase` from the page's context: a page that did not hand it over
(the tables' list, the dice check) said the game had not started. The frame now looks the phase up itself
(larp/battles/templatetags/console_frame.py); this test renders every page of the frame in turn 3.
"""
import re

import pytest
from django.urls import reverse

from larp.battles.templatetags.console_frame import HALL_PAGES, RECORD_PAGES, TURN_PAGES
from larp.turns import services
from tests.turns.test_controls import do_the_work

PAGES = [name for name, *_ in TURN_PAGES + HALL_PAGES + RECORD_PAGES if name != "battles:projector"]


def _text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.fixture
def in_turn_3(tiny_game, moderator, frozen):
    services.start_game(tiny_game, moderator)
    while services.current_phase(tiny_game).turn.number < 3 or services.current_phase(tiny_game).kind != "movement":
        phase = services.current_phase(tiny_game)
        if phase.kind == "strategy" and phase.state != "closed":
            services.end_now(tiny_game, moderator)
        do_the_work(tiny_game, moderator)
        services.next_phase(tiny_game, moderator)
    return tiny_game


@pytest.mark.parametrize("page", PAGES)
def test_a_console_page_in_turn_3_says_turn_3(page, in_turn_3, moderator, client_for):
    response = client_for(moderator).get(reverse(page, args=[in_turn_3.pk]))
    assert response.status_code == 200
    text = _text(response.content.decode())
    assert "не началась" not in text, text[:600]
    assert "Ход 3" in text
