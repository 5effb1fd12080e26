"""Moves of a turn that are not combats: cavalry first actions (P2), ordered retreats (P5), regroups (P6),
other moves and reforms (P8), automatic turning (W17.2), and the simultaneous-move rule of W24."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .board import TURN_LEFT, TURN_RIGHT, direction
from .orders import exposed
from .outcomes import FLEEING, FRONT, LEFT, READY, REAR, REGROUP, RETREAT, RIGHT

if TYPE_CHECKING:
    from .orders import Order
    from .turn import Turn


def _turned(facing: str, part: str) -> str:
    return TURN_LEFT[facing] if part.endswith("left") else TURN_RIGHT[facing]


def _bound_by_flank_rule(t: "Turn", o: "Order") -> bool:
    """W15.1 binds ordinary orders in ordinary timing; W16.0/W16.5 free the special timing."""
    return not o.special_timing and not o.phoenix


def _exposes(t: "Turn", o: "Order", cell: str, facing: str) -> bool:
    u = t.units[o.unit]
    return _bound_by_flank_rule(t, o) and exposed(t.board, t.units, u, cell, facing)


def reforms(t: "Turn", items: list[tuple["Order", str]]) -> None:
    """Reforms of one priority, together: W15.1 judged on the board at the start of the priority."""
    decided = []
    for o, part in items:
        u = t.units[o.unit]
        facing = _turned(u.facing, part)
        decided.append((o, facing, _exposes(t, o, u.cell, facing)))
    for o, facing, exposes in decided:
        if exposes:
            t.lose_order(o, "W15.1", "exposes_flank")
        else:
            t.turn_unit(t.units[o.unit], facing)
            t.part_acted(o, "reform")


def simultaneous(t: "Turn", intents: list[tuple["Order", str, str]], meet: bool) -> list[tuple[str, str, str]]:
    """W24.1: moves into free cells at one priority, together. intents: (order, cell, event kind).

    Returns the meeting engagements (unit, unit, cell) of enemies entering one free cell when `meet`.
    """
    by_cell: dict[str, list] = {}
    for item in intents:
        by_cell.setdefault(item[1], []).append(item)
    meetings = []
    live = []
    for cell, items in by_cell.items():
        sides = {}
        for item in items:
            sides.setdefault(t.units[item[0].unit].side, []).append(item)
        for side, mine in sides.items():
            if len(mine) > 1:                                        # two friends into one cell: all fail
                for o, _c, _k in mine:
                    t.lose_order(o, "W24.1", "cell_contested")
                sides[side] = []
        rest = [v[0] for v in sides.values() if v]
        if len(rest) == 2 and meet and t.occupant(cell) is None:
            meetings.append((rest[0][0].unit, rest[1][0].unit, cell))
            continue
        if len(rest) == 2:
            for o, _c, _k in rest:
                t.lose_order(o, "W24.1", "cell_contested")
            continue
        live += rest
    movers = {o.unit: (o, cell, kind) for o, cell, kind in live}
    ok = {uid: t.occupant(cell) is None for uid, (_o, cell, _k) in movers.items()}
    changed = True
    while changed:                                                    # a column advances together
        changed = False
        for uid, (_o, cell, _k) in movers.items():
            if ok[uid]:
                continue
            occ = t.occupant(cell)
            if occ is not None and occ.id in movers and ok[occ.id] and occ.side == t.units[uid].side:
                ok[uid] = changed = True
    for uid in t.board_sorted(movers):
        o, cell, kind = movers[uid]
        if not ok[uid]:
            t.lose_order(o, "W24.1", "cell_not_free")
    targets = {uid: movers[uid][1] for uid in movers if ok[uid]}
    for uid in t.board_sorted(targets):
        o, cell, kind = movers[uid]
        u = t.units[uid]
        own = kind in ("move", "step")
        old = u.cell
        t.move_unit(u, cell, kind, own=own)
        t.part_acted(o, RETREAT if kind == "retreat" else "move")
        if kind == "move" and u.tt.actions_per_order > 1 and (
                t.terrain.crosses_river(t.board, old, cell)
                or (cell in t.terrain.forests and old not in t.terrain.forests)):
            if o.state["status"] == "pending":                         # W21.4: it takes the whole order
                o.state["status"] = "done"
    return meetings


def cavalry_first(t: "Turn") -> None:
    """P2: the first action of cavalry orders; a first move into an enemy is an attack fought now."""
    intents, attacks, turns = [], [], []
    for uid in t.board_sorted(t.order_ids):
        for o in t.in_step(uid):
            part = t.current(o)
            if part is None or not (part.startswith("cav_") or part.startswith("first_")):
                continue
            u = t.units[uid]
            if part.endswith("reform_left") or part.endswith("reform_right"):
                turns.append((o, part))
                continue
            if part == "cav_retreat":
                cell = t.board.toward(u.cell, u.facing, REAR)
                if t.ts[uid].no_move or cell is None or t.occupant(cell) is not None and \
                        t.occupant(cell).side != u.side:
                    t.lose_order(o, "W15.3", "cell_not_free")
                elif _exposes(t, o, cell, u.facing):
                    t.lose_order(o, "W15.1", "exposes_flank")
                else:
                    intents.append((o, cell, "retreat"))
                continue
            cell = t.board.toward(u.cell, u.facing, FRONT)
            occ = t.occupant(cell)
            if part == "first_move" and (occ is not None or cell is None):
                o.state["first_unused"] = True                          # W16.3: kept for the attack
                o.state["cursor"] += 1
                continue
            if part == "first_move":
                o.state["first_unused"] = False
            if t.ts[uid].no_move or cell is None:
                t.lose_order(o, "W21.1", "cell_not_free")
            elif occ is not None and occ.side != u.side:
                attacks.append((uid, occ.id, o, False))
            elif _exposes(t, o, cell, u.facing):
                t.lose_order(o, "W15.1", "exposes_flank")
            else:
                intents.append((o, cell, "move"))
    from . import turn_combat as tc
    reforms(t, turns)
    if attacks:
        tc.fight_attacks(t, attacks)
    for a, b, cell in simultaneous(t, intents, meet=True):
        tc.meeting_in_cell(t, a, b, cell)


def retreats(t: "Turn") -> None:
    """P5: ordered retreats, general-retreat steps and cavalry retreat actions, together (W15.3)."""
    intents = []
    for uid in t.board_sorted(t.order_ids):
        for o in t.in_step(uid):
            if t.current(o) != "retreat":
                continue
            u = t.units[uid]
            cell = t.board.toward(u.cell, u.facing, REAR)
            occ = t.occupant(cell)
            if t.ts[uid].no_move or u.status != READY or cell is None or (occ is not None and occ.side != u.side):
                t.lose_order(o, "W15.3", "cell_not_free")
            elif _exposes(t, o, cell, u.facing):
                t.lose_order(o, "W15.1", "exposes_flank")
            else:
                intents.append((o, cell, "retreat"))
    simultaneous(t, intents, meet=False)


def regroups(t: "Turn") -> None:
    """P6 (W16.4, W35.3): turns, side steps, swaps and rallies."""
    intents = []
    swaps = []
    for uid in t.board_sorted(t.order_ids):
        for o in t.in_step(uid):
            if t.current(o) != "regroup":
                continue
            u = t.units[uid]
            if u.status == FLEEING:                                        # W35.3 rally
                u.status = READY
                u.rallies += 1
                t.ts[uid].rallied = True
                t.event("rally", unit=uid, rallies=u.rallies)
                if o.face:
                    t.turn_unit(u, o.face)
                t.part_acted(o, REGROUP)
            elif o.face:
                t.turn_unit(u, o.face)
                t.part_acted(o, REGROUP)
            elif o.step:
                cell = t.board.toward(u.cell, u.facing, LEFT if o.step == "left" else RIGHT)
                occ = t.occupant(cell)
                if t.ts[uid].no_move or cell is None or occ is not None and occ.side != u.side:
                    t.lose_order(o, "W16.4", "cell_not_free")
                else:
                    intents.append((o, cell, "step"))
            elif o.swap_with:
                swaps.append(o)
            else:
                t.part_acted(o, REGROUP)
    done = set()
    for o in swaps:
        if o.unit in done or o.state["status"] != "pending":
            continue
        partner = next((p for p in t.in_step(o.swap_with) if p.type == REGROUP and p.swap_with == o.unit
                        and t.current(p) == "regroup"), None)
        a, b = t.units[o.unit], t.units[o.swap_with]
        if partner is None or a.side != b.side or not t.board.in_contact(a.cell, b.cell) \
                or t.ts[a.id].no_move or t.ts[b.id].no_move:
            t.lose_order(o, "W16.4", "swap_failed")
            continue
        ca, cb = a.cell, b.cell
        t.event("move", unit=a.id, swap_with=b.id, **{"from": ca, "to": cb})
        t.event("move", unit=b.id, swap_with=a.id, **{"from": cb, "to": ca})
        for u, old, new in ((a, ca, cb), (b, cb, ca)):
            if t.nearer_enemy_edge(u, old, new):
                t.advanced = True
            u.cell = new
            t.ts[u.id].moved = t.ts[u.id].turned_or_moved = True
        t.part_acted(o, REGROUP)
        t.part_acted(partner, REGROUP)
        done |= {a.id, b.id}
    simultaneous(t, intents, meet=False)


def other_moves(t: "Turn") -> None:
    """P8: moves into free cells, reforms (Hold's included); W24 together; meetings in a contested cell."""
    intents, turns = [], []
    for uid in t.board_sorted(t.order_ids):
        for o in t.in_step(uid):
            part = t.current(o)
            u = t.units[uid]
            if part is None or part.startswith("cav_") or part.startswith("first_"):
                continue
            if part.startswith("reform_"):
                if u.cell in t.terrain.forests:                             # W38.5
                    t.lose_order(o, "W38.5", "forest_turn")
                else:
                    turns.append((o, part))
                continue
            if part not in ("advance", "decisive"):
                continue
            cell = t.board.toward(u.cell, u.facing, FRONT)
            occ = t.occupant(cell)
            if occ is not None and occ.side != u.side:
                continue                                                     # an attack, not P8
            if t.ts[uid].no_move or cell is None or (occ is not None and part == "decisive"):
                t.lose_order(o, "W15.5", "cell_not_free")
            elif _exposes(t, o, cell, u.facing):
                t.lose_order(o, "W15.1", "exposes_flank")
            else:
                if part == "decisive":
                    o.state["parts"] = o.state["parts"][: o.state["cursor"] + 1]   # W16.3: the order ends
                intents.append((o, cell, "move"))
    from . import turn_combat as tc
    reforms(t, turns)
    for a, b, cell in simultaneous(t, intents, meet=True):
        tc.meeting_in_cell(t, a, b, cell)


def _exposers(t: "Turn", uid: str, cell: str, facing: str) -> list[tuple[str, str]]:
    u = t.units[uid]
    out = []
    for e in t.units.values():
        if e.side == u.side or e.status != READY or e.cell is None:
            continue
        if t.board.in_contact(cell, e.cell) and t.board.toward(e.cell, e.facing, FRONT) == cell:
            side = t.board.side_of(cell, facing, e.cell)
            if side != FRONT:
                out.append((e.id, side))
    return out


def auto_turning(t: "Turn") -> None:
    """W17.2 at P8: a unit with no order left turns to face an enemy on its flank (rear: 90°)."""
    for uid in t.board_sorted(t.order_ids):
        u = t.units[uid]
        if u.status != READY or u.cell is None or u.cell in t.terrain.forests or t.live_orders(uid):
            continue
        threats = _exposers(t, uid, u.cell, u.facing)
        if len(threats) != 1:
            continue
        enemy, side = threats[0]
        if side in (LEFT, RIGHT):
            options = [direction(u.facing, side)]
        else:
            options = [TURN_RIGHT[u.facing], TURN_LEFT[u.facing]]
        for facing in options:
            if not [x for x in _exposers(t, uid, u.cell, facing) if x[0] != enemy]:
                t.turn_unit(u, facing, "auto_turn")
                break
