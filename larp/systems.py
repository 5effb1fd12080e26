"""The rule systems this project adjudicates, by name (docs/architecture.md).

`manage.py adjudicate SYSTEM.MODE CASE.json` looks the system up here and
hands the mode and the case to that system's command line. Each entry names
a pure module (no Django) with:

    MODES: dict[str, callable]    the modes it adjudicates
    main(argv, stdin, stdout, stderr) -> int
                                  argv == [MODE, PATH]; exit status 0, 2 or 1
                                  with the one-line errors of docs/adjudication.md

A bare MODE (the command line before rule systems had names) means the
military module's mode: `adjudicate turn CASE.json` is
`adjudicate military.turn CASE.json`.
"""
from __future__ import annotations

from importlib import import_module
from types import ModuleType

DEFAULT_SYSTEM = "military"

# system name -> dotted path of its command-line module
SYSTEMS: dict[str, str] = {
    "military": "larp.engine.cli",
}


class UnknownSystem(ValueError):
    """The SYSTEM.MODE names no known system or mode; the message is one line."""


def cli(system: str) -> ModuleType:
    """The command-line module of a rule system."""
    try:
        return import_module(SYSTEMS[system])
    except KeyError:
        raise UnknownSystem(f"unknown rule system {system!r}; known: {', '.join(sorted(SYSTEMS))}") from None


def resolve(target: str) -> tuple[ModuleType, str]:
    """'military.turn' or 'turn' -> (the system's command-line module, 'turn')."""
    system, dot, mode = target.rpartition(".")
    module = cli(system if dot else DEFAULT_SYSTEM)
    if mode not in module.MODES:
        raise UnknownSystem(f"unknown mode {mode!r} of {system or DEFAULT_SYSTEM}; "
                            f"known: {', '.join(module.MODES)}")
    return module, mode


def targets() -> list[str]:
    """Every SYSTEM.MODE, for help texts."""
    return [f"{name}.{mode}" for name in SYSTEMS for mode in cli(name).MODES]
