"""The «Орда» table's services: data the moderator enters, a battle played step by step, replay, undo, dice."""
import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import translation

from larp.campaign.models import AuditEntry
from larp.dice.models import Roll
from larp.orda import dataset, services
from larp.orda import situation as sit
from larp.tables import services as tables
from larp.tables.access import seat
from larp.tables.models import Step, Table
from tests.orda_table.data import complete_data


@pytest.fixture(autouse=True)
def _russian():
    with translation.override("ru"):
        yield


def seats(game, table, moderator, player, other_player):
    return (seat(moderator, game.pk, table.pk), seat(player, game.pk, table.pk),
            seat(other_player, game.pk, table.pk))


def test_the_blank_data_set_has_only_the_sources_five_values_and_a_table_refuses_it(tiny_game, moderator):
    blank = services.create_dataset(tiny_game, "Коробка", moderator)
    axe = blank.data["stats"]["rus"]["axe_retainer"]
    assert (axe["attack"], axe["defence"], axe["speed"], axe["health"]) == (3, 3, 1, None)
    raider = blank.data["stats"]["north_mongolia"]["raider"]
    assert (raider["defence"], raider["speed"], raider["attack"]) == (2, 2, None)
    filled = sum(v is not None for f in blank.data["stats"].values() for k in f.values() for p, v in k.items()
                 if p != "range")
    assert filled == 5
    with pytest.raises(ValidationError) as exc:
        services.create(tiny_game, moderator, title="x", data=blank, mode="skirmish", order=["rus", "north_mongolia"],
                        factions={})
    text = " ".join(exc.value.messages)
    assert "«Дружинник с топором»" in text and "здоровье" in text and "не задано" in text
    assert not Table.objects.exists()


def test_the_engine_refuses_an_unknown_value_naming_it_in_russian(orda_table):
    setup = dict(orda_table.setup)
    setup["units"] = [dict(u) for u in setup["units"]]
    ivan = next(u for u in setup["units"] if u["id"] == "rus-ivan_iii")
    ivan["stats"] = {**ivan["stats"], "speed": None}
    state = sit.initial(setup)
    state, _ = sit.apply(state, "setup", {"order": list(dataset.EVENTS)})
    state, _ = sit.apply(state, "turn_start", {})
    with pytest.raises(sit.Refusal) as exc:
        sit.apply(state, "move", {"unit": "rus-ivan_iii", "path": [[0, -1]]})
    assert "скорость" in exc.value.message and "Иван III" in exc.value.message and "O23" in exc.value.message


def test_yaml_export_and_import_round_trip_and_hostile_yaml_is_refused(orda_data):
    text = dataset.to_yaml(orda_data.data)
    assert "test_data: true" in text
    assert dataset.from_yaml(text) == orda_data.data
    for bad in ("[1, 2", "stats: {rus: {axe_retainer: {health: 9}}}", "board: [[0, 0, 1]]",
                "capitals: {blue: [9, 9]}", "format: other"):
        with pytest.raises(ValidationError):
            dataset.from_yaml(bad)


def test_the_board_editor_paints_and_keeps_places_on_the_board(tiny_game, moderator):
    ds = services.create_dataset(tiny_game, "Доска", moderator)
    ds = services.paint(ds, "board", [0, 0], moderator)
    ds = services.paint(ds, "blue", [0, 0], moderator)
    assert ds.data["capitals"]["blue"] == [0, 0]
    with pytest.raises(ValidationError):
        services.paint(ds, "dark_blue", [5, 5], moderator)
    ds = services.paint(ds, "board", [0, 0], moderator)     # removing the hex removes the capital on it
    assert ds.data["board"] == [] and ds.data["capitals"]["blue"] is None
    assert AuditEntry.objects.filter(action="orda_data_edited").count() == 3


def test_a_new_table_is_set_up_by_the_rules_and_its_deck_drawn_with_server_dice(orda_table):
    case = orda_table.state["case"]
    on_board = {u["id"]: u["hex"] for u in case["units"] if u["where"] == "board"}
    assert on_board == {"rus-axe_retainer-1": [-1, 1], "rus-archer-1": [-1, 2], "rus-ivan_iii": [0, 0],
                        "nm-raider-1": [-1, -2], "nm-long_bow_raider-1": [-1, -1], "nm-batu_khan": [0, -3]}
    assert sorted(case["event"]["draw_pile"]) == list(dataset.EVENTS)
    deck_dice = Roll.objects.filter(stream=orda_table.dice, ref=f"table-{orda_table.pk}:step-1")
    assert deck_dice.count() == 23 and all(r.source == "server" for r in deck_dice)
    assert [s.key for s in orda_table.sides.all()] == ["rus", "north_mongolia"]
    assert orda_table.origin["test_data"] is True


def play_to_victory(game, table, moderator, player, other_player):
    mod, rus, nm = seats(game, table, moderator, player, other_player)
    services.act(table.pk, player, rus, "turn_start", {})
    services.act(table.pk, player, rus, "move", {"unit": "rus-ivan_iii", "path": [[0, -1]]})
    services.act(table.pk, player, rus, "declare", {"attacker": "rus-ivan_iii", "target": "nm-long_bow_raider-1"})
    services.act(table.pk, other_player, nm, "counter", {"counter": "defence"})
    services.act(table.pk, moderator, mod, "attack", {}, hand=[6, 1])
    services.act(table.pk, player, rus, "turn_end", {})
    services.act(table.pk, other_player, nm, "turn_start", {})
    services.act(table.pk, other_player, nm, "turn_end", {})
    services.act(table.pk, player, rus, "turn_start", {})
    return services.act(table.pk, player, rus, "turn_end", {})


def test_a_whole_battle_ends_with_the_result_and_the_replay_equals_the_stored_state(
        tiny_game, orda_table, moderator, player, other_player):
    table = play_to_victory(tiny_game, orda_table, moderator, player, other_player)
    assert table.status == Table.FINISHED
    assert table.result["winner"] == "rus" and table.result["orda_side"] == "rus_china"
    assert table.result["ended_by"] == "mongol_capitals_destroyed"
    assert table.result["losses"]["north_mongolia"] == {"start": 12, "lost": 0}
    steps = [(s.kind, s.payload) for s in tables.live_steps(table)]
    assert sit.replay(table.setup, steps) == table.state
    attack = Step.objects.get(table=table, kind="attack")
    assert attack.payload["dice"] == {"attacker": [6], "defender": [1]} and attack.payload["hand"] is True
    assert attack.outcome["hit"] is True
    entry = AuditEntry.objects.filter(action="table_step", detail__kind="attack").get()
    assert "Атака" in entry.detail["summary"] and "попадание" in entry.detail["summary"]


def test_players_act_only_for_their_side_at_its_moment(tiny_game, orda_table, moderator, player, other_player):
    mod, rus, nm = seats(tiny_game, orda_table, moderator, player, other_player)
    with pytest.raises(PermissionDenied):
        services.act(orda_table.pk, other_player, nm, "turn_start", {})
    services.act(orda_table.pk, player, rus, "turn_start", {})
    services.act(orda_table.pk, player, rus, "move", {"unit": "rus-ivan_iii", "path": [[0, -1]]})
    services.act(orda_table.pk, player, rus, "declare", {"attacker": "rus-ivan_iii", "target": "nm-long_bow_raider-1"})
    with pytest.raises(PermissionDenied):       # the attacker does not choose the target's counter-measure
        services.act(orda_table.pk, player, rus, "counter", {"counter": "defence"})
    services.act(orda_table.pk, other_player, nm, "counter", {"counter": "defence"})
    with pytest.raises(PermissionDenied):       # only the moderator types dice in
        services.act(orda_table.pk, player, rus, "attack", {}, hand=[6, 1])
    with pytest.raises(PermissionDenied):
        services.undo(orda_table.pk, player, rus, "ошибся")


def test_refusals_save_nothing_and_speak_russian(tiny_game, orda_table, moderator, player, other_player):
    mod, rus, nm = seats(tiny_game, orda_table, moderator, player, other_player)
    before = (Step.objects.count(), Roll.objects.count())
    with pytest.raises(ValidationError) as exc:
        services.act(orda_table.pk, player, rus, "move", {"unit": "rus-ivan_iii", "path": [[0, -1]]})
    assert "Сначала начните ход" in exc.value.messages[0]
    services.act(orda_table.pk, player, rus, "turn_start", {})
    before = (Step.objects.count(), Roll.objects.count())
    with pytest.raises(ValidationError) as exc:
        services.act(orda_table.pk, player, rus, "move", {"unit": "rus-ivan_iii", "path": [[0, -2]]})
    assert "O13" in exc.value.messages[0] or "O20" in exc.value.messages[0]
    with pytest.raises(ValidationError):
        services.act(orda_table.pk, moderator, mod, "attack", {}, hand=[6, 1])
    assert (Step.objects.count(), Roll.objects.count()) == before


def test_undo_and_a_server_reroll_take_new_counters(tiny_game, orda_table, moderator, player, other_player):
    mod, rus, nm = seats(tiny_game, orda_table, moderator, player, other_player)
    services.act(orda_table.pk, player, rus, "turn_start", {})
    services.act(orda_table.pk, player, rus, "move", {"unit": "rus-ivan_iii", "path": [[0, -1]]})
    services.act(orda_table.pk, player, rus, "declare", {"attacker": "rus-ivan_iii", "target": "nm-long_bow_raider-1"})
    services.act(orda_table.pk, other_player, nm, "counter", {"counter": "retreat", "retreat_to": [-2, -1]})
    services.act(orda_table.pk, player, rus, "attack", {})
    first = list(Roll.objects.filter(ref__endswith=":step-6").values_list("counter", flat=True))
    table = services.undo(orda_table.pk, moderator, mod, "кость упала со стола")
    assert table.state["pending"]["counter"] == "retreat"
    assert set(Roll.objects.filter(ref__endswith=":step-6").values_list("status", flat=True)) == {Roll.DISCARDED}
    services.act(orda_table.pk, moderator, mod, "attack", {})
    again = list(Roll.objects.filter(ref__endswith=":step-7").values_list("counter", flat=True))
    assert first == [23, 24] and again == [25, 26]
    table = Table.objects.get(pk=orda_table.pk)
    assert sit.replay(table.setup, [(s.kind, s.payload) for s in tables.live_steps(table)]) == table.state


def test_an_override_needs_a_reason_and_is_audited(tiny_game, orda_table, moderator, player, other_player):
    mod, rus, nm = seats(tiny_game, orda_table, moderator, player, other_player)
    services.act(orda_table.pk, moderator, mod, "override_modifier",
                 {"unit": "nm-raider-1", "param": "defence", "value": -1, "source": "event",
                  "reason": "Карта «Буран»"})
    table = Table.objects.get(pk=orda_table.pk)
    assert table.state["case"]["modifiers"] == [{"unit": "nm-raider-1", "param": "defence", "value": -1,
                                                 "source": "event"}]
    entry = AuditEntry.objects.get(action="table_override")
    assert entry.reason == "Карта «Буран»"
    with pytest.raises(ValidationError):
        services.act(orda_table.pk, moderator, mod, "override_unmodify", {"index": 3, "reason": "тур кончился"})
    table = services.act(orda_table.pk, moderator, mod, "override_unmodify", {"index": 0, "reason": "тур кончился"})
    assert table.state["case"]["modifiers"] == []
    assert AuditEntry.objects.filter(action="table_override").count() == 2
    with pytest.raises(PermissionDenied):
        services.act(orda_table.pk, player, rus, "override_end", {"winner": "rus_china", "reason": "хочу"})


def test_a_table_made_by_the_bridge_plays_from_its_setup(tiny_game, moderator, player, orda_data):
    setup = sit.build_setup(complete_data(), "skirmish", ["rus", "north_mongolia"])
    table = tables.create_table(tiny_game, "orda", "Из войны", [("rus", "Русь", tiny_game.factions.get(code="north")),
                                                               ("north_mongolia", "Монголия", None)],
                                moderator, setup=setup, origin={"battle": 1, "turn": 1})
    rus = seat(player, tiny_game.pk, table.pk)
    table = services.act(table.pk, player, rus, "turn_start", {})
    assert table.state["phase"] == "battle"
    assert Step.objects.filter(table=table, kind="setup").exists()
    assert sorted(table.state["case"]["event"]["draw_pile"] + [table.state["case"]["event"]["current"]]) \
        == list(dataset.EVENTS)
    from larp.orda.selectors import event_text
    card = table.state["case"]["event"]["current"]
    assert event_text(table, card) == orda_data.data["events"][card]      # the game's data set gives the text


def test_a_four_player_conquest_table_in_zigzag_order(tiny_game, moderator, orda_data):
    table = services.create(tiny_game, moderator, title="Двое на двое", data=orda_data, mode="conquest",
                            order=sit.ZIGZAG, factions={})
    case = table.state["case"]
    assert case["game"]["order"] == ["rus", "north_mongolia", "china", "south_mongolia"]
    assert [s.key for s in table.sides.all()] == case["game"]["order"]
    cities = [c for c in case["cities"] if c["kind"] == "city"]
    assert sorted((c["faction"], c["colour"]) for c in cities) == \
        [("china", "dark_red")] * 3 + [("rus", "dark_blue")] * 3
    assert sum(1 for u in case["units"] if u["where"] == "board") == 12     # 3 per faction in Conquest
    assert sit.setup_problems(case) == []


def test_three_players_play_the_four_faction_game_on_the_green_line(tiny_game, moderator, orda_data):
    table = services.create(tiny_game, moderator, title="Трое", data=orda_data, mode="border",
                            order=sit.ZIGZAG, factions={}, players=3)
    case = table.state["case"]
    assert case["game"]["players"] == 3 and len(case["factions"]) == 4
    assert case["border"]["line"] == "green"
    assert sit.setup_problems(case) == []


def test_with_three_players_one_player_acts_for_both_factions_of_a_side(tiny_game, moderator, orda_data, player,
                                                                         other_player):
    north, south = tiny_game.factions.get(code="north"), tiny_game.factions.get(code="south")
    table = services.create(tiny_game, moderator, title="Трое", data=orda_data, mode="border", order=sit.ZIGZAG,
                            factions={"rus": north, "china": north, "north_mongolia": south}, players=3)
    rus = seat(player, tiny_game.pk, table.pk)
    nm = seat(other_player, tiny_game.pk, table.pk)
    services.act(table.pk, player, rus, "turn_start", {})
    services.act(table.pk, player, rus, "turn_end", {})
    services.act(table.pk, other_player, nm, "turn_start", {})
    table = services.act(table.pk, other_player, nm, "turn_end", {})
    assert table.state["case"]["game"]["active"] == "china"
    table = services.act(table.pk, player, rus, "turn_start", {})          # north's player also plays China
    assert table.state["phase"] == "battle"
    services.act(table.pk, player, rus, "turn_end", {})
    with pytest.raises(PermissionDenied):                                   # South Mongolia has no player
        services.act(table.pk, other_player, nm, "turn_start", {})
