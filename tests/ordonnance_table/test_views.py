"""«Ордонанс» pages and acts: the role matrix for every URL, hostile input, the fog of hands and pile."""
import re

import pytest
from django.urls import reverse

from larp.ordonnance import services
from larp.ordonnance.models import DeckList
from larp.tables import services as tables
from larp.tables.models import Step, Table

ROLES = ["moderator", "player", "other_player", "east_player", "stranger", None]



def has(page: str, card: str) -> bool:
    """A card id on the page as a word (c012 can also turn up inside the page's random CSRF token)."""
    return re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", page) is not None

def user_of(request, who):
    return request.getfixturevalue(who) if who else None


def url(name, table, *extra):
    return reverse(f"ordonnance:{name}", args=[table.game_id, table.pk, *extra])


# -- GET pages -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("who, status", [("moderator", 200), ("player", 200), ("other_player", 200),
                                         ("east_player", 403), ("stranger", 403), (None, 302)])
def test_the_table_page_by_role(request, client_for, virtual, who, status):
    r = client_for(user_of(request, who)).get(url("table", virtual))
    assert r.status_code == status
    if status == 200:
        assert "Виртуальная партия" in r.content.decode()


@pytest.mark.parametrize("name", ["projector", "protocol", "score_sheet"])
@pytest.mark.parametrize("who, status", [("moderator", 200), ("player", 403), ("other_player", 403),
                                         ("east_player", 403), ("stranger", 403), (None, 302)])
def test_moderator_only_pages_by_role(request, client_for, physical, name, who, status):
    r = client_for(user_of(request, who)).get(url(name, physical))
    assert r.status_code == status


@pytest.mark.parametrize("name", ["new", "decks"])
@pytest.mark.parametrize("who, status", [("moderator", 200), ("player", 403), ("other_player", 403),
                                         ("east_player", 403), ("stranger", 403), (None, 302)])
def test_game_pages_by_role(request, client_for, tiny_game, name, who, status):
    r = client_for(user_of(request, who)).get(reverse(f"ordonnance:{name}", args=[tiny_game.pk]))
    assert r.status_code == status


@pytest.mark.parametrize("name", ["deck", "deck_export"])
@pytest.mark.parametrize("who, status", [("moderator", 200), ("player", 403), ("east_player", 403),
                                         ("stranger", 403), (None, 302)])
def test_deck_pages_by_role(request, client_for, deck, name, who, status):
    r = client_for(user_of(request, who)).get(reverse(f"ordonnance:{name}", args=[deck.game_id, deck.pk]))
    assert r.status_code == status
    if name == "deck_export" and status == 200:
        assert "made_for_tests: true" in r.content.decode()


def test_a_table_of_another_system_or_game_is_not_found(client_for, moderator, tiny_game):
    other = tables.create_table(tiny_game, "orda", "Орда", [("a", "А", None), ("b", "Б", None)], moderator)
    assert client_for(moderator).get(reverse("ordonnance:table", args=[tiny_game.pk, other.pk])).status_code == 404
    assert client_for(moderator).get(reverse("ordonnance:table", args=[tiny_game.pk + 9, other.pk])).status_code == 404


# -- POST acts ------------------------------------------------------------------------------------------
ACTS = {"lot": {"first_player": ""}, "undo": {"reason": "ошибка"}, "override_turn": {"to_move": "p1", "reason": "так"},
        "override_end": {"reason": "тупик"}}


@pytest.mark.parametrize("name", sorted(ACTS))
@pytest.mark.parametrize("who", ["player", "other_player", "east_player", "stranger", None])
def test_moderator_acts_are_refused_to_everyone_else(request, client_for, physical, name, who):
    r = client_for(user_of(request, who)).post(url(name, physical), ACTS[name])
    assert r.status_code in (302, 403) and (r.status_code == 403 or "/login/" in r["Location"])
    assert not Step.objects.filter(table=physical).exists()


@pytest.mark.parametrize("who", ["east_player", "stranger"])
def test_a_play_is_refused_to_someone_not_at_the_table(request, client_for, virtual, moderator, who):
    state = services.deal(virtual.pk, moderator)
    key = state["to_move"]
    r = client_for(user_of(request, who)).post(url("play", virtual), {"player": key, "territory": 1,
                                                                      "card": state["hands"][key][0]})
    assert r.status_code == 403 and Step.objects.filter(table=virtual).count() == 1


def test_the_moderator_enters_a_physical_card_with_one_tap_per_symbol(client_for, physical, moderator):
    c = client_for(moderator)
    assert c.post(url("lot", physical), {"first_player": "p2"}).status_code == 302
    r = c.post(url("play", physical), {"player": "p2", "territory": 4, "symbols": ["flag", "spear"]})
    assert r.status_code == 302
    page = c.get(url("table", physical)).content.decode()
    assert "Копье" in page and "Флаг" in page and "1/4" in page and "Ход: <strong class=\"to-move\">Анна" in page
    assert physical.dice.fingerprint in page


@pytest.mark.parametrize("data, expect", [
    ({"player": "p9", "territory": 1, "symbols": ["flag"]}, "нет такого игрока"),
    ({"player": "p1", "territory": 6, "symbols": ["flag"]}, "от 1 до 5"),
    ({"player": "p1", "territory": "x", "symbols": ["flag"]}, "от 1 до 5"),
    ({"player": "p1", "territory": 1, "symbols": ["crown"]}, "Неизвестный значок"),
    ({"player": "p1", "territory": 1}, "Отметьте значки"),
])
def test_hostile_physical_entries_are_refused_in_russian(client_for, physical, moderator, data, expect):
    c = client_for(moderator)
    c.post(url("lot", physical), {"first_player": "p1"})
    r = c.post(url("play", physical), data)
    assert r.status_code == 400 and expect in r.content.decode()
    assert Step.objects.filter(table=physical, kind="play").count() == 0


def test_a_fifth_card_in_a_territory_is_refused_with_its_rule(client_for, physical, moderator):
    c = client_for(moderator)
    c.post(url("lot", physical), {"first_player": "p1"})
    for _ in range(4):
        c.post(url("play", physical), {"player": "p1", "territory": 2, "symbols": ["spear"], "correction": "подряд"})
    r = c.post(url("play", physical), {"player": "p1", "territory": 2, "symbols": ["spear"], "correction": "подряд"})
    assert r.status_code == 409 and "четыре карты" in r.content.decode() and "C8" in r.content.decode()
    assert Step.objects.filter(table=physical, kind="play").count() == 4


def test_an_override_without_a_reason_is_refused(client_for, physical, moderator):
    c = client_for(moderator)
    c.post(url("lot", physical), {"first_player": "p1"})
    r = c.post(url("override_turn", physical), {"to_move": "p2", "reason": ""})
    assert r.status_code == 400 and "Укажите причину" in r.content.decode()
    r = c.post(url("undo", physical), {"reason": ""})
    assert r.status_code == 400
    assert Step.objects.filter(table=physical).count() == 1


def test_players_play_only_for_themselves_and_in_turn(client_for, virtual, moderator, player, other_player):
    state = services.deal(virtual.pk, moderator)
    users = {"p1": player, "p2": other_player}
    mover = state["to_move"]
    waiter = "p2" if mover == "p1" else "p1"
    r = client_for(users[waiter]).post(url("play", virtual), {"player": mover, "territory": 1,
                                                              "card": state["hands"][mover][0]})
    assert r.status_code == 409 and "только за себя" in r.content.decode()
    r = client_for(users[waiter]).post(url("play", virtual), {"player": waiter, "territory": 1,
                                                              "card": state["hands"][waiter][0]})
    assert r.status_code == 409 and "не ход" in r.content.decode()
    r = client_for(users[mover]).post(url("play", virtual), {"player": mover, "territory": 1,
                                                             "card": state["hands"][waiter][0]})
    assert r.status_code == 409 and "нет в руке" in r.content.decode()
    r = client_for(users[mover]).post(url("play", virtual), {"player": mover, "territory": 1,
                                                             "card": state["hands"][mover][0]})
    assert r.status_code == 302 and Step.objects.filter(table=virtual, kind="play").count() == 1


def test_the_fog_no_other_hand_or_pile_order_on_any_page(client_for, virtual, moderator, player, other_player):
    state = services.deal(virtual.pk, moderator)
    virtual.refresh_from_db()
    cards = {c["id"] for c in virtual.setup["deck"]}
    for key, user in (("p1", player), ("p2", other_player)):
        page = client_for(user).get(url("table", virtual)).content.decode()
        own = set(state["hands"][key]) | ({state["draw_pile"][0]} if state["to_move"] == key else set())
        shown = {cid for cid in cards if has(page, cid)}
        assert shown == own, (key, shown - own)
        refresh = client_for(user).get(url("table", virtual), HTTP_X_TABLE_REFRESH="1").content.decode()
        assert {cid for cid in cards if has(refresh, cid)} == own
    projector = client_for(moderator).get(url("projector", virtual)).content.decode()
    assert not any(has(projector, cid) for cid in cards)
    mod_page = client_for(moderator).get(url("table", virtual)).content.decode()
    assert all(has(mod_page, cid) for cid in state["hands"]["p1"] + state["hands"]["p2"])
    # The log names the moderator as every page does, never by the login.
    assert 'class="who">модератор,' in mod_page and f'class="who">{moderator.username},' not in mod_page


def test_the_deal_dice_values_never_reach_a_player(client_for, virtual, moderator, player):
    services.deal(virtual.pk, moderator)
    page = client_for(player).get(url("table", virtual)).content.decode()
    assert "тасование" not in page and "Карты розданы (кубиков сервера: 44)" in page


# -- new contest and deck lists ----------------------------------------------------------------------
def test_the_moderator_creates_a_contest(client_for, tiny_game, moderator):
    north = tiny_game.factions.get(code="north")
    r = client_for(moderator).post(reverse("ordonnance:new", args=[tiny_game.pk]), {
        "title": "Партия", "mode": "physical", "announce": "points", "player1": "Анна", "faction1": north.pk,
        "player2": "Борис", "faction2": "", "player3": "", "faction3": "", "player4": "", "faction4": "",
        "territory_names": "Иерусалим\nЭдесса"})
    assert r.status_code == 302
    table = Table.objects.get(title="Партия")
    assert table.system == "ordonnance" and table.setup["announce"] == "points"
    assert list(table.sides.values_list("name", flat=True)) == ["Анна", "Борис"]
    assert table.setup["territory_names"][:2] == ["Иерусалим", "Эдесса"] and table.setup["deck"] is None


@pytest.mark.parametrize("data, expect", [
    ({"player1": "Анна", "player2": ""}, "не меньше двух игроков"),
    ({"player1": "Анна", "player2": "анна"}, "одинаковые имена"),
    ({"player1": "А", "player2": "Б", "mode": "virtual"}, "нужен её состав"),
    ({"player1": "А", "player2": "Б", "faction1": "999999"}, "фракции в этой игре нет"),
    ({"player1": "А", "player2": "Б", "territory_names": "1\n2\n3\n4\n5\n6"}, "не больше пяти"),
])
def test_a_bad_new_contest_is_refused_in_russian(client_for, tiny_game, moderator, data, expect):
    form = {"title": "Х", "mode": "physical", "announce": "territories", **data}
    r = client_for(moderator).post(reverse("ordonnance:new", args=[tiny_game.pk]), form)
    assert r.status_code == 400 and expect in r.content.decode()
    assert not Table.objects.exists()


def test_the_deck_editor_saves_symbols_and_counts(client_for, tiny_game, moderator):
    c = client_for(moderator)
    r = c.post(reverse("ordonnance:decks", args=[tiny_game.pk]),
               {"name": "Моя колода", "k_spear-flag": "3", "k_bow": "2", "k_helmet": "", "k_flag": "0"})
    assert r.status_code == 302
    deck = DeckList.objects.get(name="Моя колода")
    assert deck.cards == [{"symbols": ["bow"], "count": 2}, {"symbols": ["spear", "flag"], "count": 3}]
    assert not deck.made_for_tests
    page = c.get(reverse("ordonnance:deck", args=[tiny_game.pk, deck.pk])).content.decode()
    assert "Копье" in page and "× 3" in page
    r = c.post(reverse("ordonnance:deck", args=[tiny_game.pk, deck.pk]),
               {"name": "Моя колода", "k_spear-flag": "0", "k_bow": "7"})
    deck.refresh_from_db()
    assert deck.cards == [{"symbols": ["bow"], "count": 7}]


def test_the_deck_editor_saves_every_possible_card_at_once(client_for, tiny_game, moderator):
    """All 31 cards C3 allows are rows of one form: a deck of every kind is entered and saved in one press."""
    from larp.ordonnance.forms import all_kinds

    kinds = all_kinds()
    assert len(kinds) == 31
    c = client_for(moderator)
    page = c.get(reverse("ordonnance:decks", args=[tiny_game.pk])).content.decode()
    assert page.count('name="k_') == 31
    r = c.post(reverse("ordonnance:decks", args=[tiny_game.pk]),
               {"name": "Полная", **{"k_" + "-".join(k): str(i + 1) for i, k in enumerate(kinds)}})
    assert r.status_code == 302
    deck = DeckList.objects.get(name="Полная")
    assert len(deck.cards) == 31 and deck.size == sum(range(1, 32))
    page = c.get(reverse("ordonnance:deck", args=[tiny_game.pk, deck.pk])).content.decode()
    assert 'name="k_spear-bow-swords-helmet-flag" value="31"' in page


def test_the_deck_page_says_unknown_until_one_is_entered(client_for, tiny_game, moderator):
    page = client_for(moderator).get(reverse("ordonnance:decks", args=[tiny_game.pk])).content.decode()
    assert "Колода: неизвестна" in page


def test_a_hostile_deck_import_is_refused_in_russian(client_for, tiny_game, moderator):
    r = client_for(moderator).post(reverse("ordonnance:deck_import", args=[tiny_game.pk]),
                                   {"text": "name: x\ncards: [{symbols: [flag, flag]}]"})
    assert r.status_code == 400 and "дважды" in r.content.decode()
    assert not DeckList.objects.exists()


def test_the_deck_import_by_file(client_for, tiny_game, moderator):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from .conftest import TEST_DECK

    r = client_for(moderator).post(reverse("ordonnance:deck_import", args=[tiny_game.pk]),
                                   {"file": SimpleUploadedFile("deck.yaml", TEST_DECK.encode())})
    assert r.status_code == 302 and DeckList.objects.get().made_for_tests


def test_the_table_appears_in_the_games_list(client_for, tiny_game, physical, player, east_player):
    page = client_for(player).get(reverse("tables:list", args=[tiny_game.pk])).content.decode()
    assert "Спор за Эдессу" in page and url("table", physical) in page
    page = client_for(east_player).get(reverse("tables:list", args=[tiny_game.pk])).content.decode()
    assert "Спор за Эдессу" not in page


def test_english_is_available(client_for, physical, moderator):
    from django.conf import settings

    c = client_for(moderator)
    c.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    services.lot(physical.pk, moderator, first_player="p1")
    page = c.get(url("table", physical)).content.decode()
    assert "Dice fingerprint" in page and "Enter the laid card" in page and "Spear" in page
    assert "Отпечаток кубиков" not in page


def test_a_play_without_a_card_asks_for_one(client_for, virtual, moderator, player, other_player):
    state = services.deal(virtual.pk, moderator)
    user = player if state["to_move"] == "p1" else other_player
    r = client_for(user).post(url("play", virtual), {"player": state["to_move"], "territory": 1})
    assert r.status_code == 400 and "Сначала коснитесь карты" in r.content.decode()


def test_a_physical_table_with_a_deck_list_offers_its_cards_with_copies_left(client_for, tiny_game, moderator,
                                                                               sides, deck):
    table = services.create(tiny_game, moderator, title="С колодой", sides=sides, mode="physical", deck=deck,
                            territory_names=None, announce="territories")
    c = client_for(moderator)
    c.post(url("lot", table), {"first_player": "p1"})
    c.post(url("play", table), {"player": "p1", "territory": 1, "symbols": ["flag", "helmet"]})
    page = c.get(url("table", table)).content.decode()
    assert 'data-symbols="helmet flag"' in page and "× 3" in page and "× 4" in page
    for _ in range(3):
        c.post(url("play", table), {"player": "p2", "territory": 2, "symbols": ["flag", "helmet"], "correction": "подряд"})
    r = c.post(url("play", table), {"player": "p2", "territory": 3, "symbols": ["flag", "helmet"], "correction": "x"})
    assert r.status_code == 400 and "Все экземпляры этой карты" in r.content.decode()   # a fifth copy (C4)
    assert Step.objects.filter(table=table, kind="play").count() == 4
    assert 'data-symbols="helmet flag"' not in c.get(url("table", table)).content.decode()
