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

import json
from typing import IO, Callable

from .api import battle_odds, run_battle, run_movement, run_turn
from .case import parse_case
from .errors import CaseError

USAGE = "usage: adjudicate battle|odds|movement|turn CASE.json  ('-' reads standard input)"

MODES: dict[str, Callable] = {"battle": run_battle, "odds": battle_odds, "movement": run_movement,
                              "turn": run_turn}


def dumps(result: dict) -> str:
    """The one serialisation of a result: fixed key order, UTF-8 text, no ASCII escapes."""
    return json.dumps(result, ensure_ascii=False, sort_keys=False)


def _awaiting_line(awaiting: dict) -> str:
    a, d = awaiting["attacker"], awaiting["defender"]
    kind = f"storm {awaiting['storm_no']}" if awaiting["storm"] else "battle"
    count = awaiting["dice_count"]["attacker"]
    return (f"dice: battle {awaiting['n']} at {awaiting['province']} ({kind}: {a['faction']} "
            f"{','.join(a['units'])} against {d['faction'] or 'neutral'} "
            f"{','.join(d['units']) or 'garrison'}) awaits {count} {'die' if count == 1 else 'dice'} per side; "
            f"the dice list ran out and there is no seed")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def main(argv: list[str], stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> int:
    """Run one mode on one case; see the module docstring for the exit statuses."""
    def fail(code: int, message: str) -> int:
        stderr.write(_one_line(message) + "\n")
        return code

    try:
        args = [a for a in argv]
        if len(args) != 2 or args[0] not in MODES:
            return fail(2, USAGE)
        mode, path = args
        try:
            if path == "-":
                text = stdin.read()
            else:
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            return fail(2, f"{path}: cannot read the case: {exc}")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            return fail(2, f"case: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}")
        except RecursionError:  # e.g. "[[[[..." a hundred thousand deep: malformed, not a bug of the engine
            return fail(2, "case: invalid JSON: nested too deeply")
        except ValueError:  # Python refuses to convert an integer of more than 4300 digits
            return fail(2, "case: invalid JSON: an integer of more than 4300 digits")
        try:
            result = MODES[mode](parse_case(data))
        except CaseError as exc:
            return fail(2, str(exc))
        if mode == "turn" and "awaiting" in result:
            return fail(2, _awaiting_line(result["awaiting"]))
        stdout.write(dumps(result) + "\n")
        return 0
    except Exception as exc:  # noqa: BLE001 - the contract: one line, never a traceback
        return fail(1, f"internal error: {type(exc).__name__}: {exc}")
