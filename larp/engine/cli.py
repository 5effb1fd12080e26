"""`adjudicate battle|odds|movement|turn CASE.json` (docs/adjudication.md).

One JSON document on stdout and exit 0; otherwise exactly one line on
stderr and:
  2  the case is malformed (bad JSON, unknown id, wrong type, two orders for
     one unit, a wrong dice count, dice awaited with no seed in turn mode),
     or the command line is wrong (unknown mode, missing path, unreadable file);
  1  an unexpected internal error (a bug of the engine): still one line,
     never a traceback.
The same case always gives byte-identical output: keys come out in the
engine's fixed order (sort_keys=False) and nothing depends on time or
hash order.
"""
from __future__ import annotations

from typing import IO, Callable

from larp.rules.cli import Refusal, dumps, run  # noqa: F401 - dumps is part of this module's interface

from .api import battle_odds, run_battle, run_movement, run_turn
from .case import parse_case
from .errors import CaseError

USAGE = "usage: adjudicate battle|odds|movement|turn CASE.json  ('-' reads standard input)"


def _awaiting_line(awaiting: dict) -> str:
    a, d = awaiting["attacker"], awaiting["defender"]
    kind = f"storm {awaiting['storm_no']}" if awaiting["storm"] else "battle"
    count = awaiting["dice_count"]["attacker"]
    return (f"dice: battle {awaiting['n']} at {awaiting['province']} ({kind}: {a['faction']} "
            f"{','.join(a['units'])} against {d['faction'] or 'neutral'} "
            f"{','.join(d['units']) or 'garrison'}) awaits {count} {'die' if count == 1 else 'dice'} per side; "
            f"the dice list ran out and there is no seed")


def _turn(data) -> dict:
    result = run_turn(parse_case(data))
    if "awaiting" in result:
        raise Refusal(_awaiting_line(result["awaiting"]))
    return result


MODES: dict[str, Callable] = {"battle": lambda data: run_battle(parse_case(data)),
                              "odds": lambda data: battle_odds(parse_case(data)),
                              "movement": lambda data: run_movement(parse_case(data)),
                              "turn": _turn}


def main(argv: list[str], stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> int:
    """Run one mode on one case; see the module docstring for the exit statuses."""
    return run(MODES, (CaseError,), USAGE, list(argv), stdin, stdout, stderr)
