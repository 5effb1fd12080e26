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
import re
from typing import IO, Any, Callable


class Refusal(Exception):
    """Raised by a mode after parsing when the result must not be printed (one line, exit 2)."""


def dumps(result: dict) -> str:
    """The one serialisation of a result: fixed key order, UTF-8 text, no ASCII escapes."""
    return json.dumps(result, ensure_ascii=False, sort_keys=False)


_LONG_NUMBER = re.compile(r"\d{41,}")
_LONG_WORD = re.compile(r"\S{121,}")
LINE_LIMIT = 2000


def shorten(text: str) -> str:
    """A hostile value quoted in a message is cut: 4,000 digits become their first 20 and a count."""
    text = _LONG_NUMBER.sub(lambda m: f"{m.group()[:20]}...({len(m.group())} digits)", str(text))
    return _LONG_WORD.sub(lambda m: f"{m.group()[:80]}...({len(m.group())} characters)", text)


def one_line(text: str) -> str:
    """A message as one line of at most about LINE_LIMIT characters, long values cut."""
    line = " ".join(shorten(text).split())
    return line if len(line) <= LINE_LIMIT else f"{line[:LINE_LIMIT]}... ({len(line)} characters)"


_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]")  # escaped, or raw (stdin in a C locale)


def lone_surrogate(data: Any, where: str = "") -> str | None:
    """Where a text of the data holds a lone UTF-16 surrogate (not Unicode: it cannot be printed), or None."""
    stack = [(data, where)]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            if any("\ud800" <= ch <= "\udfff" for ch in value):
                return path or "(top level)"
        elif isinstance(value, dict):
            for key, item in value.items():
                here = f"{path}.{key}" if path else str(key)
                if isinstance(key, str) and lone_surrogate(key) is not None:
                    return f"{path or '(top level)'}: the key {key!r}"
                stack.append((item, here))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(value))
    return None


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
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"case: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:  # "[[[[..." a hundred thousand deep: malformed, not a bug of the engine
        raise ValueError("case: invalid JSON: nested too deeply") from None
    except ValueError:  # Python refuses to convert an integer of more than 4300 digits
        raise ValueError("case: invalid JSON: an integer of more than 4300 digits") from None
    # "\ud800" is valid JSON but not Unicode: refused here, as malformed, rather than failing at the output.
    if _SURROGATE.search(text):
        where = lone_surrogate(data)
        if where is not None:
            raise ValueError(f"{where}: not text: a lone UTF-16 surrogate (\\ud800-\\udfff)")
    return data


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
