"""Orders (W15, W16, W21, W41.10): parsing and the per-order checks both `validate` and `turn` apply."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import TURN_LEFT, TURN_RIGHT, Board
from .case import Unit, boolean, choice, ident, integer, lst, obj
from .data import Data
from .errors import CaseError
from .outcomes import (CAVALRY_ACTIONS, CAVALRY_FIRST, DECISIVE_ATTACK, DRAGON, FACINGS, FLEEING, FRONT, HOLD,
                       MASSED_SHOOT, MOVE, ORDER_TYPES, ORDINARY, ORDINARY_TYPES, REAR, REFORM, REGROUP, RETREAT,
                       SHOOT, SPECIAL, WAIT)

MAX_ORDERS = 1000


@dataclass
class Order:
    index: int
    unit: str
    slot: int
    kind: str
    type: str
    timing: str
    target: str | None = None
    dir: str | None = None
    actions: tuple[str, ...] = ()
    first: str | None = None
    face: str | None = None
    step: str | None = None
    swap_with: str | None = None
    phoenix: bool = False
    moves: int | None = None            # Dragon move: cells straight ahead (W12.4)
    free: bool = False                  # a general-retreat step, the Phoenix order, a Dragon move
    general_step: bool = False
    state: dict = field(default_factory=dict)

    @property
    def special_timing(self) -> bool:
        return self.type == DRAGON or (self.kind == SPECIAL and (self.type not in ORDINARY_TYPES
                                                                 or self.timing == SPECIAL))

    def refusal(self, rule: str, reason: str) -> dict:
        return {"unit": self.unit, "slot": self.slot, "rule": rule, "reason": reason}


def parse_orders(raw: Any, units: dict[str, Unit], where: str = "orders") -> list[Order]:
    out = []
    for i, node in enumerate(lst(raw or [], where, MAX_ORDERS)):
        w = f"{where}[{i}]"
        node = obj(node, w)
        uid = ident(node, "unit", w)
        if uid not in units:
            raise CaseError(f"{w}.unit", f"no unit {uid!r} in this case")
        kind = choice(node, "kind", w, (ORDINARY, SPECIAL))
        otype = choice(node, "type", w, ORDER_TYPES)
        order = Order(i, uid, integer(node, "slot", w, 1, 9), kind, otype,
                      choice(node, "timing", w, (ORDINARY, SPECIAL), ORDINARY),
                      phoenix=boolean(node, "phoenix", w))
        if otype in (SHOOT, MASSED_SHOOT, DECISIVE_ATTACK):
            order.target = ident(node, "target", w, None)
            if order.target is None:
                raise CaseError(f"{w}.target", "a shooting or decisive attack names its target unit")
            if order.target not in units:
                raise CaseError(f"{w}.target", f"no unit {order.target!r} in this case")
        if otype in (REFORM, HOLD, DRAGON):
            order.dir = choice(node, "reform", w, ("left", "right"), None) if otype == HOLD else \
                choice(node, "dir", w, ("left", "right"), None)
        if otype == DRAGON:
            order.moves = integer(node, "moves", w, 0, 10, None)
        if "actions" in node and node["actions"] is not None:
            acts = lst(node["actions"], f"{w}.actions", 4)
            for j, a in enumerate(acts):
                if a not in CAVALRY_ACTIONS:
                    raise CaseError(f"{w}.actions[{j}]", f"one of {', '.join(CAVALRY_ACTIONS)}")
            order.actions = tuple(acts)
        if otype == REFORM and order.dir is None and not order.actions:
            raise CaseError(f"{w}.dir", "a reform turns left or right")
        if otype == DECISIVE_ATTACK:
            order.first = choice(node, "first", w, CAVALRY_FIRST, None)
        if otype == REGROUP:
            order.face = choice(node, "face", w, FACINGS, None)
            order.step = choice(node, "step", w, ("left", "right"), None)
            order.swap_with = ident(node, "swap_with", w, None)
            if order.swap_with is not None and order.swap_with not in units:
                raise CaseError(f"{w}.swap_with", f"no unit {order.swap_with!r} in this case")
            if sum(x is not None for x in (order.face, order.step, order.swap_with)) > 1:
                raise CaseError(w, "a regroup turns (face), steps or swaps, one of them")
        if otype in (SHOOT, RETREAT, REFORM, MOVE, WAIT) and kind == ORDINARY and order.timing == SPECIAL:
            raise CaseError(f"{w}.timing", "only an ordinary order given with a special one has special timing (W16.5)")
        order.free = order.phoenix or otype == DRAGON
        out.append(order)
    return out


def moving(order: Order) -> bool:
    """W32.3 (plus retreat, W16.2): orders that move the unit."""
    if order.type in (MOVE, DECISIVE_ATTACK, RETREAT, DRAGON):
        return True
    if order.type == REGROUP:
        return order.step is not None or order.swap_with is not None
    return False


def cavalry_actions(u: Unit, order: Order) -> tuple[str, ...]:
    if order.actions:
        return order.actions
    if order.type == MOVE:
        return ("move",)
    if order.type == RETREAT:
        return ("retreat",)
    if order.type == REFORM:
        return ("reform_left" if order.dir == "left" else "reform_right",)
    return ()


def exposed(board: Board, units: dict[str, Unit], u: Unit, cell: str, facing: str) -> bool:
    """W3.6: an enemy in contact faces this cell from its left, right or rear."""
    for e in units.values():
        if e.side == u.side or e.cell is None or e.id == u.id or e.status != "ready":
            continue
        if not board.in_contact(cell, e.cell) or board.toward(e.cell, e.facing, FRONT) != cell:
            continue
        if board.side_of(cell, facing, e.cell) in ("left", "right", REAR):
            return True
    return False


def _occupant(units: dict[str, Unit], cell: str | None) -> Unit | None:
    if cell is None:
        return None
    for u in units.values():
        if u.cell == cell and u.status in ("ready", FLEEING):
            return u
    return None


def filing_exposes(board: Board, units: dict[str, Unit], u: Unit, order: Order) -> bool:
    """W15.1 at filing: the board at the start of the turn, every other unit standing still."""
    if order.special_timing or order.type not in (RETREAT, REFORM, MOVE):
        return False
    cell, facing = u.cell, u.facing
    acts = cavalry_actions(u, order) if u.tt.actions_per_order > 1 else \
        (("move",) if order.type == MOVE else ("retreat",) if order.type == RETREAT
         else ("reform_left" if order.dir == "left" else "reform_right",))
    for act in acts:
        if act in ("move", "retreat"):
            nxt = board.toward(cell, facing, FRONT if act == "move" else REAR)
            other = _occupant(units, nxt)
            if nxt is None or (other is not None and other.id != u.id):
                return False            # an attack or a blocked move: not brought about by this order
            cell = nxt
        else:
            facing = TURN_LEFT[facing] if act == "reform_left" else TURN_RIGHT[facing]
        if exposed(board, units, u, cell, facing):
            return True
    return False


def decisive_ok(board: Board, units: dict[str, Unit], u: Unit, order: Order) -> bool:
    """W16.3 at filing: the named enemy stands in front (cavalry: two ahead over a free cell, or after one reform)."""
    target = units[order.target]
    if target.side == u.side or target.cell is None:
        return False
    front = board.toward(u.cell, u.facing, FRONT)
    if front == target.cell:
        return True
    if u.tt.actions_per_order < 2:
        return False
    if front is not None and _occupant(units, front) is None and board.toward(front, u.facing, FRONT) == target.cell:
        return True
    for turned in (TURN_LEFT[u.facing], TURN_RIGHT[u.facing]):
        if board.toward(u.cell, turned, FRONT) == target.cell:
            return True
    return False


def check_orders(data: Data, board: Board, units: dict[str, Unit], orders: list[Order],
                 forests: set[str]) -> tuple[list[Order], list[dict]]:
    """The per-order checks of W41.9 in their order; each refusal drops the order."""
    accepted: list[Order] = []
    refused: list[dict] = []
    by_unit: dict[str, list[Order]] = {}
    slots_given = {(o.unit, o.slot) for o in orders}
    for o in orders:
        u = units[o.unit]
        mine = by_unit.setdefault(o.unit, [])
        reason = None
        if u.status != "ready" and u.status != FLEEING:
            raise CaseError(f"orders[{o.index}].unit", f"{u.id} is out of the battle")
        if len(mine) >= data.max_orders_per_unit or o.slot > data.max_orders_per_unit or \
                any(x.slot == o.slot for x in mine):
            reason = ("W15.0", "too_many_orders")
        elif u.status == FLEEING and (
                (o.slot == 1 and not (o.type == REGROUP or o.phoenix))
                or (o.slot == 2 and not any(x.slot == 1 for x in mine))):
            reason = ("W15.0", "fleeing_unit_order")
        elif o.actions and (u.tt.actions_per_order < 2 or len(o.actions) > u.tt.actions_per_order
                            or o.type not in (MOVE, RETREAT, REFORM)):
            reason = ("W21.1", "bad_cavalry_actions")
        elif o.type == DRAGON and (o.slot != 1 or (o.moves or 0) > data.dragon_cells[
                "cavalry" if u.tt.actions_per_order > 1 else "infantry"]):
            reason = ("W12.4", "dragon_not_first" if o.slot != 1 else "dragon_too_far")
        elif o.type == WAIT and (o.slot != 1 or (o.unit, 2) not in slots_given):
            reason = ("W15.6", "wait_not_first")
        elif o.type in (SHOOT, MASSED_SHOOT) and not u.tt.shooter:
            reason = ("W15.2", "not_a_shooter")
        elif o.type in (SHOOT, MASSED_SHOOT) and not u.ammo:
            reason = ("W31.5", "no_ammo")
        elif o.type in (SHOOT, MASSED_SHOOT) and (units[o.target].side == u.side or units[o.target].cell is None):
            reason = ("W15.2", "not_an_enemy")
        elif o.type == DECISIVE_ATTACK and not decisive_ok(board, units, u, o):
            reason = ("W16.3", "no_enemy_in_front")
        elif o.slot == 2 and moving(o) and any(x.type == HOLD and x.slot == 1 for x in mine):
            reason = ("W16.2", "hold_with_move")
        elif u.status != FLEEING and filing_exposes(board, units, u, o):
            reason = ("W15.1", "exposes_flank")
        elif u.cell in forests and (o.type == REFORM or (o.type == HOLD and o.dir)
                                    or any(a.startswith("reform") for a in o.actions)):
            reason = ("W38.5", "forest_turn")
        if reason:
            refused.append(o.refusal(*reason))
            continue
        mine.append(o)
        accepted.append(o)
    return accepted, refused
