"""Combats of a turn: ordered shooting (P3), attacks (P2, P4, P7) with standing attacks (W23.3), joint
attacks (W23.1), automatic shooting (W22), loss of orders (W20) and taking cells (W30); the retreats
and flights they cause are in turn_flight.py."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from . import melee as m
from . import volley as v
from .orders import moving
from .outcomes import (DECISIVE_ATTACK, DESTROYED, EFFECT_RETREATS, EFFECT_STOPPED, FRONT, LEFT, PUSHED_BACK, READY,
                       REAR, REPELLED, RETREATS, RIGHT, ROUTED, SHOOT)
from .turn_flight import _destroy, combat_retreat, flee

if TYPE_CHECKING:
    from .case import Unit
    from .turn import Turn

SIDE_STEPS = (LEFT, RIGHT)


# ---------------------------------------------------------------------- unit copies for the contest modules
def _common(t: "Turn", u: "Unit") -> dict:
    ts = t.ts[u.id]
    return {"panic": ts.panic, "crab": ts.crab, "tiger": ts.tiger, "shooting_losses": ts.pending_shot_losses}


def _defender(t: "Turn", d: "Unit") -> "Unit":
    ts = t.ts[d.id]
    return replace(d, flags={**_common(t, d), "hold": ts.hold, "moved": ts.moved,
                             "no_defence_bonuses": ts.no_defence})


def _attacker(t: "Turn", a: "Unit", target: "Unit", side: str, decisive: bool) -> "Unit":
    return replace(a, flags={**_common(t, a), "attacks": side, "decisive": decisive,
                             "across_river": t.terrain.crosses_river(t.board, a.cell, target.cell),
                             "uphill": target.cell in t.terrain.hills,
                             "into_forest": (a.tt.actions_per_order > 1 and target.cell in t.terrain.forests
                                             and a.cell not in t.terrain.forests)})


def _moving_in_step(t: "Turn", uid: str) -> tuple[bool, bool]:
    for o in t.in_step(uid):
        if moving(o):
            return True, o.type == DECISIVE_ATTACK
    return False, False


def _target(t: "Turn", u: "Unit") -> "Unit":
    ts = t.ts[u.id]
    move, decisive = _moving_in_step(t, u.id)
    bridge = bool(t.terrain.bridge) and move and t.terrain.on_bridge(
        u.cell, t.board.toward(u.cell, u.facing, FRONT) or u.cell)
    return replace(u, flags={"panic": ts.panic, "crab": ts.crab, "hold": ts.hold, "has_move_order": move,
                             "move_is_decisive": decisive, "crosses_bridge": bridge,
                             "on_hill": u.cell in t.terrain.hills, "in_forest": u.cell in t.terrain.forests,
                             "moved_or_turned": ts.turned_or_moved})


# ---------------------------------------------------------------------- shooting (W31, W32)
def in_zone(t: "Turn", s: "Unit", target: "Unit") -> tuple[bool, bool]:
    """W31.2: (in the zone, straight ahead)."""
    b, ter = t.board, t.terrain
    front = b.toward(s.cell, s.facing, FRONT)
    if s.cell in ter.hills and target.cell in ter.hills:
        return False, False
    hidden = target.cell in ter.forests and not target.revealed and not b.adjacent(s.cell, target.cell)
    if hidden:
        return False, False
    if front is not None:
        if target.cell == front:
            return True, True
        for side in SIDE_STEPS:
            if b.toward(front, s.facing, side) == target.cell:
                return True, False
        if s.cell in ter.hills and b.toward(front, s.facing, FRONT) == target.cell:
            if s.tt.shoots_over_from_hill or t.occupant(front) is None:
                return True, True
    return False, False


def _apply_volley(t: "Turn", target: "Unit", result: dict) -> None:
    for shot in result["shots"]:
        s = t.units[shot["shooter"]]
        s.ammo = shot["ammo_left"]
    losses = result["target"]["losses"]
    target.figures -= losses
    if target.tt.shooter and target.ammo is not None:
        target.ammo -= result["target"].get("ammo_lost", 0)
    ts = t.ts[target.id]
    ts.shot_at = True
    ts.pending_shot_losses += losses
    ts.step_shot_losses += losses
    t.shooting = True
    if target.figures <= 0:
        _destroy(t, target)


def ordered_shooting(t: "Turn") -> None:
    """P3: every shooting order of the step at once; losses after all of them; then W32's checks."""
    by_target: dict[str, list] = {}
    for uid in t.board_sorted(t.order_ids):
        for o in t.in_step(uid):
            if t.current(o) != "shoot":
                continue
            s = t.units[uid]
            target = t.units[o.target]
            if not t.on_field(target.id):
                t.lose_order(o, "W15.2", "target_gone")
                continue
            ok, straight = in_zone(t, s, target)
            if not ok:
                t.lose_order(o, "W15.2", "out_of_zone")
            elif not s.ammo:
                t.lose_order(o, "W31.5", "no_ammo")
            else:
                by_target.setdefault(target.id, []).append((o, straight))
    results = []
    for tid in t.board_sorted(by_target):
        target = t.units[tid]
        tcopy = _target(t, target)
        shots = []
        for o, straight in by_target[tid]:
            s = t.units[o.unit]
            scopy = replace(s, flags={"massed": o.type != SHOOT, "straight": straight, "crab": t.ts[s.id].crab})
            shots.append(v.plan_shot(t.data, scopy, tcopy, f"orders[{o.index}]"))
        results.append((tid, tcopy, v.fire(t.data, tcopy, shots, t.dice), by_target[tid]))
    for tid, _tcopy, result, orders in results:
        t.event("shoot", at=tid, **result)
        _apply_volley(t, t.units[tid], result)
        for o, _s in orders:
            t.end_order(o, SHOOT)
    for tid, tcopy, _result, _orders in results:
        shooting_check(t, tid, tcopy)


def shooting_check(t: "Turn", tid: str, tcopy: "Unit") -> None:
    u = t.units[tid]
    if u.status != READY or u.cell is None:
        return
    chk = v.check(t.data, replace(tcopy, figures=u.figures), t.ts[tid].step_shot_losses, u.figures)
    if chk is None:
        return
    t.event("check", unit=tid, **chk)
    if chk["effect"] == EFFECT_STOPPED:                                   # W32.1
        t.lose_all(tid, "W32.1", "stopped_by_shooting")
        t.ts[tid].no_move = True
    elif chk["effect"] == EFFECT_RETREATS:                                # W32.2
        t.lose_all(tid, "W32.2", "driven_back_by_shooting")
        combat_retreat(t, tid, REAR, [FRONT])


# ---------------------------------------------------------------------- attacks
def attacks(t: "Turn", prio: str) -> None:
    """P4 (flank and rear) or P7 (any side): moves and decisive attacks into an enemy's cell."""
    intents = []
    for uid in t.board_sorted(t.order_ids):
        for o in t.in_step(uid):
            part = t.current(o)
            if part not in ("advance", "decisive"):
                continue
            u = t.units[uid]
            if u.status != READY:
                continue
            cell = t.board.toward(u.cell, u.facing, FRONT)
            occ = t.occupant(cell)
            if (occ is None and part == "decisive" and prio == "P7" and o.state.get("first_unused")):
                beyond = t.board.toward(cell, u.facing, FRONT) if cell else None
                enemy = t.occupant(beyond)
                if cell is not None and enemy is not None and enemy.side != u.side:   # W16.3 "catches it"
                    t.move_unit(u, cell, "move")
                    o.state["first_unused"] = False
                    occ = enemy
            if occ is None or occ.side == u.side:
                continue
            side = t.board.side_of(occ.cell, occ.facing, u.cell)
            if prio == "P4" and side == FRONT:
                continue
            intents.append((uid, occ.id, o, o.type == DECISIVE_ATTACK))
    if prio == "P4":
        intents = [x for x in intents if not _postpone(t, x)]
    for x in list(intents):                                             # W21.3: at most twice a turn
        if t.ts[x[0]].attacks >= t.data.attacks_per_turn:
            intents.remove(x)
            t.lose_order(x[2], "W21.3", "attacked_twice")
    if intents:
        fight_attacks(t, intents)


def _postpone(t: "Turn", intent) -> bool:
    """W23.1: a flank attack waits for a frontal attack on the same target in this step (joint attack)."""
    uid, tid, _o, _d = intent
    if uid in t.no_joint:
        return False
    target = t.units[tid]
    front_cell = t.board.toward(target.cell, target.facing, FRONT)
    friend = t.occupant(front_cell)
    if friend is None or friend.side != t.units[uid].side or t.board.toward(friend.cell, friend.facing, FRONT) != \
            target.cell:
        return False
    if not any(t.current(p) in ("advance", "decisive") for p in t.in_step(friend.id)):
        return False
    return not any(t.current(p) in ("retreat", "regroup") for p in t.in_step(tid))


def _can_shoot(t: "Turn", uid: str) -> bool:
    u = t.units[uid]
    return u.tt.shooter and u.status == READY and bool(u.ammo)


def fight_attacks(t: "Turn", intents: list) -> None:
    """W23.3 standing attacks, W22 automatic shooting, W20.1, then the combats, flights, retreats, cells."""
    pending = list(intents)
    meetings = []
    targets_of = {}
    for x in pending:
        targets_of.setdefault(x[1], []).append(x)
    for x in list(pending):                                             # mutual frontal attacks: a meeting
        a, b = x[0], x[1]
        back = [y for y in pending if y[0] == b and y[1] == a]
        if not back or x not in pending or len(targets_of.get(a, [])) != 1 or len(targets_of.get(b, [])) != 1:
            continue
        shooters = [z for z in (x, back[0]) if _can_shoot(t, z[0])]
        if len(shooters) == 1:                        # W22.2: shooters shoot instead and are simply attacked
            pending.remove(shooters[0])
            t.lose_order(shooters[0][2], "W22.2", "shoots_instead")
            continue
        pending.remove(x)
        pending.remove(back[0])
        meetings.append((x, back[0]))
    standing = []
    while pending:
        targeted = {x[1] for x in pending}
        now = [x for x in pending if x[0] not in targeted]
        if not now:
            now = [min(pending, key=lambda x: t.board.order_key(t.units[x[0]].cell))]
        for x in now:
            standing.append(x)
            pending.remove(x)
        hit = {x[1] for x in standing}
        for y in [y for y in pending if y[0] in hit]:
            pending.remove(y)
            t.lose_order(y[2], "W23.3", "attacked_first")
    # automatic shooting at frontal attackers (W22)
    auto = []
    for uid, tid, o, decisive in standing:
        target, att = t.units[tid], t.units[uid]
        if t.board.side_of(target.cell, target.facing, att.cell) != FRONT:
            continue
        ts = t.ts[tid]
        if not target.tt.shooter or target.status != READY or not target.ammo:
            continue
        if ts.orders and all(o.state["carried"] for o in ts.orders):
            continue                                                     # carried out all its orders
        scopy = replace(target, flags={"at_attacker": True, "crab": ts.crab})
        acopy = _target(t, att)
        shot = v.plan_shot(t.data, scopy, acopy, f"units[{tid}]")
        auto.append((uid, tid, acopy, v.fire(t.data, acopy, [shot], t.dice), decisive))
    for uid, tid, _acopy, result, _d in auto:
        t.event("shoot", at=uid, automatic=True, **result)
        _apply_volley(t, t.units[uid], result)
    stopped = set()
    for uid, tid, acopy, _result, decisive in auto:
        att = t.units[uid]
        if att.status != READY:
            stopped.add(uid)
            continue
        value = v.check(t.data, replace(acopy, figures=att.figures, flags={**acopy.flags, "has_move_order": True,
                                                                           "move_is_decisive": decisive}),
                        t.ts[uid].step_shot_losses, att.figures)
        t.event("check", unit=uid, **value)
        if value["effect"] == EFFECT_STOPPED:                                 # W22.3
            t.lose_all(uid, "W22.3", "stopped_by_shooting")
            t.ts[uid].no_move = True
            stopped.add(uid)
    attacked = {x[1] for x in standing}
    standing = [x for x in standing if x[0] not in stopped]
    for tid in t.board_sorted(attacked):                                 # W20.1
        t.ts[tid].attacked = True
        waiting = [o for o in t.live_orders(tid) if not o.state["carried"]]
        if len(waiting) >= 2:
            t.lose_order(waiting[-1], "W20.1", "attacked")
            waiting[0].state["round"] = 2
        elif len(waiting) == 1:
            t.lose_order(waiting[0], "W20.1", "attacked")
    combats: dict[str, list] = {}
    for x in standing:
        combats.setdefault(x[1], []).append(x)
    after = []
    for tid in t.board_sorted(combats):
        after.append(_combat(t, tid, combats[tid]))
    for x, y in meetings:
        after.append(_meeting(t, x, y, None))
    _aftermath(t, after)


def _combat(t: "Turn", tid: str, xs: list) -> dict:
    d = t.units[tid]
    atts = []
    for uid, _tid, o, decisive in xs:
        a = t.units[uid]
        atts.append(_attacker(t, a, d, t.board.side_of(d.cell, d.facing, a.cell), decisive))
    plan = m.plan_attack(t.data, _defender(t, d), atts)
    result = m.fight(t.data, plan, t.dice)
    t.event("melee", defender=tid, **result)
    _apply_melee(t, result)
    return {"kind": "attack", "defender": tid, "cell": d.cell, "orders": {x[0]: x[2] for x in xs},
            "result": result}


def _apply_melee(t: "Turn", result: dict) -> None:
    t.melee = True
    for uid, line in result["units"].items():
        u = t.units[uid]
        u.figures = line["figures_after"]
        if "ammo_lost" in line and u.ammo is not None:
            u.ammo -= line["ammo_lost"]
        t.ts[uid].pending_shot_losses = 0
        t.ts[uid].melee = True
        if u.cell in t.terrain.forests:
            u.revealed = True


def meeting_in_cell(t: "Turn", a: str, b: str, cell: str) -> None:
    """W24.1: one unit of each side entering the same free cell fight a meeting engagement there."""
    oa = next(o for o in t.in_step(a) if t.current(o) is not None)
    ob = next(o for o in t.in_step(b) if t.current(o) is not None)
    _aftermath(t, [_meeting(t, (a, b, oa, oa.type == DECISIVE_ATTACK), (b, a, ob, ob.type == DECISIVE_ATTACK), cell)])


def _meeting(t: "Turn", x, y, cell: str | None) -> dict:
    a, b = t.units[x[0]], t.units[y[0]]
    ca = _attacker(t, a, b, FRONT, x[3])
    cb = _attacker(t, b, a, FRONT, y[3])
    for c in (ca, cb):
        c.flags.pop("attacks", None)
    plan = m.plan_meeting(t.data, ca, cb, cell is not None)
    result = m.fight(t.data, plan, t.dice)
    t.event("melee", cell=cell, **result)
    _apply_melee(t, result)
    return {"kind": "meeting", "cell": cell, "orders": {x[0]: x[2], y[0]: y[2]}, "result": result,
            "cells": {a.id: a.cell, b.id: b.cell}}


def _aftermath(t: "Turn", fights: list[dict]) -> None:
    """W19.2: all flights, then all retreats (board order), then the winners take cells (W30)."""
    flights, retreats, takers = [], [], []
    for f in fights:
        res = f["result"]
        for uid, line in res["units"].items():
            if line["figures_after"] == 0 and t.units[uid].status != DESTROYED:
                _destroy(t, t.units[uid])
        if f["kind"] == "attack":
            tid = f["defender"]
            outcome = res["result"]
            alive = [uid for uid in f["orders"] if t.units[uid].status == READY]
            if outcome == REPELLED:
                for uid in f["orders"]:
                    t.lose_all(uid, "W20.2", "thrown_back")
                continue
            for uid in alive:
                t.end_order(f["orders"][uid], "attack")
                t.ts[uid].attacks += 1
            if outcome == DESTROYED:
                takers.append((f, alive, None))
                continue
            toward = _toward(t, res["retreat"])
            t.lose_all(tid, "W20.2", "pushed_back" if outcome == PUSHED_BACK else "routed")
            (retreats if outcome == PUSHED_BACK else flights).append((tid, toward, res["retreat"]["away_from"]))
            takers.append((f, alive, tid))
            continue
        winner, loser_result = res["winner"], res["loser_result"]
        ids = list(f["orders"])
        if winner is None:
            for uid in ids:
                t.lose_all(uid, "W29.3", "no_superiority")
            continue
        loser = ids[1] if ids[0] == winner else ids[0]
        t.end_order(f["orders"][winner], "attack")
        t.ts[winner].attacks += 1
        t.lose_all(loser, "W20.2", "lost_meeting")
        if loser_result == ROUTED:
            flights.append((loser, REAR, [FRONT]))
        elif loser_result == RETREATS:
            retreats.append((loser, REAR, [FRONT]))
        takers.append((f, [winner], loser))
    first_steps: dict[str, str | None] = {}
    for uid, toward, _away in sorted(flights, key=lambda x: t.board.order_key(t.units[x[0]].cell)):
        if t.units[uid].cell is not None and t.units[uid].status != DESTROYED:
            first_steps[uid] = flee(t, uid, toward)
    retreats = [x for x in retreats if t.units[x[0]].status == READY and t.units[x[0]].cell]   # not swept away
    for uid, toward, away in sorted(retreats, key=lambda x: t.board.order_key(t.units[x[0]].cell)):
        first_steps[uid] = combat_retreat(t, uid, toward, away)
    for f, alive, gone in takers:
        _take_cell(t, f, alive, gone, first_steps.get(gone) if gone else None)


def _toward(t: "Turn", retreat: dict) -> str:
    if retreat.get("toward"):
        return retreat["toward"]
    return t.dice.choose(retreat["tie_between"], "the random choice of a retreat between tied attackers (W33.4)")


def _take_cell(t: "Turn", f: dict, alive: list[str], gone: str | None, step: str | None) -> None:
    """W30: the winner takes the cell; against one unit by several, they turn to the way it went."""
    if f["kind"] == "meeting":
        winner = alive[0]
        cell = f["cell"] or f["cells"][gone]
        if t.occupant(cell) is None and t.units[winner].status == READY:
            t.move_unit(t.units[winner], cell, "occupy")
        return
    old = f["cell"]
    if gone is None or len(alive) == 1:
        if not alive:
            return
        if len(alive) > 1:                                  # defender destroyed: the frontal (else largest) enters
            d_side = {uid: f["result"]["units"][uid].get("attacks") for uid in alive}
            front = [uid for uid in alive if d_side[uid] == FRONT]
            alive = front or sorted(alive, key=lambda i: (-t.units[i].figures, t.board.order_key(t.units[i].cell)))
        taker = t.units[alive[0]]
        if t.occupant(old) is None:
            t.move_unit(taker, old, "occupy")
        return
    if step is None:
        return
    for uid in t.board_sorted(alive):
        u = t.units[uid]
        if u.facing == step:
            cell = t.board.neighbour(u.cell, step)
            if cell is not None and t.occupant(cell) is None:
                t.move_unit(u, cell, "occupy")
        else:
            t.turn_unit(u, step)
