"""The command-line contract every rule system's engine keeps (docs/adjudication.md).

`adjudicate SYSTEM.MODE CASE.json` prints one JSON document on stdout and
exits 0; otherwise exactly one line on stderr and:
  2  the case is malformed (bad JSON, a wrong field; the system's engine says
     which), or the command line is wrong (unknown mode, unreadable file);
  1  an unexpected internal error (a bug of the engine): still one line,
     never a traceback.
Output keys come out in the engine's own order (sort_keys=False): the same
case always gives byte-identical output.
"""
from __future__ import annotations

import json
from typing import IO, Any, Callable


class Refusal(Exception):
    """Raised by a mode after parsing when the result must not be printed (one line, exit 2)."""


def dumps(result: dict) -> str:
    """The one serialisation of a result: fixed key order, UTF-8 text, no ASCII escapes."""
    return json.dumps(result, ensure_ascii=False, sort_keys=False)


def one_line(text: str) -> str:
    return " ".join(str(text).split())


def read_case(path: str, stdin: IO[str]) -> Any:
    """The case document at `path` ('-': standard input) as JSON data; ValueError with one line if not."""
    try:
        if path == "-":
            text = stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: cannot read the case: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"case: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:  # "[[[[..." a hundred thousand deep: malformed, not a bug of the engine
        raise ValueError("case: invalid JSON: nested too deeply") from None
    except ValueError:  # Python refuses to convert an integer of more than 4300 digits
        raise ValueError("case: invalid JSON: an integer of more than 4300 digits") from None


def run(modes: dict[str, Callable[[Any], dict]], malformed: tuple[type[Exception], ...], usage: str,
        argv: list[str], stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> int:
    """Run `modes[argv[0]]` on the case at `argv[1]`; see the module docstring for the exit statuses.

    `malformed` are the engine's exceptions for a malformed case (exit 2).
    """
    def fail(code: int, message: str) -> int:
        stderr.write(one_line(message) + "\n")
        return code

    try:
        if len(argv) != 2 or argv[0] not in modes:
            return fail(2, usage)
        mode, path = argv
        try:
            data = read_case(path, stdin)
        except ValueError as exc:
            return fail(2, str(exc))
        try:
            result = modes[mode](data)
        except malformed + (Refusal,) as exc:
            return fail(2, str(exc))
        except RecursionError:
            return fail(2, "case: nested too deeply")
        stdout.write(dumps(result) + "\n")
        return 0
    except Exception as exc:  # noqa: BLE001 - the contract: one line, never a traceback
        return fail(1, f"internal error: {type(exc).__name__}: {exc}")
