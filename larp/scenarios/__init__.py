"""Scenario files: the map, factions, starting stacks and rule tables of a game.

`load(name_or_path)` reads a YAML file (or a .zip with the map picture,
files.py) and `validate(data)` returns every problem at once, named by the
file's own ids, so a moderator can fix a scenario in one pass; they use
Django only to translate the problems. `export.py` writes a game's world back
as a scenario. `loader.py` turns a
valid scenario into a game: it creates campaign's map and factions and
forces' stacks, so it sits in a layer above both.
"""
from __future__ import annotations

from pathlib import Path

import re

import yaml

from larp.plain import copy_of

from .validate import Problem, ScenarioError, validate

SCENARIO_DIR = Path(__file__).resolve().parent
DEFAULT_SCENARIO = "latin-east-1204"

__all__ = ["DEFAULT_SCENARIO", "Problem", "ScenarioError", "available", "load", "lone_surrogate", "validate"]


_SURROGATE = re.compile("[\ud800-\udfff]")
# libyaml's parser when PyYAML has it (its wheels do): a tenth of the pure-Python parser's time, which was most of
# loading the default scenario. Callers guard the brackets' depth first (files.MAX_DEPTH): C does not recurse
# into Python's limit.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_text(text: str):
    """yaml.safe_load with libyaml's speed; a text libyaml refuses is read again by the pure-Python parser, whose
    error names the line the mistake is on (libyaml's can name the end of the file)."""
    try:
        return yaml.load(text, Loader=_LOADER)  # noqa: S506 (a safe loader)
    except yaml.YAMLError:
        return yaml.safe_load(text)


def lone_surrogate(data, where: str = "") -> str | None:
    """Where a text (or key) of YAML data holds a lone UTF-16 surrogate ("\\ud800": no database stores it)."""
    stack = [(data, where)]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            if _SURROGATE.search(value):
                return path or "scenario"
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and _SURROGATE.search(key):
                    return f"{path or 'scenario'}: a key"
                stack.append((item, f"{path}.{key}" if path else str(key)))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(value))
    return None


def available() -> list[str]:
    return sorted(p.stem for p in SCENARIO_DIR.glob("*.yaml"))


def resolve(name_or_path: str | Path) -> Path:
    """A scenario id shipped with the project (`latin-east-1204`) or a path to a YAML file."""
    candidate = Path(name_or_path)
    if candidate.suffix in {".yaml", ".yml", ".zip"} or candidate.exists():
        return candidate
    return SCENARIO_DIR / f"{name_or_path}.yaml"


_PARSED: dict[tuple, dict] = {}


def load(name_or_path: str | Path) -> dict:
    """Read a scenario; raise ScenarioError (with one problem) when the file is missing or not YAML. A file read
    before and unchanged since (its size and time) is not parsed again: the caller gets a copy of its data."""
    try:
        path = resolve(name_or_path)
        stat = path.stat()
        key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    except (OSError, ValueError):
        key = None
    if key is not None and key in _PARSED:
        return copy_of(_PARSED[key])
    data = _read(name_or_path)
    if key is not None:
        if len(_PARSED) > 16:
            _PARSED.clear()
        _PARSED[key] = copy_of(data)
    return data


def _read(name_or_path: str | Path) -> dict:
    try:
        path = resolve(name_or_path)
        exists = path.is_file()
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        path, exists = Path("scenario"), False
    if not exists:
        raise ScenarioError([Problem(str(name_or_path), f"no such scenario (shipped: {', '.join(available())})")])
    if path.suffix == ".zip":  # the scenario with its map picture (files.py)
        from .files import parse_zip

        return parse_zip(path.read_bytes(), path.name)[0]
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError([Problem(path.name, f"not a UTF-8 text file (byte {exc.start})")]) from None
    except OSError as exc:
        raise ScenarioError([Problem(path.name, f"cannot be read: {exc.strerror}")]) from None
    from .files import MAX_DEPTH, _depth

    if _depth(text) > MAX_DEPTH:
        raise ScenarioError([Problem(path.name, "not valid YAML: nested too deeply")])
    try:
        data = parse_text(text)
    except yaml.YAMLError as exc:
        raise ScenarioError([Problem(path.name, f"not valid YAML: {exc}".replace("\n", " "))]) from None
    except RecursionError:  # "[[[[..." a hundred thousand deep
        raise ScenarioError([Problem(path.name, "not valid YAML: nested too deeply")]) from None
    except ValueError as exc:  # Python refuses to convert an integer of more than 4300 digits
        raise ScenarioError([Problem(path.name, f"not valid YAML: {exc}")]) from None
    if not isinstance(data, dict):
        raise ScenarioError([Problem(path.name, "the top level must be a mapping")])
    where = lone_surrogate(data)
    if where is not None:  # "\ud800" in a quoted YAML string: no database stores it
        raise ScenarioError([Problem(where, "not text: a lone UTF-16 surrogate (\\ud800-\\udfff)")])
    return data
