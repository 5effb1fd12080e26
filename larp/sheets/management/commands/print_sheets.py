from pathlib import Path

from django.utils import translation

from larp.campaign.models import Game
from larp.commands import Command as BaseCommand
from larp.commands import as_id, input_error
from larp.sheets import services


class Command(BaseCommand):
    help = ("Print a game's documents to a PDF file: battle sheets, battle protocols, turn results, blank order "
            "forms, or the map (the moderators' or a faction's) (the same documents the print buttons make).")

    def add_arguments(self, parser):
        parser.add_argument("game", help="the game's title or id")
        parser.add_argument("--kind", required=True, choices=services.KINDS, help="which document")
        parser.add_argument("--faction", help="only this faction (its id or code): battle sheets, order forms, "
                                                  "a faction's map")
        parser.add_argument("--turn", help="the turn (protocols and turn results: default the current turn; "
                                           "the map: that turn's start, default the game as it stands)")
        parser.add_argument("--after", action="store_true",
                            help="the map: as the turn's regroup left it (default the current turn)")
        parser.add_argument("--battle", help="only this battle of the turn (protocols)")
        parser.add_argument("--paper", default="a4", choices=["a4", "a5", "a3"],
                            help="paper size (default a4; a3 for the map only, a5 for the rest)")
        parser.add_argument("--language", default=None, choices=["ru", "en"], help="ru (default) or en")
        parser.add_argument("-o", "--output", required=True, help="the PDF file to write")

    def handle(self, *args, game, kind, faction, turn, after, battle, paper, language, output, **options):
        found = Game.objects.filter(title=game).first()
        if found is None and as_id(game) is not None:
            found = Game.objects.filter(pk=as_id(game)).first()
        if found is None:
            raise input_error(f"No game titled or numbered {game!r}. Games: "
                               + (", ".join(f"{g.pk} {g.title!r}" for g in Game.objects.order_by("pk")) or "none"))
        params = {"paper": paper, "faction": faction, "turn": turn, "battle": battle, "after": after}
        with translation.override(language or "ru"):
            try:
                filename, _mimetype, content = services.render_document(found, kind, params)
            except services.PrintError as exc:
                raise input_error(" ".join(exc.messages)) from None
        path = Path(output)
        try:
            path.write_bytes(content)
        except OSError as exc:
            raise input_error(f"Could not write {path}: {exc.strerror}") from None
        self.stderr.write(self.style.SUCCESS(f"{path}: {kind}, {len(content):,} bytes ({filename})"))
