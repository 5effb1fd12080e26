"""«Ордонанс» table services: the lot and the deal on the record, plays, refusals, undo, override, the result."""
import pytest
from django.core.exceptions import ValidationError

from larp.campaign.models import AuditEntry
from larp.dice.models import Roll
from larp.ordonnance import services, situation
from larp.ordonnance.engine import modes
from larp.rules import dice as generator
from larp.tables import services as tables
from larp.tables.access import Seat
from larp.tables.models import Table

from .conftest import play_out


def mod_seat(table):
    return Seat(table, True, None)


def lay(table, user, player, territory, *symbols, correction=""):
    return services.lay(table.pk, user, mod_seat(table), player=player, territory=territory, symbols=list(symbols),
                        correction=correction)


def test_the_deck_list_is_marked_made_for_tests_and_round_trips_through_yaml(deck, tiny_game, moderator):
    assert deck.made_for_tests and deck.size == 44
    text = services.export_yaml(deck)
    assert "made_for_tests: true" in text
    again = services.import_yaml(tiny_game, moderator, text.replace(deck.name, "Копия"))
    assert again.cards == deck.cards and again.made_for_tests


@pytest.mark.parametrize("text, message", [
    ("cards: 5", "Состав колоды должен быть списком карт."),
    ("name: x\ncards: [{symbols: [flag, flag], count: 1}]", "Карта 1: один значок дважды на одной карте (C3)."),
    ("name: x\ncards: [{symbols: [crown], count: 1}]", "Карта 1: неизвестный значок «crown»."),
    ("name: x\ncards: [{symbols: []}]", "Карта 1: на карте от одного до пяти значков (C3)."),
    ("name: x\ncards: [{symbols: [flag], count: -1}]", "Карта 1: число экземпляров — целое число от 0 до 200."),
    ("{{{", "Это не файл YAML, который программа может прочесть."),
    ("- a", "В файле YAML должен быть список «cards»."),
])
def test_a_bad_yaml_deck_is_refused_in_russian_and_nothing_saved(tiny_game, moderator, text, message):
    with pytest.raises(ValidationError) as exc:
        services.import_yaml(tiny_game, moderator, text)
    assert exc.value.messages == [message]
    assert not tiny_game.ordonnance_decks.exists()


def test_russian_symbol_names_are_accepted_in_yaml(tiny_game, moderator):
    deck = services.import_yaml(tiny_game, moderator, "name: Р\ncards:\n  - {symbols: [флаг, копье], count: 2}\n")
    assert deck.cards == [{"symbols": ["spear", "flag"], "count": 2}]


def test_physical_lot_by_server_die_is_on_the_record(physical, moderator):
    state = services.lot(physical.pk, moderator)
    roll = Roll.objects.get(stream=physical.dice)
    assert roll.counter == 0 and roll.sides == 2 and roll.source == "server"
    assert roll.value == generator.die(77, 0, 2)
    assert state["first_player"] == ["p1", "p2"][roll.value - 1] == state["to_move"]


def test_physical_lot_entered_by_hand(physical, moderator):
    services.lot(physical.pk, moderator, first_player="p2")
    roll = Roll.objects.get(stream=physical.dice)
    assert roll.source == "hand" and roll.counter is None and roll.value == 2


def test_a_physical_game_early_control_and_the_announcement(physical, moderator):
    from larp.ordonnance import selectors

    services.lot(physical.pk, moderator, first_player="p1")
    for _ in range(3):
        lay(physical, moderator, "p1", 3, "helmet", "flag", correction="Анна выложила карты подряд")
    state = lay(physical, moderator, "p2", 3, "spear", correction="Борис ходит после Анны")
    assert state["to_move"] == "p1"
    state = lay(physical, moderator, "p1", 3, "bow", "helmet", "flag")
    terr = state["result"]["territories"][2]
    assert terr["decided"] and terr["winner"] == "p1" and terr["marker"] == 1   # src-10: two regiments, at once
    physical.refresh_from_db()
    page = selectors.page(physical, None, view=selectors.PUBLIC)
    text = page["announcements"][0]
    assert text.startswith("Территория 3 — Антиохия — Анна:") and "маркер победы I" in text
    assert "больше полков: 2 против 1" in text
    assert page["rows"][2]["cells"][0]["combinations"] == ["2 полка (шлемы и флаги)"]
    with pytest.raises(ValidationError) as exc:
        lay(physical, moderator, "p1", 3, "spear", correction="проверка")
    assert "четыре карты" in exc.value.messages[0]
    assert len(tables.live_steps(physical)) == 6


def test_a_physical_card_out_of_turn_is_refused_unless_ruled_with_a_reason(physical, moderator):
    """C7: the order decides who completes an army first (the tie-break): a card of a player out of turn is
    refused, and nothing recorded; with a reason it is the moderator's ruling, on the record, and the turn goes
    on clockwise from that player."""
    from larp.ordonnance import selectors

    services.lot(physical.pk, moderator, first_player="p1")
    lay(physical, moderator, "p1", 1, "flag")
    with pytest.raises(ValidationError) as exc:
        lay(physical, moderator, "p1", 2, "flag")
    assert exc.value.messages[0].startswith("Сейчас ходит Борис, а не Анна")
    physical.refresh_from_db()
    assert len(tables.live_steps(physical)) == 2 and physical.state["to_move"] == "p2"
    state = lay(physical, moderator, "p1", 2, "flag", correction="Борис сам уступил ход")
    assert state["to_move"] == "p2" and len(state["plays"]) == 2
    step = tables.live_steps(physical)[-1]
    assert step.payload["out_of_turn"] is True and step.reason == "Борис сам уступил ход"
    assert AuditEntry.objects.filter(reason="Борис сам уступил ход").exists()
    physical.refresh_from_db()
    entry = selectors.page(physical, mod_seat(physical))["log"][-1]
    assert entry["override"] and entry["text"].startswith("Решение мастера, вне очереди: Анна")
    assert entry["reason"] == "Борис сам уступил ход"


def test_a_physical_game_to_the_end_stores_the_engine_result(physical, moderator):
    services.lot(physical.pk, moderator, first_player="p1")
    strong, weak = ["swords", "helmet", "flag"], ["spear"]
    plays = [(who, t) for t in range(1, 6) for _ in range(4) for who in ("p1", "p2")]
    for who, t in plays:
        lay(physical, moderator, who, t, *(strong if who == "p1" else weak))
        physical.refresh_from_db()
        if physical.status == Table.FINISHED:
            break
    assert (who, t) != plays[-1]   # decided early: p2 cannot catch up in the last territory (C11)
    assert physical.status == Table.FINISHED
    setup = services.setup_of(physical)
    expect = modes.contest(situation.engine_log(setup, physical.state))
    assert physical.state["result"]["markers"] == expect["markers"] and expect["winner"] == "p1"
    assert physical.result["winner"] == "p1" and physical.result["ended_by"] == "fifth_marker"
    assert physical.result["losses"] == {"p1": {"start": 5, "lost": 0}, "p2": {"start": 5, "lost": 5}}
    with pytest.raises(ValidationError):
        lay(physical, moderator, "p2", 1, "spear")


def test_undo_and_override_turn_are_logged_with_reasons(physical, moderator):
    services.lot(physical.pk, moderator, first_player="p1")
    lay(physical, moderator, "p1", 1, "flag")
    with pytest.raises(ValidationError):
        services.override_turn(physical.pk, moderator, to_move="p1", reason=" ")
    state = services.override_turn(physical.pk, moderator, to_move="p1", reason="Борис пропускает ход")
    assert state["to_move"] == "p1"
    services.undo(physical.pk, moderator, reason="ошибка ввода")
    physical.refresh_from_db()
    assert physical.state["to_move"] == "p2"
    assert AuditEntry.objects.filter(action="table_override", reason="Борис пропускает ход").exists()
    assert AuditEntry.objects.filter(action="table_undo", reason="ошибка ввода").exists()


def test_override_end_awards_undecided_territories_at_a_dead_end(physical, moderator):
    services.lot(physical.pk, moderator, first_player="p1")
    for _ in range(4):
        lay(physical, moderator, "p1", 2, "flag")
        lay(physical, moderator, "p2", 2, "helmet")
    services.override_end(physical.pk, moderator, reason="колода кончилась")
    physical.refresh_from_db()
    assert physical.status == Table.FINISHED and physical.result["ended_by"] == "dead_end"
    assert physical.state["result"]["territories"][1]["winner"] == "p1"


def test_the_virtual_deal_takes_one_server_die_per_position_and_replays(virtual, moderator):
    state = services.deal(virtual.pk, moderator)
    rolls = list(Roll.objects.filter(stream=virtual.dice).order_by("counter"))
    assert [r.counter for r in rolls] == list(range(44))            # the lot, then 43 positions
    assert [r.sides for r in rolls] == [2] + list(range(44, 1, -1))
    assert all(r.value == generator.die(99, r.counter, r.sides) for r in rolls)
    ids = [c["id"] for c in virtual.setup["deck"]]
    order = generator.shuffled(ids, lambda i: generator.die(99, 44 - i, i + 1) - 1)
    first = ["p1", "p2"][rolls[0].value - 1]
    dealt = modes.deal({"players": ["p1", "p2"], "deck": virtual.setup["deck"], "order": order,
                        "first_player": first})
    assert state["hands"] == dealt["hands"] and state["draw_pile"] == dealt["draw_pile"]
    with pytest.raises(ValidationError):
        services.deal(virtual.pk, moderator)


def test_a_virtual_game_is_played_to_the_end_and_equals_the_engine(virtual, moderator, player, other_player):
    services.deal(virtual.pk, moderator)
    state = play_out(virtual, moderator, lambda t, key: mod_seat(t))
    virtual.refresh_from_db()
    assert virtual.status == Table.FINISHED and state["game_over"]
    setup = services.setup_of(virtual)
    deal_step = tables.live_steps(virtual)[0]
    order = situation.shuffled_order([c["id"] for c in setup["deck"]], deal_step.payload["picks"])
    dealt = modes.deal({"players": setup["players"], "deck": setup["deck"], "order": order,
                        "first_player": deal_step.payload["first_player"]})
    moves = [{"player": s.payload["player"], "card": s.payload["card"], "territory": s.payload["territory"]}
             for s in tables.live_steps(virtual)[1:]]
    out = modes.play({"players": setup["players"], "deck": setup["deck"], "draw_pile": dealt["draw_pile"],
                      "hands": dealt["hands"], "plays": [], "to_move": dealt["to_move"], "moves": moves})
    assert all(e["result"] == "laid" for e in out["events"])
    assert out["winner"] == state["result"]["winner"] and out["markers"] == state["result"]["markers"]
    assert virtual.result["winner"] == out["winner"]


def test_a_player_may_not_play_out_of_turn_or_a_card_not_in_hand(virtual, moderator, tiny_game, player):
    state = services.deal(virtual.pk, moderator)
    other = "p2" if state["to_move"] == "p1" else "p1"
    with pytest.raises(ValidationError) as exc:
        services.lay(virtual.pk, moderator, mod_seat(virtual), player=other, territory=1,
                     card=state["hands"][other][0])
    assert "не ход" in exc.value.messages[0]
    mover = state["to_move"]
    with pytest.raises(ValidationError):
        services.lay(virtual.pk, moderator, mod_seat(virtual), player=mover, territory=1,
                     card=state["hands"][other][0])
    side = virtual.sides.get(key="p1")
    with pytest.raises(ValidationError):
        services.lay(virtual.pk, player, Seat(virtual, False, side), player="p2", territory=1,
                     card=state["hands"]["p2"][0])
    assert len(tables.live_steps(virtual)) == 1


def test_a_table_made_by_the_bridge_from_the_engine_case_alone(tiny_game, moderator, client_for):
    """A table whose setup is only the engine's contest case (as the bridge from a war's battle makes it)."""
    from django.urls import reverse

    north, south = tiny_game.factions.get(code="north"), tiny_game.factions.get(code="south")
    table = tables.create_table(tiny_game, "ordonnance", "Из битвы", [("north", "Север", north),
                                                                      ("south", "Юг", south)], moderator,
                                setup={"players": ["north", "south"], "deck": None, "plays": []},
                                origin={"battle": 1, "turn": 2})
    page = client_for(moderator).get(reverse("ordonnance:table", args=[tiny_game.pk, table.pk]))
    assert page.status_code == 200 and "Первый игрок ещё не определён." in page.content.decode()
    services.lot(table.pk, moderator, first_player="south")
    state = lay(table, moderator, "south", 5, "flag")
    assert state["plays"][0]["symbols"] == ["flag"] and state["to_move"] == "north"
