"""The engine's entry points: a case in, a JSON-ready dict out (docs/adjudication.md)."""
from __future__ import annotations

from typing import Any

from .battle import dice_count, engagement_from_spec, fight
from .case import parse_case
from .dice import DiceSource
from .errors import CaseError
from .model import Case
from .movement import Movement
from .odds import odds
from .turn import Turn


def _case(case: Case | dict[str, Any]) -> Case:
    return case if isinstance(case, Case) else parse_case(case)


def _battle_case(case: Case | dict[str, Any]) -> Case:
    case = _case(case)
    if case.battle is None:
        raise CaseError("battle", "missing: this mode needs the battle object")
    return case


def run_battle(case: Case | dict[str, Any]) -> dict:
    """One autobattle (R8-R11) with the case's dice (or the seed's first dice)."""
    case = _battle_case(case)
    sit = case.situation
    eng = engagement_from_spec(sit, case.battle)
    count = dice_count(sit, eng)
    if case.battle_dice is not None:
        roll = case.battle_dice
        for role, values in (("attacker", roll.attacker), ("defender", roll.defender)):
            if len(values) != count:
                raise CaseError(f"dice.{role}", f"expected {count} {'die' if count == 1 else 'dice'} per side "
                                                f"(R8: two when a side counts more than "
                                                f"{sit.rules.two_dice_above_men} men), got {len(values)}")
    elif case.seed is not None:
        roll = DiceSource((), case.seed).next(count)[0]
    else:
        raise CaseError("dice", "missing: enter the dice or give a seed")
    return fight(sit, eng, roll, sit.special_state).to_dict()


def battle_odds(case: Case | dict[str, Any]) -> dict:
    """Exact odds of the case's battle over every dice outcome (the case's dice are ignored)."""
    case = _battle_case(case)
    sit = case.situation
    return odds(sit, engagement_from_spec(sit, case.battle), sit.special_state)


def run_movement(case: Case | dict[str, Any]) -> dict:
    """R5 refusals and R6 execution: moves, pins, occupations, battle stacks, positions."""
    return Movement(_case(case)).run().result()


def run_turn(case: Case | dict[str, Any]) -> dict:
    """Movement, battles and storms, regroup (R12). When the entered dice run out and there
    is no seed, the result carries `awaiting` (the next battle) and no `state`."""
    return Turn(_case(case)).run().result()
