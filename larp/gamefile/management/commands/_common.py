"""What the game-file commands share: finding a game by id or title."""
from django.core.management.base import CommandError

from larp.campaign.models import Game


def find_game(ident: str) -> Game:
    found = Game.objects.filter(pk=int(ident)) if ident.isdigit() else Game.objects.none()
    found = found or Game.objects.filter(title=ident)
    if found.count() != 1:
        raise CommandError(f"No single game with id or title {ident!r}: see the list on the console's home page.")
    return found.get()
