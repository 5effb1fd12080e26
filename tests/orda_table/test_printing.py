"""The «Орда» paper: the protocol (with the dice fingerprint), the state of the board and the faction sheets,
rendered and read back for their Cyrillic text."""
import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.orda_table.test_services import play_to_victory


def text_of(response) -> str:
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    return "\n".join(page.extract_text() for page in reader.pages)


@pytest.fixture
def finished(tiny_game, orda_table, moderator, player, other_player):
    from django.utils import translation
    with translation.override("ru"):
        return play_to_victory(tiny_game, orda_table, moderator, player, other_player)


def test_the_protocol_has_every_roll_the_result_and_the_fingerprint(tiny_game, finished, moderator, client_for):
    text = text_of(client_for(moderator).get(reverse("orda:print", args=[tiny_game.pk, finished.pk, "protocol"])))
    flat = " ".join(text.split())
    assert "Протокол боя" in flat and finished.dice.fingerprint[:16] in flat.replace(" ", "")
    assert "Победа: Русь и Китай" in flat and "столицы Монголии разрушены" in flat
    assert "Атака 2 + кубик 6 = 8" in flat and "с руки" in flat
    assert "выдуманный набор для тестов" in flat
    assert not re.search(r"(?<![0-9a-f])e[0-2][0-9](?![0-9a-f])", flat)   # no event card's id, no deck order


def test_the_state_sheet_and_the_faction_sheets(tiny_game, finished, player, client_for):
    c = client_for(player)
    state = " ".join(text_of(c.get(reverse("orda:print", args=[tiny_game.pk, finished.pk, "state"]))).split())
    assert "Положение на поле" in state and "Иван III" in state
    assert "Столица (Северная Монголия)" in state and "уничтожена" in state
    sheets = " ".join(text_of(c.get(reverse("orda:print", args=[tiny_game.pk, finished.pk, "factions"]))).split())
    assert "ЛИСТ ФРАКЦИИ" in sheets and "Листы фракций" in sheets
    assert "Дружинник с топором ×2" in sheets and "Топор: снижает защиту" in sheets
    assert "Северная Монголия" in sheets and "Хан Батый" in sheets


def test_the_reference_card_and_the_board_for_transcription(tiny_game, orda_data, moderator, player, client_for):
    c = client_for(moderator)
    ref = " ".join(text_of(c.get(reverse("orda:data_print", args=[tiny_game.pk, orda_data.pk, "reference"]))).split())
    assert "Правила вкратце" in ref and "Правило меньшинства" in ref
    for name in ("Змей Горыныч", "Великий дракон", "Зелёный Аврага Могой", "Серый Аврага Могой"):
        assert name in ref
    board = " ".join(text_of(c.get(reverse("orda:data_print", args=[tiny_game.pk, orda_data.pk, "board"]))).split())
    assert "Поле с координатами" in board or "ИГРОВОЕ ПОЛЕ" in board
    assert "0,-2" in board and "-3,3" in board
    assert client_for(player).get(reverse("orda:data_print", args=[tiny_game.pk, orda_data.pk, "board"])).status_code == 403
