"""Russian that agrees (issue 34): names declined, words agreeing with plural and feminine names, numerals with
their nouns — in the helper (larp/ru.py) and in every table system's log and protocol sentences."""
import pytest
from django.utils import translation

from larp import ru


@pytest.fixture(autouse=True)
def russian():
    with translation.override("ru"):
        yield


@pytest.mark.parametrize("name, case, expected", [
    ("Латинская империя", "gent", "Латинской империи"),
    ("Нейтральный гарнизон", "gent", "Нейтрального гарнизона"),
    ("Болгария", "gent", "Болгарии"),
    ("«Фаланга»", "datv", "«Фаланге»"),
    ("Северные Врата", "gent", "Северных Врат"),
    ("Клан Журавля", "gent", "Клана Журавля"),
    ("Анна", "gent", "Анны"),
    ("Асигару с аркебузами 2", "gent", "Асигару с аркебузами 2"),
])
def test_names_are_declined(name, case, expected):
    assert ru.decline(name, case) == expected


@pytest.mark.parametrize("word, name, expected", [
    ("уничтожен", "Гипасписты", "уничтожены"), ("уничтожен", "«Фаланга»", "уничтожена"),
    ("уничтожен", "Нейтральный гарнизон", "уничтожен"), ("бежит", "Арбалетчики", "бегут"),
    ("бежит", "Северные Врата", "бегут"), ("стреляет", "«Арбалетчики»", "стреляют"),
    ("бежит", "Асигару с аркебузами 3", "бегут"), ("бежит", "Фаланга", "бежит"),
])
def test_words_agree_with_plural_and_feminine_names(word, name, expected):
    assert ru.agree(word, name) == expected


def test_numerals_and_the_vs_line():
    assert f"{ru.counted(60, 'фигурка')} на {ru.counted(32, 'фигурка')}" == "60 фигурок на 32 фигурки"
    assert ru.counted(21, "фигурка") == "21 фигурка" and ru.counted(11, "фигурка") == "11 фигурок"
    assert ru.versus(["Болгария", "Латинская империя"]) == "Болгария против Латинской империи"
    assert ru.versus(["Нейтральный гарнизон", "Болгария"]) == "Нейтральный гарнизон против Болгарии"
    assert ru.say("«Арбалетчики» {стреляет~«Арбалетчики»} по {«Фаланга»|datv}") == "«Арбалетчики» стреляют по «Фаланге»"


def test_english_is_left_as_it_is():
    with translation.override("en"):
        assert ru.decline("Latin Empire", "gent") == "Latin Empire"
        assert ru.agree("flees", "Crossbowmen") == "flees"
        assert ru.versus(["Bulgaria", "Latin Empire"]) == "Bulgaria against Latin Empire"
        assert ru.say("no marks {here}") == "no marks {here}"


def test_red_plains_log_sentences_agree():
    from larp.redplains import labels
    state = {"units": [{"id": "a1", "type": "cavalry"}, {"id": "b2", "type": "ashigaru_arquebus"}]}
    assert labels.event_text(state, {"type": "flight", "unit": "a1", "path": ["B2"], "losses": 1}).startswith(
        "Конные самураи 1 бегут: B2")
    assert labels.event_text(state, {"type": "dispersed", "unit": "b2"}) == "Асигару с аркебузами 2 рассеяны."
    assert labels.event_text(state, {"type": "hold", "unit": "a1"}) == "Конные самураи 1 держат позицию."
    shot = labels.event_text(state, {"type": "shoot", "at": "a1", "shots": [
        {"shooter": "b2", "figures_shooting": 6, "needs": 4, "values": [5, 2], "losses": 1}], "target": {}})
    assert "Асигару с аркебузами 2 стреляют: 6 куб." in shot
    assert "{" not in shot


def test_tactical_shooting_agrees_with_plural_shooters_and_declines_the_target():
    from larp.tactical.selectors import itemise
    state = {"units": [{"id": "u1", "name": "Арбалетчики"}, {"id": "u2", "name": "Фаланга"},
                       {"id": "u3", "name": "Лучница"}]}
    lines = itemise(state, "shoot", {}, {"volleys": [
        {"shooter": "u1", "target": "u2", "strikers": 10, "hits": 3, "range_cm": 20, "groups": []},
        {"shooter": "u3", "target": "u1", "strikers": 1, "hits": 0, "range_cm": 20, "groups": []}]})
    assert lines[0].startswith("«Арбалетчики» стреляют по «Фаланге»:")
    assert lines[1].startswith("«Лучница» стреляет по «Арбалетчикам»:")


def test_orda_attack_sentence_agrees(monkeypatch):
    from larp.orda import describe
    names = {"u1": "Конные лучники", "u2": "Ведьма"}
    monkeypatch.setattr(describe, "unit_name", lambda case, uid: names.get(uid, ""))
    r = {"attacker": {"die": 5, "total": 8, "items": []}, "defender": {"die": 1, "total": 2, "items": []},
         "attack": {"attacker": "u1", "target": "u2", "counter": "defence"}, "hit": True, "damage": 1,
         "target": {"id": "u2", "killed": True, "hex": [0, 1]}}
    monkeypatch.setattr(describe, "_items", lambda side: str(side["total"]))
    text = describe.attack_sentence({}, r)
    assert text.startswith("Конные лучники атакуют: Ведьма") and "Ведьма погибает" in text and "{" not in text


def test_the_tables_list_vs_line(client_for, tiny_game, moderator):
    from django.urls import reverse

    from larp.tables import services as tables
    tables.create_table(tiny_game, "ordonnance", "Спор", [("p1", "Болгария", None), ("p2", "Латинская империя", None)],
                        moderator, setup={"players": ["p1", "p2"]})
    page = client_for(moderator).get(reverse("tables:list", args=[tiny_game.pk])).content.decode()
    assert "Болгария против Латинской империи" in page


def test_numerals_after_from_and_the_tactical_cards_cost():
    assert ru.say("потеряно 3 из 21 {фигурка#21|gent}") == "потеряно 3 из 21 фигурки"
    assert ru.say("из 32 {фигурка#32|gent}, из 2 {фигурка#2|gent}") == "из 32 фигурок, из 2 фигурок"
    from django.utils.translation import gettext as _
    assert [ru.say(_("%(n)s MP") % {"n": n}) for n in (1, 2, 5)] == [
        "1 очко движения", "2 очка движения", "5 очков движения"]
    allowance = _("%(used)s figures' worth of generals for %(n)s figures of troops "
                  "(a regular general needs 30 figures, an irregular 20).")
    assert "— 60 фигурок на 32 фигурки войска" in ru.say(allowance % {"used": 60, "n": 32})
    assert "— 21 фигурка на 44 фигурки войска" in ru.say(allowance % {"used": 21, "n": 44})


def test_a_lost_order_says_what_was_wrong_and_never_a_bare_against_the_rules():
    """Every reason the Red Plains engine gives for a lost or refused order has words (the players read the log);
    a reason with none yet names its rule (the moderator's log)."""
    import pathlib
    import re

    from larp.redplains import labels
    source = "\n".join(p.read_text() for p in pathlib.Path("larp/redplains/engine").glob("*.py"))
    codes = set(re.findall(r'lose_(?:order|all)\([^)]*?"W[\d.]+",\s*(?:"([a-z_]+)"|[^)]*?"([a-z_]+)"\s+if)', source))
    codes = {c for pair in codes for c in pair if c}
    codes |= set(re.findall(r'_refuse\([^,]+,\s*"W[\d.]+",\s*"([a-z_]+)"', source))
    codes |= set(re.findall(r'\("W[\d.]+",\s*"([a-z_]+)"\)', source))
    codes |= set(re.findall(r'"rule":\s*"W[\d.]+",\s*"reason":\s*"([a-z_]+)"', source))
    assert {"attacked_twice", "lost_meeting", "out_of_zone", "not_an_enemy", "sabotage"} <= codes
    assert sorted(c for c in codes if c not in labels.REASONS and c != "no_reroll_left") == []
    state = {"units": [{"id": "a1", "type": "cavalry"}]}
    said = labels.event_text(state, {"type": "order_lost", "unit": "a1", "slot": 1, "rule": "W21.3",
                                     "reason": "attacked_twice"})
    assert said == "Конные самураи 1: приказ потерян — отряд уже дважды атаковал в этот ход."
    unknown = labels.event_text(state, {"type": "order_lost", "unit": "a1", "rule": "W99.1", "reason": "new_code"})
    assert unknown.endswith("против правила W99.1.")


def test_a_finished_table_speaks_of_a_battle_or_a_contest_not_a_game():
    from django.utils.translation import gettext as _
    assert _("Table «%(title)s» finished. %(summary)s") % {"title": "Т", "summary": ""} == "Стол «Т»: бой окончен. "
    assert _("The battle is over (O22).") == "Бой окончен (O22)."
    assert _("The game is over.") == "Партия окончена."  # Ordonnance: a contest


def test_counted_phrases_of_the_builders_and_the_deck():
    from larp.tactical.labels import unit_t87
    assert unit_t87("a skirmisher unit is one round base of 2-21 figures").endswith("от 2 до 21 фигурки")
    assert unit_t87("a skirmisher unit is one round base of 2-4 figures").endswith("от 2 до 4 фигурок")
    from django.core.exceptions import ValidationError
    from larp.ordonnance import services
    with pytest.raises(ValidationError) as error:
        services._clean_cards([{"symbols": ["swords"], "count": 200}] * 6)
    assert error.value.messages == ["Колода больше чем из 1000 карт не принимается."]
