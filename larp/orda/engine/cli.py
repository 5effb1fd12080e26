"""`adjudicate orda.MODE CASE.json` (docs/orda.md O24): setup, move, attack, odds, ability, turn.

One JSON document on stdout and exit 0; a malformed case exits 2 with one
line naming the field; a bug exits 1 with one line (larp/rules/cli.py).
"""
from __future__ import annotations

from typing import IO, Callable

from larp.rules.cli import run

from . import outcomes as O
from .abilities import ability_mode
from .case import parse
from .combat import attack_mode, odds_mode
from .errors import CaseError
from .movement import move_mode
from .setup import setup_mode
from .turn import turn_mode

USAGE = ("usage: adjudicate orda.setup|orda.move|orda.attack|orda.odds|orda.ability|orda.turn CASE.json "
         "('-' reads standard input)")

MODES: dict[str, Callable] = {
    O.SETUP: lambda data: setup_mode(parse(data, setup=True)),
    O.MOVE: lambda data: move_mode(parse(data)),
    O.ATTACK: lambda data: attack_mode(parse(data)),
    O.ODDS: lambda data: odds_mode(parse(data)),
    O.ABILITY: lambda data: ability_mode(parse(data)),
    O.TURN: lambda data: turn_mode(parse(data)),
}


def main(argv: list[str], stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> int:
    """Run one mode on one case; see larp/rules/cli.py for the exit statuses."""
    return run(MODES, (CaseError,), USAGE, list(argv), stdin, stdout, stderr)
