"""The `turn` mode (W18–W35, then W39): one whole execution phase of a battle turn.

Orders become lists of parts; each step (S1…S6) runs the priorities P1…P8 in
order and lets every part that belongs there act, simultaneously where the
rules say so (W24). Combats, flights and retreats are in turn_combat.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .board import TURN_LEFT, TURN_RIGHT, Board, Terrain
from .case import Unit, ident, integer, lst, obj, unique_ids, unit
from .data import Data
from .dice import Dice, parse_seed
from .end import evaluate, parse_history, parse_sides, place_units
from .errors import CaseError
from .modes import case_data, top
from .orders import Order, check_orders, moving, parse_orders
from .validate import banner_checks, dragon_needs_banner
from .outcomes import (CRAB, DECISIVE_ATTACK, DRAGON, FLEEING, HOLD, MASSED_SHOOT, MOVE,
                       NORTH, ORDINARY, OUT_OF_BATTLE, PHOENIX, READY, REFORM, REGROUP, RETREAT, SHOOT, SIDES, TIGER,
                       WAIT)
from . import turn_combat as tc
from . import turn_flight as tf
from . import turn_moves as tm

ACTIVE_STEPS = ("S1", "S2", "S5", "S6")


@dataclass
class TurnState:
    """What one unit did and suffered this turn."""
    orders: list
    hold: bool = False
    hold_from_order: bool = False
    attacked: bool = False
    moved: bool = False            # changed cell by an order of its own (W4.3)
    turned_or_moved: bool = False  # shields (W4.7)
    melee: bool = False
    shot_at: bool = False
    pending_shot_losses: int = 0   # W32.4
    step_shot_losses: int = 0      # W32.1, W22.3
    no_move: bool = False          # stopped by shooting (W32.1)
    panic: int = 0
    crab: bool = False
    tiger: bool = False
    banner_raised: str | None = None
    fleeing_at_start: bool = False
    rallied: bool = False
    attacks: int = 0               # successful attacks this turn (W21.3)
    no_defence: bool = False       # a Dragon's target that had move orders (W12.4)
    did: set | None = None         # kinds of orders carried out (W39.4 only_retreat)


class Turn:
    def __init__(self, data: Data, board: Board, terrain: Terrain, units: list[Unit], turn: int, dice: Dice,
                 no_joint: set[str]):
        self.data, self.board, self.terrain, self.turn, self.dice = data, board, terrain, turn, dice
        self.units = {u.id: u for u in units}
        self.order_ids = [u.id for u in units]
        self.ts: dict[str, TurnState] = {u.id: TurnState([], fleeing_at_start=u.status == FLEEING, did=set())
                                         for u in units}
        self.no_joint = no_joint
        self.events: list[dict] = []
        self.cancelled: list[dict] = []
        self.step = "-"
        self.prio = "-"
        self.melee = False
        self.shooting = False
        self.advanced = False

    # ------------------------------------------------------------------ board and order bookkeeping
    def event(self, etype: str, /, **fields: Any) -> dict:
        e = {"step": self.step, "priority": self.prio, "type": etype, **fields}
        self.events.append(e)
        return e

    def on_field(self, uid: str) -> bool:
        u = self.units[uid]
        return u.status in (READY, FLEEING) and u.cell is not None

    def occupant(self, cell: str | None) -> Unit | None:
        if cell is None:
            return None
        for uid in self.order_ids:
            u = self.units[uid]
            if u.cell == cell and u.status in (READY, FLEEING):
                return u
        return None

    def board_sorted(self, ids) -> list[str]:
        return sorted(ids, key=lambda i: (self.board.order_key(self.units[i].cell) if self.units[i].cell
                                          else (10 ** 6, 0), self.order_ids.index(i)))

    def live_orders(self, uid: str) -> list[Order]:
        return [o for o in self.ts[uid].orders if o.state["status"] == "pending"]

    def lose_order(self, o: Order, rule: str, reason: str) -> None:
        if o.state["status"] == "pending":
            o.state["status"] = "lost"
            self.event("order_lost", unit=o.unit, slot=o.slot, rule=rule, reason=reason)

    def lose_all(self, uid: str, rule: str, reason: str, hold: bool = True) -> None:
        """W20.2: every order not yet carried out, and the Hold bonus."""
        for o in self.live_orders(uid):
            self.lose_order(o, rule, reason)
        if hold:
            self.ts[uid].hold = False
            self.ts[uid].hold_from_order = False

    def part_acted(self, o: Order, kind: str | None = None) -> None:
        """The order's current part acted (the order counts as carried out, W19.4); it goes on."""
        o.state["carried"] = True
        if kind:
            self.ts[o.unit].did.add(kind)
        o.state["cursor"] += 1
        if o.state["cursor"] >= len(o.state["parts"]):
            o.state["status"] = "done"

    def end_order(self, o: Order, kind: str | None = None) -> None:
        o.state["carried"] = True
        if kind:
            self.ts[o.unit].did.add(kind)
        o.state["status"] = "done"

    def step_of(self, o: Order) -> str:
        rnd = o.state["round"]
        if o.special_timing or o.phoenix:
            return "S1" if rnd == 1 else "S5"
        return "S2" if rnd == 1 else "S6"

    def current(self, o: Order) -> str | None:
        parts = o.state["parts"]
        return parts[o.state["cursor"]] if o.state["cursor"] < len(parts) else None

    def in_step(self, uid: str) -> list[Order]:
        return [o for o in self.live_orders(uid) if self.step_of(o) == self.step]

    def turn_unit(self, u: Unit, facing: str, kind: str = "turn") -> None:
        if facing != u.facing:
            self.event(kind, unit=u.id, cell=u.cell, **{"from": u.facing, "to": facing})
            u.facing = facing
            self.ts[u.id].turned_or_moved = True

    def move_unit(self, u: Unit, cell: str, kind: str, own: bool = True) -> None:
        self.event(kind, unit=u.id, **{"from": u.cell, "to": cell})
        if own:
            self.ts[u.id].moved = True
            if self.nearer_enemy_edge(u, u.cell, cell):
                self.advanced = True
        self.ts[u.id].turned_or_moved = True
        if u.cell in self.terrain.forests and cell not in self.terrain.forests:
            u.revealed = True                                                # W38.2: it left the forest
        u.cell = cell

    def nearer_enemy_edge(self, u: Unit, a: str, b: str) -> bool:
        ra, rb = self.board.pos(a)[1], self.board.pos(b)[1]
        return rb > ra if u.side == NORTH else rb < ra

    # ------------------------------------------------------------------ set-up (W18.4)
    def prepare(self, orders: list[Order], retreat: dict[str, int | None], banners: list[tuple[str, str]],
                panic: list[str], sabotage: list[tuple[str, int]]) -> None:
        for o in orders:
            self.ts[o.unit].orders.append(o)
        for uid, banner in banners:                                        # W12
            u, ts = self.units[uid], self.ts[uid]
            ts.banner_raised = banner
            if banner == PHOENIX:
                u.status, u.fled_ever, u.fleeing_since = READY, False, None
                ts.fleeing_at_start = False
                self.event("rally", unit=uid, banner=PHOENIX)
            elif banner == CRAB:
                ts.crab = True
            elif banner == TIGER:
                ts.tiger = True
        for uid in self.order_ids:
            u = self.units[uid]
            if u.crab_carry:
                self.ts[uid].crab = True
            if u.tiger_carry:
                self.ts[uid].tiger = True
        for side in SIDES:                                                 # W13.2
            if retreat[side] is None or retreat[side] > self.turn:
                continue
            for uid in self.order_ids:
                u, ts = self.units[uid], self.ts[uid]
                if u.side != side or u.status != READY or ts.fleeing_at_start:
                    continue
                mine = ts.orders
                if not mine or (len(mine) == 1 and mine[0].type == RETREAT and mine[0].slot == 1):
                    for o in mine:
                        o.slot = 2
                    step = Order(-1, uid, 1, ORDINARY, RETREAT, ORDINARY, free=True, general_step=True)
                    ts.orders.insert(0, step)
        for uid in panic:                                                  # W10.3
            self.ts[uid].panic += 1
        for uid, roll in sabotage:                                         # W10.4
            kinds = [o.kind for o in self.ts[uid].orders]
            if roll >= self.data.sabotage_any_at or (roll >= self.data.sabotage_all_ordinary_at
                                                     and all(k == ORDINARY for k in kinds)):
                for o in self.ts[uid].orders:
                    self.cancelled.append({"unit": uid, "slot": o.slot, "rule": "W10.4", "reason": "sabotage"})
                self.ts[uid].orders = []
        for uid in self.order_ids:
            u, ts = self.units[uid], self.ts[uid]
            ts.orders.sort(key=lambda o: o.slot)
            for o in ts.orders:
                o.state = {"round": o.slot, "status": "pending", "cursor": 0, "carried": False,
                           "parts": parts_of(u, o), "first_unused": False}
            if u.hold_carry and not any(moving(o) for o in ts.orders):    # W16.2 carry
                ts.hold = True

    # ------------------------------------------------------------------ the phase
    def run(self) -> None:
        for step in ("S1", "S2", "S3", "S4", "S5", "S6"):
            self.step = step
            for uid in self.order_ids:
                self.ts[uid].step_shot_losses = 0
            if step == "S3":
                self.prio = "-"
                tf.fleeing_steps(self)
                continue
            if step == "S4":
                self.prio = "-"
                self.check_round_two()
                continue
            for prio in (("P0",) if step == "S1" else ()) + ("P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"):
                self.prio = prio
                self.priority(prio)

    def priority(self, prio: str) -> None:
        if prio == "P0":
            self.dragon_moves()
        elif prio == "P1":
            for uid in self.board_sorted(self.order_ids):
                for o in self.in_step(uid):
                    if self.current(o) == "hold_bonus":
                        self.ts[uid].hold = self.ts[uid].hold_from_order = True
                        self.event("hold", unit=uid)
                        self.part_acted(o, HOLD)
        elif prio == "P2":
            tm.cavalry_first(self)
        elif prio == "P3":
            tc.ordered_shooting(self)
        elif prio == "P4":
            tc.attacks(self, "P4")
        elif prio == "P5":
            tm.retreats(self)
        elif prio == "P6":
            tm.regroups(self)
        elif prio == "P7":
            tc.attacks(self, "P7")
        else:
            tm.other_moves(self)
            tm.auto_turning(self)

    def dragon_moves(self) -> None:
        """W12.4 (S1 P0), one by one in board order: reform, move straight ahead, attack first."""
        for uid in self.board_sorted(self.order_ids):
            for o in self.in_step(uid):
                if self.current(o) != "dragon":
                    continue
                u = self.units[uid]
                if o.dir:
                    self.turn_unit(u, (TURN_LEFT if o.dir == "left" else TURN_RIGHT)[u.facing])
                cells = self.data.dragon_cells["cavalry" if u.tt.actions_per_order > 1 else "infantry"]
                for _ in range(cells if o.moves is None else o.moves):
                    cell = self.board.toward(u.cell, u.facing, "front")
                    occ = self.occupant(cell)
                    if cell is None or (occ is not None and occ.side == u.side):
                        break
                    if occ is not None:
                        target = self.ts[occ.id]
                        target.no_defence = any(moving(p) and p.type != RETREAT for p in target.orders)
                        tc.fight_attacks(self, [(uid, occ.id, o, False)])
                        target.no_defence = False
                        break
                    self.move_unit(u, cell, "move")
                if o.state["status"] == "pending":
                    self.end_order(o, DRAGON)

    def check_round_two(self) -> None:
        """W18.3 (S4): round-2 orders that can no longer be carried out are dropped."""
        for uid in self.order_ids:
            for o in self.live_orders(uid):
                if o.state["round"] != 2:
                    continue
                u = self.units[uid]
                if not self.on_field(uid) or u.status == FLEEING:
                    self.lose_order(o, "W18.3", "unit_gone")
                elif o.target and not self.on_field(o.target):
                    self.lose_order(o, "W18.3", "target_gone")
                elif o.swap_with and not any(p.swap_with == uid for p in self.live_orders(o.swap_with)):
                    self.lose_order(o, "W18.3", "swap_partner_gone")

    # ------------------------------------------------------------------ the result
    def finish(self) -> dict:
        out = {}
        for uid in self.order_ids:
            u, ts = self.units[uid], self.ts[uid]
            if u.status in OUT_OF_BATTLE:
                u.cell = None
            attacked = ts.attacked
            u.hold_carry = bool(ts.hold and ts.hold_from_order and not attacked)             # W18.5
            raised = ts.banner_raised
            u.tiger_carry = bool(raised == TIGER and not ts.melee)
            u.crab_carry = bool(raised == CRAB and not ts.melee and not ts.shot_at)
            line = {"cell": u.cell, "facing": u.facing, "figures": u.figures, "status": u.status,
                    "ammo": u.ammo, "fled_ever": u.fled_ever, "rallies": u.rallies, "hold_carry": u.hold_carry,
                    "tiger_carry": u.tiger_carry, "crab_carry": u.crab_carry, "revealed": u.revealed}
            if u.fleeing_since is not None:
                line["fleeing_since"] = u.fleeing_since
            out[uid] = line
        only = {}
        for side in SIDES:
            kinds = set().union(*[self.ts[i].did for i in self.order_ids if self.units[i].side == side])
            only[side] = kinds == {RETREAT}
        record = {"turn": self.turn, "melee": self.melee, "shooting": self.shooting, "advanced": self.advanced,
                  "only_retreat": only}
        return {"units": out, "record": record}


def parts_of(u: Unit, o: Order) -> list[str]:
    """The parts an order acts in, in order (W19, W21)."""
    cav = u.tt.actions_per_order > 1
    if o.general_step:
        return ["retreat"]
    if o.type == HOLD:
        return ["hold_bonus"] + (["reform_" + o.dir] if o.dir else [])
    if o.type in (SHOOT, MASSED_SHOOT):
        return ["shoot"]
    if o.type == REGROUP:
        return ["regroup"]
    if o.type == DRAGON:
        return ["dragon"]
    if o.type == WAIT:
        return []
    if o.type == DECISIVE_ATTACK:
        if cav and o.first:
            return ["first_" + o.first, "decisive"]
        return ["decisive"]
    if cav and o.type in (MOVE, RETREAT, REFORM):
        acts = o.actions or ((("move",) if o.type == MOVE else ("retreat",) if o.type == RETREAT
                              else ("reform_" + (o.dir or "right"),)))
        return ["cav_" + a if i == 0 else ("advance" if a == "move" else a) for i, a in enumerate(acts)]
    if o.type == MOVE:
        return ["advance"]
    if o.type == RETREAT:
        return ["retreat"]
    if o.type == REFORM:
        return ["reform_" + o.dir]
    return []


def turn_mode(case: Any) -> dict:
    case = top(case)
    data = case_data(case)
    turn = integer(case, "turn", "case", 1, 10_000)
    board = Board(data, case.get("field"))
    terrain = Terrain(board, case.get("field"))
    units = [unit(data, raw, f"units[{i}]") for i, raw in enumerate(lst(case.get("units"), "units", 500))]
    unique_ids(units, "units")
    place_units(board, units)
    by_id = {u.id: u for u in units}
    retreat = parse_sides(case.get("sides"))
    orders = parse_orders(case.get("orders"), by_id)
    for o in orders:
        if by_id[o.unit].status in OUT_OF_BATTLE:
            raise CaseError(f"orders[{o.index}].unit", f"{o.unit} is out of the battle")
    accepted, refused = check_orders(data, board, by_id, orders, set(terrain.forests))
    banners, refused_banners = banner_checks(case, by_id, None, accepted)
    refused += refused_banners
    accepted, refused_dragons = dragon_needs_banner(accepted, banners)
    refused += refused_dragons
    shin = obj(case.get("shinobi") or {}, "shinobi")
    panic = []
    for i, uid in enumerate(lst(shin.get("panic", []) or [], "shinobi.panic", 100)):
        if not isinstance(uid, str) or uid not in by_id:
            raise CaseError(f"shinobi.panic[{i}]", "names no unit of this case")
        panic.append(uid)
    sabotage = []
    for i, raw in enumerate(lst(shin.get("sabotage", []) or [], "shinobi.sabotage", 100)):
        node = obj(raw, f"shinobi.sabotage[{i}]")
        uid = ident(node, "unit", f"shinobi.sabotage[{i}]")
        if uid not in by_id:
            raise CaseError(f"shinobi.sabotage[{i}].unit", "names no unit of this case")
        sabotage.append((uid, integer(node, "roll", f"shinobi.sabotage[{i}]", 1, 6)))
    choices = obj(case.get("choices") or {}, "choices")
    no_joint = set()
    for i, uid in enumerate(lst(choices.get("no_joint", []) or [], "choices.no_joint", 100)):
        if not isinstance(uid, str) or uid not in by_id:
            raise CaseError(f"choices.no_joint[{i}]", "names no unit of this case")
        no_joint.add(uid)
    stop = choices.get("stop")
    if stop is not None and stop not in SIDES:
        raise CaseError("choices.stop", "north, south or null")
    history = parse_history(case.get("history"))
    dice = Dice(case.get("dice"), parse_seed(case), set(by_id) | {"random"})
    t = Turn(data, board, terrain, units, turn, dice, no_joint)
    t.prepare(accepted, retreat, banners, panic, sabotage)
    try:
        t.run()
    except CaseError as error:
        # A roll awaiting dice: the events so far ride on the error, so a table can show them while it asks.
        error.partial_events = t.events
        raise
    dice.check_all_used()
    fin = t.finish()
    history[turn] = fin["record"]
    end = evaluate(data, board, turn, retreat, stop, units, history)
    return {"refused": refused, "cancelled": t.cancelled, "events": t.events, "units": fin["units"],
            "record": fin["record"], "end": end}

