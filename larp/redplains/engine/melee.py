"""One melee (W25–W30, W35.4): an attack on a defender by 1–4 units, or a meeting engagement.

Each combat is planned first (who rolls how many dice needing what, fixed by
the rules before any die) and then resolved from the hits of each dice group.
The live mode rolls the groups; the odds mode enumerates their hit counts —
the same `resolve_*` function decides both, so odds and results agree.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .case import Unit
from .data import Data
from .errors import CaseError
from .outcomes import (ATTACK_SIDES, DESTROYED, FLEEING, FRONT, KIND_ATTACK, KIND_MEETING, LEFT, PUSHED_BACK, REAR,
                       REPELLED, RETREATS, RIGHT, ROUTED, ROUTED_AGAIN)

AWAY = {FRONT: REAR, LEFT: RIGHT, RIGHT: LEFT, REAR: FRONT}   # the cell away from an attacker on that side
TIGER_SOURCES = ("charisma",)                                  # W12.3: only Charisma passes the Tiger


@dataclass
class Group:
    """One roll: `dice` dice of `roller` against `against`, needing `needs`+, with re-roll rounds."""
    roller: str
    against: str
    dice: int
    needs: int
    rerolls: int
    guaranteed: int
    charge: bool | None = None
    fixed_damage: int | None = None   # W35.4: damage without dice


@dataclass
class Plan:
    kind: str
    units: dict[str, Unit]
    roles: dict[str, str]
    groups: list[Group]
    defender: str | None = None
    attackers: list[str] = field(default_factory=list)
    forest_of_spears: bool = False
    fleeing: bool = False
    same_cell: bool = False


def ranks(data: Data, figures: int) -> int:
    return -(-figures // data.front_width) if figures > 0 else 0


def rank_sizes(data: Data, figures: int) -> list[int]:
    w = data.front_width
    return [min(w, figures - w * k) for k in range(ranks(data, figures))]


def losses_from(data: Data, damage: int, armour: int, figures: int) -> int:
    """W26.3: 0 if no damage, else max(1, damage - armour), never more than the unit has."""
    if damage <= 0:
        return 0
    return min(figures, max(data.armour_floor, damage - armour))


def melee_armour(data: Data, u: Unit) -> int:
    """W26.3 with W12.5: type armour + Crab + armour modifiers, not below 0."""
    crab = data.crab_armour if u.flags.get("crab") else 0
    return max(0, u.tt.armour + crab + u.mod("armour"))


def impetus(data: Data, u: Unit, under_tiger: bool) -> int:
    """W28.4 impetus of a unit attacking; W12.3 under the enemy's Tiger."""
    decisive = data.decisive_impetus if u.flags.get("decisive") else 0
    if under_tiger:
        return max(0, decisive + u.mod("impetus", TIGER_SOURCES))
    value = (u.tt.impetus - data.rally_penalty * u.rallies + decisive
             + (data.river_impetus if u.flags.get("across_river") else 0)
             + (data.hill_impetus if u.flags.get("uphill") else 0)
             - u.flags.get("panic", 0) + u.mod("impetus"))
    return max(0, value)


def steadiness(data: Data, u: Unit, ranks_end: int, formation: bool, hold: bool, under_tiger: bool) -> int:
    """W28.4 steadiness of a defender (or of a meeting unit, without Hold); W12.3 under the enemy's Tiger."""
    hold_bonus = data.hold_steadiness if hold else 0
    if under_tiger:
        return max(0, hold_bonus + u.mod("steadiness", TIGER_SOURCES))
    form = max(0, ranks_end - 1) if (formation and u.tt.formation_melee) else 0
    value = (u.tt.steadiness - data.rally_penalty * u.rallies + form + hold_bonus
             - u.flags.get("panic", 0) + u.mod("steadiness"))
    return max(0, value)


def _first_rank(data: Data, u: Unit) -> int:
    return min(data.front_width, u.figures)


def _attacker_group(data: Data, a: Unit, against: str, forest: bool, frontal: bool) -> Group:
    charge_possible = a.tt.charge_dice_per_figure > a.tt.dice_per_figure
    charge = (charge_possible and not (forest and frontal) and not a.flags.get("across_river")
              and not a.flags.get("into_forest"))
    per = a.tt.charge_dice_per_figure if charge else a.tt.dice_per_figure
    gd = 0 if (forest and frontal and a.tt.infantry) else a.tt.gd_melee
    return Group(a.id, against, _first_rank(data, a) * per, a.tt.pd_melee,
                 data.crab_rerolls if a.flags.get("crab") else 0, gd, charge)


def plan_attack(data: Data, defender: Unit, attackers: list[Unit]) -> Plan:
    """W26–W27, W35.4: the dice of an attack, before any die is rolled."""
    if not 1 <= len(attackers) <= 4:
        raise CaseError("melee.attackers", "an attack has 1 to 4 attackers")
    sides = [a.flags.get("attacks") for a in attackers]
    for i, (a, s) in enumerate(zip(attackers, sides)):
        if s not in ATTACK_SIDES:
            raise CaseError(f"melee.attackers[{i}].attacks", "one of front, left, right, rear")
        if a.side == defender.side:
            raise CaseError(f"melee.attackers[{i}].side", "an attacker must be the defender's enemy")
        if a.figures < 1:
            raise CaseError(f"melee.attackers[{i}].figures", "an attacker needs at least 1 figure")
    if len(set(sides)) != len(sides):
        raise CaseError("melee.attackers", "two attackers on the same side of the defender (W23.1)")
    ids = [defender.id] + [a.id for a in attackers]
    if len(set(ids)) != len(ids):
        raise CaseError("melee", "unit ids must be distinct")
    if defender.figures < 1:
        raise CaseError("melee.defender.figures", "a defender needs at least 1 figure")
    order = sorted(attackers, key=lambda a: ATTACK_SIDES.index(a.flags["attacks"]))
    units = {u.id: u for u in [defender] + order}
    roles = {defender.id: "defender", **{a.id: "attacker" for a in order}}
    plan = Plan(KIND_ATTACK, units, roles, [], defender.id, [a.id for a in order])
    if defender.status == FLEEING:                       # W35.4: the fleeing unit strikes no blow
        plan.fleeing = True
        for a in order:
            first = _first_rank(data, a)
            if a.tt.infantry and not defender.tt.infantry:
                plan.groups.append(Group(a.id, defender.id, first, data.fleeing_infantry_vs_cavalry_at, 0, 0, False))
            else:
                per = (data.fleeing_damage_cavalry_vs_infantry if (not a.tt.infantry and defender.tt.infantry)
                       else data.fleeing_damage_per_figure)
                plan.groups.append(Group(a.id, defender.id, 0, 0, 0, 0, False, fixed_damage=first * per))
        return plan
    forest = (defender.tt.forest_of_spears and not defender.flags.get("moved")
              and not defender.flags.get("no_defence_bonuses"))                    # W4.3, W12.4
    plan.forest_of_spears = forest
    for a in order:
        plan.groups.append(_attacker_group(data, a, defender.id, forest, a.flags["attacks"] == FRONT))
    # W27.3: the defender's dice, groups in the order front, left, right, rear
    by_side = {a.flags["attacks"]: a for a in order}
    sizes = rank_sizes(data, defender.figures)
    crab = data.crab_rerolls if defender.flags.get("crab") else 0
    pd = defender.tt.pd_melee
    dice = {s: 0 for s in ATTACK_SIDES}
    used = 0
    flank_ranks = sizes
    if FRONT in by_side:
        dice[FRONT] = sizes[0]
        used += sizes[0]
        flank_ranks = sizes[1:]
    for size in flank_ranks:
        present = [s for s in (LEFT, RIGHT) if s in by_side]
        if size == 1 and len(present) == 2:
            present = [RIGHT if by_side[RIGHT].figures > by_side[LEFT].figures else LEFT]
        for s in present:
            dice[s] += 1
            used += 1
    if REAR in by_side:
        dice[REAR] = min(data.front_width, max(0, defender.figures - used))
    for s in ATTACK_SIDES:
        if s in by_side:
            gd = defender.tt.gd_melee if s == FRONT else 0
            plan.groups.append(Group(defender.id, by_side[s].id, dice[s], pd, crab, gd))
    return plan


def plan_meeting(data: Data, a: Unit, b: Unit, same_cell: bool) -> Plan:
    """W29.1: both attack; both deal GD; cavalry charges; no Forest of spears."""
    if a.side == b.side:
        raise CaseError("melee.b.side", "a meeting engagement is between enemies")
    if a.id == b.id:
        raise CaseError("melee.b.id", "unit ids must be distinct")
    for key, u in (("a", a), ("b", b)):
        if u.figures < 1:
            raise CaseError(f"melee.{key}.figures", "a fighting unit needs at least 1 figure")
        if u.status == FLEEING:
            raise CaseError(f"melee.{key}.status", "a fleeing unit cannot fight a meeting engagement (W35)")
    plan = Plan(KIND_MEETING, {a.id: a, b.id: b}, {a.id: "a", b.id: "b"}, [], same_cell=same_cell)
    plan.groups = [_attacker_group(data, a, b.id, False, True), _attacker_group(data, b, a.id, False, True)]
    return plan


def _damage(plan: Plan, hits: list[int]) -> dict[str, int]:
    dmg = {uid: 0 for uid in plan.units}
    for g, h in zip(plan.groups, hits):
        dmg[g.against] += g.fixed_damage if g.fixed_damage is not None else (h + g.guaranteed if g.dice or g.guaranteed else 0)
    return dmg


def _unit_line(data: Data, plan: Plan, u: Unit, dmg: int, armour: int | None) -> dict:
    line = {"role": plan.roles[u.id], "figures_before": u.figures, "ranks_start": ranks(data, u.figures),
            "rolls": [], "damage_taken": dmg}
    if armour is None:
        losses = min(u.figures, dmg)                      # W35.4: armour does not help
        line["armour"] = None
    else:
        losses = losses_from(data, dmg, armour, u.figures)
        line["armour"] = armour
    after = u.figures - losses
    line.update(losses=losses, figures_after=after, ranks_end=ranks(data, after),
                counted_losses=losses + u.flags.get("shooting_losses", 0))
    if u.tt.shooter and u.ammo is not None:
        line["ammo_lost"] = min(u.ammo, data.ammo_lost_per_figure * losses)
    return line


def _roll_entries(plan: Plan, hits: list[int], values: list[list[int]] | None) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {uid: [] for uid in plan.units}
    for i, (g, h) in enumerate(zip(plan.groups, hits)):
        if g.fixed_damage is not None:
            out[g.roller].append({"against": g.against, "dice": 0, "needs": None, "rerolls": 0, "values": [],
                                  "hits": 0, "guaranteed": 0, "fixed_damage": g.fixed_damage})
            continue
        entry = {"against": g.against, "dice": g.dice, "needs": g.needs, "rerolls": g.rerolls,
                 "values": values[i] if values else [], "hits": h, "guaranteed": g.guaranteed}
        if g.charge is not None and plan.roles[g.roller] != "defender":
            entry["charge"] = g.charge
        out[g.roller].append(entry)
    return out


def retreat_direction(sides_alive: list[str], figures: dict[str, int]) -> dict:
    """W33.2–W33.4, W34.2: where the defender goes, away from the attackers left standing."""
    away = {"away_from": sides_alive, "toward": None}
    if not sides_alive:
        return away
    if len(sides_alive) == 1:
        away["toward"] = AWAY[sides_alive[0]]
        return away
    if set(sides_alive) == {LEFT, RIGHT}:
        away["toward"] = REAR
        return away
    best = max(figures[s] for s in sides_alive)
    tied = [s for s in sides_alive if figures[s] == best]
    if len(tied) == 1:
        away["toward"] = AWAY[tied[0]]
    else:
        away["tie_between"] = [AWAY[s] for s in tied]
    return away


def resolve_attack(data: Data, plan: Plan, hits: list[int], values: list[list[int]] | None = None) -> dict:
    """W26–W28, W33–W35.4: the result of an attack from the hits of each group (in plan order)."""
    d = plan.units[plan.defender]
    attackers = [plan.units[a] for a in plan.attackers]
    dmg = _damage(plan, hits)
    rolls = _roll_entries(plan, hits, values)
    lines = {d.id: _unit_line(data, plan, d, dmg[d.id], None if plan.fleeing else melee_armour(data, d))}
    for a in attackers:
        lines[a.id] = _unit_line(data, plan, a, dmg[a.id], melee_armour(data, a))
        lines[a.id]["attacks"] = a.flags["attacks"]
    for uid, line in lines.items():
        line["rolls"] = rolls[uid]
    alive = [a for a in attackers if lines[a.id]["figures_after"] > 0]
    sides_alive = [a.flags["attacks"] for a in alive]
    fig_by_side = {a.flags["attacks"]: lines[a.id]["figures_after"] for a in alive}
    d_after = lines[d.id]["figures_after"]
    tiger_on_d = any(a.flags.get("tiger") for a in attackers)
    tiger_on_attackers = bool(d.flags.get("tiger"))
    for a in attackers:
        lines[a.id]["impetus"] = impetus(data, a, tiger_on_attackers)
    result: dict = {"kind": KIND_ATTACK, "units": lines, "defender_score": None, "result": None}
    if plan.fleeing:
        lines[d.id]["steadiness"] = None
        result["result"] = DESTROYED if d_after == 0 else ROUTED_AGAIN
        if d_after:
            result["retreat"] = retreat_direction(sides_alive or [a.flags["attacks"] for a in attackers], fig_by_side)
        return result
    flank_alive = any(s != FRONT for s in sides_alive)
    hold = bool(d.flags.get("hold")) and not d.flags.get("no_defence_bonuses")
    st = steadiness(data, d, lines[d.id]["ranks_end"], not flank_alive, hold, tiger_on_d)
    lines[d.id]["steadiness"] = st
    if d.tt.forest_of_spears:
        lines[d.id]["forest_of_spears"] = plan.forest_of_spears
    if d_after == 0:
        result["result"] = DESTROYED
        return result
    if not alive:
        result["result"] = REPELLED
        return result
    score = lines[d.id]["counted_losses"] - st - sum(lines[a.id]["counted_losses"] for a in attackers)
    for a in alive:
        score += lines[a.id]["impetus"] + (1 if lines[a.id]["ranks_end"] > 1 else 0)
    result["defender_score"] = score
    if score <= 0:
        result["result"] = REPELLED
        return result
    outcome = ROUTED if score > st else PUSHED_BACK
    if REAR in sides_alive and len(sides_alive) > 1:     # W28.3
        outcome = ROUTED
    result["result"] = outcome
    result["retreat"] = retreat_direction(sides_alive, fig_by_side)
    return result


def resolve_meeting(data: Data, plan: Plan, hits: list[int], values: list[list[int]] | None = None) -> dict:
    """W29: both attack; three criteria; the loser retreats or is routed."""
    a, b = plan.units.values()
    dmg = _damage(plan, hits)
    rolls = _roll_entries(plan, hits, values)
    lines = {}
    for u in (a, b):
        lines[u.id] = _unit_line(data, plan, u, dmg[u.id], melee_armour(data, u))
        lines[u.id]["rolls"] = rolls[u.id]
    for u, enemy in ((a, b), (b, a)):
        tiger = bool(enemy.flags.get("tiger"))
        lines[u.id]["impetus"] = impetus(data, u, tiger)
        lines[u.id]["steadiness"] = steadiness(data, u, lines[u.id]["ranks_end"], True, False, tiger)

    def better(key: str) -> str | None:
        va, vb = lines[a.id][key], lines[b.id][key]
        return a.id if va > vb else b.id if vb > va else None

    inflicted = {a.id: lines[b.id]["counted_losses"], b.id: lines[a.id]["counted_losses"]}
    criteria = {"ranks": better("ranks_end"), "impetus": better("impetus"),
                "losses": a.id if inflicted[a.id] > inflicted[b.id] else b.id if inflicted[b.id] > inflicted[a.id]
                else None}
    dead = [u.id for u in (a, b) if lines[u.id]["figures_after"] == 0]
    if len(dead) == 1:
        winner = a.id if dead[0] == b.id else b.id
    elif len(dead) == 2:
        winner = None
    else:
        points = {a.id: 0, b.id: 0}
        for w in criteria.values():
            if w:
                points[w] += 1
        winner = a.id if points[a.id] > points[b.id] else b.id if points[b.id] > points[a.id] else None
    loser_result = None
    if len(dead) == 2:
        loser_result = DESTROYED
    elif winner:
        loser = b.id if winner == a.id else a.id
        if lines[loser]["figures_after"] == 0:
            loser_result = DESTROYED
        elif lines[loser]["counted_losses"] > lines[loser]["steadiness"]:
            loser_result = ROUTED
        else:
            loser_result = RETREATS
    return {"kind": KIND_MEETING, "same_cell": plan.same_cell, "units": lines, "criteria": criteria,
            "winner": winner, "loser_result": loser_result}


def roll_plan(plan: Plan, dice) -> tuple[list[int], list[list[int]]]:
    """Roll every group of the plan in order (W41.2): defender groups front, left, right, rear."""
    hits, values = [], []
    for g in plan.groups:
        if g.fixed_damage is not None or g.dice == 0:
            hits.append(0)
            values.append([])
            continue
        v, h = dice.roll(g.roller, g.dice, g.needs, g.rerolls, f"the melee roll of {g.roller} against {g.against}")
        hits.append(h)
        values.append(v)
    return hits, values


def fight(data: Data, plan: Plan, dice) -> dict:
    hits, values = roll_plan(plan, dice)
    if plan.kind == KIND_ATTACK:
        return resolve_attack(data, plan, hits, values)
    return resolve_meeting(data, plan, hits, values)
