"""sheets/build.py translates the engine's named values (cards before, loser, fates); it derives no rule."""
import json
import pathlib

from django.utils import translation

from larp.engine import run_battle, run_turn
from larp.sheets import build
from larp.turns.selectors import names

CONTRACT = pathlib.Path(__file__).resolve().parents[1] / "engine" / "contract"
YANINA = CONTRACT / "seed-yanina-autobattle.case.json"
CASES = pathlib.Path(__file__).resolve().parents[1] / "engine" / "cases"


def test_cards_going_in_come_from_the_result_not_the_case(latin_game):
    case = json.loads(YANINA.read_text(encoding="utf-8"))
    result = run_battle(case)
    for army in case["armies"]:
        army["troops"] = ["detachment"]  # the case no longer says what went in: the result does
    with translation.override("ru"):
        protocol = build.protocol(case["battle"], result, case, names(latin_game))
    attacker, defender = protocol["sides"]
    assert attacker["stacks"][0]["before_text"] == "Среднее войско ×2"
    assert defender["stacks"][0]["before_text"] == "Среднее войско, Малое войско"


def test_the_fate_on_paper_is_the_engines_fate(latin_game):
    case = json.loads(YANINA.read_text(encoding="utf-8"))
    result = run_battle(case)
    result["defender"]["fates"] = {"epirus-3": "besieged"}  # what the engine says is what paper says
    with translation.override("ru"):
        protocol = build.protocol(case["battle"], result, case, names(latin_game))
        assert protocol["sides"][0]["fate"] == "отходит на исходную позицию"
        assert protocol["sides"][1]["fate"] == "остаётся за стенами, осада продолжается"


def test_a_storm_that_kills_the_last_defender_on_a_tie_is_the_defenders_loss(latin_game):
    case = json.loads((CASES / "r07-tie-destroys-last-defender.case.json").read_text(encoding="utf-8"))
    result = run_turn(case)
    assert result["fought"][0]["outcome"] == "tie" and result["fought"][0]["loser"] == "defender"
    with translation.override("ru"):
        [protocol] = build.protocols_from_turn(case, result, names(latin_game))
    attacker, defender = protocol["sides"]
    assert attacker["fate"] == "побеждает"   # a tie, yet the fortress falls (R7): not «отходит»
    assert defender["stacks"][0]["destroyed"] and "уничтожен" in defender["fate"]
