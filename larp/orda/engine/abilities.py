"""Action traits (O12, O21): heal, prince's order, poison, trap, lance, second chance, and a thief's borrowing."""
from __future__ import annotations

from . import outcomes as O
from .activation import check_activation, expiry
from .case import State, need_hex, need_obj, need_str
from .errors import Refused
from .hexes import as_list, distance
from .values import blocked, is_ranged, trait_of

TARGETED = ("supplies", "personal_healers", "princes_order", "mixed_poisons", "lance", "golden_horde")


def _reach(state: State, u, t, trait: str) -> None:
    if not t.on_board:
        raise Refused(O.TARGET_INVALID, f"{t.id} is not on the board")
    reach = state.data.trait(trait).get("reach")
    if reach is not None and distance(u.hex, t.hex) > reach:
        raise Refused(O.OUT_OF_REACH, f"{t.id} is {distance(u.hex, t.hex)} hexes away; the reach is {reach}")


def _ally(u, t) -> None:
    if t.side != u.side:
        raise Refused(O.TARGET_INVALID, f"{t.id} is not an ally")
    if t is u:
        raise Refused(O.TARGET_INVALID, "the unit cannot target itself")


def _enemy(u, t) -> None:
    if t.side == u.side:
        raise Refused(O.TARGET_INVALID, f"{t.id} is not an enemy")


def _apply(state: State, raw: dict, u, trait: str) -> tuple[list, dict | None, list | None]:
    spec = state.data.trait(trait)
    effects, healed, trap = [], None, None
    if trait in TARGETED:
        t = state.unit(raw.get("target"), "ability.target")
        if trait == "golden_horde":
            if not t.on_board:
                raise Refused(O.TARGET_INVALID, f"{t.id} is not on the board")
            if t.faction != u.faction:
                raise Refused(O.TARGET_INVALID, f"{t.id} is not of {u.faction}")
        else:
            _reach(state, u, t, trait)
        if trait in ("supplies", "personal_healers"):
            _ally(u, t)
            if t.damage == 0:
                raise Refused(O.TARGET_INVALID, f"{t.id} has nothing to heal")
            t.damage = max(0, t.damage - spec["heal"])
            healed = {"unit": t.id, "damage": t.damage}
        elif trait == "princes_order":
            _ally(u, t)
            param = need_str(raw.get("param"), "ability.param", ("attack", "defence", "speed", "range", "health",
                                                                 "summon"))
            if param not in spec["params"] or (param == "range" and not is_ranged(state, t)):
                raise Refused(O.TARGET_INVALID, f"the prince's order cannot raise {t.id}'s {param}")
            effects.append((t, {"kind": trait, "param": param, "value": spec["value"], "from": u.id,
                                "expires": expiry(state, spec["lasts"], t.faction)}))
        elif trait in ("mixed_poisons", "lance"):
            _enemy(u, t)
            effects.append((t, {"kind": trait, "from": u.id, "expires": expiry(state, spec["lasts"], t.faction)}))
        else:
            effects.append((t, {"kind": trait, "from": u.id, "expires": expiry(state, spec["lasts"], t.faction)}))
    elif trait == "traps":
        h = need_hex(raw.get("hex"), "ability.hex")
        if h not in state.board or distance(u.hex, h) > spec["reach"]:
            raise Refused(O.OUT_OF_REACH, f"{list(h)} is not a board hex within {spec['reach']} of {u.id}")
        if h in state.occupant() or state.trap_at(h) or any(c.hex == h and not c.destroyed for c in state.cities):
            raise Refused(O.HEX_NOT_EMPTY, f"{list(h)} holds a unit, a city or a trap")
        state.traps.append({"hex": h, "faction": u.faction})
        trap = as_list(h)
    for t, eff in effects:
        t.effects.append(eff)
    return [dict(e, unit=t.id) for t, e in effects], healed, trap


def ability_mode(state: State) -> dict:
    raw = need_obj(state.raw.get("ability"), "ability")
    u = state.unit(raw.get("unit"), "ability.unit")
    trait = need_str(raw.get("trait"), "ability.trait", tuple(state.data.traits))
    try:
        if not u.on_board:
            raise Refused(O.NOT_ON_BOARD, f"{u.id} is not on the board")
        if trait == "theft":
            return _theft(state, raw, u)
        if trait_of(u) != trait or state.data.trait(trait)["kind"] != "action":
            raise Refused(O.NOT_ACTION_TRAIT, f"{u.id} has no action trait {trait} in force")
        acts = check_activation(state, u, O.STEP_ACTION)
        if blocked(state, u):
            raise Refused(O.TRAIT_BLOCKED, f"{u.id}'s trait is blocked this turn (pursuit)")
        effects, healed, trap = _apply(state, raw, u, trait)
    except Refused as r:
        return {"refused": r.as_dict()}
    state.activations = acts
    return {"refused": None, "effects_added": effects, "healed": healed, "trap_placed": trap, "activations": acts,
            "state": {"units": [x.as_dict() for x in state.units], "traps": state.traps_list()}}


def _theft(state: State, raw: dict, u) -> dict:
    """O21 Вор: at the start of its activation it names a trait of a unit on the board; free, not an action."""
    if u.kind.trait != "theft":
        raise Refused(O.NOT_ACTION_TRAIT, f"{u.id} is not a thief")
    if u.faction != state.active:
        raise Refused(O.NOT_ACTIVE_FACTION, f"{u.id} is not of the active faction ({state.active})")
    if blocked(state, u):
        raise Refused(O.TRAIT_BLOCKED, f"{u.id}'s trait is blocked this turn (pursuit)")
    acts = {k: list(v) for k, v in state.activations.items()}
    limit = state.data.number("turn", "units_per_turn")
    if acts.get(u.id):
        raise Refused(O.ACTIVATION_ORDER, f"{u.id} borrows a trait only at the start of its activation")
    if u.id not in acts and len(acts) >= limit:
        raise Refused(O.UNITS_PER_TURN, f"{limit} units have already acted this turn")
    copy = need_str(raw.get("copy"), "ability.copy", tuple(state.data.traits))
    if copy == "theft" or not any(v.on_board and v.kind.trait == copy for v in state.units):
        raise Refused(O.TARGET_INVALID, f"no unit on the board has the trait {copy} to borrow")
    eff = {"kind": "theft", "trait": copy, "from": u.id, "expires": expiry(state, "end_of_current_turn", u.faction)}
    u.effects.append(eff)
    acts.pop(u.id, None)
    acts[u.id] = []
    return {"refused": None, "effects_added": [dict(eff, unit=u.id)], "healed": None, "trap_placed": None,
            "activations": acts, "state": {"units": [x.as_dict() for x in state.units], "traps": state.traps_list()}}
