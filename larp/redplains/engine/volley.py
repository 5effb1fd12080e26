"""Shootings at one target in one priority (W31–W32), planned then resolved like a melee."""
from __future__ import annotations

from dataclasses import dataclass

from .case import Unit
from .data import Data
from .errors import CaseError
from .melee import losses_from, ranks
from .outcomes import AGAINST_IMPETUS, AGAINST_STEADINESS, EFFECT_NONE, EFFECT_RETREATS, EFFECT_STOPPED, FLEEING


@dataclass
class Shot:
    shooter: str
    figures_shooting: int
    needs: int
    rerolls: int
    guaranteed: int
    armour: int
    ammo_spent: int
    ammo_left: int


def shooting_armour(data: Data, target: Unit, close_cut: int) -> int:
    """W31.6: type armour + Crab + shields + hill or forest (not both) − Merciless lead, not below 0."""
    f = target.flags
    value = target.tt.armour + target.mod("armour")
    value += data.crab_armour if f.get("crab") else 0
    value += data.shields_armour if (target.shields and target.tt.infantry and not f.get("moved_or_turned")) else 0
    if f.get("on_hill") or f.get("in_forest"):
        value += max(data.hill_armour if f.get("on_hill") else 0, data.forest_armour if f.get("in_forest") else 0)
    return max(0, value - close_cut)


def plan_shot(data: Data, s: Unit, target: Unit, where: str) -> Shot:
    """W31.3–W31.5, W22.2: who shoots, on what, with how many re-roll rounds and what it costs."""
    if not s.tt.shooter:
        raise CaseError(f"{where}.type", f"{s.tt.id} cannot shoot (W31.1)")
    if s.side == target.side:
        raise CaseError(f"{where}.side", "a shooter shoots at an enemy")
    f = s.flags
    massed, at_attacker = bool(f.get("massed")), bool(f.get("at_attacker"))
    close = bool(f.get("straight")) or at_attacker
    cost = data.ammo_spend["massed_shoot" if massed else "automatic" if at_attacker else "shoot"]
    able = min(s.figures, s.tt.shooting_ranks * data.front_width)
    if s.status == FLEEING:
        able = 0
    ammo = s.ammo or 0
    n = min(able, ammo // cost) if cost else able
    needs = s.tt.pd_shooting_close if close else s.tt.pd_shooting
    rerolls = ((data.massed_rerolls if massed else 0) + (data.bridge_rerolls if target.flags.get("crosses_bridge") else 0)
               + (data.crab_rerolls if f.get("crab") else 0))
    guaranteed = s.tt.gd_shooting_at_attacker if (at_attacker and n) else 0
    cut = s.tt.armour_cut_close if close else 0
    return Shot(s.id, n, needs, rerolls, guaranteed, shooting_armour(data, target, cut), n * cost, ammo - n * cost)


def check(data: Data, target: Unit, losses: int, figures_after: int) -> dict | None:
    """W32.1–W32.3: impetus against losses if the target moves in this step, else steadiness."""
    if target.status == FLEEING or figures_after == 0:
        return None
    f = target.flags
    penalty = data.rally_penalty * target.rallies
    if f.get("has_move_order"):
        value = (target.tt.impetus - penalty + (data.decisive_impetus if f.get("move_is_decisive") else 0)
                 - f.get("panic", 0) + target.mod("impetus"))
        value = max(0, value)
        return {"against": AGAINST_IMPETUS, "value": value, "losses": losses,
                "effect": EFFECT_STOPPED if losses > value else EFFECT_NONE}
    form = max(0, ranks(data, figures_after) - 1) if target.tt.formation_shooting else 0
    value = (target.tt.steadiness - penalty + form + (data.hold_steadiness if f.get("hold") else 0)
             - f.get("panic", 0) + target.mod("steadiness"))
    value = max(0, value)
    return {"against": AGAINST_STEADINESS, "value": value, "losses": losses,
            "effect": EFFECT_RETREATS if losses > value else EFFECT_NONE}


def resolve(data: Data, target: Unit, shots: list[Shot], hits: list[int],
            values: list[list[int]] | None = None) -> dict:
    """W31.6: each volley reduced by armour separately; losses applied together; then W32's check."""
    left = target.figures
    out = []
    for i, (shot, h) in enumerate(zip(shots, hits)):
        damage = h + shot.guaranteed if shot.figures_shooting else 0
        losses = min(left, losses_from(data, damage, shot.armour, target.figures))
        left -= losses
        out.append({"shooter": shot.shooter, "figures_shooting": shot.figures_shooting, "needs": shot.needs,
                    "rerolls": shot.rerolls, "values": values[i] if values else [], "hits": h,
                    "guaranteed": shot.guaranteed, "damage": damage, "armour": shot.armour, "losses": losses,
                    "ammo_spent": shot.ammo_spent, "ammo_left": shot.ammo_left})
    total = target.figures - left
    tgt = {"losses": total, "figures_after": left}
    if target.tt.shooter and target.ammo is not None:
        tgt["ammo_lost"] = min(target.ammo, data.ammo_lost_per_figure * total)
    tgt["check"] = check(data, target, total, left)
    return {"shots": out, "target": tgt}


def fire(data: Data, target: Unit, shots: list[Shot], dice) -> dict:
    hits, values = [], []
    for shot in shots:
        if not shot.figures_shooting:
            hits.append(0)
            values.append([])
            continue
        v, h = dice.roll(shot.shooter, shot.figures_shooting, shot.needs, shot.rerolls,
                         f"the shooting of {shot.shooter} at {target.id}")
        hits.append(h)
        values.append(v)
    return resolve(data, target, shots, hits, values)
