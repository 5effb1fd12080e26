"""Reading a case's fields with one clear line for every problem (T37.1: exit 2 naming the field)."""
from __future__ import annotations

from typing import Any, Iterable

from .errors import CaseError

MAX_ID_LEN = 64
MAX_LIST = 1000     # no list of a case is longer (units, dice, steps ...): hostile sizes are refused early


def obj(value: Any, field: str) -> dict:
    if not isinstance(value, dict):
        raise CaseError(field, f"must be an object, not {kind(value)}")
    return value


def lst(value: Any, field: str, max_len: int = MAX_LIST) -> list:
    if not isinstance(value, list):
        raise CaseError(field, f"must be a list, not {kind(value)}")
    if len(value) > max_len:
        raise CaseError(field, f"has {len(value)} entries, at most {max_len} allowed")
    return value


def kind(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string",
            list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


def need(data: dict, key: str, field: str) -> Any:
    if key not in data:
        raise CaseError(f"{field}.{key}" if field else key, "missing")
    return data[key]


def integer(value: Any, field: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CaseError(field, f"must be a whole number, not {kind(value)}")
    if lo is not None and value < lo:
        raise CaseError(field, f"{value} is below {lo}")
    if hi is not None and value > hi:
        raise CaseError(field, f"{value} is above {hi}")
    return value


def opt_integer(value: Any, field: str, lo: int | None = None, hi: int | None = None) -> int | None:
    return None if value is None else integer(value, field, lo, hi)


def number(value: Any, field: str, lo: float, hi: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise CaseError(field, f"must be a number, not {kind(value)}")
    if not lo <= value <= hi:
        raise CaseError(field, f"{value} is out of range {lo}..{hi}")
    return value


def boolean(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise CaseError(field, f"must be true or false, not {kind(value)}")
    return value


def ident(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_ID_LEN:
        raise CaseError(field, f"must be an id (a non-empty string of at most {MAX_ID_LEN} characters)")
    return value


def text(value: Any, field: str, max_len: int = 500) -> str:
    if not isinstance(value, str) or len(value) > max_len:
        raise CaseError(field, f"must be a string of at most {max_len} characters")
    return value


def choice(value: Any, field: str, allowed: Iterable[str]) -> str:
    allowed = list(allowed)
    if not isinstance(value, str) or value not in allowed:
        shown = value if isinstance(value, str) and len(value) <= MAX_ID_LEN else kind(value)
        raise CaseError(field, f"unknown value {shown!r}; expected one of {', '.join(allowed)}")
    return value


def opt_choice(value: Any, field: str, allowed: Iterable[str]) -> str | None:
    return None if value is None else choice(value, field, allowed)


def unique_ids(items: list, field: str, key: str = "id") -> None:
    seen = set()
    for i, item in enumerate(items):
        value = item[key] if isinstance(item, dict) else item
        if value in seen:
            raise CaseError(f"{field}[{i}].{key}", f"duplicate id {value!r}")
        seen.add(value)
