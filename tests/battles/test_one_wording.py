"""One wording per order: the tablet card, the console's orders table, the movement page, the history and the
printed turn results all say the same order in the same words (labels.order_text is the one writer)."""
import html
import re

import pytest
from django.urls import reverse

from larp.battles import services as console
from larp.campaign.services.members import add_moderator, create_player
from larp.sheets import selectors as sheets
from larp.sheets.renderers.turn_results import TurnResultsRenderer
from larp.tablet import services as tablet
from larp.turns import services as turns
from tests.battles.test_console_flow import DRAW, fight_all
from tests.sheets.pdf import pdf_pages, squash

ORDERS = [  # (faction, unit, the form's picks, the words every page must use)
    ("venice", "venice-f2", {"type": "fleet_attack", "path": ["ionian_sea", "achaea"]},
     "Атака флота: Ионическое море, цель: Ахея"),
    ("venice", "venice-1", {"type": "sea_attack", "path": ["south_aegean", "athens"]},
     "Нападение с моря: Юг Эгейского моря → Афины, флот I"),
    ("bulgaria", "bulgaria-3", {"type": "march", "path": ["strumica", "sredets"]}, "Проход: Струмица → Средец"),
    ("bulgaria", "bulgaria-4", {"type": "attack", "path": ["serres"]}, "Захват: Серре"),
]


def text_of(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


@pytest.fixture
def night(latin_game):
    mod, _ = add_moderator(latin_game, "words-mod")
    turns.enter_draw(latin_game, mod, DRAW)
    turns.start_game(latin_game, mod)
    players = {}
    for faction, unit, picks, _words in ORDERS:
        if faction not in players:
            players[faction], _ = create_player(latin_game.factions.get(code=faction), f"p-{faction}")
        tablet.file_from_form(players[faction], latin_game, unit, {**picks, "fleet": None})
    return latin_game, mod, players


def test_the_same_order_reads_the_same_on_every_page_and_on_paper(night, client_for):
    game, mod, players = night
    seen = {}
    for faction, player in players.items():
        seen[f"tablet {faction}"] = text_of(client_for(player).get(reverse("tablet:faction", args=[game.pk, faction])))
    turns.next_phase(game, mod)  # the deadline: orders are revealed, movement starts
    c = client_for(mod)
    seen["orders table"] = text_of(c.get(reverse("battles:console", args=[game.pk])))
    seen["movement"] = text_of(c.get(reverse("battles:movement", args=[game.pk])))
    console.apply_movement(game, mod)
    turns.next_phase(game, mod)
    fight_all(game, mod)
    turns.next_phase(game, mod)
    console.apply_regroup(game, mod)
    seen["history"] = text_of(c.get(reverse("battles:history_turn", args=[game.pk, 1])))
    seen["turn results"] = squash("\n".join(pdf_pages(TurnResultsRenderer(sheets.turn_results(game, 1)).generate()[2])))
    for faction, _unit, _picks, words in ORDERS:
        for where, text in seen.items():
            if where.startswith("tablet") and not where.endswith(faction):
                continue
            assert words in text, (where, words)
    # The result column reads the same on screen and paper, and agrees with «приказ» (masculine).
    for where in ("history", "turn results"):
        assert "привёл к сражению: Серре" in seen[where], where
        assert "заняла" not in seen[where] and "сражение: Серре" not in seen[where].replace("к сражению: Серре", ""), where
    # Storms are numbered one way («штурм № 1»), and the paper numbers the moves as the screen does (1, 2, 3 ...).
    paper = seen["turn results"]
    numbers = [int(n) for n in re.findall(r"(?:^| )(\d+) (?:Афины|Болгария|Венеция|Никея|Эпир|Рум|Киликия|Ахея|"
                                          r"Трапезунд|Фессалоники|Латинская империя) (?:армия|флот) ", paper)]
    assert numbers[:3] == [1, 2, 3], numbers
    assert "штурм 1" not in seen["history"] and "штурм 2" not in seen["history"]
