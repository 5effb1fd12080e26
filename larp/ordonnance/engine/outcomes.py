"""Every named value the engine reports: comparison levels and aspects, refusal reasons, event results.

Field values of the JSON contract (docs/ordonnance.md, "Engine contract") live here
and nowhere else, so no outcome is a string scattered through the code.
"""
from __future__ import annotations

from enum import Enum


class Level(str, Enum):
    """The step of C10 at which one army beats another (`versus[].level`)."""
    REGIMENTS = "regiments"
    BATTALIONS = "battalions"
    COMPANIES = "companies"
    SINGLES = "singles"
    FIRST_COMPLETE = "first_complete"
    CANNOT_COMPLETE = "cannot_complete"


class Aspect(str, Enum):
    """Whether a combination step was decided by the count or by the rank (`versus[].aspect`)."""
    COUNT = "count"
    RANK = "rank"


class Reason(str, Enum):
    """Why a play or a move is refused, with the rule that refuses it."""
    TERRITORY_FULL = "territory_full"
    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    CARD_NOT_IN_HAND = "card_not_in_hand"

    @property
    def rule(self) -> str:
        return _REASON_RULE[self]


_REASON_RULE = {
    Reason.TERRITORY_FULL: "C8",
    Reason.GAME_OVER: "C13",
    Reason.NOT_YOUR_TURN: "C7",
    Reason.CARD_NOT_IN_HAND: "C7",
}


class MoveResult(str, Enum):
    """What became of one move of `play` mode (`events[].result`)."""
    LAID = "laid"
    REFUSED = "refused"


# The combination ids of the data (`combinations[].id`) and the level (and result field) each forms.
COMBINATION_LEVELS: dict[str, Level] = {
    "regiment": Level.REGIMENTS,
    "battalion": Level.BATTALIONS,
    "company": Level.COMPANIES,
}

# The order of C10's steps; the data's `comparison_steps` must list these levels in this order.
STEP_ORDER: tuple[Level, ...] = (Level.REGIMENTS, Level.BATTALIONS, Level.COMPANIES, Level.SINGLES,
                                 Level.FIRST_COMPLETE)
