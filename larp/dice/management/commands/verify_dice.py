"""manage.py verify_dice GAME: recompute every server die of a game from its revealed seeds (docs/dice.md)."""
from django.core.management.base import CommandError

from larp.campaign.models import Game
from larp.commands import Command as BaseCommand
from larp.commands import as_id, input_error
from larp.dice import selectors


class Command(BaseCommand):
    help = ("Recompute every server die of a game (the war and every table) from the revealed seeds and say, "
            "one line per game or table, whether everything matches or which roll does not.")

    def add_arguments(self, parser):
        parser.add_argument("game", help="the game's id or its exact title")

    def handle(self, *args, game, **options):
        pk = as_id(game)
        found = Game.objects.filter(pk=pk) if pk is not None else Game.objects.none()
        found = found or Game.objects.filter(title=game)
        if found.count() != 1:
            raise input_error(f"No single game with id or title {game!r}.")
        lines = selectors.check(found.get())
        for line in lines:
            self.stdout.write(line.text())
        if any(line.revealed and not line.ok for line in lines):
            raise CommandError("The dice do not match the committed seeds.")
