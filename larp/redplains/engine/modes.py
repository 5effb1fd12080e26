"""The single-contest modes of W41: command, melee, volley, odds, shinobi."""
from __future__ import annotations

from typing import Any

from . import melee as m
from . import odds as o
from . import volley as v
from .case import Unit, boolean, choice, ident, integer, lst, obj, unit
from .data import Data, load, with_troop_types
from .dice import Dice, parse_seed
from .errors import CaseError
from .outcomes import (ATTACK_SIDES, DESTROYED, DISPERSED, FLEEING, HIGH, KIND_ATTACK, KIND_MEETING, LOW, ORDINARY,
                       SIDES, SPECIAL, WITHDRAWN)

MELEE_FLAGS = ("hold", "moved", "decisive", "across_river", "uphill", "into_forest", "crab", "tiger",
               "no_defence_bonuses")
VOLLEY_TARGET_FLAGS = ("has_move_order", "move_is_decisive", "crosses_bridge", "on_hill", "in_forest",
                       "moved_or_turned", "hold", "crab")
SHOOTER_FLAGS = ("massed", "straight", "at_attacker", "from_hill", "crab")


def case_data(case: dict) -> Data:
    return with_troop_types(load(), case.get("troop_types"))


def top(case: Any) -> dict:
    return obj(case, "case")


def _clean(u: Unit, where: str, bools: tuple[str, ...], counts: tuple[str, ...] = ("panic",),
           attacks: bool = False) -> Unit:
    raw = u.flags
    flags: dict[str, Any] = {k: boolean(raw, k, where) for k in bools}
    for k in counts:
        flags[k] = integer(raw, k, where, 0, 100, 0)
    if attacks:
        flags["attacks"] = choice(raw, "attacks", where, ATTACK_SIDES)
    u.flags = flags
    return u


def _melee_unit(data: Data, raw: Any, where: str, attacks: bool = False) -> Unit:
    u = unit(data, raw, where, min_figures=1)
    return _clean(u, where, MELEE_FLAGS, ("panic", "shooting_losses"), attacks)


# A unit of these statuses has left the field (W26.5, W34.4, W34.5, W14.1): it neither attacks, nor fights back,
# nor shoots, nor is attacked or shot at. A fleeing unit does not attack (W35.1: it only flees until it
# regroups; a meeting engagement is two attacks, W29.1), but it may be attacked (W35.4) or shot at.
LEFT_THE_FIELD = {DESTROYED: "W26.5", DISPERSED: "W34.4", WITHDRAWN: "W14.1"}


def refuse_status(u: Unit, where: str, acts: bool) -> None:
    """Exit 2 naming the unit and its status when a unit out of the battle (or a fleeing one that would act) is in
    a contest: `acts` is True for an attacker or a shooter, False for a defender or a target."""
    if u.status in LEFT_THE_FIELD:
        raise CaseError(f"{where}.status", f"unit {u.id} is {u.status}: it has left the battle and takes no part "
                                           f"in a combat ({LEFT_THE_FIELD[u.status]})")
    if acts and u.status == FLEEING:
        raise CaseError(f"{where}.status", f"unit {u.id} is fleeing: a fleeing unit does not attack (W35.1)")


def melee_plan(data: Data, case: dict) -> m.Plan:
    spec = obj(case.get("melee"), "melee")
    kind = choice(spec, "kind", "melee", (KIND_ATTACK, KIND_MEETING))
    if kind == KIND_ATTACK:
        d = _melee_unit(data, spec.get("defender"), "melee.defender")
        atts = [_melee_unit(data, a, f"melee.attackers[{i}]", attacks=True)
                for i, a in enumerate(lst(spec.get("attackers"), "melee.attackers", 4))]
        for i, a in enumerate(atts):
            refuse_status(a, f"melee.attackers[{i}]", acts=True)
        refuse_status(d, "melee.defender", acts=False)
        return m.plan_attack(data, d, atts)
    a = _melee_unit(data, spec.get("a"), "melee.a")
    b = _melee_unit(data, spec.get("b"), "melee.b")
    for key, u in (("a", a), ("b", b)):              # W29.1: in a meeting engagement both attack
        if u.status == FLEEING:
            raise CaseError(f"melee.{key}.status",
                            f"unit {u.id} is fleeing: a fleeing unit cannot fight a meeting engagement (W35.1)")
        refuse_status(u, f"melee.{key}", acts=True)
    return m.plan_meeting(data, a, b, boolean(spec, "same_cell", "melee"))


def melee_mode(case: Any) -> dict:
    case = top(case)
    data = case_data(case)
    plan = melee_plan(data, case)
    dice = Dice(case.get("dice"), parse_seed(case), set(plan.units))
    result = m.fight(data, plan, dice)
    dice.check_all_used()
    return result


def volley_parts(data: Data, case: dict) -> tuple[Unit, list[v.Shot]]:
    spec = obj(case.get("volley"), "volley")
    target = _clean(unit(data, spec.get("target"), "volley.target", min_figures=1), "volley.target",
                    VOLLEY_TARGET_FLAGS)
    refuse_status(target, "volley.target", acts=False)
    shooters = []
    for i, raw in enumerate(lst(spec.get("shooters"), "volley.shooters", 12)):
        where = f"volley.shooters[{i}]"
        shooters.append(_clean(unit(data, raw, where, min_figures=1), where, SHOOTER_FLAGS, ()))
        if shooters[-1].status in LEFT_THE_FIELD:          # a fleeing shooter is let through: it shoots no figure
            refuse_status(shooters[-1], where, acts=True)
    if not shooters:
        raise CaseError("volley.shooters", "at least one shooter")
    ids = [target.id] + [s.id for s in shooters]
    if len(set(ids)) != len(ids):
        raise CaseError("volley", "unit ids must be distinct")
    shots = [v.plan_shot(data, s, target, f"volley.shooters[{i}]") for i, s in enumerate(shooters)]
    return target, shots


def volley_mode(case: Any) -> dict:
    case = top(case)
    data = case_data(case)
    target, shots = volley_parts(data, case)
    dice = Dice(case.get("dice"), parse_seed(case), {s.shooter for s in shots})
    result = v.fire(data, target, shots, dice)
    dice.check_all_used()
    return result


def _command_spec(data: Data, case: dict) -> dict:
    spec = obj(case.get("command"), "command")
    out = {"side": choice(spec, "side", "command", SIDES, None),
           "turn": integer(spec, "turn", "command", 0, 10_000, None),
           "stake": choice(spec, "stake", "command", tuple(data.stakes), data.default_stake),
           "rerolls_left": integer(spec, "rerolls_left", "command", 0, 1000, 0),
           "intercepted": boolean(spec, "intercepted", "command")}
    rolls = []
    for i, pair in enumerate(lst(spec.get("rolls", []) or [], "command.rolls", 1001)):
        where = f"command.rolls[{i}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise CaseError(where, "a roll is a pair of two d6 values")
        for j, value in enumerate(pair):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
                raise CaseError(f"{where}[{j}]", "a die value must be a whole number 1..6")
        rolls.append(list(pair))
    out["rolls"] = rolls
    clans = []
    for i, name in enumerate(lst(spec.get("minor_clans", []) or [], "command.minor_clans", 50)):
        if not isinstance(name, str) or not name or len(name) > 100:
            raise CaseError(f"command.minor_clans[{i}]", "must be a clan name")
        clans.append(name)
    out["minor_clans"] = clans
    gens = []
    for i, g in enumerate(lst(spec.get("generals", []) or [], "command.generals", 50)):
        g = obj(g, f"command.generals[{i}]")
        gens.append({"general": ident(g, "name", f"command.generals[{i}]")})
    out["generals"] = gens
    plan = obj(spec.get("cunning_plan") or {}, "command.cunning_plan")
    out["cunning_plan"] = {"special": integer(plan, "special", "command.cunning_plan", 0, 100, 0),
                           "ordinary": integer(plan, "ordinary", "command.cunning_plan", 0, 100, 0)}
    return out


def command_mode(case: Any) -> dict:
    """W7–W9, W10.5: one command roll with its re-rolls; the orders it gives."""
    case = top(case)
    data = case_data(case)
    spec = _command_spec(data, case)
    rolls = spec["rolls"]
    seed = parse_seed(case)
    if not rolls:
        if seed is None:
            raise CaseError("command.rolls", "the command roll awaits dice (give a roll or a seed)")
        dice = Dice({}, seed)
        rolls = [[dice.draw("command", "the command roll"), dice.draw("command", "the command roll")]]
    refused = []
    allowed = min(len(rolls) - 1, spec["rerolls_left"])
    for index in range(allowed + 1, len(rolls)):                          # W8.2
        refused.append({"roll": index, "rule": "W8.2", "reason": "no_reroll_left"})
    used = allowed
    left = spec["rerolls_left"] - used
    voided = False
    if spec["intercepted"]:                                              # W10.5
        if used > 0:
            voided = True
        elif left > 0:
            left -= 1
    used_roll = used - 1 if voided else used
    total = sum(rolls[used_roll])
    stake = data.stakes[spec["stake"]]
    success = total >= stake.success_at
    special, ordinary = stake.success if success else stake.failure
    return {"stake": spec["stake"], "rolls": [{"values": r, "total": sum(r)} for r in rolls],
            "used_roll": used_roll, "total": total, "success": success,
            "orders": {"special": special, "ordinary": ordinary},
            "extra": {"ordinary": [{"minor_clan": c, "count": data.minor_clan_ordinary} for c in spec["minor_clans"]],
                      "special": [{**g, "count": data.general_special} for g in spec["generals"]],
                      "cunning_plan": spec["cunning_plan"]},
            "rerolls_used": used, "rerolls_left": left, "voided_reroll": voided, "refused": refused}


def odds_mode(case: Any) -> dict:
    """W41.7: exact odds of whichever contest the case holds (dice ignored)."""
    case = top(case)
    data = case_data(case)
    keys = [k for k in ("command", "melee", "volley") if k in case]
    if len(keys) != 1:
        raise CaseError("case", "an odds case holds exactly one of command, melee, volley")
    if keys[0] == "command":
        spec = _command_spec(data, case)
        return o.command_odds(data, spec["rerolls_left"])
    if keys[0] == "melee":
        plan = melee_plan(data, case)
        return o.attack_odds(data, plan) if plan.kind == KIND_ATTACK else o.meeting_odds(data, plan)
    target, shots = volley_parts(data, case)
    return o.volley_odds(data, target, shots)


def shinobi_mode(case: Any) -> dict:
    """W6.4 infiltration and W10.4 sabotage rolls."""
    case = top(case)
    data = case_data(case)
    spec = obj(case.get("shinobi"), "shinobi")
    sabotage_raw = lst(spec.get("sabotage", []) or [], "shinobi.sabotage", 200)
    units = set()
    for i, s in enumerate(sabotage_raw):
        units.add(ident(obj(s, f"shinobi.sabotage[{i}]"), "unit", f"shinobi.sabotage[{i}]"))
    dice = Dice(case.get("dice"), parse_seed(case), set(SIDES) | units)
    out: dict[str, Any] = {}
    inf = spec.get("infiltration")
    if inf is not None:
        inf = obj(inf, "shinobi.infiltration")
        counts = {}
        for side in SIDES:
            node = obj(inf.get(side, {}) or {}, f"shinobi.infiltration.{side}")
            counts[side] = (integer(node, "infiltrate", f"shinobi.infiltration.{side}", 0, 1000, 0),
                            integer(node, "guard", f"shinobi.infiltration.{side}", 0, 1000, 0))
        result = {}
        for side in SIDES:
            enemy = SIDES[1 - SIDES.index(side)]
            attempts, guards = counts[side][0], counts[enemy][1]
            blocked = min(attempts, guards)
            killed = sum(1 for _ in range(blocked)
                         if dice.draw(enemy, f"the kill roll of a {enemy} guard") >= data.guard_kills_at)
            result[side] = {"through": max(0, attempts - guards), "blocked": blocked, "killed": killed}
        out["infiltration"] = result
    results = []
    for i, s in enumerate(sabotage_raw):
        where = f"shinobi.sabotage[{i}]"
        kinds = [choice({"k": k}, "k", f"{where}.orders[{j}]", (ORDINARY, SPECIAL))
                 for j, k in enumerate(lst(s.get("orders", []) or [], f"{where}.orders", 2))]
        roll = integer(s, "roll", where, 1, 6, None)
        if roll is None:
            roll = dice.draw(s["unit"], f"the sabotage roll against {s['unit']}")
        all_ordinary = all(k == ORDINARY for k in kinds)
        cancelled = roll >= data.sabotage_any_at or (all_ordinary and roll >= data.sabotage_all_ordinary_at)
        results.append({"unit": s["unit"], "roll": roll, "cancelled": cancelled})
    out["sabotage"] = results
    dice.check_all_used()
    return out


__all__ = ["command_mode", "melee_mode", "volley_mode", "odds_mode", "shinobi_mode", "HIGH", "LOW"]
