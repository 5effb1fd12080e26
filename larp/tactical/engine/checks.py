"""The `test` mode (T38 "test"): one test of any kind, with its dice from one plain list.

Dice are consumed in the order each kind's table row gives; a certain outcome
(T3.3: a value of 0 or less fails, 6 or more passes) takes no die.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from . import fields as f
from . import outcomes as o
from .dice import Dice
from .errors import CaseError

Take = Callable[[], int]


def at_or_below(value: int, take: Take, sides: int = 6) -> tuple[int | None, bool]:
    """T3.2-T3.3: a die at or below the value passes; 0 or less fails and 6 or more passes without a die."""
    if value >= sides:
        return None, True
    if value <= 0:
        return None, False
    die = take()
    return die, die <= value


def unit_test(rules: Mapping, take: Take, *, steadiness: int, circle: bool, full_ranks: int, attacked_from: str,
              killed: int, general: int, broken: bool, modifiers: list[tuple[int, str]]) -> dict:
    """T24: value = steadiness (5 in a circle) + full ranks − killed + talent − 2 if broken + modifiers."""
    items: list[dict] = []
    if circle:
        items.append({"source": o.ITEM_CIRCLE, "value": rules["special_formations"]["circle"]["steadiness"]})
    else:
        items.append({"source": o.ITEM_STEADINESS, "value": steadiness})
    if not circle and attacked_from == o.FRONT and full_ranks:      # T23.3, T10.4: no rank bonus
        items.append({"source": o.ITEM_RANKS, "value": full_ranks})
    if killed:
        items.append({"source": o.ITEM_KILLED, "value": -killed})
    if general:
        items.append({"source": o.ITEM_GENERAL, "value": general})
    if broken:
        items.append({"source": o.ITEM_BROKEN, "value": rules["unit_test"]["broken_modifier"]})
    for value, reason in modifiers:
        if value:
            items.append({"source": o.ITEM_MODIFIER, "value": value, "reason": reason})
    value = sum(item["value"] for item in items)
    die, holds = at_or_below(value, take)
    if holds:
        result = o.HOLDS
    else:
        result = o.DESTROYED if attacked_from == o.REAR else o.FLEES      # T23.4
    return {"value": value, "items": items, "die": die, "result": result}


def parse_modifiers(raw: Any, field: str) -> list[tuple[int, str]]:
    out = []
    for i, m in enumerate(f.lst(raw or [], field, 20)):
        if isinstance(m, dict):
            out.append((f.integer(f.need(m, "value", f"{field}[{i}]"), f"{field}[{i}].value", -10, 10),
                        f.text(m.get("reason", ""), f"{field}[{i}].reason")))
        else:
            out.append((f.integer(m, f"{field}[{i}]", -10, 10), ""))
    return out


def _stead(t: dict, key: str = "steadiness") -> int:
    return f.integer(f.need(t, key, "test"), f"test.{key}", 0, 6)


def _general(t: dict) -> int:
    return f.integer(t.get("general", 0) or 0, "test.general", -1, 2)


def _unit(rules, t, take):
    return unit_test(rules, take, steadiness=_stead(t), circle=f.boolean(t.get("circle", False), "test.circle"),
                     full_ranks=f.integer(t.get("full_ranks", 0), "test.full_ranks", 0, 60),
                     attacked_from=f.choice(t.get("attacked_from", o.FRONT), "test.attacked_from", o.DIRECTIONS),
                     killed=f.integer(t.get("killed", 0), "test.killed", 0, 1000), general=_general(t),
                     broken=f.boolean(t.get("broken", False), "test.broken"),
                     modifiers=parse_modifiers(t.get("modifiers"), "test.modifiers"))


def _rally(rules, t, take):
    if not f.boolean(t.get("in_command", True), "test.in_command"):
        return {"refused": [{"rule": "T25.1", "reason": "rallying is an order: the general cannot give it here"}]}
    value = _stead(t) + _general(t)
    die, ok = at_or_below(value, take)
    return {"value": value, "die": die, "result": o.STOPS if ok else o.FLEES}


def _target(rules, candidates: list[str], take) -> tuple[str | None, list[int]]:
    """T16.4: 1-2 the nearest, 3-4 the second, 5-6 the third; one candidate: no die; two: 5-6 again."""
    if not candidates:
        return None, []
    if len(candidates) == 1:
        return candidates[0], []
    bands = rules["target_bands"]
    rolled = []
    for _ in range(200):
        die = take()
        rolled.append(die)
        for i, (lo, hi) in enumerate(bands):
            if lo <= die <= hi and i < len(candidates):
                return candidates[i], rolled
    raise CaseError("dice", "no target after 200 target dice")


def _disorderly(rules, t, take):
    stage = f.choice(t.get("stage", "first"), "test.stage", ("first", "trot", "gallop"))
    value = _stead(t) - f.integer(t.get("own_lost", 0), "test.own_lost", 0, 1000)
    candidates = [f.ident(c, f"test.candidates[{i}]") for i, c in enumerate(f.lst(t.get("candidates", []),
                                                                                 "test.candidates", 3))]
    shoots = f.boolean(t.get("shoots", False), "test.shoots")
    out = {"value": value, "die": None, "result": o.STAYS, "target": None, "target_dice": []}
    if (f.boolean(t.get("advantageous_position", False), "test.advantageous_position")
            and not f.boolean(t.get("shot_with_losses", False), "test.shot_with_losses")):
        out["result"] = o.EXEMPT                                     # T16.2
        return out
    if stage != "first":                                             # T16.5: same value, passing at or below
        out["die"], ok = at_or_below(value, take)
        out["result"] = o.CONTINUES if ok else o.STOPS
        return out
    if value == 0:                                                   # T16.3 ruling: stays, no roll
        return out
    out["die"], hit = at_or_below(abs(value), take)
    if not hit:
        return out
    if value < 0:
        out["result"] = o.RETREATS
        return out
    target, target_dice = _target(rules, candidates, take)
    out["target"], out["target_dice"] = target, target_dice
    out["result"] = (o.SHOOTS if shoots else o.IMPETUOUS) if target is not None else o.STAYS
    return out


FRONT_CAUSES = ("terrain", "heavy_mud", "trot", "gallop")
STEADINESS_CAUSES = ("reform", "rank_swap", "remount", "dismount", "skirmishers_pushed", "handgun", "retreat")


def _disorder(rules, t, take):
    cause = f.choice(f.need(t, "cause", "test"), "test.cause", FRONT_CAUSES + STEADINESS_CAUSES)
    mounted = f.boolean(t.get("mounted", False), "test.mounted")
    in_ranks = f.integer(f.need(t, "in_ranks", "test"), "test.in_ranks", 0, 1000)
    disordered = f.integer(t.get("disordered", 0), "test.disordered", 0, 1000)
    dice, newly = [], 0
    if cause in FRONT_CAUSES:
        formation = f.choice(f.need(t, "formation", "test"), "test.formation", rules["formations"])
        front = t.get("front")
        width = (f.integer(front, "test.front", 1, 60) if front is not None
                 else rules["formations"][formation]["front"]["mounted" if mounted else "foot"])
        factor = rules["movement"]["terrain_test_cavalry_factor"] if mounted and cause in ("terrain", "heavy_mud") else 1
        rule, value = o.RULE_FRONT, width * factor
        for _ in range(in_ranks):                    # disordered on a die at or below the value (T15.5)
            die, hit = at_or_below(value, take)
            if die is not None:
                dice.append(die)
            newly += hit
    else:
        rule, value = o.RULE_STEADINESS, _stead(t) + _general(t)
        for _ in range(in_ranks):                    # disordered on a die above the value (T15.8)
            die, ok = at_or_below(value, take)
            if die is not None:
                dice.append(die)
            newly += not ok
    left = in_ranks - newly
    all_dis = left == 0 and in_ranks + disordered > 0
    return {"rule": rule, "value": value, "dice": dice, "newly_disordered": newly, "in_ranks": left,
            "disordered": disordered + newly, "all_disordered": all_dis,
            "flees": all_dis and cause == "skirmishers_pushed"}


def _recover(rules, t, take):
    in_ranks = f.integer(t.get("in_ranks", 0), "test.in_ranks", 0, 1000)
    disordered = f.integer(f.need(t, "disordered", "test"), "test.disordered", 0, 1000)
    value = _stead(t) + _general(t)
    dice, back = [], 0
    for _ in range(disordered):
        die, ok = at_or_below(value, take)
        if die is not None:
            dice.append(die)
        back += ok
    return {"value": value, "dice": dice, "recovered": back, "in_ranks": in_ranks + back,
            "disordered": disordered - back}


def _death(rules, t, take):
    die = take()
    return {"die": die, "killed": die <= rules["generals"]["death_on"]}


def _loyalty(rules, t, take):
    difference = (f.integer(f.need(t, "own_lost", "test"), "test.own_lost", 0, 1000)
                  - f.integer(f.need(t, "enemy_lost", "test"), "test.enemy_lost", 0, 1000))
    status = f.choice(t.get("status", o.LOYAL), "test.status", (o.LOYAL, o.WITHDRAWN))
    if difference <= 0:                              # T28.1: the enemy lost as many or more: all is well
        return {"difference": difference, "die": None, "result": o.NO_TEST, "status": status}
    die, treason = at_or_below(difference, take)
    if treason:                                      # T28.2: first treason withdraws, the second defects
        return {"difference": difference, "die": die, "result": o.TREASON,
                "status": o.DEFECTED if status == o.WITHDRAWN else o.WITHDRAWN}
    return {"difference": difference, "die": die, "result": o.PASSED, "status": status}


def _initiative(rules, t, take):
    raw = f.obj(f.need(t, "initiative", "test"), "test.initiative")
    if len(raw) != 2:
        raise CaseError("test.initiative", "must name exactly two sides")
    sides = list(raw)
    bonus = {s: f.integer(raw[s], f"test.initiative.{s[:64]}", 0, 2) for s in sides}
    rolls = []
    for _ in range(200):                             # T14.1: a tie is rolled again
        dice = {s: take() for s in sides}
        totals = {s: dice[s] + bonus[s] for s in sides}
        rolls.append({**dice, "totals": totals})
        if totals[sides[0]] != totals[sides[1]]:
            chooser = max(sides, key=lambda s: totals[s])
            return {"rolls": rolls, "chooser": chooser}
    raise CaseError("dice", "still tied after 200 rolls")


def _rain(rules, t, take):
    die = take()
    wet = die % 2 == 1 if rules["shooting"]["rain_wet_on"] == "odd" else die % 2 == 0
    return {"die": die, "wet": wet}


def _reinforcement(rules, t, take):
    value = rules["strategic"]["reinforcement_base"] - f.integer(f.need(t, "mp", "test"), "test.mp", 0, 1000)
    die, arrives = at_or_below(value, take)
    return {"value": value, "die": die, "arrives": arrives}


KINDS = {"unit": _unit, "rally": _rally, "disorderly": _disorderly, "disorder": _disorder, "recover": _recover,
         "general_death": _death, "loyalty": _loyalty, "initiative": _initiative, "rain": _rain,
         "reinforcement": _reinforcement}


def run_test(rules: Mapping, case: Any) -> dict:
    case = f.obj(case, "case")
    t = f.obj(f.need(case, "test", ""), "test")
    kind = f.choice(f.need(t, "kind", "test"), "test.kind", KINDS)
    dice = Dice.plain(case.get("dice"), case.get("seed"))
    result = KINDS[kind](rules, t, dice.take)
    if "refused" not in result:
        dice.check_used()
    return result
