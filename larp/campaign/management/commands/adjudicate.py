"""`manage.py adjudicate MODE CASE.json`: the rules engine's command line inside Django.

A thin wrapper around larp.engine.cli.main (docs/adjudication.md): one JSON
document on stdout and exit 0, or one line on stderr and exit 2 for a
malformed case (1 for an internal error). No database access.
"""
import sys

from django.core.management.base import BaseCommand

from larp.engine.cli import MODES, main


class _Stream:
    """Lets the engine write through the command's (redirectable) output wrapper."""

    def __init__(self, wrapper):
        self.wrapper = wrapper

    def write(self, text: str) -> int:
        self.wrapper.write(text, style_func=lambda s: s, ending="")
        return len(text)


class Command(BaseCommand):
    help = (
        "Adjudicate a case document with the rules engine (docs/adjudication.md). "
        "battle: one autobattle (R8-R11); odds: exact outcome odds over all dice; "
        "movement: execute orders (R5-R6); turn: movement, battles and storms, regroup (R12). "
        "Prints one JSON document; a malformed case exits 2 with one line naming the field."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("mode", choices=list(MODES), help="what to adjudicate: " + ", ".join(MODES))
        parser.add_argument("path", metavar="CASE.json", help="the case document; '-' reads standard input")

    def handle(self, *args, mode, path, **options):
        code = main([mode, path], sys.stdin, _Stream(self.stdout), _Stream(self.stderr))
        if code:
            raise SystemExit(code)
