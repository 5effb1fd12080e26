"""`adjudicate red-plains.MODE CASE.json` (W41): one JSON document out, exit 2 with one line for a malformed case."""
from __future__ import annotations

import sys
from typing import IO, Any, Callable

from larp.rules.cli import run

from .errors import CaseError
from .end import end_mode
from .validate import validate_mode
from .turn import turn_mode
from .modes import command_mode, melee_mode, odds_mode, shinobi_mode, volley_mode

USAGE = ("usage: adjudicate red-plains.MODE CASE.json   (MODE: command, melee, volley, odds, shinobi, validate, "
         "turn, end; '-' reads standard input)")


MODES: dict[str, Callable[[Any], dict]] = {
    "command": command_mode,
    "melee": melee_mode,
    "volley": volley_mode,
    "odds": odds_mode,
    "shinobi": shinobi_mode,
    "validate": validate_mode,
    "turn": turn_mode,
    "end": end_mode,
}


def main(argv: list[str], stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> int:
    return run(MODES, (CaseError,), USAGE, argv, stdin, stdout, stderr)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], sys.stdin, sys.stdout, sys.stderr))
