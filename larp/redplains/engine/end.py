"""The end of the battle (W39), checked at the end of each battle turn; the `end` mode (W41.11)."""
from __future__ import annotations

from typing import Any

from .board import Board
from .case import Unit, boolean, integer, lst, obj, unique_ids, unit
from .data import Data
from .errors import CaseError
from .modes import case_data, top
from .outcomes import DEFEAT, DRAW, FLEEING, NORTH, OUT_OF_BATTLE, SIDES, SOUTH, TOTAL_DEFEAT

QUIET_KEYS = ("melee", "shooting", "advanced")


def parse_history(raw: Any, where: str = "history") -> dict[int, dict]:
    """History lines by turn (W41.11); a missing turn counts as one with melee, shooting and advance."""
    out: dict[int, dict] = {}
    for i, line in enumerate(lst(raw or [], where, 1000)):
        node = obj(line, f"{where}[{i}]")
        turn = integer(node, "turn", f"{where}[{i}]", 0, 10_000)
        entry = {k: boolean(node, k, f"{where}[{i}]", True) for k in QUIET_KEYS}
        only = node.get("only_retreat") or {}
        only = obj(only, f"{where}[{i}].only_retreat")
        entry["only_retreat"] = {s: boolean(only, s, f"{where}[{i}].only_retreat") for s in SIDES}
        out[turn] = entry
    return out


def parse_sides(raw: Any, where: str = "sides") -> dict[str, int | None]:
    node = obj(raw or {}, where)
    out = {}
    for side in SIDES:
        s = obj(node.get(side) or {}, f"{where}.{side}")
        out[side] = integer(s, "general_retreat", f"{where}.{side}", 0, 10_000, None)
    return out


def _line(history: dict[int, dict], turn: int) -> dict:
    return history.get(turn) or {"melee": True, "shooting": True, "advanced": True,
                                 "only_retreat": {NORTH: False, SOUTH: False}}


def _quiet(line: dict) -> bool:
    return not line["melee"] and not line["shooting"]


def _other(side: str) -> str:
    return SOUTH if side == NORTH else NORTH


def evaluate(data: Data, board: Board, turn: int, retreat: dict[str, int | None], stop: str | None,
             units: list[Unit], history: dict[int, dict]) -> dict:
    """W39.2–W39.7 in order; the first that applies decides."""
    by_side = {s: [u for u in units if u.side == s] for s in SIDES}

    def out(u: Unit) -> bool:
        return u.status in OUT_OF_BATTLE or u.cell is None

    result = {"ended": False, "outcome": None, "loser": None, "condition": None, "may_stop": None}

    def finish(outcome: str, loser: str | None, condition: str) -> dict:
        if outcome == DRAW:                                              # W39.7
            ordered = {s: retreat[s] for s in SIDES if retreat[s] is not None}
            if len(ordered) == 1:
                outcome, loser = DEFEAT, next(iter(ordered))
            elif len(ordered) == 2 and ordered[NORTH] != ordered[SOUTH]:
                outcome, loser = DEFEAT, min(ordered, key=lambda s: ordered[s])
        result.update(ended=True, outcome=outcome, loser=loser, condition=condition)
        return result

    # W39.2 total defeat
    beaten = [s for s in SIDES if all(out(u) or u.status == FLEEING for u in by_side[s])]
    if len(beaten) == 2:
        return finish(DRAW, None, "W39.2")
    if beaten:
        return finish(TOTAL_DEFEAT, beaten[0], "W39.2")
    # W39.3 stop by the winner
    candidates = []
    for loser in SIDES:
        if not all(out(u) or u.fled_ever for u in by_side[loser]):
            continue
        winner = _other(loser)
        near = any(board.adjacent(w.cell, lu.cell) for w in by_side[winner] if not out(w)
                   for lu in by_side[loser] if not out(lu))
        if not near:
            candidates.append(loser)
    if len(candidates) == 1:
        winner = _other(candidates[0])
        result["may_stop"] = winner
        if stop == winner:
            return finish(DEFEAT, candidates[0], "W39.3")
    recent = [_line(history, t) for t in range(turn - 2, turn + 1)] if turn >= 3 else []
    # W39.4 retreat defeat
    losers = []
    for side in SIDES:
        signal = retreat[side]
        if signal is None or turn < signal + 2 or not recent:
            continue
        quiet = all(_quiet(line) for line in recent)
        since = turn - 2 >= signal
        only = all(line["only_retreat"][side] for line in recent)
        if quiet and (since or only):
            losers.append(side)
    if len(losers) == 1:
        return finish(DEFEAT, losers[0], "W39.4")
    if len(losers) == 2:
        first = min(SIDES, key=lambda s: retreat[s])
        if retreat[NORTH] != retreat[SOUTH]:
            return finish(DEFEAT, first, "W39.4")
        return finish(DRAW, None, "W39.4")
    # W39.5 lull
    if recent and all(_quiet(line) and not line["advanced"] for line in recent):
        return finish(DRAW, None, "W39.5")
    # W39.6 late end
    if (turn in data.late_lull_turns and _quiet(_line(history, turn))) or turn >= data.max_battle_turns:
        holds = {}
        for side in SIDES:
            rows = {data.lines[side][n] for n in data.holding_lines}
            holds[side] = any(not out(u) and u.status != FLEEING and
                              (board.pos(u.cell)[1] in rows or board.half(u.cell) != side) for u in by_side[side])
        if holds[NORTH] != holds[SOUTH]:
            return finish(DEFEAT, NORTH if not holds[NORTH] else SOUTH, "W39.6")
        return finish(DRAW, None, "W39.6")
    return result


def place_units(board: Board, units: list[Unit]) -> None:
    """Every unit on the field stands in a cell that exists, one unit per cell (W3.1); others have none."""
    taken: dict[str, str] = {}
    for i, u in enumerate(units):
        if u.status in OUT_OF_BATTLE:
            u.cell = None
            continue
        if u.cell is None:
            raise CaseError(f"units[{i}].cell", "missing for a unit on the field")
        board.cell(u.cell, f"units[{i}].cell")
        if u.cell in taken:
            raise CaseError(f"units[{i}].cell", f"{u.cell} already holds {taken[u.cell]} (W3.1)")
        taken[u.cell] = u.id


def end_mode(case: Any) -> dict:
    case = top(case)
    data = case_data(case)
    spec = obj(case.get("end"), "end")
    turn = integer(spec, "turn", "end", 1, 10_000)
    retreat = parse_sides(spec.get("sides"), "end.sides")
    stop = spec.get("stop")
    if stop is not None and stop not in SIDES:
        raise CaseError("end.stop", "north, south or null")
    board = Board(data, case.get("field"))
    units = [unit(data, raw, f"units[{i}]") for i, raw in enumerate(lst(case.get("units"), "units", 500))]
    unique_ids(units, "units")
    place_units(board, units)
    history = parse_history(case.get("history"))
    return evaluate(data, board, turn, retreat, stop, units, history)
