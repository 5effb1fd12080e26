"""What a side commands at the table beyond the plain orders, as the adapter replays it (no database): cavalry's
two actions (W21.1) and its Decisive attack's first action (W16.3), an ordinary order given instead of a special
one (W16.5), the Dragon banner's move (W12.4), the leaders' moves (W11.1) and their fate (W11.2)."""
import pytest

from larp.redplains import situation as sit
from larp.redplains.engine.turn import turn_mode

# north (all placed, facing south)                                     south (facing north)
# n1 cavalry       A12 (5,3)  general Akodo                            s1 ashigaru spears D21 (7,5)
# n2 cavalry       B11 (7,3)  commander Togashi                        s2 samurai bows     D16 (12,4)
# n3 samurai spears A11 (6,3)                                          s3 ashigaru spears C11 (6,4): its front is A11
# n4 samurai bows  A22 (5,2)  a minor clan's
# n5 samurai spears A21 (6,2)   n6 ashigaru spears A13 (4,3)   n7 ashigaru spears A14 (3,3)
# n8 cavalry       A16 (1,3)  in a forest
CELLS = {"n1": "A12", "n2": "B11", "n3": "A11", "n4": "A22", "n5": "A21", "n6": "A13", "n7": "A14", "n8": "A16",
         "s1": "D21", "s2": "D16", "s3": "C11"}


def make_setup(dragon=True):
    north = [{"type": "cavalry", "figures": 8}, {"type": "cavalry", "figures": 8},
             {"type": "samurai_spears", "figures": 8}, {"type": "samurai_bows", "figures": 6, "minor_clan": "ikoma"},
             {"type": "samurai_spears", "figures": 8}, {"type": "ashigaru_spears", "figures": 8},
             {"type": "ashigaru_spears", "figures": 8}, {"type": "cavalry", "figures": 6}]
    south = [{"type": "ashigaru_spears", "figures": 8}, {"type": "samurai_bows", "figures": 8},
             {"type": "ashigaru_spears", "figures": 8}]
    setup = sit.make_setup({"north": north, "south": south}, forests=["A16"], messengers={"north": 1},
                           generals={"north": [("Акодо", 1)]}, commanders={"north": ("Тогаси", 2)},
                           banners={"north": {"dragon": 1, "tiger": 1}} if dragon else {})
    for u in setup["units"]:
        u["cell"] = CELLS[u["id"]]
    return setup


def step(kind, side="", **payload):
    return {"kind": kind, "side": side, "payload": payload}


def rolled(setup, north=(6, 6), south=(3, 3), extra=()):
    """Turn 1's command phase with both rolls made (the armies came placed) and any further steps."""
    return sit.replay(setup, [step("roll", "north", dice=list(north)), step("roll", "south", dice=list(south)),
                              *extra])


def option(options, unit, **fields):
    found = [o for o in options[unit] if all(o["order"].get(k) == v for k, v in fields.items())
             and all(k in fields for k in o["order"] if k not in ("unit", "slot", "kind", "type"))]
    assert len(found) == 1, (unit, fields, found)
    return found[0]


def executed(setup, steps, die=4):
    """Both sides confirm, every awaited roll gets `die`s, the turn is executed; also the engine's own result."""
    steps = list(steps) + [step("confirm", "north"), step("confirm", "south")]
    state = sit.replay(setup, steps)
    for _ in range(100):
        seen = sit.preview(setup, state)
        if seen["complete"]:
            break
        steps.append(step("dice", roller=seen["awaiting"]["roller"], values=[die]))
        state = sit.replay(setup, steps)
    engine = turn_mode(sit.turn_case(setup, state))
    steps.append(step("execute"))
    return sit.replay(setup, steps), engine


# ---------------------------------------------------------------------------- W21.1 cavalry's two actions
def test_cavalry_orders_offer_every_pair_of_actions_the_engine_accepts():
    setup = make_setup()
    options = sit.order_options(setup, rolled(setup), "north")
    assert option(options, "n2", kind="ordinary", type="move", actions=["reform_left", "move"])["refused"] is None
    # a pair with a move among its actions is a move order (W32.3), else a retreat, else a reform
    assert option(options, "n2", kind="ordinary", type="move", actions=["move", "retreat"])["refused"] is None
    assert option(options, "n2", kind="ordinary", type="retreat", actions=["reform_right", "retreat"])
    assert option(options, "n2", kind="ordinary", type="reform", actions=["reform_left", "reform_left"])
    # in a forest no reform (W38.5): the pairs with one are greyed, two moves are not
    assert option(options, "n8", kind="ordinary", type="move", actions=["reform_left", "move"])["refused"]["rule"] == "W38.5"
    assert option(options, "n8", kind="ordinary", type="move", actions=["move", "move"])["refused"] is None
    # infantry has no pairs
    assert not [o for o in options["n3"] if o["order"].get("actions")]
    assert len([o for o in options["n2"] if o["order"]["kind"] == "ordinary" and
                o["order"]["type"] in ("move", "retreat", "reform")]) == 4 + 4 * 4


def test_a_cavalry_reform_then_move_is_filed_and_executed_as_the_engine_says():
    setup = make_setup()
    order = {"unit": "n2", "slot": 1, "kind": "ordinary", "type": "move", "actions": ["reform_left", "move"]}
    state, engine = executed(setup, [step("roll", "north", dice=[6, 6]), step("roll", "south", dice=[3, 3]),
                                     step("orders", "north", orders=[order])])
    n2 = sit.unit_map(state)["n2"]
    assert (n2["cell"], n2["facing"]) == ("B12", "E") == (engine["units"]["n2"]["cell"], engine["units"]["n2"]["facing"])
    assert [e["type"] for e in engine["events"] if e.get("unit") == "n2"][:2] == ["turn", "move"]
    assert state["turns"][-1]["orders"]["north"] == [order]


def test_a_cavalry_pair_the_engine_refuses_is_refused_at_filing():
    setup = make_setup()
    state = rolled(setup, extra=[step("orders", "north", orders=[
        {"unit": "n8", "slot": 1, "kind": "ordinary", "type": "move", "actions": ["reform_right", "move"]}])])
    assert state["orders_check"]["north"]["refused"] == [{"unit": "n8", "slot": 1, "rule": "W38.5",
                                                         "reason": "forest_turn"}]
    with pytest.raises(sit.StepRefused):
        sit.apply(setup, state, "confirm", "north", {})


# ---------------------------------------------------------------------------- W16.3 the cavalry's first action
def test_a_cavalry_decisive_attack_names_its_first_action():
    setup = make_setup()
    options = sit.order_options(setup, rolled(setup), "north")
    for first in (None, "move", "reform_left", "reform_right"):
        fields = {"kind": "special", "type": "decisive_attack", "target": "s1", **({"first": first} if first else {})}
        assert option(options, "n2", **fields)["refused"] is None                 # two cells ahead, the cell between free
    assert option(options, "n3", kind="special", type="decisive_attack", target="s1")["refused"]["rule"] == "W16.3"
    assert not [o for o in options["n3"] if o["order"].get("first")]              # infantry has no first action
    order = {"unit": "n2", "slot": 1, "kind": "special", "type": "decisive_attack", "target": "s1", "first": "move"}
    state, engine = executed(setup, [step("roll", "north", dice=[6, 6]), step("roll", "south", dice=[3, 3]),
                                     step("orders", "north", orders=[order])])
    moves = [e for e in engine["events"] if e["type"] == "move" and e["unit"] == "n2"]
    assert moves and moves[0]["priority"] == "P2" and moves[0]["to"] == "D11"      # the first move acts in P2
    assert any(e["type"] == "melee" for e in engine["events"])
    assert sit.unit_map(state)["n2"]["cell"] == engine["units"]["n2"]["cell"]


# ---------------------------------------------------------------------------- W16.5 ordinary instead of special
def test_an_ordinary_order_instead_of_a_special_one_in_either_timing():
    setup = make_setup()
    options = sit.order_options(setup, rolled(setup), "north")
    # n3 stands with s3's front on it: turning would show s3 its flank (W15.1) — allowed only in the special timing
    assert option(options, "n3", kind="ordinary", type="reform", dir="left")["refused"]["rule"] == "W15.1"
    assert option(options, "n3", kind="special", type="reform", dir="left", timing="ordinary")["refused"]["rule"] == "W15.1"
    assert option(options, "n3", kind="special", type="reform", dir="left", timing="special")["refused"] is None
    # cavalry's pairs too, in both timings
    assert option(options, "n2", kind="special", type="move", timing="special", actions=["reform_left", "move"])


def test_the_ordinary_order_in_special_timing_is_paid_with_a_special_and_acts_in_it():
    setup = make_setup()
    order = {"unit": "n3", "slot": 1, "kind": "special", "type": "reform", "dir": "left", "timing": "special"}
    state = rolled(setup, extra=[step("orders", "north", orders=[order])])
    assert state["orders_check"]["north"] == {"ok": True, "refused": [], "paid": {"special": 1, "ordinary": 0}}
    # a failed low stake gives no special: the general's extra (n3 is next to him) pays for one, not for two
    far = {"unit": "n7", "slot": 1, "kind": "special", "type": "move", "timing": "special"}
    poor = rolled(setup, north=(1, 1), extra=[step("orders", "north", orders=[order, far])])
    assert poor["orders_check"]["north"]["paid"] == {"special": 1, "ordinary": 0}
    assert [(r["unit"], r["rule"]) for r in poor["orders_check"]["north"]["refused"]] == [("n7", "W7")]
    state, engine = executed(setup, [step("roll", "north", dice=[6, 6]), step("roll", "south", dice=[3, 3]),
                                     step("orders", "north", orders=[order])])
    # it turns in S1 (unhindered by W15.1), then, its flank to s3's front, turns back by itself (W17.2)
    assert [(e["step"], e["type"], e["to"]) for e in engine["events"] if e.get("unit") == "n3"] == [
        ("S1", "turn", "E"), ("S1", "auto_turn", "S")]
    assert sit.unit_map(state)["n3"]["facing"] == engine["units"]["n3"]["facing"] == "S"


# ---------------------------------------------------------------------------- W12.4 the Dragon banner
def test_the_dragon_move_is_offered_where_the_army_owns_the_banner_and_as_far_as_the_type_goes():
    setup = make_setup()
    options = sit.order_options(setup, rolled(setup), "north")
    dragons = [o for o in options["n2"] if o["order"]["type"] == "dragon"]
    assert sorted((o["order"].get("dir", ""), o["order"]["moves"]) for o in dragons) == sorted(
        (d, n) for d in ("", "left", "right") for n in (1, 2))                        # cavalry: up to 2 cells
    assert all(o["refused"] is None for o in dragons)
    assert {o["order"]["moves"] for o in options["n3"] if o["order"]["type"] == "dragon"} == {1}   # infantry: 1
    assert option(options, "n4", kind="special", type="dragon", moves=1)["refused"]["reason"] == "banner_in_minor_clan"
    south = sit.order_options(setup, rolled(setup), "south")
    assert not [o for s in south.values() for o in s if o["order"]["type"] == "dragon"]   # south owns no Dragon


def test_the_dragon_move_goes_first_attacks_and_uses_the_banner():
    setup = make_setup()
    order = {"unit": "n2", "slot": 1, "kind": "special", "type": "dragon", "moves": 2}
    filed = [step("roll", "north", dice=[1, 1]), step("roll", "south", dice=[3, 3]),
             step("orders", "north", orders=[order], banners=[{"unit": "n2", "banner": "dragon"}])]
    state = sit.replay(setup, filed)
    assert state["orders_check"]["north"] == {"ok": True, "refused": [], "paid": {"special": 0, "ordinary": 0}}
    state, engine = executed(setup, filed)
    first = engine["events"][0]
    assert (first["step"], first["priority"], first["type"], first["unit"], first["to"]) == ("S1", "P0", "move", "n2", "D11")
    assert any(e["type"] == "melee" and "n2" in e["units"] and "s1" in e["units"] for e in engine["events"])
    assert state["banners_left"]["north"]["dragon"] == 0
    # the banner is used up: the next turn greys the move with the reason
    options = sit.order_options(setup, sit.apply(setup, state, "roll", "north", {"dice": [6, 6]}), "north")
    refused = {o["refused"]["reason"] for o in options["n3"] if o["order"]["type"] == "dragon"}
    assert refused == {"banner_used_up"}


def test_the_dragon_move_without_its_banner_or_not_first_is_refused():
    setup = make_setup()
    dragon = {"unit": "n2", "slot": 1, "kind": "special", "type": "dragon", "moves": 2}
    state = rolled(setup, extra=[step("orders", "north", orders=[dragon])])
    assert state["orders_check"]["north"]["refused"][0]["reason"] == "dragon_without_banner"
    second = {**dragon, "slot": 2}
    state = rolled(setup, extra=[step("orders", "north", orders=[
        {"unit": "n2", "slot": 1, "kind": "ordinary", "type": "move"}, second],
        banners=[{"unit": "n2", "banner": "dragon"}])])
    reasons = {r["reason"] for r in state["orders_check"]["north"]["refused"]}
    assert "dragon_not_first" in reasons
    far = {**dragon, "unit": "n3", "moves": 2}
    state = rolled(setup, extra=[step("orders", "north", orders=[far], banners=[{"unit": "n3", "banner": "dragon"}])])
    assert state["orders_check"]["north"]["refused"][0]["reason"] == "dragon_too_far"


# ---------------------------------------------------------------------------- W11 leaders
def test_a_leader_may_move_to_a_unit_next_to_his_diagonals_included_not_a_minor_clans():
    setup = make_setup()
    board = {g["name"]: g for g in sit.leader_board(setup, rolled(setup), "north")}
    assert board["Акодо"]["unit"] == "n1" and board["Акодо"]["targets"] == ["n3", "n5", "n6"]   # n5 diagonal
    assert board["Тогаси"]["kind"] == "commander" and board["Тогаси"]["targets"] == ["n3", "n5"]
    assert sit.leader_board(setup, rolled(setup), "south") == []


def test_the_engine_sees_the_general_where_he_moved():
    setup = make_setup()
    hold = {"unit": "n7", "slot": 1, "kind": "special", "type": "hold"}
    # a failed low stake: no special of its own; the general's extra is for his unit or one next to it (W9.2)
    state = rolled(setup, north=(1, 1), extra=[step("orders", "north", orders=[hold])])
    assert state["command"]["north"]["result"]["extra"]["special"] == [{"general": "Акодо", "count": 1}]
    assert state["orders_check"]["north"]["refused"][0]["reason"] == "extra_order_misused"   # n7 is far from n1
    moved = sit.apply(setup, state, "leader", "north", {"leader": 0, "unit": "n6"})            # n6 stands by n7
    assert moved["orders_check"]["north"]["ok"]
    assert [g["unit"] for g in sit.leaders_now(setup, moved)] == ["n6", "n2"]
    assert sit.base_case(setup, moved)["leaders"][0]["unit"] == "n6"
    # back where he was: no move
    back = sit.apply(setup, moved, "leader", "north", {"leader": 0, "unit": "n1"})
    assert back["leader_moves"]["north"] == {} and not back["orders_check"]["north"]["ok"]


def test_leader_moves_refused():
    setup = make_setup()
    state = rolled(setup)
    for side, payload in (("north", {"leader": 0, "unit": "n7"}),          # two cells away
                          ("north", {"leader": 0, "unit": "n4"}),          # a minor clan's unit (W6.3)
                          ("north", {"leader": 0, "unit": "s3"}),          # an enemy
                          ("north", {"leader": 5, "unit": "n3"}), ("north", {"leader": True, "unit": "n3"}),
                          ("north", {"leader": "0", "unit": "n3"}),
                          ("south", {"leader": 0, "unit": "n3"})):         # another side's leader
        with pytest.raises(sit.StepRefused) as error:
            sit.apply(setup, state, "leader", side, payload)
        assert error.value.code == "bad_leader_move", payload
    confirmed = sit.apply(setup, state, "confirm", "north", {})
    with pytest.raises(sit.StepRefused) as error:
        sit.apply(setup, confirmed, "leader", "north", {"leader": 0, "unit": "n3"})
    assert error.value.code == "not_command"


def test_the_moves_stand_after_the_turn_and_are_revealed_with_it():
    setup = make_setup()
    state, _engine = executed(setup, [step("roll", "north", dice=[6, 6]), step("roll", "south", dice=[3, 3]),
                                      step("leader", "north", leader=0, unit="n5"),
                                      step("leader", "north", leader=1, unit="n3")])
    assert [g["unit"] for g in state["leaders"]] == ["n5", "n3"] and state["leader_moves"]["north"] == {}
    assert state["turns"][-1]["leaders"] == [
        {"side": "north", "name": "Акодо", "kind": "general", "from": "n1", "to": "n5"},
        {"side": "north", "name": "Тогаси", "kind": "commander", "from": "n2", "to": "n3"}]
    board = {g["name"]: g for g in sit.leader_board(setup, state, "north")}
    assert board["Акодо"]["targets"] == ["n1", "n2", "n3"]                    # from A21 now: A12, B11, A11


def test_a_general_dies_with_his_unit_and_the_commander_loses_his_traits():
    setup = make_setup()
    state = sit.replay(setup, [step("override", unit="n1", changes={"figures": 0, "status": "destroyed"}, reason="x"),
                               step("override", unit="n2", changes={"figures": 0, "status": "destroyed"}, reason="x"),
                               step("roll", "north", dice=[6, 6])])
    assert state["command"]["north"]["result"]["extra"]["special"] == []          # no extra order from a dead general
    board = {g["name"]: g for g in sit.leader_board(setup, state, "north")}
    assert not board["Акодо"]["alive"] and not board["Тогаси"]["alive"] and board["Акодо"]["targets"] == []
    with pytest.raises(sit.StepRefused) as error:
        sit.apply(setup, state, "leader", "north", {"leader": 0, "unit": "n3"})
    assert error.value.code == "leader_unit_gone"
