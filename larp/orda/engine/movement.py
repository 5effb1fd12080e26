"""One move (O13): its legality, the traps it enters (O21) and the zone-of-control attacks it provokes (O14)."""
from __future__ import annotations

from . import outcomes as O
from .activation import check_activation
from .case import CaseError, State, need_hex, need_list, need_obj
from .combat import declare, resolve, spring_trap, trap_damage
from .dice import Dice
from .errors import Refused
from .hexes import adjacent, as_list, distance
from .values import active_trait, effective, is_ranged

MAX_PATH = 50


def _check_path(state: State, u, path: list, speed: int) -> None:
    """Refused with the first rule the path breaks (O13, O20)."""
    if len(path) > speed:
        raise Refused(O.TOO_LONG, f"{len(path)} steps, but {u.id}'s speed is {speed}")
    occupied = state.occupant()
    seen = {u.hex}
    prev = u.hex
    for n, h in enumerate(path, 1):
        if h not in state.board:
            raise Refused(O.OFF_BOARD, f"step {n} {list(h)} is off the board")
        if not adjacent(prev, h):
            raise Refused(O.NOT_ADJACENT_STEP, f"step {n} {list(h)} is not next to {list(prev)}")
        if h in seen:
            raise Refused(O.REVISIT, f"step {n} {list(h)} was already visited")
        if state.enemy_city_at(h, u.side) is not None:
            raise Refused(O.ENEMY_CITY, f"step {n} {list(h)} is a city or capital of the other side")
        other = occupied.get(h)
        if other is not None and other.side != u.side:
            raise Refused(O.ENEMY_IN_PATH, f"step {n} {list(h)} holds the enemy unit {other.id}")
        seen.add(h)
        prev = h
    if path and path[-1] in occupied:
        raise Refused(O.END_NOT_FREE, f"the last hex {list(path[-1])} holds {occupied[path[-1]].id}")


def _provokers(state: State, u, left, entered) -> list:
    """Enemy melee units next to both the hex left and the hex entered, by ascending id (O14)."""
    if active_trait(state, u) == "camouflage":
        return []
    return sorted((v for v in state.units if v.on_board and v.side != u.side and not is_ranged(state, v)
                   and adjacent(v.hex, left) and adjacent(v.hex, entered)), key=lambda v: v.id)


def move_mode(state: State) -> dict:
    raw = need_obj(state.raw.get("move"), "move")
    u = state.unit(raw.get("unit"), "move.unit")
    path = [need_hex(h, f"move.path[{i}]") for i, h in enumerate(need_list(raw.get("path"), "move.path", MAX_PATH))]
    if not path:
        raise CaseError("move.path: a move needs at least one step")
    dice_list = state.raw.get("dice")
    if dice_list is not None:
        dice_list = need_list(dice_list, "dice", 100)
    try:
        if not u.on_board:
            raise Refused(O.NOT_ON_BOARD, f"{u.id} is not on the board")
        acts = check_activation(state, u, O.STEP_MOVE)
        speed = effective(state, u, "speed")
        _check_path(state, u, path, speed.param)
    except Refused as r:
        return {"refused": r.as_dict()}
    start = u.hex
    preview = dice_list is None and any(_provokers(state, u, a, b) for a, b in zip([start] + path, path))
    dice = Dice(state.seed)
    used = 0
    steps, provoked = [], []
    killed_at = None
    prev = start
    for n, h in enumerate(path, 1):
        attackers = _provokers(state, u, prev, h)
        if preview:
            dmg = trap_damage(state, u, h)
            steps.append({"n": n, "hex": as_list(h), "trap": {"hex": as_list(h), "damage": dmg} if dmg else None})
            provoked += [{"step": n, "attacker": v.id, "result": None} for v in attackers]
            prev = h
            continue
        u.hex = h
        steps.append({"n": n, "hex": as_list(h), "trap": spring_trap(state, u, h)})
        for v in attackers:
            if not u.on_board:
                break
            req = {"attacker": v, "target": u, "provoked": True, "aimed": False, "retreat_to": None,
                   "push_to": None}
            plan = declare(state, req, O.DEFENCE)
            if used < len(dice_list or []):
                entry, used = dice_list[used], used + 1
                result = resolve(state, plan, O.DEFENCE, entry, dice, f"dice[{used - 1}]")
            else:
                if state.seed is None:
                    raise CaseError(f"dice: too few dice for the attacks this move provokes "
                                    f"({len(dice_list or [])} given; {v.id} attacks at step {n})")
                result = resolve(state, plan, O.DEFENCE, None, dice)
            result.pop("activations", None)
            provoked.append({"step": n, "attacker": v.id, "result": result})
        if not u.on_board:
            killed_at = n
            break
        prev = h
    end = path[-1] if preview else (prev if killed_at is None else path[killed_at - 1])
    if not preview and u.on_board and u.drill and distance(state.capital(u.faction).hex, u.hex) >= 2:
        u.drill = False
    result = {"refused": None, "unit": u.id, "speed": speed.as_dict(), "steps": steps, "provoked": provoked,
              "end": as_list(end), "killed_at_step": killed_at,
              "dice_unused": 0 if dice_list is None else len(dice_list) - used, "activations": acts}
    if not preview:
        result["state"] = {"units": [x.as_dict() for x in state.units], "traps": state.traps_list()}
    return result
