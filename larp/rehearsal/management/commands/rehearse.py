"""manage.py rehearse: bots play a game night through the real pages and check invariants (docs/rehearsal.md)."""
import json

from django.core.management.base import CommandError

from larp.commands import Command as BaseCommand
from larp.commands import input_error
from larp.rehearsal import report
from larp.rehearsal.tables import SYSTEMS as PLAYED
from larp.rehearsal.runner import Options, Rehearsal, SetupError

TABLE_SYSTEMS = ("red-plains", "tactical", "orda", "ordonnance")


class Command(BaseCommand):
    help = ("Play a whole game night with bots through the real pages (tablets file orders, a moderator runs the "
            "console) and check the invariants after every act. Exit 1 when any check fails.")

    def add_arguments(self, parser):
        which = parser.add_mutually_exclusive_group()
        which.add_argument("--game", default="", help="a copy of this game (id or title) is played")
        which.add_argument("--scenario", default="latin-east-1204", help="a fresh game of this scenario")
        parser.add_argument("--turns", type=int, default=6)
        parser.add_argument("--tablets", type=int, default=1, help="tablets (bots) per faction")
        parser.add_argument("--tables", default="", help="comma-separated table systems battles are sent to")
        parser.add_argument("--seed", type=int, default=1, help="every choice of the bots follows from it")
        parser.add_argument("--url", default="", help="a running server on this database (else one is started)")
        parser.add_argument("--fast", action="store_true", help="short Strategy phases")
        parser.add_argument("--contests", type=int, default=None,
                            help="«Ордонанс» contests played per turn (default 1 with --tables, else 0)")
        parser.add_argument("--json", default="", help="also write the report as JSON to this file")

    def handle(self, *args, game, scenario, turns, tablets, tables, seed, url, fast, json: str, contests=None,
               **options):
        if not 1 <= turns <= 50:
            raise input_error("--turns must be from 1 to 50")
        if contests is not None and not 0 <= contests <= 5:
            raise input_error("--contests must be from 0 to 5")
        if not 1 <= tablets <= 5:
            raise input_error("--tablets must be from 1 to 5")
        if not 0 <= seed < 2 ** 63:
            raise input_error("--seed must be a number from 0 to 2**63 - 1")
        if url and not url.startswith(("http://", "https://")):
            raise input_error("--url must be the server's address, starting with http:// or https://")
        systems = [t.strip() for t in tables.split(",") if t.strip()]
        unknown = [t for t in systems if t not in TABLE_SYSTEMS]
        if unknown:
            raise input_error(f"--tables: unknown systems {unknown}; choose from {', '.join(TABLE_SYSTEMS)}")
        unplayed = [t for t in systems if t not in PLAYED]
        if unplayed:
            raise input_error(f"--tables: the bots cannot play {', '.join(unplayed)} tables yet "
                              f"(docs/rehearsal.md); choose from {', '.join(PLAYED)}")
        opts = Options(scenario=scenario, game=game, turns=turns, tablets=tablets, tables=systems, seed=seed,
                       url=url, fast=fast, contests=(1 if systems else 0) if contests is None else contests)
        try:
            night = Rehearsal(opts, say=lambda line: (self.stderr.write(f"[rehearse] {line}"),
                                                  self.stderr.flush())).run()
        except SetupError as exc:  # no such scenario or game, or a copy this database cannot hold
            raise input_error(str(exc)) from None
        self.stdout.write(report.as_text(night))
        if json:
            _write_json(json, report.as_data(night))
        if night.checks.failed:
            raise CommandError(f"{len(night.checks.violations)} check(s) failed", returncode=1)


def _write_json(path: str, data: dict) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(data, ensure_ascii=False, indent=2))
