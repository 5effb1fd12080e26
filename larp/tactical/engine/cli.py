"""`adjudicate tactical.MODE CASE.json` (docs/tactical-rules.md, T37–T38), on larp/rules/cli.py's contract.

One JSON document on stdout and exit 0; a malformed case exits 2 with one
line "FIELD: PROBLEM" on stderr; an engine bug exits 1 with one line.
"""
from __future__ import annotations

from typing import IO, Any, Callable

from larp.rules.cli import run

from . import data
from .errors import CaseError, DataError
from .checks import run_test
from .measure import run_measure
from .combat import run_clash, run_melee
from .shooting import run_shooting
from .army import run_army
from .strategic import run_battle_offer, run_march
from .odds import run_odds

USAGE = ("usage: adjudicate tactical.army|test|clash|melee|shooting|odds|measure|march|battle_offer CASE.json "
         "('-' reads standard input)")


def _with_rules(mode: Callable[[Any, Any], dict]) -> Callable[[Any], dict]:
    """The mode on the project's rules data, with the case's own `rules` numbers (a scenario's) over it."""
    def call(case: Any) -> dict:
        override = case.get("rules") if isinstance(case, dict) else None
        return mode(data.load(data.numbers_only(override) if override is not None else None), case)
    call.__name__ = mode.__name__
    return call


MODES: dict[str, Callable[[Any], dict]] = {
    "army": _with_rules(run_army),
    "test": _with_rules(run_test),
    "measure": _with_rules(run_measure),
    "clash": _with_rules(run_clash),
    "melee": _with_rules(run_melee),
    "shooting": _with_rules(run_shooting),
    "odds": _with_rules(run_odds),
    "march": _with_rules(run_march),
    "battle_offer": _with_rules(run_battle_offer),
}


def main(argv: list[str], stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> int:
    """Run one mode on one case; see the module docstring for the exit statuses."""
    return run(MODES, (CaseError, DataError), USAGE, list(argv), stdin, stdout, stderr)
