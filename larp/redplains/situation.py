"""The one adapter between a Red Plains table and its engine (docs/red-plains.md, "Table").

`Table.setup` holds the engine's starting situation of the battle in its case
format: `field`, `defender`, `sides` and `units` (cells null until the
deployment turn) and `leaders`; `sides.<side>.messengers` gives the side's
re-rolls (W8). The table's state is `replay(setup, steps)`: the engine run
again over every live step, so a table can be replayed step by step from its
log. Every die is in the steps as data; the engine never rolls.
"""
from __future__ import annotations

from typing import Any, Iterable

from larp.plain import copy_of
from larp.redplains.engine.board import Board
from larp.redplains.engine.case import MAX_ID
from larp.redplains.engine.data import load
from larp.redplains.engine.end import end_mode
from larp.redplains.engine.errors import CaseError
from larp.redplains.engine.modes import command_mode, shinobi_mode
from larp.redplains.engine.turn import turn_mode
from larp.redplains.engine.validate import validate_mode

SIDES = ("north", "south")
BANNERS = ("phoenix", "tiger", "crab")          # raised from the tablet's banner list (the Dragon's with its move)
ARMY_BANNERS = ("phoenix", "tiger", "dragon", "crab")   # an army may own (the «new battle» page, W12.1)
CAVALRY_ACTIONS = ("move", "retreat", "reform_left", "reform_right")   # W21.1: a cavalry order's actions
CAVALRY_FIRST = ("move", "reform_left", "reform_right")                # W16.3: a cavalry Decisive attack's first
STAKES = ("low", "high")
TYPES = ("cavalry", "samurai_spears", "samurai_bows", "ashigaru_spears", "ashigaru_arquebus")
SHOOTERS = ("samurai_bows", "ashigaru_arquebus")
ORDINARY_TYPES = ("move", "retreat", "reform", "shoot", "wait")
SPECIAL_TYPES = ("decisive_attack", "hold", "massed_shoot", "regroup")
TARGETED = ("shoot", "massed_shoot", "decisive_attack")
DEPLOYMENT, COMMAND, EXECUTION, ENDED = "deployment", "command", "execution", "ended"
PLAN_CHANGE = "plan_change"                     # W6.5: after the deployment, for a side whose shinobi got through
SCOUTING_CELLS = 2                              # red-plains.yaml shinobi.scouting_cells: cells per shinobi
SIGNALS = "signals"                             # W10.2: a battle turn's plan-change phase, after shinobi signalled
TASKS = ("sabotage", "panic", "interception", "signals")   # W10.2–W10.5: a shinobi's one task of the battle
TARGETED_TASKS = ("sabotage", "panic", "signals")
KINDS = ("special", "ordinary")
MAX_PLAN = 5                                    # W9.3: extra orders the moderator grants in one step
MAX_NOTE = 200
TRAITS = ("brawler", "charisma")                # W11.3: the leaders' traits the engine takes as modifiers
TRAIT_STATS = ("steadiness", "impetus", "armour")
MAX_TRAIT_VALUE = 5
IN_BATTLE = ("ready", "fleeing")


class StepRefused(Exception):
    """A step the rules do not allow now: `code` is a key of labels.REFUSALS (the page says why)."""

    def __init__(self, code: str, **params: Any):
        super().__init__(code)
        self.code = code
        self.params = params


def other(side: str) -> str:
    return "south" if side == "north" else "north"


def cells() -> list[dict]:
    """The field's cells (W2.3): label, column, row."""
    return [{"id": c, "col": col, "row": row} for c, (col, row) in load().cells.items()]


def zone(side: str) -> list[str]:
    rows = set(load().deployment_rows[side])
    return [c["id"] for c in cells() if c["row"] in rows]


# ---------------------------------------------------------------------------- the field as extended (W2.5)
MAX_CELLS_PER_STEP = 12


def extra_label(col: int, row: int) -> str:
    """W2.3's label carried past the field's edge: quarter, line counted from the centre, column counted outward.

    The same rule names the 72 cells of the data file (A11 = col 6, row 3), so a label never repeats; a line or
    column of 10 or more is set off by a dash (A3-10)."""
    data = load()
    north = row <= max(data.deployment_rows["north"])
    west = col <= data.columns // 2
    quarter = ("A" if west else "B") if north else ("C" if west else "D")
    line = max(data.deployment_rows["north"]) + 1 - row if north else row - max(data.deployment_rows["north"])
    outward = data.columns // 2 + 1 - col if west else col - data.columns // 2
    return f"{quarter}{line}{outward}" if line < 10 and outward < 10 else f"{quarter}{line}-{outward}"


def field_of(setup: dict, state: dict) -> dict:
    """The case's `field`: the setup's, with the cells the moderator added during the battle (`extend` steps)."""
    field = dict(setup.get("field") or {})
    field.update(state.get("terrain") or {})              # the terrain the moderator set before play (roster)
    field["extra_cells"] = list(field.get("extra_cells") or []) + list(state.get("extra_cells") or [])
    return field


def table_cells(setup: dict, state: dict) -> list[dict]:
    """Every cell of this battle's field: the 72 of W2.3 and the added ones (id, col, row)."""
    return cells() + [{"id": c["id"], "col": c["col"], "row": c["row"]} for c in field_of(setup, state)["extra_cells"]]


def may_extend(state: dict) -> bool:
    """Cells are added before the execution's dice (never in the middle of a roll's resolution) or after a turn."""
    return state["phase"] in (DEPLOYMENT, PLAN_CHANGE, COMMAND) or (state["phase"] == EXECUTION and not state["rolls"])


def addable(setup: dict, state: dict) -> list[dict]:
    """Where the moderator may add a cell now: next to a cell of the field (diagonals too), not a cell yet."""
    taken = {(c["col"], c["row"]) for c in table_cells(setup, state)}
    out = set()
    for col, row in taken:
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                pos = (col + dc, row + dr)
                if pos not in taken and -100 <= pos[0] <= 200 and -100 <= pos[1] <= 200:
                    out.add(pos)
    return [{"id": extra_label(col, row), "col": col, "row": row} for col, row in sorted(out, key=lambda p: (p[1], p[0]))]


def extend_field(setup: dict, state: dict, payload: dict) -> None:
    """W2.5: the moderator draws new cells (each next to the field as it stands); the engine checks the field."""
    need(may_extend(state), "extend_now")
    asked = payload.get("cells")
    need(isinstance(asked, list) and 0 < len(asked) <= MAX_CELLS_PER_STEP, "bad_extra_cells")
    free = {(c["col"], c["row"]): c for c in addable(setup, state)}
    new = []
    for item in asked:
        pos = (item.get("col"), item.get("row")) if isinstance(item, dict) else None
        need(pos is not None and all(isinstance(v, int) and not isinstance(v, bool) for v in pos), "bad_extra_cells")
        need(pos in free and free[pos] not in new, "bad_extra_cells")
        new.append(free[pos])
    field = field_of(setup, state)
    field["extra_cells"] += new
    try:
        Board(load(), field)
    except CaseError:
        raise StepRefused("bad_extra_cells") from None
    state["extra_cells"] = list(state.get("extra_cells") or []) + new
    if state["phase"] in (COMMAND, EXECUTION):              # a plan the new cells break is flagged (W2.5)
        for side in SIDES:
            recheck_orders(setup, state, side)


def make_setup(armies: dict[str, list[dict]], *, defender: str = "south", messengers: dict[str, int] | None = None,
               hills: Iterable[str] = (), forests: Iterable[str] = (), river: bool = False,
               bridge: tuple[str, str] | list[str] | None = None, shinobi: dict[str, int] | None = None,
               generals: dict[str, list[tuple[str, int]]] | None = None,
               banners: dict[str, dict[str, int]] | None = None,
               commanders: dict[str, tuple[str, int]] | None = None) -> dict:
    """A starting situation from the «new table» page: each army a list of {type, figures, shields}.

    `generals`: per side, (name, the number of the unit he rides in, 1-based in that side's army[, traits]) (W6.3);
    `commanders`: per side, the commander riding in a unit (name, number[, traits]), if he does. `traits` as
    `clean_traits` keeps them (W11.3: the trait and the values the moderator entered)."""
    units = []
    for side in SIDES:
        for i, u in enumerate(armies.get(side, []), start=1):
            node = {"id": f"{side[0]}{i}", "side": side, "type": u["type"], "figures": int(u["figures"]),
                    "cell": None, "facing": load().faces_at_deployment[side]}
            if u.get("shields"):
                node["shields"] = True
            if u.get("minor_clan"):
                node["minor_clan"] = u["minor_clan"]
            units.append(node)
    messengers, shinobi = messengers or {}, shinobi or {}
    return {"field": {"extra_cells": [], "river": bool(river), "bridge": list(bridge) if river and bridge else None,
                      "hills": list(hills),
                      "forests": list(forests)},
            "defender": defender,
            "sides": {s: {"general_retreat": None, "messengers": int(messengers.get(s, 0)),
                          "shinobi": int(shinobi.get(s, 0)), "banners": dict((banners or {}).get(s) or {})}
                      for s in SIDES},
            "units": units,
            "leaders": [leader(name, "general", f"{side[0]}{number}", *rest)
                        for side, gens in (generals or {}).items() for name, number, *rest in gens] +
                       [leader(name, "commander", f"{side[0]}{number}", *rest)
                        for side, (name, number, *rest) in (commanders or {}).items()]}


def bridge_places() -> list[tuple[str, str]]:
    """W36.3: where a bridge may stand — one north cell of the first line and the south cell across the river in
    the same column (north first), west to east."""
    by_pos = {(c["col"], c["row"]): c["id"] for c in cells()}
    north_line, south_line = max(load().deployment_rows["north"]), min(load().deployment_rows["south"])
    return [(by_pos[(col, north_line)], by_pos[(col, south_line)]) for col in range(1, load().columns + 1)]


def terrain_refusals(field: dict, defender: str) -> list[str]:
    """W6.2, W37.1, W38.1: the engine's own checks of the terrain the defender places (codes of labels.REASONS),
    so the «new battle» page refuses what the deployment would."""
    from larp.redplains.engine.board import Terrain
    from larp.redplains.engine.validate import terrain_checks
    try:
        board = Board(load(), field)
        terrain = Terrain(board, field)
    except CaseError:
        return ["malformed"]
    return [r["reason"] for r in terrain_checks(load(), board, terrain, defender)]


def leader(name: str, kind: str, unit: str, traits: dict | None = None) -> dict:
    """A leader of W41.9 (name, kind, the unit he rides in) with his traits, if any (W11.3)."""
    node = {"name": name, "kind": kind, "unit": unit}
    traits = clean_traits(traits)
    if traits:
        node["traits"] = traits
    return node


def clean_traits(raw: Any) -> dict:
    """W11.3: {trait: {stat: value}} — Brawler and Charisma, each with the values the moderator entered (the rules
    give none, W40); a trait with no value is still had (a signals report names it, W10.2)."""
    need(raw is None or isinstance(raw, dict), "bad_traits")
    out = {}
    for trait, stats in (raw or {}).items():
        need(trait in TRAITS and isinstance(stats, dict), "bad_traits")
        values = {}
        for stat, value in stats.items():
            need(stat in TRAIT_STATS and type(value) is int and abs(value) <= MAX_TRAIT_VALUE, "bad_traits")
            if value:
                values[stat] = value
        out[trait] = values
    return {t: out[t] for t in TRAITS if t in out}


def initial_state(setup: dict) -> dict:
    units = copy_of(setup.get("units") or [])
    deployed = bool(units) and all(u.get("cell") for u in units)
    state = {"phase": COMMAND if deployed else DEPLOYMENT, "turn": 1 if deployed else 0, "units": units,
             "deploy": {s: {} for s in SIDES}, "deploy_check": {s: None for s in SIDES},
             "confirmed": {s: False for s in SIDES},
             "rerolls_left": {s: int(((setup.get("sides") or {}).get(s) or {}).get("messengers") or 0)
                              for s in SIDES},
             "general_retreat": {s: ((setup.get("sides") or {}).get(s) or {}).get("general_retreat") for s in SIDES},
             "history": [], "turns": [], "end": None, "overrides": [],
             "start": {s: sum(int(u["figures"]) for u in units if u["side"] == s) for s in SIDES},
             "shinobi": {s: shinobi_of(setup, s) for s in SIDES}, "infiltrate": {s: 0 for s in SIDES},
             "infiltration": None, "scouted": {s: None for s in SIDES}, "shinobi_used": {s: 0 for s in SIDES},
             "banners_left": {s: dict(((setup.get("sides") or {}).get(s) or {}).get("banners") or {}) for s in SIDES},
             "leaders": copy_of(setup.get("leaders") or [])}
    state.update(fresh_turn())
    return state


def shinobi_of(setup: dict, side: str) -> int:
    return int(((setup.get("sides") or {}).get(side) or {}).get("shinobi") or 0)


def infiltration_case(state: dict) -> dict:
    """W6.4: each side's shinobi that try to get in; the rest guard."""
    return {s: {"infiltrate": state["infiltrate"][s], "guard": state["shinobi"][s] - state["infiltrate"][s]}
            for s in SIDES}


def guard_rolls_needed(state: dict) -> dict[str, int]:
    """How many kill rolls each side's guards make (one per enemy infiltrator they block, W6.4)."""
    case = infiltration_case(state)
    return {s: min(case[other(s)]["infiltrate"], case[s]["guard"]) for s in SIDES}


def deployment_completes(state: dict, side: str) -> bool:
    return state["phase"] == DEPLOYMENT and all(state["confirmed"][s] or s == side for s in SIDES)


def fresh_turn() -> dict:
    return {"command": {s: {"stake": None, "rolls": [], "sources": [], "result": None} for s in SIDES},
            "orders": {s: [] for s in SIDES}, "orders_check": {s: None for s in SIDES},
            "retreat_signal": {s: False for s in SIDES}, "banners": {s: [] for s in SIDES},
            "withdraw": {s: [] for s in SIDES}, "leader_moves": {s: {} for s in SIDES}, "tasks": {s: [] for s in SIDES},
            "plan": {s: {k: 0 for k in KINDS} for s in SIDES}, "plan_next": {s: {} for s in SIDES},
            "dice": {}, "rolls": []}


def unit_map(state: dict) -> dict[str, dict]:
    return {u["id"]: u for u in state["units"]}


def base_case(setup: dict, state: dict) -> dict:
    return {"field": field_of(setup, state), "defender": setup.get("defender"), "units": state["units"],
            "leaders": leaders_now(setup, state)}


# ---------------------------------------------------------------------------- engine calls
def check_deployment(setup: dict, state: dict, side: str, placed: dict[str, str]) -> dict:
    units = []
    for u in state["units"]:
        u = dict(u)
        if u["side"] == side:
            u["cell"] = placed.get(u["id"])
        units.append(u)
    mine = [u for u in units if u["side"] == side]
    if any(u["cell"] is None for u in mine):
        return {"ok": False, "refused": [{"unit": u["id"], "slot": None, "rule": "W6.1", "reason": "not_placed"}
                                         for u in mine if u["cell"] is None], "paid": {}}
    ids = {u["id"] for u in mine}
    case = {**base_case(setup, state), "units": mine,
            "leaders": [g for g in leaders_now(setup, state) if g.get("unit") in ids],
            "validate": {"phase": "deployment", "side": side, "turn": 0}}
    return validate_mode(case)


def generals(setup: dict, state: dict, side: str) -> list[dict]:
    """W9.2: the side's generals riding in a unit still in the battle (each gives one extra special order)."""
    alive = {u["id"] for u in state["units"] if u["side"] == side and u.get("status", "ready") in ("ready", "fleeing")}
    return [{"name": g["name"]} for g in leaders_now(setup, state)
            if g.get("kind") == "general" and g.get("unit") in alive]


def minor_clans(state: dict, side: str) -> list[str]:
    """W9.1: the minor clans still fighting on the side (each gives one extra ordinary order to its own units)."""
    return sorted({u["minor_clan"] for u in state["units"] if u["side"] == side and u.get("minor_clan")
                   and u.get("status", "ready") in ("ready", "fleeing")})


def command_result(state: dict, side: str, setup: dict | None = None) -> dict:
    c = state["command"][side]
    return command_mode({"command": {"side": side, "turn": state["turn"], "stake": c["stake"] or "low",
                                     "rolls": c["rolls"], "rerolls_left": state["rerolls_left"][side],
                                     "intercepted": intercepted(c),
                                     "generals": generals(setup or {}, state, side),
                                     "minor_clans": minor_clans(state, side),
                                     "cunning_plan": cunning_plan(state, side)}})


def cunning_plan(state: dict, side: str) -> dict:
    """W9.3: the extra orders the moderator granted the side for this turn, by kind."""
    return {k: int(((state.get("plan") or {}).get(side) or {}).get(k, 0)) for k in KINDS}


def grant_plan(setup: dict, state: dict, side: str, payload: dict) -> None:
    """W9.3 ruling: the moderator grants the side extra orders of a stated kind and number for this turn (they add
    up; undo takes one back), and/or notes the Cunning plan's order for next turn for one of its units, which a
    signals report on that unit names (W10.2). In the command phase, before the side confirms; orders already
    given are paid again."""
    need(side in SIDES and state["phase"] == COMMAND, "plan_now")
    need(not state["confirmed"][side], "already_confirmed")
    kind, count = payload.get("kind"), payload.get("count", 0)
    uid, note = payload.get("unit"), payload.get("next")
    need(type(count) is int and 0 <= count <= MAX_PLAN and (count == 0 or kind in KINDS), "bad_plan")
    mine = {u["id"] for u in state["units"] if u["side"] == side}
    need(uid is None or (isinstance(uid, str) and uid in mine and isinstance(note, str) and len(note) <= MAX_NOTE),
         "bad_plan")
    need(count > 0 or uid is not None, "bad_plan")
    if count:
        plan = state.setdefault("plan", {s: {k: 0 for k in KINDS} for s in SIDES}).setdefault(side, {})
        plan[kind] = plan.get(kind, 0) + count
        if state["command"][side]["result"] is not None:
            state["command"][side]["result"] = command_result(state, side, setup)
        recheck_orders(setup, state, side)
    if uid is not None:
        notes = state.setdefault("plan_next", {s: {} for s in SIDES}).setdefault(side, {})
        if note.strip():
            notes[uid] = note.strip()
        else:
            notes.pop(uid, None)


def recheck_orders(setup: dict, state: dict, side: str) -> None:
    """The side's orders, if given already, checked again on the state as it is now (a leader moved, the field grew,
    the command result changed); a side whose orders no longer stand must give them again and confirm."""
    if state["orders_check"][side] is None:
        return
    check = check_orders(setup, state, side, state["orders"][side], state["retreat_signal"][side],
                         state["banners"][side], state["withdraw"][side])
    state["orders_check"][side] = check
    if not check["ok"] and state["phase"] == COMMAND:
        state["confirmed"][side] = False


def check_orders(setup: dict, state: dict, side: str, orders: list[dict], general_retreat: bool = False,
                 banners: list[dict] | None = None, withdraw: list[str] | None = None) -> dict:
    result = state["command"][side]["result"]
    case = {**base_case(setup, state), "orders": orders, "banners": banners or [],
            "validate": {"phase": "orders", "side": side, "turn": state["turn"], "command": result["orders"],
                         "extra": result["extra"], "general_retreat": general_retreat,
                         "banners_owned": state["banners_left"][side], "withdraw": withdraw or []}}
    return validate_mode(case)


def turn_case(setup: dict, state: dict) -> dict:
    """The execution phase's case; units withdrawn this turn (W14.1) leave before it, with their orders."""
    gone = set(state["withdraw"]["north"] + state["withdraw"]["south"])
    traits = trait_modifiers(setup, state)
    units = [{**u, "status": "withdrawn", "cell": None} if u["id"] in gone else
             {**u, "modifiers": list(u.get("modifiers") or []) + traits[u["id"]]} if u["id"] in traits else u
             for u in state["units"]]
    orders = [o for o in state["orders"]["north"] + state["orders"]["south"] if o["unit"] not in gone]
    return {"turn": state["turn"], "field": field_of(setup, state), "defender": setup.get("defender"),
            "sides": {s: {"general_retreat": retreat_turn(state, s)} for s in SIDES},
            "units": units, "orders": orders,
            "banners": state["banners"]["north"] + state["banners"]["south"],
            "shinobi": shinobi_case(state), "choices": {"no_joint": [], "stop": None},
            "history": state["history"], "dice": state["dice"], "seed": None}


def preview(setup: dict, state: dict) -> dict:
    """The execution phase so far: finished (the engine's result) or awaiting one roll, with the events before it."""
    try:
        result = turn_mode(turn_case(setup, state))
    except CaseError as error:
        if error.field.startswith("dice.") and "awaits dice" in error.problem:
            what = error.problem.split("runs out: ", 1)[-1].split(" awaits dice", 1)[0]
            return {"complete": False, "awaiting": {"roller": error.field[5:], "what": what},
                    "events": getattr(error, "partial_events", []), "result": None, "error": None}
        return {"complete": False, "awaiting": None, "events": getattr(error, "partial_events", []),
                "result": None, "error": str(error)}
    return {"complete": True, "awaiting": None, "events": result["events"], "result": result, "error": None}


def awaiting_kind(what: str) -> str:
    """Which kind of roll the engine awaits (for the page's words): melee, shooting or a random choice."""
    if what.startswith("the melee roll"):
        return "melee"
    if "shoot" in what or "volley" in what:
        return "shooting"
    return "random"


# ---------------------------------------------------------------------------- leaders (W11)
def leaders_now(setup: dict, state: dict, moved_by: Iterable[str] = SIDES) -> list[dict]:
    """Where the leaders ride now: as the turn began, with this turn's moves (W11.1) of the sides `moved_by`."""
    start = state["leaders"] if "leaders" in state else setup.get("leaders") or []
    moves = state.get("leader_moves") or {}
    out = []
    for i, g in enumerate(start):
        g = dict(g)
        for side in moved_by:
            if str(i) in moves.get(side, {}):
                g["unit"] = moves[side][str(i)]
        out.append(g)
    return out


def leader_board(setup: dict, state: dict, side: str) -> list[dict]:
    """The side's leaders: where each rode as the turn began, where he rides now, and the units he may move to.

    W11.1: a general or the commander moves to a unit of his side in an adjacent cell, diagonals included
    (W2.4), not a minor clan's (W6.3). W11.2: a leader whose unit is out of the battle moves no more: a general
    is dead (his extra order gone, W9.2), the commander unharmed but without Brawler and Charisma.
    """
    board = Board(load(), field_of(setup, state))
    units = unit_map(state)
    start = state["leaders"] if "leaders" in state else setup.get("leaders") or []
    now = leaders_now(setup, state, (side,))
    out = []
    for i, (g, g_now) in enumerate(zip(start, now)):
        home = units.get(g.get("unit"))
        if home is None or home["side"] != side:
            continue
        alive = home.get("status", "ready") in ("ready", "fleeing") and home.get("cell") in board.cells
        targets = [u["id"] for u in state["units"] if alive and u["side"] == side and not u.get("minor_clan")
                   and u.get("status", "ready") in ("ready", "fleeing") and u.get("cell") in board.cells
                   and board.adjacent(home["cell"], u["cell"])] if alive else []
        out.append({"index": i, "name": g.get("name", ""), "kind": g.get("kind", "general"), "unit": home["id"],
                    "traits": g.get("traits") or {},
                    "now": g_now.get("unit"), "alive": alive, "targets": targets})
    return out


def move_leader(setup: dict, state: dict, side: str, payload: dict) -> None:
    """W11.1 in the command phase, before the side confirms: a leader to a unit next to his (or back: no move).

    The side's orders, if given already, are checked again: a general's extra order is paid near where he rides.
    """
    need(state["phase"] == COMMAND and not state["confirmed"][side], "not_command")
    index, target = payload.get("leader"), payload.get("unit")
    mine = {g["index"]: g for g in leader_board(setup, state, side)}
    need(isinstance(index, int) and not isinstance(index, bool) and index in mine, "bad_leader_move")
    g = mine[index]
    need(g["alive"], "leader_unit_gone")
    need(target == g["unit"] or target in g["targets"], "bad_leader_move")
    moves = state.setdefault("leader_moves", {s: {} for s in SIDES}).setdefault(side, {})
    if target == g["unit"]:
        moves.pop(str(index), None)
    else:
        moves[str(index)] = target
    recheck_orders(setup, state, side)


def trait_modifiers(setup: dict, state: dict) -> dict[str, list[dict]]:
    """W11.3: the Brawler's and Charisma's effects as the engine takes them — moderator modifiers with `source`
    "brawler" / "charisma" (W41.3) on the unit the leader rides in this turn (his move of W11.1 made), with the
    values the moderator entered. W11.2: a leader whose unit is out of the battle gives none (he moves no more)."""
    units = unit_map(state)
    out: dict[str, list[dict]] = {}
    for i, g in enumerate(leaders_now(setup, state)):
        home = units.get(g.get("unit"))
        if home is None or home.get("status", "ready") not in IN_BATTLE or not home.get("cell"):
            continue
        for trait, stats in (g.get("traits") or {}).items():
            for stat, value in stats.items():
                if value:
                    out.setdefault(home["id"], []).append({"stat": stat, "value": value, "source": trait,
                                                           "reason": g.get("name", ""), "_leader": i})
    return out


def leaders_with(setup: dict, state: dict, uid: str) -> list[str]:
    """W10.2: the traits (Brawler, Charisma) of the leaders riding in the unit this turn, while it is in the battle."""
    home = unit_map(state).get(uid) or {}
    if home.get("status", "ready") not in IN_BATTLE:
        return []
    had = {t for g in leaders_now(setup, state) if g.get("unit") == uid for t in (g.get("traits") or {})}
    had |= {m.get("source") for m in home.get("modifiers") or [] if isinstance(m, dict)}
    return [t for t in TRAITS if t in had]


def leader_moves_made(setup: dict, state: dict) -> list[dict]:
    """This turn's leader moves, for the turn's record (revealed with the orders when the turn is executed)."""
    start = state["leaders"] if "leaders" in state else setup.get("leaders") or []
    return [{"side": side, "name": start[int(i)].get("name", ""), "kind": start[int(i)].get("kind", "general"),
             "from": start[int(i)].get("unit"), "to": to}
            for side in SIDES for i, to in sorted((state.get("leader_moves") or {}).get(side, {}).items())]


# ---------------------------------------------------------------------------- the replay
def apply(setup: dict, state: dict, kind: str, side: str, payload: dict) -> dict:
    """One step on the state (a new dict); raises StepRefused when the rules do not allow it now."""
    state = copy_of(state)
    phase = state["phase"]
    if kind == "deploy":
        need(phase == DEPLOYMENT or (phase == PLAN_CHANGE and state["scouted"][side] is not None), "not_deployment")
        need(not state["confirmed"][side], "already_confirmed")
        placed = dict(payload.get("cells") or {})
        state["deploy"][side] = placed
        if phase == DEPLOYMENT:
            infiltrate = payload.get("infiltrate", 0)
            need(isinstance(infiltrate, int) and 0 <= infiltrate <= state["shinobi"][side], "bad_shinobi")
            state["infiltrate"][side] = infiltrate
        state["deploy_check"][side] = check_deployment(setup, state, side, placed)
    elif kind == "scout":                                                   # W6.5
        need(phase == PLAN_CHANGE and not state["confirmed"][side] and state["scouted"][side] is None, "no_scouting")
        through = (state["infiltration"] or {}).get(side, {}).get("through", 0)
        asked = payload.get("cells") or []
        known = {c["id"] for c in table_cells(setup, state)}
        need(isinstance(asked, list) and 0 < len(asked) <= SCOUTING_CELLS * through and
             all(c in known for c in asked) and len(set(asked)) == len(asked), "bad_scouting")
        spend_shinobi(state, side, -(-len(asked) // SCOUTING_CELLS))          # W6.5: each scout's one task
        seen = [{"cell": u["cell"], "unit": u["id"], "type": u["type"], "figures": u["figures"]}
                for u in state["units"] if u["side"] != side and u.get("cell") in asked]
        state["scouted"][side] = {"cells": list(asked), "seen": seen}
    elif kind == "shinobi":                                                 # W10.2–W10.5
        shinobi_task(setup, state, side, payload)
    elif kind == "orders" and phase == SIGNALS:                             # W10.2: the re-opened order form
        need(side in SIDES and signalled(state, side) and not state["confirmed"][side], "no_plan_change")
        state = as_command(setup, state, kind, side, payload)
    elif kind == "confirm" and phase == SIGNALS:
        confirm_plan(state, side)
    elif kind == "confirm":
        need(phase in (DEPLOYMENT, PLAN_CHANGE, COMMAND), "nothing_to_confirm")
        need(not state["confirmed"][side], "already_confirmed")
        if phase in (DEPLOYMENT, PLAN_CHANGE):
            check = state["deploy_check"][side]
            need(check is not None and check["ok"], "deployment_not_valid")
        else:
            check = state["orders_check"][side]
            need(state["command"][side]["result"] is not None, "no_roll_yet")
            need(check is None or check["ok"], "orders_not_valid")
        state["confirmed"][side] = True
        if all(state["confirmed"].values()):
            state["confirmed"] = {s: False for s in SIDES}
            if phase in (DEPLOYMENT, PLAN_CHANGE):
                for u in state["units"]:
                    u["cell"] = state["deploy"][u["side"]].get(u["id"])
                state["phase"], state["turn"] = COMMAND, 1
            else:
                state["phase"] = EXECUTION
                open_plan_change(setup, state)                              # W10.2, when shinobi signalled
            if phase == DEPLOYMENT and any(state["shinobi"].values()):       # W6.4, the guards' kill rolls
                state["infiltration"] = shinobi_mode({"shinobi": {"infiltration": infiltration_case(state)},
                                                      "dice": payload.get("shinobi_dice") or {}})["infiltration"]
                through = {s: state["infiltration"][s]["through"] for s in SIDES}
                if any(through.values()):                                     # W6.5: the plan-change phase
                    state["phase"], state["turn"] = PLAN_CHANGE, 0
                    state["confirmed"] = {s: through[s] == 0 for s in SIDES}
    elif kind == "stake":
        need(phase == COMMAND and not state["confirmed"][side], "not_command")
        need(not state["command"][side]["rolls"], "stake_after_roll")
        need(payload.get("stake") in STAKES, "bad_stake")
        state["command"][side]["stake"] = payload["stake"]
    elif kind == "roll":
        need(phase == COMMAND and not state["confirmed"][side], "not_command")
        c = state["command"][side]
        if c["rolls"]:
            need(len(c["rolls"]) - 1 < state["rerolls_left"][side], "no_reroll_left")
        dice = payload.get("dice")
        need(isinstance(dice, list) and len(dice) == 2 and all(isinstance(v, int) and 1 <= v <= 6 for v in dice),
             "bad_dice")
        c["rolls"].append(list(dice))
        c["sources"].append(payload.get("source", "hand"))
        c["result"] = command_result(state, side, setup)
        state["orders"][side], state["orders_check"][side] = [], None
    elif kind == "orders":
        need(phase == COMMAND and not state["confirmed"][side], "not_command")
        need(state["command"][side]["result"] is not None, "no_roll_yet")
        orders = list(payload.get("orders") or [])
        signal = bool(payload.get("general_retreat")) and state["general_retreat"][side] is None
        banners = list(payload.get("banners") or [])
        withdraw = [w for w in payload.get("withdraw") or [] if isinstance(w, str)]
        check = check_orders(setup, state, side, orders, signal, banners, withdraw)
        state["orders"][side], state["orders_check"][side] = orders, check
        state["banners"][side], state["withdraw"][side] = banners, withdraw
        state["retreat_signal"][side] = signal
    elif kind == "dice":
        need(phase == EXECUTION, "not_execution")
        roller, values = payload.get("roller"), payload.get("values") or []
        need(isinstance(roller, str) and 0 < len(roller) <= MAX_ID, "bad_dice")
        need(values and all(isinstance(v, int) and 1 <= v <= 6 for v in values), "bad_dice")
        state["dice"].setdefault(roller, []).extend(values)
        state["rolls"].append({"roller": roller, "what": payload.get("what", ""), "values": list(values),
                               "source": payload.get("source", "hand")})
    elif kind == "execute":
        need(phase == EXECUTION, "not_execution")
        seen = preview(setup, state)
        need(seen["complete"], "dice_missing")
        moved = leader_moves_made(setup, state)                                 # W11.1: the moves stand
        state["leaders"] = leaders_now(setup, state)
        execute(state, seen["result"])
        state["turns"][-1]["unseen"] = unseen(setup, state)
        state["turns"][-1]["leaders"] = moved
    elif kind == "leader":
        move_leader(setup, state, side, payload)
    elif kind == "plan":                                                    # W9.3, the moderator's
        grant_plan(setup, state, side, payload)
    elif kind == "stop":
        need(may_stop(state) == side, "cannot_stop")
        end = end_mode({"end": {"turn": state["turn"] - 1, "stop": side,
                                "sides": {s: {"general_retreat": state["general_retreat"][s]} for s in SIDES}},
                        "field": field_of(setup, state), "units": state["units"], "history": state["history"]})
        need(end["ended"], "cannot_stop")
        state["phase"], state["end"] = ENDED, end
        state["turns"][-1]["end"] = end
    elif kind == "roster":                                                 # the armies, edited before play
        need(before_play(state), "roster_after_start")
        roster(setup, state, payload)
        state["start"] = {s: sum(int(u["figures"]) for u in state["units"] if u["side"] == s) for s in SIDES}
    elif kind == "extend":                                                  # W2.5, the moderator's
        extend_field(setup, state, payload)
    elif kind == "override":
        need(phase in (DEPLOYMENT, COMMAND) or (phase == EXECUTION and not state["rolls"]), "override_now")
        u = unit_map(state).get(payload.get("unit"))
        need(u is not None, "no_such_unit")
        changes = payload.get("changes") or {}
        for key in ("figures", "status", "cell", "facing"):
            if key in changes:
                u[key] = changes[key]
        state["overrides"].append({"turn": state["turn"], "unit": u["id"], "changes": changes,
                                   "reason": payload.get("reason", "")})
    else:
        raise StepRefused("unknown_step")
    return state


def execute(state: dict, result: dict) -> None:
    """The executed turn on the board: units, the history (W39), the protocol's line; next turn or the end."""
    for uid, line in result["units"].items():
        unit_map(state)[uid].update(line)
    state["history"].append(result["record"])
    state["turns"].append({"turn": state["turn"], "command": copy_of(state["command"]),
                           "orders": copy_of(state["orders"]), "rolls": state["rolls"],
                           "events": result["events"], "refused": result["refused"],
                           "cancelled": result["cancelled"], "end": result["end"],
                           "shinobi": shinobi_record(state, result)})
    for side in SIDES:
        for raised in state["banners"][side]:                                   # W12.1: one use per raising
            left = state["banners_left"][side]
            left[raised["banner"]] = max(0, left.get(raised["banner"], 0) - 1)
        state["general_retreat"][side] = retreat_turn(state, side)
        used = len(state["command"][side]["rolls"]) - 1
        state["rerolls_left"][side] = max(0, state["rerolls_left"][side] - max(0, used))
    if result["end"]["ended"]:
        state["phase"], state["end"] = ENDED, result["end"]
    else:
        state["phase"], state["turn"] = COMMAND, state["turn"] + 1
    state.update(fresh_turn())


def unseen(setup: dict, state: dict) -> list[str]:
    """W38.2: the units standing in a forest unrevealed, hidden from their enemy (kept with each executed turn).

    The engine keeps `revealed` (a melee fought, the forest left); the ruling's "while an enemy is adjacent" is the
    table's: a unit with an enemy in a cell next to its own, diagonals included, is in that enemy's sight now."""
    forests = set(field_of(setup, state).get("forests") or [])
    hiding = [u for u in state["units"] if u.get("cell") in forests and not u.get("revealed")
              and u.get("status", "ready") in IN_BATTLE]
    if not hiding:
        return []
    board = Board(load(), field_of(setup, state))
    return [u["id"] for u in hiding if not any(
        e["side"] != u["side"] and e.get("status", "ready") in IN_BATTLE and e.get("cell") in board.cells
        and board.adjacent(e["cell"], u["cell"]) for e in state["units"])]


def may_stop(state: dict) -> str | None:
    """W39.3: the side that may stop the battle now (before the next turn's first roll), or None."""
    if state["phase"] != COMMAND or not state["turns"] or any(state["command"][s]["rolls"] for s in SIDES):
        return None
    return state["turns"][-1]["end"].get("may_stop")


def retreat_turn(state: dict, side: str) -> int | None:
    """W13: the turn of the side's general retreat signal (this turn's, if its orders give it now)."""
    if state["general_retreat"][side] is not None:
        return state["general_retreat"][side]
    return state["turn"] if state.get("retreat_signal", {}).get(side) else None


def terrain_open(state: dict) -> bool:
    """W6.2: the terrain is placed first and the opponent told — before either side confirms its deployment, or, on
    a table set up placed (the bridge's), before any stake or roll of turn 1."""
    return (state["phase"] == DEPLOYMENT and not any(state["confirmed"].values())) or \
        (before_play(state) and not any(state["deploy"].values()))


def before_play(state: dict) -> bool:
    """Nothing played yet: the deployment, or turn 1's command phase before any roll (a table set up placed)."""
    if state["phase"] == DEPLOYMENT:
        return not any(state["deploy"].values()) and not any(state["confirmed"].values())
    return state["phase"] == COMMAND and state["turn"] == 1 and not state["turns"] and \
        not any(state["command"][s]["rolls"] or state["command"][s]["stake"] for s in SIDES)


def roster(setup: dict, state: dict, payload: dict) -> None:
    """Add, change or remove one unit (W3.2 sizes, the data's troop types; a new unit's cell when already placed)."""
    if "terrain" in payload:                                              # W6.2, W36–W38: before play
        need(terrain_open(state), "terrain_now")
        raw = payload["terrain"]
        need(isinstance(raw, dict), "bad_terrain")
        river, bridge = raw.get("river"), raw.get("bridge")
        need(isinstance(river, bool), "bad_terrain")
        need(bridge is None or (river and tuple(bridge) in bridge_places()), "bad_terrain")
        hills, forests = raw.get("hills") or [], raw.get("forests") or []
        known = {c["id"] for c in cells()}
        need(all(isinstance(c, str) and c in known for c in list(hills) + list(forests)), "bad_terrain")
        terrain = {"river": river, "bridge": list(bridge) if bridge else None, "hills": list(hills),
                   "forests": list(forests)}
        need(not terrain_refusals({**(setup.get("field") or {}), **terrain}, setup.get("defender")), "bad_terrain")
        state["terrain"] = terrain
        return
    if "leader" in payload:                                               # W11.3: a leader's traits
        index, start = payload["leader"], state.setdefault("leaders", copy_of(setup.get("leaders") or []))
        need(type(index) is int and 0 <= index < len(start), "bad_traits")
        traits = clean_traits(payload.get("traits"))
        if traits:
            start[index]["traits"] = traits
        else:
            start[index].pop("traits", None)
        return
    uid, side = payload.get("unit"), payload.get("side")
    units = state["units"]
    if payload.get("remove"):
        need(uid in unit_map(state), "no_such_unit")
        need(not any(g.get("unit") == uid for g in leaders_now(setup, state)), "general_rides_there")
        state["units"] = [u for u in units if u["id"] != uid]
        return
    need(payload.get("type") in TYPES, "bad_roster")
    figures = payload.get("figures")
    need(isinstance(figures, int) and 4 <= figures <= 16, "bad_roster")
    if uid:
        u = unit_map(state).get(uid)
        need(u is not None, "no_such_unit")
    else:
        need(side in SIDES, "bad_roster")
        taken = {u["id"] for u in units}
        n = 1
        while f"{side[0]}{n}" in taken:
            n += 1
        u = {"id": f"{side[0]}{n}", "side": side, "cell": None, "facing": load().faces_at_deployment[side]}
        if state["phase"] == COMMAND:
            cell = payload.get("cell")
            need(cell in zone(side) and all(x.get("cell") != cell for x in units), "bad_roster")
            u["cell"] = cell
        units.append(u)
    u.update({"type": payload["type"], "figures": figures})
    u.pop("ammo", None)
    if payload.get("shields") and payload["type"] != "cavalry":
        u["shields"] = True
    else:
        u.pop("shields", None)


def need(condition: bool, code: str) -> None:
    if not condition:
        raise StepRefused(code)


def replay(setup: dict, steps: Iterable[dict]) -> dict:
    """The table's state: the starting situation with every live step applied again through the engine."""
    state = initial_state(setup)
    for step in steps:
        state = apply(setup, state, step["kind"], step.get("side") or "", step.get("payload") or {})
    return state


def result_of(setup: dict, state: dict) -> dict:
    """The table's result (docs/tables.md): winner, the end condition, each side's figures at start and lost."""
    end = state["end"] or {}
    loser = end.get("loser")
    start = state.get("start") or {s: sum(int(u["figures"]) for u in setup.get("units", []) if u["side"] == s)
                                    for s in SIDES}
    now = {s: sum(int(u["figures"]) for u in state["units"] if u["side"] == s
                  and u.get("status", "ready") in ("ready", "fleeing", "withdrawn")) for s in SIDES}
    return {"winner": other(loser) if loser else None, "ended_by": end.get("condition"),
            "outcome": end.get("outcome"),
            "losses": {s: {"start": start[s], "lost": start[s] - now[s]} for s in SIDES}}


# ---------------------------------------------------------------------------- shinobi in battle (W10)
def shinobi_tally(state: dict, side: str) -> dict:
    """The side's shinobi (W6.4, W10.1): alive (not killed by the guards), through, used (scouting included), ready."""
    fate = (state.get("infiltration") or {}).get(side) or {}
    through, used = int(fate.get("through", 0)), int((state.get("shinobi_used") or {}).get(side, 0))
    return {"alive": state["shinobi"][side] - int(fate.get("killed", 0)), "through": through, "used": used,
            "ready": max(0, through - used)}


def tasks(state: dict, side: str) -> list[dict]:
    """The tasks the side's shinobi were given this turn."""
    return (state.get("tasks") or {}).get(side, [])


def signalled(state: dict, side: str) -> bool:
    return any(t["task"] == "signals" for t in tasks(state, side))


def intercepted(command: dict) -> bool:
    """W10.5: the side's last re-roll this turn is void (a later re-roll stands again)."""
    return command.get("voided") is not None and command["voided"] == len(command["rolls"]) - 1


def shinobi_task(setup: dict, state: dict, side: str, payload: dict) -> None:
    """W10.1: a shinobi that got through and has not yet done its one task of the battle is given one, in the
    command phase after the stake and the roll (W7.1). Sabotage is named here, before the plan-change phase in
    which signals show anybody an enemy order (W10.4); its die is in the payload."""
    need(side in SIDES and state["phase"] == COMMAND and not state["confirmed"][side], "not_command")
    need(state["command"][side]["result"] is not None, "no_roll_yet")
    need(shinobi_tally(state, side)["ready"] > 0, "no_shinobi")
    task = payload.get("task")
    need(task in TASKS, "bad_task")
    entry: dict[str, Any] = {"task": task}
    if task in TARGETED_TASKS:
        need(payload.get("unit") in {u["id"] for u in visible_enemies(setup, state, side)}, "bad_target")
        entry["unit"] = payload["unit"]
    if task == "sabotage":                                                   # W10.4
        roll = payload.get("roll")
        need(type(roll) is int and 1 <= roll <= 6, "bad_dice")
        entry.update(roll=roll, source="server" if payload.get("source") == "server" else "hand")
    elif task == "interception":                                             # W10.5
        entry["effect"] = intercept(setup, state, other(side))
    state.setdefault("tasks", {s: [] for s in SIDES})[side].append(entry)
    spend_shinobi(state, side, 1)


def spend_shinobi(state: dict, side: str, n: int) -> None:
    """W10.1: n of the side's shinobi have done their one task (a state cached before the count began has none)."""
    used = state.setdefault("shinobi_used", {s: 0 for s in SIDES})
    used[side] = used.get(side, 0) + n


def intercept(setup: dict, state: dict, enemy: str) -> str:
    """W10.5 ruling: if the enemy re-rolled this turn his last re-roll is void (the roll before it stands, his
    count drops no further); otherwise he loses one unused re-roll; with none left nothing happens."""
    c = state["command"][enemy]
    last = len(c["rolls"]) - 1
    if last > 0 and c.get("voided") != last:
        c["voided"] = last
        c["result"] = command_result(state, enemy, setup)
        recheck_orders(setup, state, enemy)                                  # the orders he gave are paid again
        return "voided"
    if state["rerolls_left"][enemy] - max(0, last) > 0:
        state["rerolls_left"][enemy] -= 1
        if c["rolls"]:
            c["result"] = command_result(state, enemy, setup)
        return "lost_one"
    return "none"


def open_plan_change(setup: dict, state: dict) -> None:
    """W10.2: once both sides have confirmed, a side whose shinobi signalled hears the reports and may change its
    orders (the plan-change phase); a side that did not signal stays confirmed."""
    who = {s: signalled(state, s) for s in SIDES}
    if not any(who.values()):
        return
    for s in SIDES:
        for t in tasks(state, s):
            if t["task"] == "signals":
                t["report"] = signal_report(setup, state, other(s), t["unit"])
    state["phase"] = SIGNALS
    state["confirmed"] = {s: not who[s] for s in SIDES}


def signal_report(setup: dict, state: dict, enemy: str, uid: str) -> dict:
    """W10.2: the unit's orders this turn (or the Cunning plan's order for next turn the moderator noted for it),
    whether a Brawler or Charismatic leader is with it, a banner raised in it."""
    return {"orders": [copy_of(o) for o in state["orders"][enemy] if o["unit"] == uid],
            "banners": [b["banner"] for b in state["banners"][enemy] if b["unit"] == uid],
            "leaders": leaders_with(setup, state, uid),
            "plan_next": ((state.get("plan_next") or {}).get(enemy) or {}).get(uid),
            "withdrawn": uid in state["withdraw"][enemy], "general_retreat": retreat_turn(state, enemy) is not None}


def as_command(setup: dict, state: dict, kind: str, side: str, payload: dict) -> dict:
    """The command phase's own step, for a side whose order form the plan-change phase re-opened (W10.2)."""
    state["phase"] = COMMAND
    state = apply(setup, state, kind, side, payload)
    state["phase"] = SIGNALS
    return state


def confirm_plan(state: dict, side: str) -> None:
    need(side in SIDES and not state["confirmed"][side], "already_confirmed")
    check = state["orders_check"][side]
    need(check is None or check["ok"], "orders_not_valid")
    state["confirmed"][side] = True
    if all(state["confirmed"].values()):
        state["confirmed"] = {s: False for s in SIDES}
        state["phase"] = EXECUTION


def shinobi_case(state: dict) -> dict:
    """The turn case's `shinobi`: every panic (several on one unit add up) and every sabotage with its roll."""
    given = [t for s in SIDES for t in tasks(state, s)]
    return {"panic": [t["unit"] for t in given if t["task"] == "panic"],
            "sabotage": [{"unit": t["unit"], "roll": t["roll"]} for t in given if t["task"] == "sabotage"]}


def sabotage_verdicts(state: dict) -> list[dict]:
    """The engine's shinobi mode on each sabotage of the turn against the target's orders as given (W10.4):
    `cancelled` is whether that roll succeeds, all or nothing."""
    case = [{"unit": t["unit"], "roll": t["roll"],
             "orders": [o["kind"] for o in state["orders"][other(s)] if o["unit"] == t["unit"]][:2]}
            for s in SIDES for t in tasks(state, s) if t["task"] == "sabotage"]
    return shinobi_mode({"shinobi": {"sabotage": case}})["sabotage"] if case else []


def shinobi_record(state: dict, result: dict) -> dict:
    """What each side's shinobi did this turn, for the executed turn's log and the protocol."""
    struck = {c["unit"] for c in result["cancelled"] if c.get("reason") == "sabotage"}
    verdicts = iter(sabotage_verdicts(state))
    out: dict[str, list[dict]] = {}
    for s in SIDES:
        out[s] = []
        for t in tasks(state, s):
            t = copy_of(t)
            if t["task"] == "sabotage":
                success = next(verdicts)["cancelled"]
                t["outcome"] = ("cancelled" if t["unit"] in struck else "nothing_to_cancel") if success else "failed"
            out[s].append(t)
    return out


# ---------------------------------------------------------------------------- what a player may give
def order_options(setup: dict, state: dict, side: str) -> dict[str, list[dict]]:
    """Per unit of the side, every order the rules allow it now (one engine check each), with refused ones' rule.

    Besides the plain orders: cavalry's one or two actions on an ordinary order (W21.1) and its Decisive
    attack's first action (W16.3); every ordinary order given instead of a special one, in either timing
    (W16.5); the Dragon move where the army owns the Dragon banner (W12.4, slot 1 only).
    """
    out: dict[str, list[dict]] = {}
    enemies = visible_enemies(setup, state, side)
    result = state["command"][side]["result"]
    dragon = "dragon" in (state.get("banners_left") or {}).get(side, {})
    for u in state["units"]:
        if u["side"] != side or not u.get("cell") or u.get("status", "ready") not in ("ready", "fleeing"):
            continue
        options = []
        # a roll that gave no special order offers none (W7); extras (generals, the Cunning plan) still count
        special = 9 if result is None else int(((result.get("orders") or {}).get("special")) or 0)
        for order in _candidates(u, enemies, dragon):
            refused = _single_refusal(setup, state, side, order, result, special)
            options.append({"order": order, "refused": refused})
        out[u["id"]] = options
    return out


def is_cavalry(unit_type: str) -> bool:
    """W21: a type of two actions per order (the data file's `actions_per_order`)."""
    return load().troop_types[unit_type].actions_per_order > 1


def cavalry_order(actions: list[str]) -> dict:
    """A cavalry ordinary order of one or two actions (W21.1) as the engine takes it: a single action as the plain
    order; two as `actions`, typed as a move when a move is among them (W32.3), else a retreat, else a reform."""
    if len(actions) == 1:
        act = actions[0]
        return {"type": "reform", "dir": act.split("_", 1)[1]} if act.startswith("reform") else {"type": act}
    otype = "move" if "move" in actions else "retreat" if "retreat" in actions else "reform"
    return {"type": otype, "actions": list(actions)}


def _plain(u: dict, otype: str, enemies: list[dict]) -> list[dict]:
    """The variants of one order type for a unit: targets, directions, faces, cavalry's actions."""
    if otype in TARGETED:
        firsts = (None,) + CAVALRY_FIRST if otype == "decisive_attack" and is_cavalry(u["type"]) else (None,)
        return [{"target": e["id"], **({"first": f} if f else {})} for e in enemies for f in firsts]
    if otype in ("move", "retreat", "reform") and is_cavalry(u["type"]):
        if otype != "move":
            return []                                          # cavalry's actions are all listed under "move"
        return [cavalry_order([a] + ([b] if b else [])) for a in CAVALRY_ACTIONS for b in (None,) + CAVALRY_ACTIONS]
    if otype == "reform":
        return [{"dir": "left"}, {"dir": "right"}]
    if otype == "regroup":
        return [{"face": f} for f in ("N", "E", "S", "W") if f != u.get("facing")]
    return [{}]


def _candidates(u: dict, enemies: list[dict], dragon: bool) -> list[dict]:
    base = {"unit": u["id"], "slot": 1}
    out = [{**base, "kind": "ordinary", "type": t, **v} for t in ORDINARY_TYPES for v in _plain(u, t, enemies)]
    out += [{**base, "kind": "special", "type": t, **v} for t in SPECIAL_TYPES for v in _plain(u, t, enemies)]
    out += [{**base, "kind": "special", "type": t, "timing": timing, **v}                    # W16.5
            for timing in ("ordinary", "special") for t in ORDINARY_TYPES for v in _plain(u, t, enemies)]
    if dragon:                                                                               # W12.4
        cells = load().dragon_cells["cavalry" if is_cavalry(u["type"]) else "infantry"]
        out += [{**base, "kind": "special", "type": "dragon", **({"dir": d} if d else {}), "moves": n}
                for d in (None, "left", "right") for n in range(1, cells + 1)]
    return out


def visible_enemies(setup: dict, state: dict, side: str) -> list[dict]:
    """The enemy units on the field the side can see and name (W38.2: not one unseen in a forest)."""
    hidden = set(unseen(setup, state))
    return [u for u in state["units"] if u["side"] != side and u.get("cell") and
            u.get("status", "ready") in IN_BATTLE and u["id"] not in hidden]


def _single_refusal(setup: dict, state: dict, side: str, order: dict, result: dict | None,
                    special: int = 9) -> dict | None:
    if order["type"] == "wait":                          # a wait in a special order's place still costs one (W7)
        if order.get("kind") == "special" and special <= 0:
            return {"unit": order["unit"], "slot": order["slot"], "rule": "W7", "reason": "not_enough_special"}
        return None
    command = {"special": special, "ordinary": 9}
    dragon = order["type"] == "dragon"                   # the Dragon move goes with its banner, raised in the unit
    case = {**base_case(setup, state), "orders": [order],
            "banners": [{"unit": order["unit"], "banner": "dragon"}] if dragon else [],
            "validate": {"phase": "orders", "side": side, "turn": max(1, state["turn"]), "command": command,
                         "extra": (result or {}).get("extra") or {}, "general_retreat": False,
                         "banners_owned": dict(state["banners_left"][side]) if dragon else {}}}
    try:
        check = validate_mode(case)
    except CaseError:
        return {"rule": "W41.9", "reason": "malformed"}
    return check["refused"][0] if check["refused"] else None


# ---------------------------------------------------------------------------- odds before the dice
def roll_odds(setup: dict, state: dict, awaiting: dict) -> dict | None:
    """The exact odds of the awaited melee or shooting roll (W41.7 per dice group): hits 0…n before the dice.

    The group's dice, score needed and re-roll rounds are the engine's: the phase is run on with sixes for
    every roll still awaited until the melee or volley it belongs to appears (nothing of it is stored).
    """
    from fractions import Fraction
    from math import comb

    roller, what = awaiting["roller"], awaiting["what"]
    if roller == "random":
        return None
    against = what.rsplit(" against ", 1)[-1] if " against " in what else None
    trial = {**state, "dice": {k: list(v) for k, v in state["dice"].items()}}
    known = len(preview(setup, trial)["events"])
    seen = None
    for _ in range(400):
        seen = preview(setup, trial)
        found = _group(seen["events"][known:], roller, against)
        if found is not None:
            break
        if seen["awaiting"] is None:
            return None
        trial["dice"].setdefault(seen["awaiting"]["roller"], []).append(6)
    else:
        return None
    dice, needs, rerolls, guaranteed = found
    p = 1 - Fraction(needs - 1, 6) ** (rerolls + 1) if 1 <= needs <= 6 else Fraction(0)
    dist = [(k, comb(dice, k) * p ** k * (1 - p) ** (dice - k)) for k in range(dice + 1)]
    return {"dice": dice, "needs": needs, "rerolls": rerolls, "guaranteed": guaranteed,
            "hits": [{"hits": k, "p": float(q)} for k, q in dist if q > 0],
            "expected": float(dice * p)}


def _group(events: list[dict], roller: str, against: str | None):
    for e in events:
        if e.get("type") == "melee":
            for r in ((e.get("units") or {}).get(roller) or {}).get("rolls", []):
                if against is None or r.get("against") == against:
                    return r["dice"], r["needs"], r.get("rerolls", 0), r.get("guaranteed", 0)
        if e.get("type") == "shoot":
            for s in e.get("shots", []):
                if s.get("shooter") == roller:
                    return s["figures_shooting"], s["needs"], s.get("rerolls", 0), s.get("guaranteed", 0)
    return None
