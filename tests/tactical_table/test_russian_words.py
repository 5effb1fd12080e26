"""The tactical table's words agree with the numbers and names they stand by (issue 34): the generals' allowance
says «30 фигурок на 22 фигурки», the board flags a destroyed or fleeing unit in its name's gender and number."""
import re

from django.template.loader import render_to_string
from django.utils import translation

from tests.tactical_table.conftest import PHALANX, add_general, add_unit, url


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_generals_allowance_counts_figures_in_russian(table, moderator, client_for):
    mod = client_for(moderator)
    assert add_unit(mod, table, "north", {**PHALANX, "count": "22"}).status_code == 302
    table.refresh_from_db()
    phalanx = table.state["armies"]["north"]["units"][0]["id"]
    assert add_general(mod, table, "north", {"name": "Парменион", "entry": "phalangite", "type": "regular",
                                             "unit": phalanx, "c_in_c": "on", "method": "roll",
                                             "dice": "2 1 6 1"}).status_code == 302
    text = _text(mod.get(url(table, "table")).content.decode())
    assert "на 22 фигурки войска" in text, text
    assert "{" not in text.split("Генералы (T12.1)")[1][:200]  # no mark left unresolved


def test_the_board_flags_agree_with_the_units_names():
    units = [{"name": "Гипасписты", "destroyed": True}, {"name": "Фаланга", "destroyed": True},
             {"name": "Отряд лучников", "destroyed": True}, {"name": "Арбалетчики", "fleeing": True},
             {"name": "Фаланга", "fleeing": True}]
    with translation.override("ru"):
        text = _text(render_to_string("tactical/_board.html", {"board": [{"name": "Север", "units": units}]}))
    for said in ("Гипасписты уничтожены", "Фаланга уничтожена", "Отряд лучников уничтожен", "Арбалетчики бегут",
                 "Фаланга бежит"):
        assert said in text, text
