"""Orda engine properties over random legal states (hypothesis): nothing made from nothing, one place per
unit, no act by a removed unit, byte-identical replays (issue 32).

A state is a small 2-player Skirmish board (radius 3) with up to six units of
either faction, any of them possibly dead or in reserve, a few traps, and a
seed (so the engine rolls any die the action needs). The action is one attack,
one move, one action trait or the end of a turn, its actors drawn from every
unit, removed ones included.
"""
import io
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from larp.orda.engine import cli
from larp.orda.engine.data import load

DATA = load()
FACTIONS = ("rus", "north_mongolia")
CAPITALS = {"rus": [0, 3], "north_mongolia": [0, -3]}
BOARD = [[q, r] for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3]
OPEN = [h for h in BOARD if h not in CAPITALS.values()]
DIRS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
ACTION_TOKENS = {f: sorted(k for k, kind in DATA.kinds[f].items() if DATA.trait(kind.trait).get("kind") == "action")
                 for f in FACTIONS}
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def run(mode: str, text: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main([mode, "-"], io.StringIO(text), out, err)
    return code, out.getvalue(), err.getvalue()


@st.composite
def states(draw):
    n = draw(st.integers(2, 6))
    active = draw(st.sampled_from(FACTIONS))
    # units 0 and 1: one of the active faction and an enemy next to it, so most attacks can be legal
    first = draw(st.sampled_from(OPEN))
    beside = [h for h in ([first[0] + dq, first[1] + dr] for dq, dr in DIRS) if h in OPEN]
    hexes = [first, draw(st.sampled_from(beside))]
    hexes += draw(st.lists(st.sampled_from([h for h in OPEN if h not in hexes]), min_size=n - 2, max_size=n - 2,
                           unique_by=tuple))
    units, counters = [], {}
    for i, h in enumerate(hexes):
        faction = (active, FACTIONS[1 - FACTIONS.index(active)])[i] if i < 2 else draw(st.sampled_from(FACTIONS))
        token = draw(st.sampled_from(sorted(DATA.kinds[faction])))
        kind = DATA.kinds[faction][token]
        counters[token] = counters.get(token, 0) + 1
        health = draw(st.integers(1, 4))
        where = "board" if i < 2 else draw(st.sampled_from(["board", "board", "board", "dead", "reserve"]))
        units.append({
            "id": f"{faction[:2]}-{token}-{i}", "faction": faction, "token": token, "where": where,
            "hex": h if where == "board" else None,
            "stats": {"health": health, "attack": draw(st.integers(0, 4)), "defence": draw(st.integers(0, 4)),
                      "speed": draw(st.integers(1, 3)), "summon": draw(st.integers(1, 3)),
                      "range": draw(st.integers(1, 3)) if kind.cls == "ranged" else None},
            "damage": draw(st.integers(0, health - 1)), "effects": []})
    used = {tuple(u["hex"]) for u in units if u["hex"]}
    free = [h for h in OPEN if tuple(h) not in used]
    traps = [{"hex": h, "faction": draw(st.sampled_from(FACTIONS))}
             for h in draw(st.lists(st.sampled_from(free), max_size=2, unique_by=tuple))]
    return {
        "game": {"mode": "skirmish", "players": 2, "order": list(FACTIONS), "tour": draw(st.integers(1, 3)),
                 "active": active},
        "factions": [{"id": "rus", "capital": "rus-cap"}, {"id": "north_mongolia", "capital": "nm-cap"}],
        "board": {"radius": 3},
        "cities": [{"id": "rus-cap", "kind": "capital", "faction": "rus", "hex": CAPITALS["rus"], "colour": "blue",
                    "durability": 6, "damage": draw(st.integers(0, 5)), "destroyed": False},
                   {"id": "nm-cap", "kind": "capital", "faction": "north_mongolia", "hex": CAPITALS["north_mongolia"],
                    "colour": "yellow", "durability": 6, "damage": draw(st.integers(0, 5)), "destroyed": False}],
        "units": units, "traps": traps,
        "seed": draw(st.integers(0, 2 ** 31)),
    }


@st.composite
def actions(draw):
    case = draw(states())
    ids = [u["id"] for u in case["units"]]
    kind = draw(st.sampled_from(["attack", "move", "ability", "turn"]))
    if kind == "attack":
        a, t = (ids[0], ids[1]) if draw(st.integers(0, 3)) else (draw(st.sampled_from(ids)), draw(st.sampled_from(ids)))
        counter = draw(st.sampled_from(["defence", "retreat"]))
        target = next(u for u in case["units"] if u["id"] == t)
        base = target["hex"] or [0, 0]
        dq, dr = draw(st.sampled_from(DIRS))
        case["attack"] = {"attacker": a, "target": t, "provoked": draw(st.integers(0, 4)) == 0, "aimed": False,
                          "counter": counter,
                          "retreat_to": [base[0] + dq, base[1] + dr] if counter == "retreat" else None}
        return "attack", case
    if kind == "move":
        uid = ids[0] if draw(st.integers(0, 3)) else draw(st.sampled_from(ids))
        mover = next(u for u in case["units"] if u["id"] == uid)
        at, path = mover["hex"] or [0, 0], []
        for _ in range(draw(st.integers(1, 3))):
            dq, dr = draw(st.sampled_from(DIRS))
            at = [at[0] + dq, at[1] + dr]
            path.append(at)
        case["move"] = {"unit": uid, "path": path}
        if draw(st.booleans()):
            case["dice"] = [{"attacker": [draw(st.integers(1, 6))], "defender": [draw(st.integers(1, 6))]}
                            for _ in range(6)]
        return "move", case
    if kind == "ability":
        uid = ids[0] if draw(st.integers(0, 3)) else draw(st.sampled_from(ids))
        actor = next(u for u in case["units"] if u["id"] == uid)
        if uid == ids[0]:   # give the active unit a token whose trait is an action, so most actions are legal
            actor["token"] = draw(st.sampled_from(ACTION_TOKENS[actor["faction"]]))
            ranged = DATA.kinds[actor["faction"]][actor["token"]].cls == "ranged"
            actor["stats"]["range"] = draw(st.integers(1, 3)) if ranged else None
        trait = DATA.kinds[actor["faction"]][actor["token"]].trait
        case["ability"] = {"unit": uid, "trait": trait, "target": draw(st.sampled_from(ids)),
                           "param": draw(st.sampled_from(["attack", "defence", "speed"])),
                           "hex": draw(st.sampled_from(BOARD)), "copy": draw(st.sampled_from(sorted(DATA.traits)))}
        return "ability", case
    case["stage"] = "end"
    case["turn_start"] = {u["id"]: u["hex"] for u in case["units"] if u["where"] == "board"}
    return "turn", case


def outcome(mode: str, case: dict) -> dict | None:
    """The result (None for a refused-as-malformed case, which must still be one line on stderr)."""
    text = json.dumps(case)
    code, out, err = run(mode, text)
    assert (code, out, err) == run(mode, text), "the same input and seed give byte-identical output"
    if code == 2:
        assert out == "" and err.count("\n") == 1 and "Traceback" not in err
        return None
    assert code == 0 and err == "", err
    return json.loads(out)


def removed(case: dict) -> set[str]:
    return {u["id"] for u in case["units"] if u["where"] != "board"}


def check_state(before: dict, after_units: list[dict], traps_after: list[dict] | None,
                healed: dict | None = None) -> None:
    start = {u["id"]: u for u in before["units"]}
    ids = [u["id"] for u in after_units]
    assert sorted(ids) == sorted(start), "no unit made from nothing, none lost"
    on_board = [tuple(u["hex"]) for u in after_units if u["where"] == "board"]
    assert len(on_board) == len(set(on_board)), "no two units on one hex"
    assert all(list(h) in BOARD for h in on_board)
    for u in after_units:
        was = start[u["id"]]
        assert (u["faction"], u["token"]) == (was["faction"], was["token"])
        if u["where"] != "board":
            assert u["hex"] is None, "a removed unit stands nowhere"
        if was["where"] == "dead":
            assert u["where"] == "dead", "the dead stay dead"
        if healed is not None and healed["unit"] == u["id"]:
            assert u["damage"] == was["damage"] - 1 >= 0, "healing removes one damage, never below none"
        else:
            assert was["damage"] <= u["damage"] <= u["stats"]["health"], "no health from nothing"
    if traps_after is not None:
        assert all(t in before["traps"] for t in traps_after), "no trap from nothing"


@SETTINGS
@given(action=actions())
def test_a_random_action_on_a_random_state_keeps_every_token_in_one_place(action):
    mode, case = action
    res = outcome(mode, case)
    if res is None:
        return
    gone = removed(case)
    if mode == "attack":
        if case["attack"]["attacker"] in gone or case["attack"]["target"] in gone:
            assert res["refused"] is not None, "a removed unit neither attacks nor is attacked"
        if res["refused"] is None:
            check_state(case, res["state"]["units"], res["state"]["traps"])
            if res["target"]["killed"]:
                assert res["target"]["hex"] is None
    elif mode == "move":
        if case["move"]["unit"] in gone:
            assert res["refused"] is not None, "a removed unit does not move"
        if res["refused"] is None:
            assert not {p["attacker"] for p in res["provoked"]} & gone, "a removed unit provokes no attack"
            if "state" in res:
                check_state(case, res["state"]["units"], res["state"]["traps"])
                mover = next(u for u in res["state"]["units"] if u["id"] == case["move"]["unit"])
                if res["killed_at_step"] is not None:
                    assert mover["where"] == "dead" and mover["hex"] is None
                    assert all(s["n"] <= res["killed_at_step"] for s in res["steps"]), "no step after its death"
                else:
                    assert mover["hex"] == res["end"]
    elif mode == "ability":
        if case["ability"]["unit"] in gone:
            assert res["refused"] is not None, "a removed unit takes no action"
        if res["refused"] is None:
            placed = res["trap_placed"]
            traps = [t for t in res["state"]["traps"] if placed is None or t["hex"] != placed]
            check_state(case, res["state"]["units"], traps, res["healed"])
            if placed is not None:
                assert len(res["state"]["traps"]) == len(case["traps"]) + 1
                assert placed not in [u["hex"] for u in res["state"]["units"]], "a trap only on an empty hex"
            if res["healed"] is not None:
                assert res["healed"]["unit"] not in gone, "the dead are not healed"
    else:
        if res.get("refused") is None:
            check_state(case, res["state"]["units"], res["state"]["traps"])
            for c0, c1 in zip(case["cities"], res["state"]["cities"]):
                assert c1["damage"] >= c0["damage"], "durability never recovers"
            besiegers = {b["unit"] for s in res["siege"] for b in s["by"]}
            assert not besiegers & gone, "a removed unit besieges nothing"
