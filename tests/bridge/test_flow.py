"""A battle of the turn sent to a table of each system, played there to its end by that system's engine with
fixed dice, its result confirmed back: the final strategic state equals `adjudicate turn` with the same
outcome entered as that battle's `choices.outcomes` (docs/bridge.md, docs/adjudication.md)."""
import copy

import pytest
from django.core.exceptions import ValidationError

from larp.battles import services as console
from larp.bridge import services as bridge
from larp.bridge.models import TableBattle
from larp.campaign.models import Province
from larp.engine import run_turn
from larp.orda.engine.cli import MODES as ORDA
from larp.redplains.engine.cli import MODES as RED_PLAINS
from larp.tables import services as tables
from larp.tables.models import Table
from larp.tactical.engine.cli import MODES as TACTICAL
from larp.turns import services as turns
from larp.turns.models import AuditEntry
from larp.turns.services import WorkPending

from tests.battles.test_console_flow import DICE, played  # noqa: F401  (the fixture)


@pytest.fixture(autouse=True)
def russian():
    from django.utils import translation

    with translation.override("ru"):
        yield


def tactics(game, mod):
    console.apply_movement(game, mod)
    turns.next_phase(game, mod)          # Tactics


def roll(game, mod, i):
    """Battle awaiting its dice confirmed with the i-th fixed roll; the roll as the engine's dice entry."""
    _turn, _res, result = console.current_result(game)
    awaiting = result["awaiting"]
    a, d = DICE[i % len(DICE)]
    att, dfd = [a] * awaiting["dice_count"]["attacker"], [d] * awaiting["dice_count"]["defender"]
    console.confirm_battle(game, mod, awaiting["n"], att, dfd)
    return {"attacker": att, "defender": dfd}


# --- each system's table played to its end by its own engine, with fixed dice ----------------------------

def _side_units(setup, key, field="side"):
    return [u for u in setup["units"] if u[field] == key]


def play_red_plains(table, sides):
    setup = table.setup
    att = _side_units(setup, sides["attacker"])[0]
    dfd = _side_units(setup, sides["defender"])[0]
    case = {"melee": {"kind": "attack",
                      "defender": {"id": dfd["id"], "side": dfd["side"], "type": dfd["type"],
                                   "figures": dfd["figures"], "hold": False, "moved": False, "shooting_losses": 0},
                      "attackers": [{"id": att["id"], "side": att["side"], "type": att["type"],
                                     "figures": att["figures"], "attacks": "front"}]},
            "dice": {}, "seed": 11}
    out = RED_PLAINS["melee"](case)
    lost = {u["side"]: out["units"][u["id"]]["figures_before"] - out["units"][u["id"]]["figures_after"]
            for u in (att, dfd)}
    winner = sides["defender"] if out["result"] == "repelled" else sides["attacker"]
    return case, out, winner, lost, "figures"


def play_tactical(table, sides):
    case = copy.deepcopy(table.setup)
    case.pop("terrain", None)
    att = _side_units(case, sides["attacker"])[0]
    dfd = _side_units(case, sides["defender"])[0]
    case["melee"] = {"units": [att["id"], dfd["id"]]}
    case["seed"] = 5
    out = TACTICAL["melee"](case)
    lost = {u["side"]: out["units"][u["id"]]["killed"] for u in (att, dfd)}
    return case, out, out["loser"] and (sides["defender"] if out["loser"] == sides["attacker"] else sides["attacker"]), \
        lost, "figures"


def play_orda(table, sides):
    case = copy.deepcopy(table.setup)
    att = _side_units(case, sides["attacker"], "faction")[-1]
    dfd = _side_units(case, sides["defender"], "faction")[-1]
    # The moderator's edits before play: the printed values the source lost, and the two units side by side.
    for u in case["units"]:
        u["stats"] = {**u["stats"], "attack": 3, "defence": 2, "speed": 1, "summon": 2}
    q, r = dfd["hex"]
    taken = {tuple(u["hex"]) for u in case["units"] if u["hex"]} | {tuple(c["hex"]) for c in case["cities"]}
    att["hex"] = next([q + dq, r + dr] for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
                      if (q + dq, r + dr) not in taken and max(abs(q + dq), abs(r + dr), abs(q + dq + r + dr)) <= 4)
    case["attack"] = {"attacker": att["id"], "target": dfd["id"], "provoked": False, "aimed": False,
                      "counter": "defence"}
    case["dice"] = {"attacker": [6], "defender": [1]}
    out = ORDA["attack"](case)
    assert out["refused"] is None, out["refused"]
    lost = {sides["attacker"]: 0, sides["defender"]: out["damage"]}
    return case, out, sides["attacker"] if out["hit"] else sides["defender"], lost, "health"


PLAY = {"red-plains": play_red_plains, "tactical": play_tactical, "orda": play_orda}


def play_to_the_end(table, tb, mod):
    """The table's battle fought by its engine (one step on the log), then `tables.finish` with its result."""
    case, out, winner, lost, measure = PLAY[table.system](table, tb.sides)
    start = {}
    for key in tb.sides.values():
        if table.system == "orda":
            start[key] = sum(u["stats"]["health"] for u in table.setup["units"] if u["faction"] == key)
        elif table.system == "red-plains":
            start[key] = sum(u["figures"] for u in table.setup["units"] if u["side"] == key)
        else:
            start[key] = sum(g["count"] for u in table.setup["units"] if u["side"] == key for g in u["figures"])
    result = {"winner": winner, "ended_by": "rout",
              "losses": {key: {"start": start[key], "lost": lost.get(key, 0)} for key in tb.sides.values()}}
    with tables.locked(table.pk) as locked:
        tables.record(locked, "melee", mod, payload=case, outcome=out, summary="the decisive fight")
        tables.finish(locked, result, mod, summary="the end")
    return result


@pytest.mark.parametrize("system", ["red-plains", "tactical", "orda"])
def test_a_battle_played_at_a_table_of_each_system_ends_the_turn_as_adjudicate_turn(played, system):  # noqa: F811
    game, mod = played
    turn = turns.current_phase(game).turn
    tactics(game, mod)
    rolls = [roll(game, mod, 0)]                      # battle 1 (Serres) by autobattle
    _turn, _res, result = console.current_result(game)
    awaiting = result["awaiting"]
    n = awaiting["n"]
    assert n == 2

    tb = bridge.send_to_table(game, mod, n, system, "the two main armies: the commanders fight it out", seed=42)
    table = tb.table
    assert table.system == system and table.origin == {"battle": n, "turn": turn.number,
                                                       "province": awaiting["province"]}
    assert table.setup and {s.faction.code for s in table.sides.all() if s.faction} == \
        {f for f in (awaiting["attacker"]["faction"], awaiting["defender"]["faction"]) if f}
    assert AuditEntry.objects.filter(game=game, action="battle_sent_to_table",
                                     reason="the two main armies: the commanders fight it out").exists()

    # While the table is open the battle waits for it: no dice, no undo, the phase does not advance.
    with pytest.raises(console.ConsoleError, match="идёт за столом"):
        console.confirm_battle(game, mod, n, [6], [1])
    with pytest.raises(console.ConsoleError, match="идёт за столом"):
        console.undo_last_battle(game, mod, "oops", 1)
    with pytest.raises(WorkPending) as pending:
        turns.next_phase(game, mod)
    assert any("идёт за столом" in s for s in pending.value.args[0])
    with pytest.raises(bridge.BridgeError):
        bridge.confirm_result(game, mod, tb.pk, "attacker", 1, 1)       # not finished yet

    table_result = play_to_the_end(table, tb, mod)
    tb.refresh_from_db()
    suggested = bridge.suggestion(tb)
    # The side's power x the share of its figures lost, rounded half up.
    for role, key in tb.sides.items():
        counted = table_result["losses"][key]
        expected = int(tb.power[role] * counted["lost"] / counted["start"] + 0.5) if counted["start"] else 0
        assert suggested["losses"][role] == expected
    assert suggested["winner"] == {v: k for k, v in tb.sides.items()}[table_result["winner"]]

    bridge.confirm_result(game, mod, tb.pk, suggested["winner"], suggested["losses"]["attacker"],
                          suggested["losses"]["defender"])
    assert bridge.state_of(tb) == "returned" and bridge.active(turn) is None
    _turn, res, result = console.current_result(game)
    fought = result["fought"][n - 1]
    assert fought["outside"] is True and fought["attacker"]["losses"] == suggested["losses"]["attacker"]
    assert res.choices["outcomes"][0]["table"]["id"] == table.pk

    finish_the_turn_as_adjudicate_turn(game, mod, turn, rolls, n, suggested)
    # The players' tablets tell the battle from their side, as fought at the table.
    from larp.campaign.models import Faction
    from larp.tablet.selectors import faction_turn_result
    attacker = Faction.objects.get(game=game, code=awaiting["attacker"]["faction"])
    told = [b for b in faction_turn_result(attacker)["battles"] if b["number"] == n]
    assert told and told[0]["at_table"]["title"] == table.title and told[0]["attacked"]


def finish_the_turn_as_adjudicate_turn(game, mod, turn, rolls, n, outcome):
    """The turn's other battles rolled with the fixed dice, the regroup applied; the state and the map equal
    `adjudicate turn` on the turn's case with the same dice and battle n's outcome entered as decided elsewhere."""
    i = len(rolls)
    while console.current_result(game)[2].get("awaiting"):
        rolls.append(roll(game, mod, i))
        i += 1
    turns.next_phase(game, mod)                      # Regroup
    final = console.apply_regroup(game, mod)

    case = dict(turn.start_state)
    case["orders"] = [o.payload for o in turn.orders.order_by("implicit", "filed_at", "id")]
    case["dice"] = rolls
    case["choices"] = {"outcomes": [{"battle": n, "winner": outcome["winner"], "losses": outcome["losses"]}]}
    expected = run_turn(case)
    assert final["state"] == expected["state"]
    assert final["recoloured"] == expected["recoloured"]
    for code, p in expected["state"]["provinces"].items():
        if p["domain"] == "land":
            province = Province.objects.get(game=game, code=code)
            assert (province.owner.code if province.owner else None) == p["owner"]
    return expected


def test_cancelling_returns_the_battle_to_the_autobattle(played):  # noqa: F811
    game, mod = played
    tactics(game, mod)
    roll(game, mod, 0)
    tb = bridge.send_to_table(game, mod, 2, "red-plains", "decisive battle")
    from larp.orders.services import OrderRefused
    with pytest.raises(OrderRefused):                   # the battles are fixed while one is at a table
        console.moderator_set_order(mod, game, "venice-1", {"type": "hold"}, "late order")
    with pytest.raises(bridge.BridgeError):
        bridge.cancel(game, mod, tb.pk, "  ")
    bridge.cancel(game, mod, tb.pk, "the commanders are not here")
    tb.refresh_from_db()
    assert tb.cancelled and tb.table.status == Table.CANCELLED
    assert AuditEntry.objects.filter(game=game, action="battle_table_cancelled",
                                     reason="the commanders are not here").exists()
    console.confirm_battle(game, mod, 2, [6], [1])     # the autobattle again
    assert len(console.current_result(game)[2]["fought"]) == 2


def test_a_confirmed_table_result_can_be_undone_like_a_battle(played):  # noqa: F811
    game, mod = played
    tactics(game, mod)
    roll(game, mod, 0)
    tb = bridge.send_to_table(game, mod, 2, "red-plains", "decisive battle")
    with tables.locked(tb.table_id) as table:
        tables.record(table, "melee", mod, payload={}, outcome={}, summary="the decisive fight")
        tables.finish(table, {"winner": tb.sides["defender"], "ended_by": "rout",
                              "losses": {tb.sides["attacker"]: {"start": 10, "lost": 5},
                                         tb.sides["defender"]: {"start": 10, "lost": 1}}}, mod)
    bridge.confirm_result(game, mod, tb.pk, "defender", 7, 1, "the table counted the wounded")
    assert AuditEntry.objects.filter(game=game, action="outside_outcome_entered",
                                     reason="the table counted the wounded").exists()
    with pytest.raises(console.AlreadyDone):
        bridge.confirm_result(game, mod, tb.pk, "defender", 7, 1)
    # Its result is in the turn: an undo at the table would reopen a battle the turn has counted.
    with tables.locked(tb.table_id) as table, pytest.raises(ValidationError) as refused:
        tables.undo_last(table, mod, "the table's last step was wrong")
    assert "уже в ходе войны" in refused.value.messages[0]
    assert Table.objects.get(pk=tb.table_id).status == Table.FINISHED
    assert console.undo_last_battle(game, mod, "wrong losses typed", 2) == 2
    _turn, res, result = console.current_result(game)
    assert res.choices["outcomes"] == [] and result["awaiting"]["n"] == 2
    assert bridge.state_of(TableBattle.objects.get(pk=tb.pk)) == "to_confirm"
    with tables.locked(tb.table_id) as table:                     # out of the turn again: the table may reopen
        assert tables.undo_last(table, mod, "the end was declared too early").kind == "melee"
    assert Table.objects.get(pk=tb.table_id).status == Table.PLAYING
    with tables.locked(tb.table_id) as table:
        tables.record(table, "melee", mod, payload={}, outcome={}, summary="the decisive fight, again")
        tables.finish(table, {"winner": tb.sides["attacker"], "ended_by": "rout",
                              "losses": {tb.sides["attacker"]: {"start": 10, "lost": 2},
                                         tb.sides["defender"]: {"start": 10, "lost": 9}}}, mod)
    bridge.confirm_result(game, mod, tb.pk, "attacker", 2, 9, "second reading")
    assert console.current_result(game)[2]["fought"][1]["outcome"] == "attacker_won"
