"""Sensible ranges for the numbers of a case, checked when it is parsed.

A case is data from outside (a file, a form, a fuzzer); a number far outside
anything a game uses is a malformed case (exit 2, one line), not a reason to
run out of memory re-making a card of power 10^12 into ten billion cards, or
to print a 4,000-digit number back. The ranges are generous: the default
scenario's largest values are a card of power 24 and 20,000 men, an army of
60,000 men, 4 storms per turn. docs/adjudication.md lists them.
"""
from __future__ import annotations

from .errors import CaseError

CARD_POWER = (1, 1_000)              # troop_types[].power
CARD_MEN = (0, 1_000_000)            # troop_types[].men
STACK_POWER = (0, 100_000)           # the cards of one army, fleet or garrison together
UNIT_NUMBER = (0, 1_000_000)         # armies[].number, fleets[].number
BONUS = (-10_000, 10_000)            # commanders' power, modifiers, specials, defence, militia
MEN_RULE = (0, 1_000_000_000)        # rules.army_max_men, rules.two_dice_above_men
STORMS_PER_TURN = (0, 100)           # rules.storms_per_turn
LOSS_POINTS = (0, 10_000)            # rules.losses: tie, winner, loser
TABLE_BOUND = (0, 1_000_000)         # rules.band_upper_bounds, rules.losses.rows[].difference
CHARGES = (0, 1_000)                 # specials' charges, special_state.*.charges
SEED = (-(2 ** 63), 2 ** 63 - 1)     # a 64-bit integer, as the web app stores it
BATTLE_NUMBER = (1, 1_000_000)       # choices.modifiers[].battle, choices.greek_fire[], choices.outcomes[].battle
RETREAT_OPTIONS_LISTED = 12          # options listed per retreat in a turn's result (R12)


def _show(value: int) -> str:
    text = str(value)
    return text if len(text) <= 24 else f"an integer of {len(text)} digits"


def bounded(value: int, where: str, limits: tuple[int, int]) -> int:
    """`value` (already an int) if it lies within `limits`, else CaseError naming the range."""
    low, high = limits
    if not low <= value <= high:
        raise CaseError(where, f"must be between {low:,} and {high:,}, got {_show(value)}".replace(",", " "))
    return value
