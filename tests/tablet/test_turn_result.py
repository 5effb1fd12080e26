"""After regroup each faction sees its own part of the turn's results, in the printed sheet's words."""
import pytest
from django.urls import reverse

from larp.battles import services as console
from larp.sheets import selectors as sheets
from larp.sheets import services as printing
from larp.tablet import selectors
from tests.battles.test_console_flow import fight_all, played  # noqa: F401 - the fixture


@pytest.fixture
def regrouped(played):  # noqa: F811
    game, mod = played
    console.apply_movement(game, mod)
    fight_all(game, mod)
    console.apply_regroup(game, mod)
    return game, mod


def test_each_faction_sees_its_own_stacks_in_the_printed_words(regrouped, client_for):
    from larp.campaign.models import Membership

    game, _mod = regrouped
    printed = sheets.turn_results(game, 1)
    bulgaria = game.factions.get(code="bulgaria")
    own = selectors.faction_turn_result(bulgaria)
    assert own["turn"] == 1 and own["battles"] and not own["empty"]
    assert all(m["faction"] == "Болгария" for m in own["moves"])
    printed_moves = [m for m in printed["moves"] if m["faction"] == "Болгария"]
    assert own["moves"] == printed_moves                       # the same words as the paper

    player = Membership.objects.get(game=game, faction=bulgaria).user
    page = client_for(player).get(reverse("tablet:faction", args=[game.pk, "bulgaria"])).content.decode()
    assert "Итоги хода 1" in page
    battle = own["battles"][0]
    assert battle["province"] in page and battle["outcome"][:1].upper() + battle["outcome"][1:] in page
    for m in printed_moves:
        assert m["result"] in page


def test_no_result_before_the_first_regroup(played):  # noqa: F811
    game, _mod = played
    assert selectors.faction_turn_result(game.factions.get(code="bulgaria")) is None


def test_order_forms_printed_after_regroup_are_for_the_next_turn(regrouped):
    from tests.sheets.pdf import pdf_pages, squash

    game, _mod = regrouped
    # The console's print buttons send the turn being resolved (1); blank orders are for the turn ahead.
    _name, _mime, content = printing.render_document(game, "order-forms", {"faction": "epirus", "turn": 1,
                                                                          "paper": "a4"})
    text = squash(pdf_pages(content)[0])
    assert "Ход 2" in text and "Ход 1" not in text


def _turn_result_section(page: str) -> str:
    import re

    return re.search(r'<details class="turn-result".*?</details>', page, flags=re.S).group(0)


def test_a_battle_is_told_from_the_players_side(regrouped, client_for):
    from larp.campaign.models import Membership

    game, _mod = regrouped
    serres = next(b for b in sheets.turn_results(game, 1)["battles"] if b["province"] == "Серре")
    assert serres["outcome"] == "attacker_won"  # Bulgaria's dice 6 against 2
    seen = {}
    for code in ("bulgaria", "thessalonica"):
        player = Membership.objects.get(game=game, faction__code=code).user
        seen[code] = _turn_result_section(
            client_for(player).get(reverse("tablet:faction", args=[game.pk, code])).content.decode())
    assert "вы нападали, противник — Фессалоники" in seen["bulgaria"]
    assert "вы оборонялись, противник — Болгария" in seen["thessalonica"]
    serres_line = lambda text: next(li for li in text.split("<li>") if "<strong>Серре</strong>" in li)  # noqa: E731
    assert '<span class="outcome">Вы победили</span>' in serres_line(seen["bulgaria"])
    assert '<span class="outcome">Вы проиграли</span>' in serres_line(seen["thessalonica"])
    for text in seen.values():  # never the sheet's third-person words
        assert "обороняющ" not in text and "нападающ" not in text and "вы —" not in text
