"""Retreats (W33), flights (W34, W35.4, W35.5) and the S3 steps of units already fleeing (W35.2)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .board import OPPOSITE, direction
from .orders import exposed
from .outcomes import DESTROYED, DISPERSED, FLEEING, FRONT, LEFT, READY, REAR, RIGHT

if TYPE_CHECKING:
    from .case import Unit
    from .turn import Turn


def _destroy(t: "Turn", u: "Unit") -> None:
    u.figures = 0
    u.status = DESTROYED
    t.lose_all(u.id, "W26.5", "destroyed")
    u.cell = None



# ---------------------------------------------------------------------- retreats and flights
def _free(t: "Turn", cell: str | None) -> bool:
    return cell is not None and t.occupant(cell) is None


def combat_retreat(t: "Turn", uid: str, toward: str, away: list[str]) -> str | None:
    """W33: one cell keeping the facing; blocked by an enemy, or with nowhere to go: a flight instead.

    Returns the compass direction of the step (for W30.2), or that of the flight's first step.
    """
    u = t.units[uid]
    primary = t.board.toward(u.cell, u.facing, toward)
    occ = t.occupant(primary)
    if occ is not None and occ.side != u.side:
        return flee(t, uid, toward)
    if _free(t, primary):
        return _retreat_to(t, u, primary, direction(u.facing, toward))
    if toward == REAR and set(away) == {LEFT, RIGHT}:
        alternatives = [[FRONT]]
    elif toward in (LEFT, RIGHT):
        alternatives = [[FRONT]]
    else:
        alternatives = [[LEFT, RIGHT]]
    for group in alternatives:
        options = [s for s in group if _free(t, t.board.toward(u.cell, u.facing, s))
                   and not exposed(t.board, t.units, u, t.board.toward(u.cell, u.facing, s), u.facing)]
        if options:
            side = t.dice.choose(options, f"the side step of {uid}'s retreat (W33.2)")
            return _retreat_to(t, u, t.board.toward(u.cell, u.facing, side), direction(u.facing, side))
    return flee(t, uid, toward)


def _retreat_to(t: "Turn", u: "Unit", cell: str, compass: str) -> str:
    t.move_unit(u, cell, "retreat", own=False)
    return compass


def flee(t: "Turn", uid: str, toward: str | None, compass: str | None = None) -> str | None:
    """W34: two cells, back to the enemy; through an enemy at a cost; dispersed when nowhere is free."""
    u = t.units[uid]
    origin = u.cell
    d1 = compass or direction(u.facing, toward)
    first = t.board.neighbour(origin, d1)
    losses, path, passed = 0, [], []
    dispersed = False
    own = t.board.own_edge(u.side)
    if first is None:
        if t.board.beyond_own_edge(u.side, t.board.beyond(origin, d1)):
            dispersed = True
        else:
            sides = [c for c in ("W", "E") if c not in (d1, OPPOSITE[d1]) and t.board.neighbour(origin, c)]
            if not sides:
                sides = [c for c in (own,) if t.board.neighbour(origin, c)]
            if sides:
                d1 = t.dice.choose(sides, f"the first cell of {uid}'s flight (W34.5)")
                first = t.board.neighbour(origin, d1)
            else:
                dispersed = True
    last = d1
    if first is not None:
        occ = t.occupant(first)
        if occ is not None and occ.id != uid:
            if occ.side != u.side:
                losses += occ.figures
            elif occ.tt.peasants and occ.status == READY:
                passed.append(occ.id)
        path.append(first)
        order = [own, "W", "E", OPPOSITE[own]]
        free = []
        for c in order:
            nxt = t.board.neighbour(first, c)
            if nxt is not None and nxt != origin and t.occupant(nxt) is None:
                free.append(c)
        beyond_own = t.board.neighbour(first, own) is None and t.board.beyond_own_edge(u.side,
                                                                                      t.board.beyond(first, own))
        if own in free:
            last = own
        elif beyond_own:
            dispersed, last = True, own
        elif "W" in free or "E" in free:
            last = t.dice.choose([c for c in ("W", "E") if c in free], f"the second cell of {uid}'s flight (W34.3)")
        elif OPPOSITE[own] in free:
            last = OPPOSITE[own]
        else:
            costs = []
            for c in order:
                nxt = t.board.neighbour(first, c)
                if nxt is None or nxt == origin:
                    continue
                occ2 = t.occupant(nxt)
                costs.append((occ2.figures if occ2 and occ2.side != u.side else 0, len(costs), c, nxt, occ2))
            if costs:
                cost, _i, last, nxt, occ2 = min(costs)
                losses += cost
                path.append(nxt)
                if occ2 is not None and occ2.side == u.side and occ2.tt.peasants and occ2.status == READY:
                    passed.append(occ2.id)
            dispersed = True
        if not dispersed:
            path.append(t.board.neighbour(first, last))
    u.figures = max(0, u.figures - losses)
    t.event("flight", unit=uid, path=path, losses=losses)
    t.lose_all(uid, "W34.6", "fleeing")
    u.status, u.fled_ever, u.fleeing_since = FLEEING, True, t.turn
    if u.figures == 0:
        _destroy(t, u)
    elif dispersed:
        u.status = DISPERSED
        t.event("dispersed", unit=uid, figures=u.figures)
        u.cell = None
    else:
        u.cell = path[-1]
        u.facing = last
    for pid in t.board_sorted(passed):                                   # W35.5 peasants
        if t.units[pid].status == READY:
            flee(t, pid, None, own)
    return d1


def fleeing_steps(t: "Turn") -> None:
    """S3 (W35.2): units fleeing since an earlier turn step 1 cell towards their own edge."""
    for uid in t.board_sorted([i for i in t.order_ids if t.units[i].status == FLEEING
                               and t.ts[i].fleeing_at_start and not t.ts[i].rallied]):
        u = t.units[uid]
        if u.status != FLEEING or u.cell is None:
            continue
        own = t.board.own_edge(u.side)
        nxt = t.board.neighbour(u.cell, own)
        if nxt is None and t.board.beyond_own_edge(u.side, t.board.beyond(u.cell, own)):
            t.event("dispersed", unit=uid, figures=u.figures)
            u.status, u.cell = DISPERSED, None
            continue
        if _free(t, nxt):
            step = own
        else:
            sides = [c for c in ("W", "E") if _free(t, t.board.neighbour(u.cell, c))]
            if not sides:
                continue
            step = t.dice.choose(sides, f"the side step of fleeing {uid} (W35.2)")
        cell = t.board.neighbour(u.cell, step)
        t.event("flight", unit=uid, path=[cell], losses=0)
        u.cell, u.facing = cell, step

