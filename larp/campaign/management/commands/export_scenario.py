"""manage.py export_scenario GAME -o FILE: a game's world as a scenario file (docs/scenarios.md)."""
from pathlib import Path

from larp.campaign.models import Game
from larp.commands import Command as BaseCommand
from larp.commands import as_id, input_error
from larp.scenarios import files
from larp.scenarios.export import picture_of, scenario_of


class Command(BaseCommand):
    help = ("Write a game's map, factions, troop types, forces and rules as a scenario file: FILE.yaml, or "
            "FILE.zip (scenario.yaml and the map picture, when the scenario has one). Before the game starts it "
            "is the scenario the game was loaded from; later, the present position. load_scenario reads it back.")

    def add_arguments(self, parser):
        parser.add_argument("game", help="the game's id or its exact title")
        parser.add_argument("-o", "--output", required=True, help="the file to write: .yaml or .zip")

    def handle(self, *args, game, output, **options):
        pk = as_id(game)
        found = Game.objects.filter(pk=pk) if pk is not None else Game.objects.none()
        found = found or Game.objects.filter(title=game)
        if found.count() != 1:
            raise input_error(f"No single game with id or title {game!r}.")
        path = Path(output)
        if path.suffix not in (".yaml", ".yml", ".zip"):
            raise input_error("Name the file .yaml (the scenario alone) or .zip (with the map picture).")
        data = scenario_of(found.get())
        try:
            if path.suffix == ".zip":
                path.write_bytes(files.pack_zip(data, picture_of(found.get())))
            else:
                path.write_text(files.dump_yaml(data), encoding="utf-8")
        except OSError as exc:
            raise input_error(f"Could not write {path}: {exc.strerror}") from None
        self.stdout.write(self.style.SUCCESS(
            f"Scenario {data['scenario']['id']!r} of game {found.get().title!r} written to {path}: "
            f"{len(data['factions'])} factions, {len(data['provinces'])} provinces and sea zones."))
