"""The printed documents: roster, unit cards, battle record — rendered, with their Cyrillic text."""
import io

from pypdf import PdfReader

from .conftest import url


def text(response) -> str:
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)


def test_roster_and_cards(battle, player, client_for):
    c = client_for(player)
    roster = text(c.get(url(battle, "print_army", "north", "roster")))
    assert "Фаланга" in roster and "Парменион" in roster and "Список армии" in roster
    assert "утверждена мастером" in roster
    cards = text(c.get(url(battle, "print_army", "north", "cards")))
    assert "Карточки отрядов" in cards and "Фаланга" in cards and "Построение" in cards


def test_battle_record_has_fingerprint_dice_and_result(battle, moderator, client_for):
    mod = client_for(moderator)
    ids = {u["name"]: u["id"] for u in battle.state["units"]}
    mod.post(url(battle, "act"), {"kind": "clash", "attacker": ids["Рыцари"], "defender": ids["Фаланга"],
                                  "attacked_from": "front", "server_rest": "on"})
    mod.post(url(battle, "end"), {"winner": "south", "ended_by": "concession"})
    record = text(mod.get(url(battle, "print_record")))
    assert "Протокол сражения" in record and battle.dice.fingerprint[:20] in record.replace("\n", "")
    assert "Столкновение" in record and "сервер" in record and "Итог" in record


def test_quick_reference_and_blank_form(table, other_player, stranger, client_for):
    c = client_for(other_player)
    ref = text(c.get(url(table, "print_sheet", "reference")))
    assert "Памятка" in ref and "Порядок хода" in ref and "Очень плотное".lower() in ref.lower()
    assert "Пехотная пика" in ref and "каждый 2-й убитый выживает" in ref
    blank = text(c.get(url(table, "print_sheet", "army-list")))
    assert "Бланк списка армии" in blank and "Предел очков: 600" in blank
    assert c.get(url(table, "print_sheet", "nothing")).status_code == 404
    assert client_for(stranger).get(url(table, "print_sheet", "reference")).status_code == 403
    assert c.get(url(table, "print_army", "south", "nothing")).status_code == 404


def test_pages_in_english(battle, moderator, client_for):
    c = client_for(moderator)
    c.cookies.load({"django_language": "en"})
    page = c.get(url(battle, "table"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Action" in page and "Exchange of fire" in page and "Phalanx" not in page


def test_operational_cards_and_battlefield_sheet(table, moderator, player, client_for):
    mod = client_for(moderator)
    deck = text(client_for(player).get(url(table, "print_sheet", "cards")))
    assert "Лес" in deck and "Скрытный марш" in deck and "Непроходимы без Тропы" in deck
    assert client_for(player).get(url(table, "print_sheet", "battlefield")).status_code == 403
    go = lambda op, data: mod.post(url(table, "manoeuvre_act", op), data)  # noqa: E731
    go("cell", {"cell": "A3", "card": "stream"})
    go("corps", {"name": "Парменион", "side": "north", "cell": "A3"})
    go("corps", {"name": "Бодуэн", "side": "south", "cell": "B3"})
    go("offer", {"side": "north"})
    assert go("field", {"index": "0"}).status_code == 302
    sheet = text(mod.get(url(table, "print_sheet", "battlefield")))
    assert "Поле сражения" in sheet and "Ручей" in sheet and "ручей: 4 секции" in sheet


def test_roster_headers_do_not_break_mid_word():
    """Each header of the roster's tables fits its longest word in its column (Russian, the widest language)."""
    from django.utils import translation
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from larp.sheets.renderers.tactical_sheets import RosterRenderer, whole_words
    with translation.override("ru"):
        r = RosterRenderer({})
        st = r.styles["head"]
        for heads, cols in (([translation.gettext(x) for x in ("Unit", "Type", "Stats", "Weapon and protection",
                                                               "Formation", "Figures", "Points")],
                             RosterRenderer.UNIT_COLUMNS),
                            ([translation.gettext(x) for x in ("General", "Leads", "Talents", "Initiative")],
                             RosterRenderer.GENERAL_COLUMNS)):
            widths = whole_words(r, heads, cols)
            assert abs(sum(widths) - r.frame_width) < 1
            for h, w in zip(heads, widths):
                longest = max(stringWidth(x, st.fontName, st.fontSize) for x in h.split())
                assert longest + 2 * 2.2 * r.scale <= w, (h, longest, w)
