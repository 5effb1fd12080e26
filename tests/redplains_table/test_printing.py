"""The printed Red Plains sheets (W42.3): A4 PDFs with their Cyrillic text, and the fingerprint on the protocol."""
from io import BytesIO

from django.urls import reverse
from pypdf import PdfReader

from larp.redplains import services
from larp.redplains import situation as sit

from .conftest import deploy_both, give_turn_one


def pdf_text(client, table, doc):
    r = client.get(reverse("redplains:sheet", args=[table.game_id, table.pk, doc]))
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    reader = PdfReader(BytesIO(r.content))
    width, height = (float(x) for x in reader.pages[0].mediabox[2:])
    assert (round(width), round(height)) == (595, 842)           # A4
    return "\n".join(p.extract_text() for p in reader.pages)


def test_the_protocol_of_a_whole_battle(table, moderator, player, other_player, client_for):
    deploy_both(table, moderator)
    give_turn_one(table, moderator, player, other_player)
    for _ in range(100):
        table.refresh_from_db()
        if sit.preview(table.setup, table.state)["complete"]:
            break
        services.execution_dice(table.pk, moderator)
    services.execute(table.pk, moderator)
    text = pdf_text(client_for(moderator), table, "protocol")
    for words in ("Битва на Красной равнине", table.dice.fingerprint[:20], "Ход 1", "Рукопашный бой",
                  "Клан Журавля", "Конные самураи", "Битва окончена: победа — Клан Журавля", "Потеряно фигурок",
                  "бросок"):
        assert words in text.replace("\n", " "), words
    # after the end, the players may print it too
    assert "Рукопашный бой" in pdf_text(client_for(player), table, "protocol")


def test_reference_unit_cards_and_order_sheets(table, moderator, client_for):
    deploy_both(table, moderator)
    c = client_for(moderator)
    ref = pdf_text(c, table, "reference")
    for words in ("Памятка", "Малая ставка", "Большая ставка", "Натиск", "Стойкость", "Асигару с аркебузами",
                  "P7", "S3", "три хода затишья"):
        assert words.lower() in ref.lower(), words
    cards = pdf_text(c, table, "units")
    assert "Конные самураи 1" in cards and "Асигару с копьями 2" in cards and "Шеренги" in cards
    sheet = pdf_text(c, table, "orders")
    assert "Warlords: Битва на Красной равнине · бланк приказов" in sheet          # the footer names the system
    assert "Ставка (обвести ДО броска)" in sheet and "A11" in sheet and "D36" in sheet
