"""«Ордонанс» printing: the contest protocol and the blank score sheet, rendered and read back (Cyrillic)."""
import io

from django.urls import reverse
from pypdf import PdfReader

from larp.ordonnance import services
from larp.tables.access import Seat


def text_of(response) -> str:
    assert response["Content-Type"] == "application/pdf"
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)


def test_the_protocol_of_a_finished_physical_game(client_for, physical, moderator):
    services.lot(physical.pk, moderator, first_player="p1")
    seat = Seat(physical, True, None)
    for t, who in [(t, who) for t in range(1, 6) for _ in range(4) for who in ("p1", "p2")]:
        physical.refresh_from_db()
        if physical.status == "finished":
            break
        services.lay(physical.pk, moderator, seat, player=who, territory=t,
                     symbols=["helmet", "flag"] if who == "p1" else ["spear"])
    address = reverse("ordonnance:protocol", args=[physical.game_id, physical.pk])
    text = text_of(client_for(moderator).get(address)).replace("\n", " ")
    for expected in ("Протокол партии", "Спор за Эдессу", "Анна", "Борис", "Первый игрок: Анна",
                     "Иерусалим", "маркер победы", "Победитель по территориям: Анна", "Победитель по очкам",
                     "2 полка (шлемы и флаги)", physical.dice.fingerprint[:16]):
        assert expected in text, expected
    services.undo(physical.pk, moderator, reason="лишняя карта")
    text = text_of(client_for(moderator).get(address)).replace("\n", " ")
    assert "отменён: лишняя карта" in text and "Партия ещё не окончена." in text


def test_the_blank_score_sheet(client_for, physical, moderator):
    r = client_for(moderator).get(reverse("ordonnance:score_sheet", args=[physical.game_id, physical.pk]))
    text = text_of(r)
    for expected in ("Лист подсчёта", "Анна", "Борис", "Маркер победы", "Копье · Лук · Мечи · Шлем · Флаг",
                     "Территория 5"):
        assert expected in text.replace("\n", " "), expected


def test_the_rules_card(client_for, tiny_game, moderator, player):
    address = reverse("ordonnance:rules_card", args=[tiny_game.pk])
    text = text_of(client_for(moderator).get(address)).replace("\n", " ")
    for expected in ("Памятка", "Копье < Лук < Мечи < Шлем < Флаг", "два полка старше одного",
                     "полк флагов старше полка луков", "Досрочный контроль", "3, 2 и 1 очко"):
        assert expected in text, expected
    assert client_for(player).get(address).status_code == 403
