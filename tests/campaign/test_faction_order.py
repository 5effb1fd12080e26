"""Every faction list a person sees is alphabetical by the shown name (Russian collation), never by id."""
import re

import pytest
from django.urls import reverse

from larp.campaign import labels
from larp.campaign.services.members import add_moderator
from larp.sheets import selectors as sheets
from larp.turns import services as turns

ALPHABETICAL = ["Афины", "Ахея", "Болгария", "Венеция", "Киликия", "Латинская империя", "Никея", "Рум",
                "Трапезунд", "Фессалоники", "Эпир"]
BY_ID = ["Ахея", "Афины", "Болгария", "Киликия", "Эпир", "Латинская империя", "Никея", "Рум", "Фессалоники",
         "Трапезунд", "Венеция"]


def test_name_key_is_russian_alphabetical():
    assert [n for n in sorted(["Ёж", "Ель", "яма", "Жук", "Еда", "арка"], key=labels.name_key)] == \
        ["арка", "Еда", "Ёж", "Ель", "Жук", "яма"]


def _options(page: str, select: str) -> list[str]:
    block = re.search(rf'<select name="{select}"[^>]*>(.*?)</select>', page, flags=re.S)
    assert block, select
    return [o for o in re.findall(r'<option value="[^"]+">([^<]+)</option>', block.group(1))]


@pytest.fixture
def moderated(latin_game):
    mod, _ = add_moderator(latin_game, "order-mod")
    return latin_game, mod


def test_faction_pickers_are_alphabetical(moderated, client_for):
    game, mod = moderated
    assert sorted(ALPHABETICAL, key=labels.name_key) == ALPHABETICAL and BY_ID != ALPHABETICAL
    c = client_for(mod)
    printing = c.get(reverse("sheets:index", args=[game.pk])).content.decode()
    assert _options(printing, "faction") == ALPHABETICAL  # the print form
    assert _options(c.get(reverse("tablet:players", args=[game.pk])).content.decode(), "faction") == ALPHABETICAL
    assert _options(c.get(reverse("tablet:spy", args=[game.pk])).content.decode(), "to_faction") == ALPHABETICAL
    legend = c.get(reverse("tablet:map", args=[game.pk])).content.decode()
    shown = [n for n in re.findall(r"</i>([^<]+)</span>", legend) if n in ALPHABETICAL]
    assert shown == ALPHABETICAL, shown


def test_printed_sheets_come_in_alphabetical_order(moderated):
    game, _mod = moderated
    assert [f["faction"]["name"] for f in sheets.order_forms(game)] == ALPHABETICAL
    assert [s["faction"]["name"] for s in sheets.battle_sheets(game)] == ALPHABETICAL
