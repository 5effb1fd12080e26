"""`manage.py adjudicate [SYSTEM.]MODE CASE.json`: a rules engine's command line inside Django.

A thin wrapper: larp.systems finds the rule system's pure command-line module
(the military module's is larp.engine.cli, docs/adjudication.md) and hands it
the mode and the case. One JSON document on stdout and exit 0, or one line on
stderr and exit 2 for a malformed case or an unknown system or mode (1 for an
internal error). A bare MODE is the military module's. No database access.
"""
import sys

from django.core.management.base import BaseCommand

from larp import systems


class _Stream:
    """Lets the engine write through the command's (redirectable) output wrapper."""

    def __init__(self, wrapper):
        self.wrapper = wrapper

    def write(self, text: str) -> int:
        self.wrapper.write(text, style_func=lambda s: s, ending="")
        return len(text)


class Command(BaseCommand):
    help = (
        "Adjudicate a case document with a rule system's engine (docs/architecture.md). "
        "TARGET is SYSTEM.MODE, e.g. military.turn; a bare MODE is the military module's "
        "(docs/adjudication.md): battle: one autobattle (R8-R11); odds: exact outcome odds over all dice; "
        "movement: execute orders (R5-R6); turn: movement, battles and storms, regroup (R12). "
        "Prints one JSON document; a malformed case exits 2 with one line naming the field."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("target", metavar="SYSTEM.MODE",
                            help="what to adjudicate: " + ", ".join(systems.targets())
                            + f" (a bare MODE means {systems.DEFAULT_SYSTEM}.MODE)")
        parser.add_argument("path", metavar="CASE.json", help="the case document; '-' reads standard input")

    def handle(self, *args, target, path, **options):
        try:
            module, mode = systems.resolve(target)
        except systems.UnknownSystem as exc:
            self.stderr.write(str(exc))
            raise SystemExit(2)
        code = module.main([mode, path], sys.stdin, _Stream(self.stdout), _Stream(self.stderr))
        if code:
            raise SystemExit(code)
