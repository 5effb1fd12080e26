"""The first-run demo: the default scenario as a game, one moderator, one player per faction."""
from django.conf import settings

from larp.campaign.models import Game
from larp.campaign.services.members import add_moderator, create_player
from larp.commands import Command as BaseCommand
from larp.commands import input_error
from larp.scenarios import DEFAULT_SCENARIO, ScenarioError
from larp.scenarios.loader import load_scenario

DEMO_TITLE = "Демо: Латинский Восток"

# How the demo's people are called on screen and paper (their logins stay the faction ids).
DEMO_MODERATOR = "Ирина Соколова"
DEMO_PLAYERS = {
    "latin_empire": "Андрей Волков", "thessalonica": "Мария Белова", "achaea": "Дмитрий Орлов",
    "nicaea": "Елена Смирнова", "trebizond": "Павел Морозов", "epirus": "Ольга Кузнецова",
    "rum": "Тимур Сафин", "cilicia": "Анна Григорян", "bulgaria": "Борис Петров",
    "venice": "Наталья Лебедева", "athens": "Сергей Николаев",
}


class Command(BaseCommand):
    help = "Load the default scenario as a demo game with logins, once (later runs only remind where the logins are)."

    def add_arguments(self, parser):
        parser.add_argument("--title", default=DEMO_TITLE)

    def handle(self, *args, title, **options):
        logins_file = settings.VAR_DIR / "demo-logins.txt"
        if Game.objects.filter(title=title).exists():
            self.stdout.write(f"Demo game {title!r} exists; its logins are in {logins_file}.")
            return
        try:
            game = load_scenario(DEFAULT_SCENARIO, title=title)
        except ScenarioError as exc:
            raise input_error(f"The demo game was not created: {exc}") from None
        rows = []  # (who, login, password, name): one row a person, the moderator first
        user, password = add_moderator(game, "moderator", name=DEMO_MODERATOR)
        rows.append(("Модератор", user.username, password, user.get_full_name()))
        for faction in game.factions.order_by("code"):
            user, password = create_player(faction, faction.code, name=DEMO_PLAYERS.get(faction.code, ""))
            rows.append((faction.name_ru, user.username, password, user.get_full_name()))
        lines = [f"Game: {title}", ""] + _columns(rows)
        text = "\n".join(lines) + "\n"
        logins_file.write_text(text, encoding="utf-8")
        logins_file.chmod(0o600)
        self.stdout.write(self.style.SUCCESS("Demo game created. Logins (also saved to %s):" % logins_file))
        self.stdout.write(text)


def _columns(rows: list[tuple[str, ...]]) -> list[str]:
    """The rows as aligned columns (each as wide as its longest entry), so every row reads the same way."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return ["  ".join([*(cell.ljust(w) for cell, w in zip(row, widths)), row[-1]]).rstrip() for row in rows]
