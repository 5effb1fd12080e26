"""Every document on the default scenario: the PDF's own text says the right names and numbers."""
import json
import re
from pathlib import Path

import pytest
from django.utils import translation

from larp.engine import run_battle
from larp.sheets import build, selectors, services
from larp.sheets.renderers import (
    BattleSheetRenderer,
    OrderFormRenderer,
    ProtocolRenderer,
    TurnResultsRenderer,
)
from larp.turns.selectors import names
from tests.sheets.pdf import pdf_pages, squash

YANINA = Path(__file__).resolve().parents[1] / "engine" / "contract" / "seed-yanina-autobattle.case.json"
# Pages come in the alphabetical order of the factions' names (as every list a person reads), not by id.
FACTIONS_BY_NAME = ["Афины", "Ахея", "Болгария", "Венеция", "Киликия", "Латинская империя", "Никея", "Рум",
                    "Трапезунд", "Фессалоники", "Эпир"]


@pytest.fixture(autouse=True)
def russian():
    with translation.override("ru"):
        yield


# --- battle sheets ---------------------------------------------------------------

def test_battle_sheets_one_faction_per_page(latin_game):
    filename, mimetype, content = BattleSheetRenderer(selectors.battle_sheets(latin_game)).generate()
    assert (filename, mimetype) == ("battle-sheets.pdf", "application/pdf")
    pages = pdf_pages(content)
    assert len(pages) == 11
    for page, faction in zip(pages, FACTIONS_BY_NAME):
        assert "БОЕВОЙ ЛИСТ" in page and faction in page


def test_battle_sheet_lists_stacks_garrisons_commanders_and_specials(latin_game):
    sheets = selectors.battle_sheets(latin_game, latin_game.factions.get(code="latin_empire").pk)
    text = squash(pdf_pages(BattleSheetRenderer(sheets).generate()[2])[0])
    for expected in ["Латинская империя", "Столица: Константинополь", "Армии", "Флоты", "Гарнизоны крепостей",
                     "Константинополь", "Никомедия", "Кизик", "Родосто", "Пропонтида", "Флотилия",
                     "Большое войско, Малое войско", "Балдуин I Фландрский (4)", "Генрих Фландрский (5)",
                     "Рыцарство", "+3 в каждом сухопутном сражении", "действует",
                     "+15 тому, кто обороняет город Константинополь", "Итого 58 42 000"]:
        assert expected in text, expected
    # army I: large + small = 16 + 4 = 20 power, 12 000 + 3 000 men
    assert re.search(r"I Константинополь Большое войско, Малое войско 20 15 000", text)


def test_battle_sheet_shows_the_state_of_stateful_specials(latin_game):
    from larp.campaign.models import SpecialState

    SpecialState.objects.update_or_create(game=latin_game, special="greek_fire_land", defaults={"state": {"charges": 1}})
    SpecialState.objects.update_or_create(game=latin_game, special="victory_march", defaults={"state": {"lost": True}})
    trebizond = squash(pdf_pages(BattleSheetRenderer(
        selectors.battle_sheets(latin_game, latin_game.factions.get(code="trebizond").pk)).generate()[2])[0])
    bulgaria = squash(pdf_pages(BattleSheetRenderer(
        selectors.battle_sheets(latin_game, latin_game.factions.get(code="bulgaria").pk)).generate()[2])[0])
    assert "Греческий огонь" in trebizond and "осталось применений: 1 из 2" in trebizond
    assert "Победный марш" in bulgaria and "утрачен" in bulgaria and "Болгарские полчища" in bulgaria


def test_battle_sheets_fit_a5_one_page_each(latin_game):
    _name, _mime, content = BattleSheetRenderer(selectors.battle_sheets(latin_game), paper="a5").generate()
    assert len(pdf_pages(content)) == 11


def test_battle_sheets_in_english_use_english_names(latin_game):
    with translation.override("en"):
        pages = pdf_pages(BattleSheetRenderer(selectors.battle_sheets(latin_game)).generate()[2])
    text = next(page for page in pages if "Battle sheet · Latin Empire" in page)
    assert "BATTLE SHEET" in text and "Baldwin I of Flanders" in text


# --- the battle protocol: R11's worked example -----------------------------------------

def yanina_protocol(latin_game) -> dict:
    case = json.loads(YANINA.read_text(encoding="utf-8"))
    result = run_battle(case)  # the engine's real result
    return build.protocol(case["battle"], result, case, names(latin_game), number=1,
                          header=selectors.header(latin_game, 1))


def test_protocol_reproduces_the_worked_example_of_r11(latin_game):
    protocol = yanina_protocol(latin_game)
    pages = pdf_pages(ProtocolRenderer([protocol]).generate()[2])
    assert len(pages) == 1
    text = squash(pages[0])
    assert "Янина — штурм" in text
    assert "Фессалоники — нападающий" in text and "Эпир — обороняющийся" in text
    # Thessalonica: two medium (10 + 10 = 20), commanders +3, chivalry +3, die 6 = 32
    # Epirus: small + medium = 14, commanders +5, fortress +5, mountain country +5, die 6 = 35
    assert "Войска Среднее войско ×2 (10 + 10) 20 Среднее войско, Малое войско (10 + 4) 14" in text
    assert "Полководцы Boniface of Montferrat (3) +3 Michael Komnenos Doukas (5) +5" in text  # the case's names
    assert re.search(r"Оборона в крепости — \+5", text)
    assert re.search(r"Рыцарство \+3 —", text) and re.search(r"Горная страна — \+5", text)
    assert re.search(r"Кубик \+6 \+6", text)
    assert re.search(r"Итог 32 35", text)
    assert re.search(r"Разница 3\b", text)
    assert re.search(r"по более слабой стороне, 32\) 31–40 — ступень 4", text)
    assert "Победа: Эпир (обороняющийся)" in text
    # losses: Epirus 6 (-> two small), Thessalonica 8 (-> medium + detachment), falling back
    assert re.search(r"Фессалоники \(нападающий\) 8 армия I: Среднее войско, Отряд отходит на исходную позицию", text)
    assert re.search(r"Эпир \(обороняющийся\) 6 армия III: Малое войско ×2 удерживает позицию", text)


def test_protocol_data_is_the_engines_own_result(latin_game):
    protocol = yanina_protocol(latin_game)
    attacker, defender = protocol["sides"]
    assert (attacker["total"], defender["total"], protocol["difference"], protocol["band"]) == (32, 35, 3, 4)
    assert [i["source"] for i in attacker["items"]] == ["troops", "commanders", "chivalry", "dice"]
    assert [(i["label"], i["value"]) for i in defender["items"]] == [
        ("Войска", 14), ("Полководцы", 5), ("Оборона в крепости", 5), ("Горная страна", 5), ("Кубик", 6)]
    assert (attacker["losses"], defender["losses"], protocol["winner"]) == (8, 6, "defender")


def test_protocols_of_a_turn_one_battle_per_page(latin_game, resolved_turn):
    protocols = selectors.turn_protocols(latin_game, 1)
    pages = [squash(p) for p in pdf_pages(ProtocolRenderer(protocols).generate()[2])]
    assert len(pages) == len(resolved_turn["fought"]) == 4
    assert "Автобой № 1" in pages[0] and "Серре — полевое сражение" in pages[0]
    assert "Победный марш" in pages[0] and "Болгарские полчища" in pages[0]
    assert "армия III отступает: Фессалоники" in pages[0]
    assert "Адрианополь — штурм № 1" in pages[1] and "нейтральный гарнизон — обороняющийся" in pages[1]
    assert "гарнизон: уничтожен" in pages[1]
    assert "Янина — штурм № 1" in pages[2] and "армия II отступает: Фессалия" in pages[2]
    assert "Юг Эгейского моря — морское сражение" in pages[3] and "флот I: уничтожен" in pages[3]
    for page, fought in zip(pages, resolved_turn["fought"]):
        assert f"Итог {fought['attacker']['total']} {fought['defender']['total']}" in page
        assert re.search(rf"Разница {fought['difference']}\b", page)


def test_protocols_for_a_turn_without_results_say_so(latin_game):
    with pytest.raises(services.PrintError, match="ещё нет итогов"):
        services.render_document(latin_game, "protocols", {"turn": 1})


# --- turn results ----------------------------------------------------------------

def test_turn_results_from_a_real_turn(latin_game, resolved_turn):
    data = selectors.turn_results(latin_game, 1)
    text = squash("\n".join(pdf_pages(TurnResultsRenderer(data).generate()[2])))
    assert "ИТОГИ ХОДА" in text and "Ход 1" in text
    # moves: Athens II marched home; Epirus II occupied the empty Бодоница
    assert "Афины армия II Проход: Афины Бодоница → Афины выполнен" in text
    assert "Эпир армия II Захват: Бодоница Акарнания → Бодоница выполнен: провинция занята без боя" in text
    # the refused order, in Russian with the map's names
    assert "Рум армия IV Шаг 1 (Анкара → Никея): провинции не граничат" in text
    # battles with results, retreats, provinces that changed hands, destroyed units and garrisons
    assert "Адрианополь штурм № 1" in text and "победа нападающего" in text
    assert "Фессалоники армия III Серре Фессалоники поражение в полевом сражении" in text
    assert "Фессалоники армия II Янина Фессалия атака отбита" in text
    assert "Бодоница Афины Эпир Эпир, армия II" in text
    assert "Серре Фессалоники Болгария Болгария, армия IV" in text
    assert "Адрианополь нейтральная Латинская империя Латинская империя, армия IV" in text
    assert "Уничтожены Никея, флот I" in text and "Гарнизон уничтожен Адрианополь" in text
    # (the news may run onto the next page: its two sentences are checked one by one)
    assert "Новости Феодор Ласкарис коронован в Никее." in text and "Венецианцы купили Крит у Бонифация." in text


def test_turn_results_list_armies_raised_at_regroup(latin_game, resolved_turn):
    from larp.forces.models import Army
    from larp.turns.services import audit

    army = Army.objects.get(game=latin_game, faction__code="epirus", number=4)
    audit(latin_game, None, "army_raised", {"army": army.code, "province": "arta"})
    text = squash("\n".join(pdf_pages(TurnResultsRenderer(selectors.turn_results(latin_game, 1)).generate()[2])))
    assert "Набрана заново Эпир, армия IV — Арта" in text


# --- blank order forms -------------------------------------------------------------

def test_order_forms_prefilled_per_faction(latin_game):
    pages = [squash(p) for p in pdf_pages(OrderFormRenderer(selectors.order_forms(latin_game)).generate()[2])]
    assert len(pages) == 11
    for page, faction in zip(pages, FACTIONS_BY_NAME):
        assert "БЛАНК ПРИКАЗОВ" in page and faction in page
        assert "Фракция Номер армии Стартовая область Приказ: шаг 1 Шаг 2 Шаг 3" in page
    latin = pages[5]
    for row in ["Латинская империя I Константинополь", "Латинская империя II Никомедия",
                "Латинская империя III Кизик", "Латинская империя IV Родосто",
                "Латинская империя флот I Пропонтида"]:
        assert row in latin, row
    assert "(проход)" in latin and "(захват)" in latin and "(высадка)" in latin
    assert "Ход ____" in latin  # before the game the turn is written by hand


def test_order_forms_fit_a5_landscape(latin_game):
    content = OrderFormRenderer(selectors.order_forms(latin_game), paper="a5").generate()[2]
    assert len(pdf_pages(content)) == 11


def test_order_form_for_one_faction_and_turn(latin_game):
    epirus = latin_game.factions.get(code="epirus")
    filename, _mime, content = services.render_document(latin_game, "order-forms",
                                                        {"faction": "epirus", "turn": 3, "paper": "a4"})
    text = squash(pdf_pages(content)[0])
    assert filename == f"game{latin_game.pk}-order-forms-epirus.pdf" and epirus.pk
    assert "Ход 3" in text and "Эпир III Янина" in text and "Эпир IV Лиссос" in text
