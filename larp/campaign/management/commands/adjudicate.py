"""`manage.py adjudicate SYSTEM.MODE CASE.json`: any rule system's engine on a case, inside Django.

A thin wrapper around the system's command-line module (larp.rules.systems):
one JSON document on stdout and exit 0, or one line on stderr and exit 2 for a
malformed case (1 for an internal error). A bare MODE is the military module
(`adjudicate turn CASE.json`). No database access.
"""
import sys

from larp.commands import Command as BaseCommand
from larp.commands import input_error
from larp.rules import systems


class _Stream:
    """Lets the engine write through the command's (redirectable) output wrapper."""

    def __init__(self, wrapper):
        self.wrapper = wrapper

    def write(self, text: str) -> int:
        self.wrapper.write(text, style_func=lambda s: s, ending="")
        return len(text)


class Command(BaseCommand):
    help = (
        "Adjudicate a case document with a rule system's engine (docs/adjudication.md, docs/architecture.md). "
        "Military module: battle (one autobattle, R8-R11), odds (exact outcome odds over all dice), "
        "movement (execute orders, R5-R6), turn (movement, battles and storms, regroup, R12); "
        "other systems as SYSTEM.MODE. Prints one JSON document; a malformed case exits 2 with one line."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("mode", metavar="SYSTEM.MODE",
                            help="what to adjudicate, e.g. turn, orda.attack, red-plains.odds (an unknown one lists all)")
        parser.add_argument("path", metavar="CASE.json", help="the case document; '-' reads standard input")

    def handle(self, *args, mode, path, **options):
        # Only the named system's engine is imported: a table's moderator waits for every call.
        system, name = systems.split(mode)
        module = systems.cli_module(system) if system in systems.SYSTEMS else None
        if module is None or name not in module.MODES:
            raise input_error(f"argument SYSTEM.MODE: invalid choice: {mode!r} "
                              f"(choose from {', '.join(systems.choices())})")
        code = module.main([name, path], sys.stdin, _Stream(self.stdout), _Stream(self.stderr))
        if code:
            raise SystemExit(code)
