"""One vocabulary: every named value of the engine has the game's word, in Russian and in English."""
import re

import pytest
from django.utils import translation

from larp.campaign import labels
from larp.engine.model import Fate, MoveResult, OrderType, Outcome, RefusalCode, RetreatReason, Role, StackSide

PLACEHOLDER = re.compile(r"%\([a-z_]+\)s")
LATIN = re.compile(r"[A-Za-z]")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


@pytest.mark.parametrize("enum", [OrderType, MoveResult, Outcome, RetreatReason, Role, StackSide, RefusalCode, Fate])
def test_every_key_of_every_engine_enum_has_a_word_in_both_languages(enum):
    table = labels.TABLES[enum]
    assert set(table) == set(enum), f"{enum.__name__}: missing {set(enum) - set(table)}"
    for member in enum:
        with translation.override("ru"):
            ru = PLACEHOLDER.sub("", str(table[member]))
        with translation.override("en"):
            en = PLACEHOLDER.sub("", str(table[member]))
        assert ru.strip() and CYRILLIC.search(ru) and not LATIN.search(ru), (member, ru)
        assert en.strip() and not CYRILLIC.search(en) and "_" not in en, (member, en)  # never a raw id


def test_the_vocabulary_for_templates_is_the_same_words_as_paper():
    with translation.override("ru"):
        words = labels.vocabulary()
        for member in MoveResult:
            assert words["results"][member.value] == labels.move_result(member.value)
        for member in Outcome:
            assert words["outcomes"][member.value] == labels.outcome(member.value)
        assert labels.move_result("pinned") == "отменён: противник напал раньше"
        assert labels.outcome("attacker_won") == "победа нападающего"
        for source, word in words["sources"].items():
            assert CYRILLIC.search(word) and not LATIN.search(word), (source, word)


NAMES = {"provinces": {"serres": "Серре", "adrianople": "Адрианополь", "south_aegean": "Южное Эгейское море",
                       "ephesus": "Эфес", "pisidia": "Писидия"},
         "factions": {"venice": "Венеция"}, "units": {"nicaea-2": "Никея II"},
         "numerals": {"nicaea-2": "II", "nicaea-f1": "I"}}


def test_orders_and_moves_read_as_people_write_them():
    with translation.override("ru"):
        assert labels.order_text({"type": "attack", "path": ["serres"]}, NAMES) == "Захват: Серре"
        assert labels.order_text({"type": "march", "path": ["serres", "adrianople"]}, NAMES) == \
            "Проход: Серре → Адрианополь"
        assert labels.order_text({"type": "landing", "fleet": "nicaea-f1", "sea": ["south_aegean"],
                                  "target": "ephesus"}, NAMES) == "Высадка: Южное Эгейское море → Эфес, флот I"
        assert labels.order_text({"type": "fleet_attack", "sea": "south_aegean", "target_faction": "venice"},
                                 NAMES) == "Атака флота: Южное Эгейское море, цель: Венеция"
        assert labels.move_order_text({"order": "carry", "army": "nicaea-2"}, NAMES) == "перевозит армию II"
        # A unit that did not move is not «Писидия → Писидия».
        assert labels.route_text({"from": "pisidia", "to": "pisidia", "path": []}, NAMES) == "Писидия"
        assert labels.dice_count(1) == "1к6"
        assert labels.arrived_from("Меандр") == "из: Меандр"


def test_odds_read_as_a_chance_not_a_fraction():
    with translation.override("ru"):
        assert labels.odds_text({"fraction": "1/12", "value": 0.083}) == "1 из 12 (8 %)"
        assert labels.odds_text({"fraction": "0/1", "value": 0}) == "невозможно (0 %)"
        assert labels.odds_text({"fraction": "1/1", "value": 1}) == "наверняка (100 %)"
        assert labels.odds_text({"fraction": "1/1296", "value": 0.0008}) == "1 из 1296 (<1 %)"
    with translation.override("en"):
        assert labels.odds_text({"fraction": "7/36"}) == "7 in 36 (19 %)"


def test_move_results_all_agree_with_the_masculine_order():
    """One result column speaks of the order («приказ»): no feminine «заняла», no «на месте» among participles."""
    with translation.override("ru"):
        words = {member: labels.move_result(member.value) for member in MoveResult}
    assert words == {
        MoveResult.MOVED: "выполнен",
        MoveResult.OCCUPIED: "выполнен: провинция занята без боя",
        MoveResult.BATTLE: "привёл к сражению",
        MoveResult.PINNED: "отменён: противник напал раньше",
        MoveResult.FAILED: "не выполнен",
        MoveResult.HELD: "без движения",
    }
