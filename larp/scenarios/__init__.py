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

import yaml

from .validate import Problem, ScenarioError, validate

SCENARIO_DIR = Path(__file__).resolve().parent
DEFAULT_SCENARIO = "latin-east-1204"

__all__ = ["DEFAULT_SCENARIO", "Problem", "ScenarioError", "available", "load", "validate"]


def available() -> list[str]:
    return sorted(p.stem for p in SCENARIO_DIR.glob("*.yaml"))


def resolve(name_or_path: str | Path) -> Path:
    """A scenario id shipped with the project (`latin-east-1204`) or a path to a YAML file."""
    candidate = Path(name_or_path)
    if candidate.suffix in {".yaml", ".yml", ".zip"} or candidate.exists():
        return candidate
    return SCENARIO_DIR / f"{name_or_path}.yaml"


def load(name_or_path: str | Path) -> dict:
    """Read a scenario; raise ScenarioError (with one problem) when the file is missing or not YAML."""
    path = resolve(name_or_path)
    if not path.exists():
        raise ScenarioError([Problem(str(name_or_path), f"no such scenario (shipped: {', '.join(available())})")])
    if path.suffix == ".zip":  # the scenario with its map picture (files.py)
        from .files import parse_zip

        return parse_zip(path.read_bytes(), path.name)[0]
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise ScenarioError([Problem(path.name, f"not valid YAML: {exc}".replace("\n", " "))]) from None
    if not isinstance(data, dict):
        raise ScenarioError([Problem(path.name, "the top level must be a mapping")])
    return data
