from django.utils.translation import gettext

from larp.commands import Command as BaseCommand
from larp.commands import input_error
from larp.scenarios import ScenarioError, available, load, validate
from larp.scenarios.loader import load_scenario


class Command(BaseCommand):
    help = ("Create a whole game from a scenario file, in one transaction (all of it or nothing). "
            "A scenario with problems is not loaded: one line lists them all, exit 2.")

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true",
                            help="only check the file and list its problems; create nothing")
        parser.add_argument("scenario", help=f"a shipped scenario id ({', '.join(available())}) or a path to a YAML file")
        parser.add_argument("--game", required=True, help="the new game's title (must be unique)")
        parser.add_argument("--seed", type=int, default=None, help=("a dice seed set by hand, for tests and demos: the game is marked «the seed was set by hand: the dice are not random» everywhere. Without it the seed mixes a 256-bit secret with the players' randomness."))

    def handle(self, *args, scenario, game, seed, **options):
        try:
            if options.get("check"):
                problems = validate(load(scenario))
                if problems:
                    raise ScenarioError(problems)
                self.stdout.write(self.style.SUCCESS(gettext("The scenario has no problems.")))
                return
            created = load_scenario(scenario, title=game, seed=seed)
        except ScenarioError as exc:
            raise input_error(f"The scenario was not loaded ({len(exc.problems)} problem(s)): "
                              + "; ".join(exc.localized())) from None
        self.stdout.write(self.style.SUCCESS(
            f"Game {created.title!r} (id {created.pk}) created from {created.scenario}: "
            f"{created.factions.count()} factions, {created.provinces.count()} provinces and sea zones, "
            f"{created.armies.count()} armies, {created.fleets.count()} fleets."
        ))
