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


def test_a_storm_won_by_the_garrisons_destruction_is_told_as_the_attackers_victory_everywhere(latin_game):
    """Turn 2, Corinth, as the hall saw it: the garrison wins on the totals but its own losses destroy it, so the
    stormer takes the fortress (R7, R10 ruling). The engine names that decision, and paper, the console's and
    History's line and both sides' tablets say it in the same words — never «победа обороняющегося»."""
    from larp.campaign import labels
    from larp.campaign.templatetags.larp_tags import decision
    from larp.sheets.renderers.protocol import ProtocolRenderer
    from larp.sheets.renderers.turn_results import TurnResultsRenderer
    from tests.sheets.pdf import pdf_pages, squash

    case = json.loads((CASES / "r07-storm-won-by-the-garrisons-destruction.case.json").read_text(encoding="utf-8"))
    result = run_turn(case)
    fought = result["fought"][0]
    assert (fought["outcome"], fought["decision"], fought["winner"], fought["loser"]) == (
        "defender_won", "fortress_taken", "attacker", "defender")
    with translation.override("ru"):
        words = "штурм удался: пал последний защитник, крепость взята"
        assert decision(fought) == labels.decision(fought) == words          # console, History, projector
        assert labels.decision_for(fought, "attacker") == "вы победили: штурм удался, крепость взята"
        assert labels.decision_for(fought, "defender") == "вы проиграли: пал последний защитник, крепость взята"
        [protocol] = build.protocols_from_turn(case, result, names(latin_game))
        assert protocol["decision"] == "fortress_taken" and protocol["winner"] == "attacker"
        assert protocol["sides"][0]["fate"] == "побеждает"
        text = squash(" ".join(pdf_pages(ProtocolRenderer([protocol]).generate()[2])))
        assert "Победа: Фессалоники (нападающий). Штурм удался: пал последний защитник, крепость взята" in text
        assert "Победа: нейтральный гарнизон" not in text
        results = build.turn_results(case, result, names(latin_game))
        [battle] = results["battles"]
        assert battle["outcome_text"] == words
        text = squash(" ".join(pdf_pages(TurnResultsRenderer(results).generate()[2])))
        assert words in text and "победа обороняющегося" not in text


def test_a_winner_destroyed_by_its_own_losses_is_named_so(latin_game):
    """R12 ruling of 2026-11-23: the winner still won, nobody takes the province; every reader is told why."""
    from larp.campaign import labels

    case = json.loads((CASES / "r12-winner-destroyed-by-its-own-losses.case.json").read_text(encoding="utf-8"))
    fought = run_turn(case)["fought"][0]
    assert fought["decision"] == "attacker_won_destroyed"
    with translation.override("ru"):
        assert labels.decision(fought) == ("победа нападающего, но его войско погибло от собственных потерь: "
                                           "провинцию никто не занимает")
        assert labels.decision_for(fought, "defender").startswith("вы проиграли и отступаете, но провинцию никто")
        # A result stored before the engine named decisions still reads by its outcome.
        assert labels.decision({"outcome": "defender_won"}) == "победа обороняющегося"
