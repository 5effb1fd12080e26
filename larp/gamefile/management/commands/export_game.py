"""manage.py export_game GAME -o FILE: the whole game in one file, to continue it on another server."""
from larp.commands import Command as BaseCommand
from larp.commands import input_error
from larp.gamefile import services
from larp.gamefile.management.commands._common import find_game


class Command(BaseCommand):
    help = ("Write a whole game (scenario, state, turns, orders, battles, tables, dice, join codes, audit log, "
            "members with their password hashes) to one JSON file (gzipped when FILE ends in .gz). "
            "Restore it with import_game.")

    def add_arguments(self, parser):
        parser.add_argument("game", help="the game's id or its exact title")
        parser.add_argument("-o", "--output", required=True, help="the file to write, e.g. game.json or game.json.gz")

    def handle(self, *args, game, output, **options):
        found = find_game(game)
        try:
            path = services.write(found, output)
        except OSError as exc:
            raise input_error(f"Could not write {output}: {exc.strerror}") from None
        data = services.read(path)
        self.stdout.write(self.style.SUCCESS(
            f"Game {found.title!r} written to {path} ({len(data['objects'])} rows, {len(data['users'])} accounts, "
            f"{path.stat().st_size:,} bytes)."))
        self.stdout.write(services.JOIN_CODES_NOTE)
