"""Effective values (O19): traits in force, immunity, blocked traits, and the itemised sum of a parameter."""
from __future__ import annotations

from dataclasses import dataclass

from . import outcomes as O
from .case import State, Unit
from .hexes import adjacent, distance


@dataclass(frozen=True)
class Value:
    items: tuple
    ignored: tuple
    param: int

    def as_dict(self) -> dict:
        return {"items": [dict(i) for i in self.items], "ignored": [dict(i) for i in self.ignored],
                "param": self.param}


def trait_of(u: Unit) -> str:
    """The unit's trait in force: a Вор's borrowed one (O21 theft), else its kind's."""
    borrowed = [e["trait"] for e in u.effects if e["kind"] == "theft"]
    return borrowed[-1] if borrowed else u.kind.trait


def has_effect(u: Unit, kind: str) -> bool:
    return any(e["kind"] == kind for e in u.effects)


def neighbours_on_board(state: State, u: Unit):
    """Units on hexes adjacent to u, in id order."""
    if not u.on_board:
        return []
    return sorted((v for v in state.units if v.on_board and v is not u and adjacent(v.hex, u.hex)),
                  key=lambda v: v.id)


def immune(state: State, u: Unit, _seen: frozenset = frozenset()) -> bool:
    """O19: Добрыня (or a Вор with his trait), or next to an allied Воительница whose trait is not blocked."""
    if trait_of(u) == "bogatyr":
        return True
    for v in neighbours_on_board(state, u):
        if v.side == u.side and trait_of(v) == "role_model" and v.id not in _seen \
                and not blocked(state, v, _seen | {u.id}):
            return True
    return False


def blocked(state: State, u: Unit, _seen: frozenset = frozenset()) -> bool:
    """O21 pursuit: the unit's trait is blocked for the turn, unless it is immune."""
    return has_effect(u, "pursuit") and not immune(state, u, _seen | {u.id})


def active_trait(state: State, u: Unit) -> str | None:
    """The trait that works now (None while blocked)."""
    return None if blocked(state, u) else trait_of(u)


def is_ranged(state: State, u: Unit) -> bool:
    return u.kind.cls in state.data.ranged_classes


def own_city_at(state: State, u: Unit):
    return next((c for c in state.cities if not c.destroyed and c.hex == u.hex and c.side == u.side), None)


def can_be_pushed(state: State, shooter: Unit, target: Unit) -> bool:
    return bool(back_hexes(state, shooter, target))


def back_hexes(state: State, shooter: Unit, target: Unit) -> list:
    """O21 heavy bolts: free neighbours of the target one step farther from the shooter, in hex order."""
    from .hexes import hex_order, neighbours
    occupied = state.occupant()
    d = distance(shooter.hex, target.hex)
    free = [h for h in neighbours(target.hex)
            if distance(shooter.hex, h) == d + 1 and state.is_free(h, target.side, occupied)]
    return hex_order(target.hex, free)


def effective(state: State, u: Unit, param: str, target: Unit | None = None, aimed: bool = False) -> Value:
    """The itemised value of attack, defence, speed or range of `u` (O19 steps 1-9)."""
    data = state.data
    is_immune = immune(state, u)
    items: list = []
    ignored: list = []

    def add(source: str, value: int, ignorable: bool, step: int) -> None:
        entry = {"source": source, "value": value}
        if is_immune and ignorable and value < 0:
            ignored.append(entry)
        else:
            items.append((step, entry))

    printed = u.stat(param) if not (param == "range" and not is_ranged(state, u)) else 0
    items.append((1, {"source": O.PRINTED, "value": printed}))
    for e in u.effects:                                                    # step 2
        if e.get("param") == param and "value" in e:
            add(e["kind"], e["value"], True, 2)
    if u.on_board:                                                         # step 3: auras
        for v in neighbours_on_board(state, u):
            if v.side != u.side or blocked(state, v):
                continue
            t = trait_of(v)
            spec = data.trait(t)
            if param == "defence" and t == "armour_repair":
                add(t, spec["defence"], False, 3)
            elif param == "defence" and t == "iron_discipline" and u.kind.foot:
                add(t, spec["defence"], False, 3)
        if param == "speed" and u.drill:
            cap = state.capital(u.faction)
            if distance(cap.hex, u.hex) <= 1:
                add("harsh_drill", data.trait("harsh_drill")["speed"], False, 3)
        if param in ("attack", "defence") and own_city_at(state, u) is not None:   # step 4
            add(O.GARRISON, data.number("garrison", param), False, 4)
        if param == "defence":                                             # step 5
            enemies = sum(1 for v in neighbours_on_board(state, u) if v.side != u.side)
            free = data.number("minority", "free_enemies")
            if enemies > free:
                add(O.MINORITY, data.number("minority", "defence_per_extra_enemy") * (enemies - free), True, 5)
    if param == "attack" and target is not None:                           # step 6
        t = active_trait(state, u)
        if aimed and t == "aimed_shot":
            add("aimed_shot", data.trait(t)["attack"], False, 6)
        if t == "ancient_techniques" and target.kind.foot:
            add(t, data.trait(t)["attack"], False, 6)
        if t == "isolation" and not any(v.side == target.side for v in neighbours_on_board(state, target)):
            add(t, data.trait(t)["attack"], False, 6)
        if t == "heavy_bolts" and not can_be_pushed(state, u, target):
            add(t, data.trait(t)["attack_if_no_push"], False, 6)
    for m in state.modifiers:                                              # step 7
        if m["unit"] == u.id and m["param"] == param:
            add(m["source"], m["value"], m["source"] == O.EVENT, 7)
    if param == "attack" and has_effect(u, "lance"):                       # step 8
        bonus = sum(e["value"] for s, e in items if 2 <= s <= 7 and e["value"] > 0)
        if bonus:
            add("lance", -bonus, True, 8)
    if param == "defence" and has_effect(u, "mixed_poisons"):             # step 9
        so_far = sum(e["value"] for _, e in items)
        if so_far > 0:
            add("mixed_poisons", -so_far, True, 9)
    listed = tuple(e for _, e in items)
    total = sum(e["value"] for e in listed)
    return Value(listed, tuple(ignored), max(data.number("parameters", "floor"), total))
