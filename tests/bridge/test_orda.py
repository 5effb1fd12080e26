"""A battle of the war sent to an «Орда» table, played there through the Orda services to the engine's end with
hand dice, its result confirmed back into the turn (docs/bridge.md, docs/orda.md "Table").

The converted armies are not an Orda start-of-game roster (O4/O5 are skipped for a battle of the war), and
the printed values the source lost come from the game's data set — here the set MADE UP FOR THE TESTS
(tests/orda_table/data.py) — never invented; without one the table says which values are missing.
"""
import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from larp.bridge import services as bridge
from larp.bridge.models import TableBattle
from larp.campaign.models import Faction
from larp.campaign.services.members import create_player
from larp.orda import services as orda
from larp.orda import situation as sit
from larp.orda.engine import outcomes as O
from larp.orda.engine.hexes import distance
from larp.tables.access import Seat
from larp.tables.models import Table
from larp.turns import services as turns
from larp.turns.models import AuditEntry
from tests.bridge.test_flow import finish_the_turn_as_adjudicate_turn, played, roll, tactics  # noqa: F401
from tests.orda_table.data import complete_data

REASON = "главные армии: решают командующие"


@pytest.fixture(autouse=True)
def russian():
    from django.utils import translation

    with translation.override("ru"):
        yield


def send(game, mod):
    """Battle 1 (Serres) by autobattle, battle 2 (Attalia: Cilicia attacks Rum) sent to an Orda table."""
    tactics(game, mod)
    rolls = [roll(game, mod, 0)]
    tb = bridge.send_to_table(game, mod, 2, "orda", REASON, seed=42)
    return tb, rolls


def moderator_seat(table):
    return Seat(Table.objects.get(pk=table.pk), True, None)


def fight(table, mod, uid, target):
    """One attack through the services: declared, the target defends, the moderator's hand dice 6 against 1."""
    seat = moderator_seat(table)
    orda.act(table.pk, mod, seat, "declare", {"attacker": uid, "target": target["target"], "aimed": target["aimed"]})
    orda.act(table.pk, mod, seat, "counter", {"counter": O.DEFENCE, "retreat_to": None})
    orda.act(table.pk, mod, seat, "attack", {}, hand=[6, 1])


def advance(table, mod, uid, case):
    """The unit's move nearest to an enemy, fewest zone-of-control attacks first (their dice by hand: missed)."""
    enemies = [tuple(u["hex"]) for u in case["units"] if u["where"] == O.BOARD and
               u["faction"] != next(x["faction"] for x in case["units"] if x["id"] == uid)]
    moves = sit.legal_moves(case, uid)
    if not moves or not enemies:
        return
    h, m = min(moves.items(), key=lambda kv: (len(kv[1]["provoked"]), min(distance(kv[0], e) for e in enemies),
                                              kv[0]))
    hand = [1, 6] * len(m["provoked"]) if m["provoked"] else None
    orda.act(table.pk, mod, moderator_seat(table), "move", {"unit": uid, "path": m["path"]}, hand=hand)


def play_to_the_end(table, mod, winner_key):
    """Turn after turn until the engine names a winner: `winner_key`'s faction closes in and attacks with hand
    dice (6 against 1); the other side holds. Every act goes through orda.services, as the pages do."""
    for _ in range(80):
        state = orda.current(Table.objects.get(pk=table.pk))
        if state["phase"] == sit.OVER:
            return state
        active = state["case"]["game"]["active"]
        orda.act(table.pk, mod, moderator_seat(table), "turn_start", {"choices": {}})
        if active == winner_key:
            mine = [u["id"] for u in orda.current(Table.objects.get(pk=table.pk))["case"]["units"]
                    if u["faction"] == active and u["where"] == O.BOARD][:3]
            for uid in mine:
                case = orda.current(Table.objects.get(pk=table.pk))["case"]
                if not any(u["id"] == uid and u["where"] == O.BOARD for u in case["units"]):
                    continue
                if not sit.legal_targets(case, uid):
                    advance(table, mod, uid, case)
                    case = orda.current(Table.objects.get(pk=table.pk))["case"]
                targets = sit.legal_targets(case, uid)
                if targets:
                    fight(table, mod, uid, targets[0])
        if orda.current(Table.objects.get(pk=table.pk))["phase"] != sit.OVER:
            orda.act(table.pk, mod, moderator_seat(table), "turn_end", {})
    raise AssertionError("the Orda battle never ended")


def test_a_war_battle_at_an_orda_table_is_played_to_its_end_and_the_turn_goes_on_as_adjudicate_turn(played):  # noqa: F811
    game, mod = played
    turn = turns.current_phase(game).turn
    data = orda.create_dataset(game, "Тестовый набор (выдуманные числа)", mod, complete_data())
    tb, rolls = send(game, mod)
    table = Table.objects.get(pk=tb.table_id)
    assert tb.sides == {"attacker": "north_mongolia", "defender": "rus"}
    assert table.setup["war_battle"] is True

    # The bridge took what the conversion lacks from the data set, health kept from the conversion.
    state = orda.current(table)
    case = state["case"]
    assert sit.missing_values(case) == {"units": {}, "cities": []}
    assert [s.kind for s in table.steps.all()] == ["values"]
    for converted, now in zip(table.setup["units"], case["units"]):
        assert now["stats"]["health"] == converted["stats"]["health"]
        given = data.data["stats"][now["faction"]][now["token"]]
        for param in ("attack", "defence", "speed"):
            assert now["stats"].get(param, given[param]) == given[param]
    assert table.status == Table.SETUP                   # still being set up: no turn has begun
    assert AuditEntry.objects.filter(game=game, action="table_step", detail__kind="values",
                                     detail__summary__startswith="Печатные значения взяты из набора данных "
                                                                  "«Тестовый набор (выдуманные числа)»").exists()

    # Not a start of a new game: the O4/O5 checks are skipped, the others kept.
    assert not [p for p in sit.setup_problems(case) if p["severity"] == O.ERROR]
    assert {p["code"] for p in orda_setup(case)} & sit.WAR_BATTLE_SKIPS     # the engine alone would refuse

    final = play_to_the_end(table, mod, "rus")
    table.refresh_from_db()
    assert table.status == Table.FINISHED and final["winner"] == "rus_china"
    assert table.result["winner"] == "rus" and table.result["ended_by"] == "reserves_exhausted"
    mongols = sum(1 for u in table.setup["units"] if u["faction"] == "north_mongolia")
    assert table.result["losses"]["north_mongolia"] == {"start": mongols, "lost": mongols}
    assert table.steps.filter(kind="attack", undone=False).exists()
    assert orda.current(table) == sit.replay(table.setup, [(s.kind, s.payload) for s in table.steps.filter(
        undone=False).order_by("seq")])

    tb = TableBattle.objects.get(pk=tb.pk)
    assert bridge.state_of(tb) == "to_confirm"
    suggested = bridge.suggestion(tb)
    lost = table.result["losses"]["rus"]
    assert suggested == {"winner": "defender",
                         "losses": {"attacker": tb.power["attacker"],
                                    "defender": int(tb.power["defender"] * lost["lost"] / lost["start"] + 0.5)}}
    bridge.confirm_result(game, mod, tb.pk, suggested["winner"], suggested["losses"]["attacker"],
                          suggested["losses"]["defender"])
    assert AuditEntry.objects.filter(game=game, action="outside_outcome_entered").exists()
    finish_the_turn_as_adjudicate_turn(game, mod, turn, rolls, 2, suggested)


def orda_setup(case):
    from larp.orda.engine.cli import MODES

    doc = {k: v for k, v in case.items() if k not in ("summon_track", "activations", "traps")}
    return MODES["setup"](doc)["problems"]


def test_without_a_data_set_the_table_names_the_missing_values_and_takes_them_once_entered(played):  # noqa: F811
    game, mod = played
    tb, _rolls = send(game, mod)
    table = Table.objects.get(pk=tb.table_id)
    assert not table.steps.exists()                       # nothing to take the numbers from: nothing invented
    case = orda.current(table)["case"]
    assert all(u["stats"] == c["stats"] for u, c in zip(case["units"], table.setup["units"]))
    gaps = sit.missing_values(case)
    assert set(gaps["units"]) == {u["id"] for u in case["units"]}
    raider = next(u["id"] for u in case["units"] if u["token"] == "raider")
    assert "summon" in gaps["units"][raider] and "health" not in gaps["units"][raider]

    # The first turn is refused, naming the values.
    with pytest.raises(ValidationError) as refused:
        orda.act(table.pk, mod, moderator_seat(table), "turn_start", {"choices": {}})
    # A battle of the war speaks of the war's factions (Cilicia attacks Rum), never of the board game's.
    assert "Хан Батый (Киликия): атака" in refused.value.messages[0]
    assert "Монголия" not in refused.value.messages[0] and "Русь" not in refused.value.messages[0]

    # The page says it in Russian, with the way to enter them; the player sees the list, not the form.
    moderator = Client()
    moderator.force_login(mod)
    url = reverse("orda:table", args=[game.pk, table.pk])
    page = moderator.get(url).content.decode()
    assert "Без этих печатных значений движок не играет" in page
    assert "Хан Батый (Киликия): атака, защита, скорость, время призыва." in page
    assert "Иван III (Рум): атака, защита, скорость, время призыва." in page
    assert reverse("orda:data", args=[game.pk]) in page                  # no data set yet: make one
    assert "правила начала новой партии" in page and "не её двенадцать жетонов" not in page

    # A data set entered, then taken on the table's page by the moderator only.
    data = orda.create_dataset(game, "Наш набор", mod, complete_data("Наш набор"))
    page = moderator.get(url).content.decode()
    assert f'{reverse("orda:data_edit", args=[game.pk, data.pk])}?faction=north_mongolia' in page
    act_url = reverse("orda:act", args=[game.pk, table.pk, "values"])
    player = create_player(Faction.objects.get(game=game, code="rum"), "rum-orda", password="rum-pass-123")[0]
    other = create_player(Faction.objects.get(game=game, code="cilicia"), "cil-orda", password="cil-pass-123")[0]
    stranger = create_player(Faction.objects.get(game=game, code="venice"), "ven-orda", password="ven-pass-123")[0]
    for user, status in ((player, 403), (other, 403), (stranger, 403)):
        c = Client()
        c.force_login(user)
        assert c.post(act_url, {"data_set": data.pk}).status_code == status
    assert not table.steps.exists()
    assert moderator.post(act_url, {"data_set": 999999}).status_code == 400
    assert moderator.post(act_url, {"data_set": data.pk}).status_code == 302
    assert sit.missing_values(orda.current(Table.objects.get(pk=table.pk))["case"]) == {"units": {}, "cities": []}
    assert moderator.post(act_url, {"data_set": data.pk}).status_code == 400       # twice: nothing left to take
    assert table.steps.filter(kind="values").count() == 1
    page = moderator.get(url).content.decode()
    assert "Без этих печатных значений" not in page
    orda.act(table.pk, mod, moderator_seat(table), "turn_start", {"choices": {}})
    assert orda.current(Table.objects.get(pk=table.pk))["phase"] == sit.BATTLE
    with pytest.raises(ValidationError):                # once play has begun, the values are fixed
        orda.act(table.pk, mod, moderator_seat(table), "values", {"data_set": data.pk})


def test_a_data_set_lacking_a_kind_fills_only_the_tokens_it_has_everything_for(played):  # noqa: F811
    game, mod = played
    data = complete_data("Неполный набор")
    data["stats"]["rus"]["axe_retainer"]["summon"] = None
    data["durability"]["capital"] = None
    orda.create_dataset(game, "Неполный набор", mod, data)
    tb, _rolls = send(game, mod)
    case = orda.current(Table.objects.get(pk=tb.table_id))["case"]
    gaps = sit.missing_values(case)
    axe = next(u for u in case["units"] if u["token"] == "axe_retainer")
    assert gaps["units"] == {axe["id"]: ["summon"]}
    assert axe["stats"] == next(u for u in tb.table.setup["units"] if u["id"] == axe["id"])["stats"]
    assert gaps["cities"] == ["north_mongolia-cap", "rus-cap"]
    assert sit.missing_text(case) == ["Дружинник с топором (Русь): время призыва.",
                                      "Столица (Северная Монголия): прочность.", "Столица (Русь): прочность."]


def test_a_war_battle_skips_only_the_start_of_game_checks(played):  # noqa: F811
    game, mod = played
    tb, _rolls = send(game, mod)
    case = orda.current(Table.objects.get(pk=tb.table_id))["case"]
    assert sit.setup_problems(case) == []
    enemy_capital = next(c["hex"] for c in case["cities"] if c["faction"] == "north_mongolia")
    rus = next(u for u in case["units"] if u["faction"] == "rus" and u["where"] == O.BOARD)
    rus["hex"] = enemy_capital                                    # on the enemy's capital: still an error
    assert [p["code"] for p in sit.setup_problems(case)] == ["hex_invalid"]
    as_a_new_game = {k: v for k, v in case.items() if k != "war_battle"}
    assert {"roster", "start_classes"} <= {p["code"] for p in sit.setup_problems(as_a_new_game)}


def test_the_attacker_wins_a_war_battle_by_destroying_the_defenders_cities_here(played):  # noqa: F811
    """O6's three cities are a whole board's: on a war battle's board the Mongol attacker wins by destroying every
    city the defender has there (game.cities_to_win), not never."""
    game, mod = played
    orda.create_dataset(game, "Тестовый набор (выдуманные числа)", mod, complete_data())
    tb, _rolls = send(game, mod)
    table = Table.objects.get(pk=tb.table_id)
    defender_cities = [c for c in table.setup["cities"] if c["faction"] == "rus"]
    assert table.setup["game"]["cities_to_win"] == len(defender_cities) >= 1
    final = play_to_the_end(table, mod, "north_mongolia")
    table.refresh_from_db()
    assert table.status == Table.FINISHED and final["winner"] == "mongolia"
    assert table.result["winner"] == "north_mongolia" and table.result["ended_by"] == "cities_destroyed"
    assert all(c["destroyed"] for c in final["case"]["cities"] if c["faction"] == "rus")
    assert orda.current(table)["case"]["game"]["cities_to_win"] == len(defender_cities)   # carried turn to turn
    suggested = bridge.suggestion(TableBattle.objects.get(pk=tb.pk))
    assert suggested["winner"] == "attacker"
