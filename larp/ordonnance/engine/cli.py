"""`adjudicate ordonnance.MODE CASE.json`: the Ordonnance engine on the command line.

Modes (docs/ordonnance.md, "Engine contract"): army, territory, contest, deal, play. One JSON
document on stdout and exit 0; a malformed case exits 2 with one line naming the field and the
problem; a bug of the engine exits 1 with one line (larp/rules/cli.py keeps that contract).
"""
from __future__ import annotations

from typing import IO, Any, Callable

from larp.rules.cli import run

from . import modes
from .errors import OrdonnanceCaseError

USAGE = ("usage: adjudicate ordonnance.army|territory|contest|deal|play CASE.json  "
         "('-' reads standard input)")

MODES: dict[str, Callable[[Any], dict]] = {
    "army": modes.army,
    "territory": modes.territory,
    "contest": modes.contest,
    "deal": modes.deal,
    "play": modes.play,
}


def main(argv: list[str], stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> int:
    """Run one mode on one case; see the module docstring for the exit statuses."""
    return run(MODES, (OrdonnanceCaseError,), USAGE, list(argv), stdin, stdout, stderr)
