"""The rules engine of the military module: a pure function from a situation to a result.

No Django, no clock, no global random state: the same case always gives the
same result. Rule numbers (R5, R6.5 ...) refer to docs/rules.md; the data
shapes are docs/adjudication.md.

Public API
----------
parse_case(data: dict) -> Case
    Parse and validate a case document; raises CaseError(field, problem),
    e.g. field "orders[3].path[1]", problem "unknown province 'x'".
run_battle(case) -> dict           one autobattle (R8-R11): totals, items, losses, remaining
battle_odds(case) -> dict          exact odds over every dice outcome (fractions and floats)
run_movement(case) -> dict         R5 refusals + R6 execution: moves, pinned, occupied, battles, positions
run_turn(case) -> dict             movement, battles and storms, regroup (R12) and the new state;
                                   `awaiting` (and no `state`) when dice run out and there is no seed
    Each takes a Case or the raw dict and returns a JSON-ready dict.
check_order(case_or_situation, order) -> Refusal | None
    Check ONE order (a dict or an Order) as a player files it (R5). Given a
    Case, its other orders count for fleet_busy / fleet_carrying.
legal_steps(situation, unit_id, order_type, path_so_far) -> list[str]
    The legal next choices for an order form (provinces, sea zones, or for a
    fleet attack's second step, faction ids), sorted; `is_complete` says when
    the path is a whole order, `legal_fleets` which fleets can carry, and
    `order_from_path` builds the order document. Paths built this way always
    pass check_order.
seeded_die(seed, k) -> int         the documented seeded die (dice.py)
cli.main(argv, stdin, stdout, stderr) -> int
    `adjudicate battle|odds|movement|turn CASE.json` (also `python -m larp.engine`).
"""
from .api import battle_odds, run_battle, run_movement, run_turn
from .case import parse_case, parse_order
from .dice import seeded_die
from .errors import CaseError
from .model import Case, Order, OrderType, RefusalCode, Situation
from .orders import Refusal, check_order, is_complete, legal_fleets, legal_steps, order_from_path

__all__ = [
    "Case", "CaseError", "Order", "OrderType", "Refusal", "RefusalCode", "Situation",
    "battle_odds", "check_order", "is_complete", "legal_fleets", "legal_steps", "order_from_path",
    "parse_case", "parse_order", "run_battle", "run_movement", "run_turn", "seeded_die",
]
