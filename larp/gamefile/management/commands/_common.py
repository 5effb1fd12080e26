"""What the game-file commands share: finding a game by id or title."""
from larp.campaign.models import Game
from larp.commands import as_id, input_error


def find_game(ident: str) -> Game:
    pk = as_id(ident)
    found = Game.objects.filter(pk=pk) if pk is not None else Game.objects.none()
    found = found or Game.objects.filter(title=ident)
    if found.count() != 1:
        raise input_error(f"No single game with id or title {ident!r}: see the list on the console's home page.")
    return found.get()
