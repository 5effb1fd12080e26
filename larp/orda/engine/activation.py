"""Activations (O12) and effect durations (O19)."""
from __future__ import annotations

from . import outcomes as O
from .case import State, Unit
from .errors import Refused


def expiry(state: State, lasts: str, faction: str) -> dict:
    """When an effect made now ends: {"faction", "tour"} (O19 'Effect durations')."""
    if lasts == "end_of_current_turn":
        return {"faction": state.active, "tour": state.tour}
    # "until the end of X's next turn": X's first turn that begins after the current one
    later = state.position(faction) > state.position(state.active)
    return {"faction": faction, "tour": state.tour if later else state.tour + 1}


def sequences(state: State, u: Unit) -> list:
    """Every activation the unit may make (O12 and the `pattern` traits)."""
    from .values import active_trait
    seqs = [[O.STEP_MOVE, O.STEP_ATTACK], [O.STEP_MOVE, O.STEP_ACTION]]
    trait = active_trait(state, u)
    if trait:
        spec = state.data.trait(trait)
        if spec["kind"] == "pattern":
            seqs.append(list(spec["allows"]))
        if spec.get("targets") == 2:
            seqs.append([O.STEP_MOVE, O.STEP_ATTACK, O.STEP_ATTACK])
    return seqs


def check_activation(state: State, u: Unit, step: str) -> dict:
    """The activations after `u` does `step`, or Refused (not its turn, a fourth unit, out of order)."""
    if u.faction != state.active:
        raise Refused(O.NOT_ACTIVE_FACTION, f"{u.id} is not of the active faction ({state.active})")
    acts = state.activations
    limit = state.data.number("turn", "units_per_turn")
    if u.id not in acts and len(acts) >= limit:
        raise Refused(O.UNITS_PER_TURN, f"{limit} units have already acted this turn")
    if u.id in acts and list(acts)[-1] != u.id:
        raise Refused(O.ACTIVATION_ORDER, f"{u.id}'s activation is over: another unit has acted since")
    done = acts.get(u.id, []) + [step]
    for seq in sequences(state, u):
        if _subsequence(done, seq):
            out = {k: list(v) for k, v in acts.items()}
            out.pop(u.id, None)
            out[u.id] = done
            return out
    raise Refused(O.ACTIVATION_ORDER, f"{u.id} cannot {step} after {', '.join(acts.get(u.id, [])) or 'nothing'} "
                                      f"in one activation")


def _subsequence(done: list, seq: list) -> bool:
    """`done` is the allowed sequence with some steps skipped (each step optional)."""
    it = iter(seq)
    return all(any(s == x for x in it) for s in done)
