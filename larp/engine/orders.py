"""R5: checking orders when they are filed, and offering only legal choices.

`check_static` checks one order against the map at the start of the turn;
`check_all` adds the checks that need the other orders (a fleet carries at
most one army, a carrying fleet takes no order of its own). `legal_steps`
enumerates what `check_static` accepts, step by step, for an order form.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import CaseError
from .model import (
    ARMY_ORDERS, FLEET_ORDERS, SEA_ARMY_ORDERS, Army, Case, Domain, Order, OrderType,
    RefusalCode, Situation,
)

RULE = "R5"

_TEXT = {
    RefusalCode.NOT_ADJACENT: "not adjacent",
    RefusalCode.NOT_LAND: "not a land province",
    RefusalCode.NOT_SEA: "not a sea zone",
    RefusalCode.REPEATED_PROVINCE: "a destination repeats or the path returns to the start",
    RefusalCode.NOT_FRIENDLY: "not friendly",
    RefusalCode.TARGET_FRIENDLY: "the attack target is friendly",
    RefusalCode.FLEET_NOT_THERE: "the fleet is not in this sea zone",
    RefusalCode.TARGET_NOT_HOSTILE: "the target faction is not hostile",
}


@dataclass(frozen=True)
class Refusal:
    """Why one order was refused: rule, 1-based step (or None), code, ids involved, English text."""
    unit: str
    rule: str
    step: int | None
    code: RefusalCode
    params: dict[str, Any] = field(default_factory=dict)
    reason: str = ""

    def to_dict(self) -> dict:
        return {"unit": self.unit, "rule": self.rule, "step": self.step, "code": self.code.value,
                "params": dict(self.params), "reason": self.reason}


def _step(uid: str, step: int, code: RefusalCode, frm: str, to: str, text: str | None = None,
          **extra: Any) -> Refusal:
    params = {"from": frm, "to": to, **extra}
    return Refusal(uid, RULE, step, code, params, f"step {step} ({frm} → {to}): {text or _TEXT[code]}")


def _whole(uid: str, code: RefusalCode, text: str, **params: Any) -> Refusal:
    return Refusal(uid, RULE, None, code, params, text)


def _is_land(sit: Situation, pid: str) -> bool:
    return sit.provinces[pid].domain == Domain.LAND


def _land_path(sit: Situation, unit: Army, order: Order) -> Refusal | None:
    path = order.path
    if not 1 <= len(path) <= 2:
        return _whole(unit.id, RefusalCode.PATH_LENGTH, f"{order.type} takes 1 or 2 steps, got {len(path)}",
                      steps=len(path))
    seen = {unit.location}
    prev = unit.location
    for i, p in enumerate(path):
        step = i + 1
        last = step == len(path)
        if not _is_land(sit, p):
            return _step(unit.id, step, RefusalCode.NOT_LAND, prev, p)
        if p in seen:
            return _step(unit.id, step, RefusalCode.REPEATED_PROVINCE, prev, p)
        if p not in sit.land_adj[prev]:
            return _step(unit.id, step, RefusalCode.NOT_ADJACENT, prev, p)
        friendly = sit.is_friendly(unit.faction, p)
        if order.type == OrderType.ATTACK and last:
            if friendly:
                return _step(unit.id, step, RefusalCode.TARGET_FRIENDLY, prev, p)
        elif not friendly:
            return _step(unit.id, step, RefusalCode.NOT_FRIENDLY, prev, p)
        seen.add(p)
        prev = p
    return None


def _sea_path(sit: Situation, unit: Army, order: Order) -> Refusal | None:
    sea = order.sea
    wanted = (1, 1) if order.type == OrderType.SEA_ATTACK else (1, 2)
    if not wanted[0] <= len(sea) <= wanted[1]:
        text = ("a sea attack names exactly 1 sea zone" if order.type == OrderType.SEA_ATTACK
                else "a landing names 1 or 2 sea zones")
        return _whole(unit.id, RefusalCode.PATH_LENGTH, f"{text}, got {len(sea)}", steps=len(sea))
    fleet = sit.fleets[order.fleet]
    if fleet.faction != unit.faction:
        return _whole(unit.id, RefusalCode.FLEET_NOT_OWN, f"fleet {fleet.id} belongs to {fleet.faction}",
                      fleet=fleet.id, faction=fleet.faction)
    prev = unit.location
    for i, s in enumerate(sea):
        step = i + 1
        if _is_land(sit, s):
            return _step(unit.id, step, RefusalCode.NOT_SEA, prev, s)
        if i == 0:
            if s not in sit.coast[prev]:
                return _step(unit.id, step, RefusalCode.NOT_ADJACENT, prev, s, "not coastal")
            if not fleet.on_map or fleet.location != s:
                return _step(unit.id, step, RefusalCode.FLEET_NOT_THERE, prev, s,
                             f"fleet {fleet.id} is not in {s}", fleet=fleet.id, sea=s)
        else:
            if s == sea[0]:
                return _step(unit.id, step, RefusalCode.REPEATED_PROVINCE, prev, s)
            if s not in sit.sea_adj[prev]:
                return _step(unit.id, step, RefusalCode.NOT_ADJACENT, prev, s)
        prev = s
    target, step = order.target, len(sea) + 1
    if not _is_land(sit, target):
        return _step(unit.id, step, RefusalCode.NOT_LAND, prev, target)
    if target == unit.location:
        return _step(unit.id, step, RefusalCode.REPEATED_PROVINCE, prev, target)
    if target not in sit.coast[prev]:
        return _step(unit.id, step, RefusalCode.NOT_ADJACENT, prev, target, "not coastal")
    friendly = sit.is_friendly(unit.faction, target)
    if order.type == OrderType.SEA_ATTACK and friendly:
        return _step(unit.id, step, RefusalCode.TARGET_FRIENDLY, prev, target)
    if order.type == OrderType.LANDING and not friendly:
        return _step(unit.id, step, RefusalCode.NOT_FRIENDLY, prev, target, "landing target is not friendly")
    return None


def _fleet_order(sit: Situation, unit: Army, order: Order) -> Refusal | None:
    zone = order.sea[0]
    here = unit.location
    if _is_land(sit, zone):
        return _step(unit.id, 1, RefusalCode.NOT_SEA, here, zone)
    own_allowed = order.type == OrderType.FLEET_ATTACK
    if not (zone in sit.sea_adj[here] or (own_allowed and zone == here)):
        text = "a fleet moves to an adjacent sea zone" if zone == here else _TEXT[RefusalCode.NOT_ADJACENT]
        return _step(unit.id, 1, RefusalCode.NOT_ADJACENT, here, zone, text)
    if order.type == OrderType.FLEET_ATTACK and not sit.hostile(unit.faction, order.target_faction):
        return Refusal(unit.id, RULE, 2, RefusalCode.TARGET_NOT_HOSTILE, {"faction": order.target_faction},
                       f"step 2 ({order.target_faction}): {_TEXT[RefusalCode.TARGET_NOT_HOSTILE]}")
    return None


def check_static(sit: Situation, order: Order) -> Refusal | None:
    """R5 checks of one order on its own, against the map at the start of the turn."""
    unit = sit.unit(order.unit)
    if unit is None:
        raise CaseError(f"{order.field()}.unit", f"unknown unit {order.unit!r}")
    if not unit.on_map:
        return _whole(unit.id, RefusalCode.UNIT_DESTROYED, f"{unit.id} is not on the map")
    if (order.type in ARMY_ORDERS and unit.is_fleet) or (order.type in FLEET_ORDERS and not unit.is_fleet):
        kind = "a fleet" if unit.is_fleet else "an army"
        return _whole(unit.id, RefusalCode.WRONG_UNIT_KIND, f"{order.type} is not an order for {kind}",
                      order=order.type.value)
    if order.type in (OrderType.MARCH, OrderType.ATTACK):
        return _land_path(sit, unit, order)
    if order.type in SEA_ARMY_ORDERS:
        return _sea_path(sit, unit, order)
    if order.type in FLEET_ORDERS:
        return _fleet_order(sit, unit, order)
    return None


def check_all(sit: Situation, orders: tuple[Order, ...] | list[Order]) -> list[Refusal | None]:
    """Every order's refusal (or None), in filing order, including the cross-order rules.

    A fleet is claimed by the first accepted army order that uses it (a later
    one is `fleet_busy`); the claimed fleet's own order is `fleet_carrying`,
    whatever its type and filing position (R5: the army's form counts).
    """
    result = [check_static(sit, o) for o in orders]
    claims: dict[str, str] = {}
    for i, o in enumerate(orders):
        if result[i] is None and o.type in SEA_ARMY_ORDERS:
            if o.fleet in claims:
                result[i] = _whole(o.unit, RefusalCode.FLEET_BUSY,
                                   f"fleet {o.fleet} already carries {claims[o.fleet]} this turn",
                                   fleet=o.fleet, unit=claims[o.fleet])
            else:
                claims[o.fleet] = o.unit
    for i, o in enumerate(orders):
        if result[i] is None and o.unit in claims and sit.fleets.get(o.unit) is not None:
            result[i] = _whole(o.unit, RefusalCode.FLEET_CARRYING,
                               f"fleet {o.unit} carries {claims[o.unit]}: the army's order counts",
                               fleet=o.unit, unit=claims[o.unit])
    return result


def check_order(case_or_situation: Case | Situation, order: Order | dict) -> Refusal | None:
    """Check ONE order as a player files it (R5).

    Given a Case, the case's other orders count too: an order for a fleet that
    an accepted army order already uses, or an army order for a fleet claimed
    by an order filed before it, is refused. A dict order is parsed first
    (CaseError if malformed).
    """
    from .case import parse_order

    if isinstance(case_or_situation, Case):
        sit, filed = case_or_situation.situation, list(case_or_situation.orders)
    else:
        sit, filed = case_or_situation, []
    if isinstance(order, dict):
        order = parse_order(sit, order)
    position = next((i for i, o in enumerate(filed) if o.unit == order.unit), None)
    if position is None:
        orders = filed + [order]
        position = len(filed)
    else:
        orders = filed[:position] + [order] + filed[position + 1:]
    return check_all(sit, orders)[position]


# --- legal choices for an order form ------------------------------------------

def _has_hostile_target_from(sit: Situation, faction: str, start: str, via: str) -> bool:
    return any(n != start and n != via and not sit.is_friendly(faction, n) for n in sit.land_adj[via])


def _own_fleets_in(sit: Situation, unit: Army, zone: str) -> list[Army]:
    return sorted((f for f in sit.fleets.values()
                   if f.faction == unit.faction and f.on_map and f.location == zone),
                  key=lambda f: (f.number, f.id))


def legal_fleets(sit: Situation, unit_id: str, sea: str) -> list[str]:
    """The army's own fleets in `sea` that a sea order could board."""
    unit = sit.unit(unit_id)
    if unit is None:
        raise CaseError("unit", f"unknown unit {unit_id!r}")
    return [f.id for f in _own_fleets_in(sit, unit, sea)]


def _landing_targets(sit: Situation, unit: Army, zone: str) -> list[str]:
    return [p for p in sit.coast[zone] if p != unit.location and sit.is_friendly(unit.faction, p)]


def _attack_targets(sit: Situation, unit: Army, zone: str) -> list[str]:
    return [p for p in sit.coast[zone] if p != unit.location and not sit.is_friendly(unit.faction, p)]


def _fleet_attack_targets(sit: Situation, unit: Army, zone: str) -> list[str]:
    """Hostile factions with a fleet in the battle zone or a zone next to it (it could be there when the
    order executes, R5); a faction with no fleet near is never offered."""
    near = {zone, *sit.sea_adj[zone]}
    return [f.faction for f in sit.fleets.values()
            if f.on_map and f.location in near and f.faction != unit.faction and sit.hostile(unit.faction, f.faction)]


def legal_steps(sit: Situation, unit_id: str, order_type: OrderType | str,
                path_so_far: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The legal next choices of an order form, sorted by id.

    march / attack: the next land provinces (up to 2 steps). An attack's
    first step offers non-friendly targets and friendly provinces from which a
    non-friendly target can be reached. sea_attack / landing: the path is
    [S1, (S2,) target]; first the coastal sea zones holding an own fleet, then
    (landing) adjacent zones or targets, then targets. fleet_move: the
    adjacent zones; fleet_attack: own or adjacent zone with such a target, then
    hostile factions with a fleet in that zone or next to it. An illegal or complete prefix offers nothing. Every choice made from
    these lists passes `check_static` once `is_complete` says the path is done.
    """
    order_type = OrderType(order_type)
    unit = sit.unit(unit_id)
    if unit is None:
        raise CaseError("unit", f"unknown unit {unit_id!r}")
    path = tuple(path_so_far)
    if not unit.on_map or order_type == OrderType.HOLD:
        return []
    if (order_type in ARMY_ORDERS) == unit.is_fleet:
        return []
    start, faction = unit.location, unit.faction
    out: list[str] = []
    if order_type in (OrderType.MARCH, OrderType.ATTACK):
        if len(path) >= 2:
            return []
        if path and (path[0] not in sit.land_adj[start] or path[0] == start
                     or not sit.is_friendly(faction, path[0])):
            return []
        prev = path[-1] if path else start
        used = {start, *path}
        for n in sit.land_adj[prev]:
            if n in used:
                continue
            friendly = sit.is_friendly(faction, n)
            if order_type == OrderType.MARCH:
                if friendly:
                    out.append(n)
            elif not friendly:
                out.append(n)
            elif not path and _has_hostile_target_from(sit, faction, start, n):
                out.append(n)
    elif order_type in SEA_ARMY_ORDERS:
        targets = _attack_targets if order_type == OrderType.SEA_ATTACK else _landing_targets
        if not path:
            for s in sit.coast[start]:
                if not _own_fleets_in(sit, unit, s):
                    continue
                if targets(sit, unit, s) or (order_type == OrderType.LANDING and any(
                        _landing_targets(sit, unit, s2) for s2 in sit.sea_adj[s])):
                    out.append(s)
        else:
            s1 = path[0]
            if s1 not in sit.coast[start] or not _own_fleets_in(sit, unit, s1):
                return []
            if len(path) == 1:
                out.extend(targets(sit, unit, s1))
                if order_type == OrderType.LANDING:
                    out.extend(s2 for s2 in sit.sea_adj[s1] if _landing_targets(sit, unit, s2))
            elif (len(path) == 2 and order_type == OrderType.LANDING
                  and path[1] in sit.sea_adj[s1]):
                out.extend(_landing_targets(sit, unit, path[1]))
    else:
        here = unit.location
        if not path:
            if order_type == OrderType.FLEET_ATTACK:
                out.extend(z for z in (here, *sit.sea_adj[here]) if _fleet_attack_targets(sit, unit, z))
            else:
                out.extend(sit.sea_adj[here])
        elif order_type == OrderType.FLEET_ATTACK and len(path) == 1 and (
                path[0] == here or path[0] in sit.sea_adj[here]):
            out.extend(_fleet_attack_targets(sit, unit, path[0]))
    return sorted(set(out))


def is_complete(sit: Situation, unit_id: str, order_type: OrderType | str, path: list[str] | tuple[str, ...]) -> bool:
    """Whether a path built from `legal_steps` is a whole order (the form may be submitted)."""
    order_type = OrderType(order_type)
    unit = sit.unit(unit_id)
    if order_type == OrderType.HOLD:
        return True
    if not path or unit is None:
        return False
    last = path[-1]
    if order_type == OrderType.MARCH:
        return len(path) <= 2
    if order_type == OrderType.ATTACK:
        return len(path) <= 2 and not sit.is_friendly(unit.faction, last)
    if order_type in SEA_ARMY_ORDERS:
        return len(path) >= 2 and sit.provinces[last].domain == Domain.LAND
    if order_type == OrderType.FLEET_MOVE:
        return len(path) == 1
    return len(path) == 2   # fleet_attack: zone, faction


def order_from_path(sit: Situation, unit_id: str, order_type: OrderType | str, path: list[str] | tuple[str, ...],
                    fleet: str | None = None) -> dict:
    """The order document (docs/adjudication.md) for a path built from `legal_steps`."""
    order_type = OrderType(order_type)
    path = list(path)
    if order_type in (OrderType.MARCH, OrderType.ATTACK):
        return {"unit": unit_id, "type": order_type.value, "path": path}
    if order_type in SEA_ARMY_ORDERS:
        if fleet is None and path:
            fleets = legal_fleets(sit, unit_id, path[0])
            fleet = fleets[0] if fleets else None
        return {"unit": unit_id, "type": order_type.value, "fleet": fleet, "sea": path[:-1], "target": path[-1]}
    if order_type == OrderType.FLEET_MOVE:
        return {"unit": unit_id, "type": order_type.value, "sea": path[0]}
    if order_type == OrderType.FLEET_ATTACK:
        return {"unit": unit_id, "type": order_type.value, "sea": path[0], "target_faction": path[1]}
    return {"unit": unit_id, "type": "hold"}
