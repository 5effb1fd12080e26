"""manage.py import_game FILE: a game written by export_game, restored as a new game of this server."""
from larp.commands import Command as BaseCommand
from larp.commands import input_error
from larp.gamefile import services


class Command(BaseCommand):
    help = ("Restore a game written by export_game (all of it or nothing). Its rows get new ids, so the database "
            "may hold other games. Accounts that exist here already are used as they are.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="a file written by export_game (.json or .json.gz)")
        parser.add_argument("--title", default=None, help="the restored game's title (default: the file's)")

    def handle(self, *args, file, title, **options):
        try:
            restored = services.restore(services.read(file), title=title, trusted=True)
        except services.GameFileError as exc:
            raise input_error(str(exc)) from None
        game = restored.game
        self.stdout.write(self.style.SUCCESS(f"Game {game.title!r} restored (id {game.pk})."))
        for note in restored.notes:
            self.stdout.write(note)
