"""Attacks (O15-O17, O21): declaration, counter-measures, dice, damage, and exact odds."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from . import outcomes as O
from .activation import check_activation, expiry
from .case import CaseError, State, Unit, need_bool, need_hex, need_int, need_list, need_obj, need_str
from .dice import Dice
from .errors import Refused
from .hexes import DIRECTIONS, as_list, distance, hex_order, neighbours
from .values import Value, active_trait, back_hexes, effective, has_effect, is_ranged, neighbours_on_board, \
    trait_of


@dataclass
class Plan:
    """A declared attack, after the effects of declaration, ready for dice."""
    attacker: Unit
    target: Unit
    provoked: bool
    aimed: bool
    ranged: bool
    area: bool
    effects_added: list
    revealed: list
    activations: dict
    hit_damage: int
    push_hex: Any               # where a surviving hit target is pushed (Арбалетчик), or None
    retreat_refusal: Refused | None
    auto_retreat: bool
    retreat_hex: Any            # the retreat destination (chosen or default), or None


def trap_damage(state: State, u: Unit, h) -> int:
    """O21 traps: an enemy trap on `h` strikes `u` (not Добрыня)."""
    trap = state.trap_at(h)
    if trap is None or state.side(trap["faction"]) == u.side or trait_of(u) == "bogatyr":
        return 0
    return state.data.trait("traps")["damage"]


def spring_trap(state: State, u: Unit, h) -> dict | None:
    """Apply a trap on `h` to `u` (already standing there): damage, removal; the {"hex", "damage"} record."""
    dmg = trap_damage(state, u, h)
    if not dmg:
        return None
    state.traps = [t for t in state.traps if t["hex"] != h]
    taken = min(dmg, u.stat("health") - u.damage)
    u.damage += taken
    if u.damage >= u.stat("health"):
        kill(u)
    return {"hex": as_list(h), "damage": taken}


def kill(u: Unit) -> None:
    u.where, u.hex, u.effects = O.DEAD, None, []


def _line_ok(state: State, a: Unit, t: Unit) -> bool:
    for dq, dr in DIRECTIONS:
        if (a.hex[0] + 2 * dq, a.hex[1] + 2 * dr) == t.hex:
            mid = state.occupant().get((a.hex[0] + dq, a.hex[1] + dr))
            return mid is not None and mid.side != a.side
    return False


def read_attack(state: State, raw: Any, path: str = "attack") -> dict:
    need_obj(raw, path)
    out = {"attacker": state.unit(raw.get("attacker"), f"{path}.attacker"),
           "target": state.unit(raw.get("target"), f"{path}.target"),
           "provoked": need_bool(raw.get("provoked", False), f"{path}.provoked"),
           "aimed": need_bool(raw.get("aimed", False), f"{path}.aimed"),
           "counter": raw.get("counter"), "retreat_to": None, "push_to": None}
    for key in ("retreat_to", "push_to"):
        if raw.get(key) is not None:
            out[key] = need_hex(raw[key], f"{path}.{key}")
    return out


def declare(state: State, req: dict, counter: str | None) -> Plan:
    """Check the attack (refusals), then apply the effects of declaration (O16 sequence)."""
    a, t = req["attacker"], req["target"]
    provoked, aimed = req["provoked"], req["aimed"]
    if not a.on_board:
        raise Refused(O.NOT_ON_BOARD, f"{a.id} is not on the board")
    if not t.on_board:
        raise Refused(O.NOT_ON_BOARD, f"{t.id} is not on the board")
    acts = state.activations
    if not provoked:
        acts = check_activation(state, a, O.STEP_ATTACK)
    if t.side == a.side:
        raise Refused(O.NOT_ENEMY, f"{t.id} is on {a.id}'s side: only enemies are attacked")
    trait = active_trait(state, a)
    spec = state.data.trait(trait) if trait else {}
    area = bool(spec.get("area"))
    if active_trait(state, t) == "camouflage" and not t.revealed and not area:
        raise Refused(O.CAMOUFLAGED, f"{t.id} is camouflaged until it attacks (only traps and area attacks hit it)")
    ranged = is_ranged(state, a)
    if provoked and ranged:
        raise Refused(O.OUT_OF_REACH, f"{a.id} is a ranged unit: it has no zone of control")
    if aimed and trait != "aimed_shot":
        raise Refused(O.NO_AIMED_SHOT, f"{a.id} has no aimed shot in force")
    dist = distance(a.hex, t.hex)
    if aimed:
        reach = spec["reach"]
    elif ranged and not provoked:
        reach = effective(state, a, "range").param
    else:
        reach = 1
    if trait == "linear_attack" and dist == 2 and not provoked:
        if not _line_ok(state, a, t):
            raise Refused(O.BAD_LINE, f"{t.id} is not directly behind an enemy unit next to {a.id}")
    elif dist > reach:
        raise Refused(O.OUT_OF_REACH, f"{t.id} is {dist} hexes from {a.id}, whose reach is {reach}")
    # declaration: effects on the attacked unit take hold at once (axe, pursuit), then the cold on the attacker
    added, revealed = [], []
    if trait == "axe":
        added.append((t, {"kind": "axe", "param": "defence", "value": spec["target_defence"], "from": a.id,
                          "expires": expiry(state, spec["lasts"], t.faction)}))
    if trait == "pursuit":
        added.append((t, {"kind": "pursuit", "from": a.id, "expires": expiry(state, spec["lasts"], t.faction)}))
    for unit, eff in added:
        unit.effects.append(eff)
    if active_trait(state, t) == "icy_breath":
        cold = state.data.trait("icy_breath")
        eff = {"kind": "icy_breath", "param": "speed", "value": cold["attacker_speed"], "from": t.id,
               "expires": expiry(state, cold["lasts"], a.faction)}
        a.effects.append(eff)
        added.append((a, eff))
    if trait_of(a) == "camouflage" and not a.revealed:
        a.revealed = True
        revealed.append(a.id)
    # damage of a hit (O17)
    dmg = state.data.number("combat", "damage_per_hit")
    if trait == "spear" and t.kind.mounted:
        dmg = spec["damage"]
    if trait == "charge" and O.STEP_MOVE in state.activations.get(a.id, []) and not provoked:
        dmg = spec["damage"]
    if trait == "molten_armour" and effective(state, t, "defence").param >= spec["min_target_defence"]:
        dmg += spec["extra_damage"]
    push_hex = None
    if trait == "heavy_bolts":
        backs = back_hexes(state, a, t)
        if req.get("push_to") is not None:
            if req["push_to"] not in backs:
                raise Refused(O.PUSH_HEX_INVALID, f"{list(req['push_to'])} is not a free hex behind {t.id}")
            push_hex = req["push_to"]
        elif backs:
            push_hex = backs[0]
    # retreat (O16)
    refusal, auto, rhex = None, False, None
    occupied = state.occupant()
    free = [h for h in neighbours(t.hex) if state.is_free(h, t.side, occupied)]
    if provoked:
        refusal = Refused(O.RETREAT_NOT_ALLOWED, "a provoked attack cannot be retreated from, only defended (O14)")
    elif ranged:
        refusal = Refused(O.RETREAT_NOT_ALLOWED, "retreat is possible only from melee attacks")
    elif trait == "onslaught":
        refusal = Refused(O.RETREAT_NOT_ALLOWED, f"{a.id}'s onslaught cannot be retreated from, only defended")
    elif not free:
        refusal = Refused(O.RETREAT_NOT_ALLOWED, f"{t.id} has no free hex to retreat to: it must defend")
    else:
        auto = any(v.side == t.side and active_trait(state, v) == "regroup" for v in neighbours_on_board(state, t))
        if req.get("retreat_to") is not None:
            rhex = req["retreat_to"]
            if rhex not in free:
                refusal = Refused(O.RETREAT_HEX_NOT_FREE, f"{list(rhex)} is not a free hex next to {t.id}")
        else:
            safe = [h for h in free if not trap_damage(state, t, h)]
            rhex = hex_order(t.hex, safe or free)[0]
    return Plan(a, t, provoked, aimed, ranged, area, [dict(e, unit=u.id) for u, e in added], revealed, acts,
                dmg, push_hex, refusal, auto, rhex)


def _stats(state: State, plan: Plan, counter: str) -> tuple[Value, Value]:
    a, t = plan.attacker, plan.target
    if counter == O.DEFENCE:
        return effective(state, a, "attack", target=t, aimed=plan.aimed), effective(state, t, "defence")
    return effective(state, a, "speed"), effective(state, t, "speed")


def _outcome(state: State, plan: Plan, counter: str, hit: bool) -> tuple[int, int]:
    """(health lost by the target, of it from a trap) for an exchange that hit or did not."""
    t = plan.target
    left = t.stat("health") - t.damage
    if hit:
        taken = min(plan.hit_damage, left)
        if plan.push_hex is not None and taken < left:
            extra = min(trap_damage(state, t, plan.push_hex), left - taken)
            return taken + extra, extra
        return taken, 0
    if counter == O.RETREAT:
        extra = min(trap_damage(state, t, plan.retreat_hex), left)
        return extra, extra
    return 0, 0


def _policy(has_second: tuple[bool, bool], wins):
    """Final (attacker die, defender die) distribution: each side with a second chance rerolls on a loss."""
    dist: dict = {}
    sixth = Fraction(1, 6)
    for a1 in range(1, 7):
        for d1 in range(1, 7):
            firsts = [(a1, sixth * sixth)]
            if has_second[0] and not wins(a1, d1):
                firsts = [(a2, sixth * sixth * sixth) for a2 in range(1, 7)]
            for a, pa in firsts:
                finals = [(d1, pa)]
                if has_second[1] and wins(a, d1):
                    finals = [(d2, pa * sixth) for d2 in range(1, 7)]
                for d, p in finals:
                    dist[(a, d)] = dist.get((a, d), 0) + p
    return dist


def _second_chance(u: Unit) -> bool:
    return has_effect(u, "golden_horde")


def _read_dice(raw: Any, side: str, u: Unit, path: str) -> list | None:
    if raw is None:
        return None
    values = need_list(raw, path, 2)
    allowed = 2 if _second_chance(u) else 1
    if not 1 <= len(values) <= allowed:
        raise CaseError(f"{path}: {len(values)} dice for the {side} ({u.id}); expected "
                        f"{'1 or 2 (a second chance)' if allowed == 2 else 1}")
    return [need_int(v, f"{path}[{i}]", 1, 6) for i, v in enumerate(values)]


def resolve(state: State, plan: Plan, counter: str, dice_raw: Any, dice: Dice, path: str = "dice") -> dict:
    """Roll (or take) the dice and apply the result to the state; the orda.attack result without `state`."""
    a, t = plan.attacker, plan.target
    if counter == O.RETREAT and plan.retreat_refusal is not None:
        raise plan.retreat_refusal
    auto = counter == O.RETREAT and plan.auto_retreat
    atk, dfn = _stats(state, plan, counter)
    if auto:
        a_dice, d_dice, hit = [], [], False
    else:
        given = {} if dice_raw is None else need_obj(dice_raw, path)
        a_dice = _read_dice(given.get("attacker"), "attacker", a, f"{path}.attacker")
        d_dice = _read_dice(given.get("defender"), "defender", t, f"{path}.defender")
        what = f"the attack of {a.id} on {t.id}"
        if a_dice is None:
            a_dice = [dice.roll(what)]
        if d_dice is None:
            d_dice = [dice.roll(what)]
        if dice_raw is None or given.get("attacker") is None:   # seeded: the second chance's policy
            if _second_chance(a) and not atk.param + a_dice[-1] > dfn.param + d_dice[-1]:
                a_dice.append(dice.roll(what))
        if dice_raw is None or given.get("defender") is None:
            if _second_chance(t) and atk.param + a_dice[-1] > dfn.param + d_dice[-1]:
                d_dice.append(dice.roll(what))
        hit = atk.param + a_dice[-1] > dfn.param + d_dice[-1]
    lost, trap_part = _outcome(state, plan, counter, hit)
    trap = None
    pushed = None
    if hit:
        t.damage += lost - trap_part
        if plan.push_hex is not None and t.damage < t.stat("health"):
            t.hex = plan.push_hex
            pushed = as_list(t.hex)
            trap = spring_trap(state, t, t.hex)
    elif counter == O.RETREAT:
        t.hex = plan.retreat_hex
        trap = spring_trap(state, t, t.hex)
    if t.on_board and t.damage >= t.stat("health"):
        kill(t)
    stat = "attack" if counter == O.DEFENCE else "speed"
    side_a = {"stat": stat, **atk.as_dict(), "dice": a_dice, "die": a_dice[-1] if a_dice else None,
              "total": atk.param + a_dice[-1] if a_dice else None}
    side_d = {"stat": "defence" if counter == O.DEFENCE else "speed", **dfn.as_dict(), "dice": d_dice,
              "die": d_dice[-1] if d_dice else None, "total": dfn.param + d_dice[-1] if d_dice else None}
    acts = dict(plan.activations)
    return {"refused": None,
            "attack": {"attacker": a.id, "target": t.id, "ranged": plan.ranged, "provoked": plan.provoked,
                       "area": plan.area, "counter": counter},
            "attacker": side_a, "defender": side_d,
            "hit": hit, "retreated": counter == O.RETREAT and not hit, "damage": lost - trap_part,
            "trap": trap, "pushed_to": pushed,
            "target": {"id": t.id, "hex": as_list(t.hex), "damage": t.damage, "health": t.stat("health"),
                       "killed": t.where == O.DEAD},
            "effects_added": plan.effects_added, "revealed": plan.revealed, "activations": acts}


def _prob(p: Fraction) -> dict:
    return {"fraction": str(p), "value": round(float(p), 4)}


def odds_of(state: State, plan: Plan, counter: str) -> dict:
    """Exact odds of one counter-measure over every outcome of the dice (O24 orda.odds)."""
    t = plan.target
    left = t.stat("health") - t.damage
    if counter == O.RETREAT and plan.auto_retreat:
        dist = {(0, 0): Fraction(1)}
        wins = None
    else:
        atk, dfn = _stats(state, plan, counter)

        def wins(x, y):
            return atk.param + x > dfn.param + y
        dist = _policy((_second_chance(plan.attacker), _second_chance(t)), wins)
    hit_p = Fraction(0)
    damage: dict = {}
    for (x, y), p in sorted(dist.items()):
        hit = wins is not None and wins(x, y)
        if hit:
            hit_p += p
        lost, _ = _outcome(state, plan, counter, hit)
        damage[lost] = damage.get(lost, 0) + p
    amounts = [{"amount": k, **_prob(v)} for k, v in sorted(damage.items()) if v]
    out = {}
    if counter == O.RETREAT:
        out["success"] = _prob(1 - hit_p)
    out.update({"hit": _prob(hit_p), "damage": amounts,
                "expected_damage": _prob(sum((k * v for k, v in damage.items()), Fraction(0))),
                "kill": _prob(sum((v for k, v in damage.items() if k >= left), Fraction(0)))})
    return out


def counter_of(raw: Any, path: str = "attack.counter") -> str:
    return need_str(raw, path, (O.DEFENCE, O.RETREAT))


def attack_mode(state: State) -> dict:
    if "attack" not in state.raw:
        raise CaseError("attack: missing")
    req = read_attack(state, state.raw["attack"])
    counter = counter_of(req["counter"])
    if counter == O.RETREAT and req["retreat_to"] is None:
        raise CaseError("attack.retreat_to: required for a retreat")
    if req["provoked"] and counter == O.RETREAT:
        return {"refused": Refused(O.RETREAT_NOT_ALLOWED, "a provoked attack can only be defended (O14)").as_dict()}
    try:
        plan = declare(state, req, counter)
        result = resolve(state, plan, counter, state.raw.get("dice"), Dice(state.seed))
    except Refused as r:
        return {"refused": r.as_dict()}
    result["state"] = {"units": [u.as_dict() for u in state.units], "traps": state.traps_list()}
    return result


def odds_mode(state: State) -> dict:
    if "attack" not in state.raw:
        raise CaseError("attack: missing")
    req = read_attack(state, state.raw["attack"])
    try:
        plan = declare(state, req, None)
    except Refused as r:
        return {"refused": r.as_dict()}
    out = {"refused": None, "defence": odds_of(state, plan, O.DEFENCE)}
    if plan.retreat_refusal is not None:
        out.update({"retreat": None, "retreat_refused": plan.retreat_refusal.as_dict()})
    else:
        # O24: orda.attack requires retreat_to, so the odds name the hex they assumed (the case's, or the default).
        out.update({"retreat": {"retreat_to": list(plan.retreat_hex), **odds_of(state, plan, O.RETREAT)},
                    "retreat_refused": None})
    return out
