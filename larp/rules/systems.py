"""The rule systems the toolkit runs, and where each one's command-line module lives.

Each module named here exposes `MODES` (mode name -> callable) and
`main(argv, stdin, stdout, stderr) -> int` keeping larp.rules.cli's contract.
`adjudicate SYSTEM.MODE CASE.json` dispatches through this table; a bare MODE
means the military module (`adjudicate turn CASE.json`).
"""
from __future__ import annotations

import importlib
from types import ModuleType

DEFAULT = "military"

SYSTEMS: dict[str, str] = {
    "military": "larp.engine.cli",
    "red-plains": "larp.redplains.engine.cli",
    "tactical": "larp.tactical.engine.cli",
    "orda": "larp.orda.engine.cli",
    "ordonnance": "larp.ordonnance.engine.cli",
}


def cli_module(system: str) -> ModuleType | None:
    """The system's command-line module, or None while the system is not built yet."""
    name = SYSTEMS[system]
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and name.startswith(exc.name):  # the module itself is missing, not one it imports
            return None
        raise


def available() -> dict[str, ModuleType]:
    """Every built system's command-line module, by system name."""
    found = {name: cli_module(name) for name in SYSTEMS}
    return {name: module for name, module in found.items() if module is not None}


def choices() -> list[str]:
    """Every `SYSTEM.MODE` the command line accepts, the military module's bare modes first."""
    built = available()
    names = list(built[DEFAULT].MODES)
    for system, module in built.items():
        names += [f"{system}.{mode}" for mode in module.MODES]
    return names


def split(choice: str) -> tuple[str, str]:
    """'orda.attack' -> ('orda', 'attack'); 'turn' -> ('military', 'turn')."""
    system, dot, mode = choice.partition(".")
    return (system, mode) if dot else (DEFAULT, system)
