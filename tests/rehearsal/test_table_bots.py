"""The table bots' choosing and fog helpers against real rendered Red Plains pages: the orders the bot picks are
ones the page offered and the server takes; the fog check passes a side's own page and fails a page that shows
the other side's panel."""
import random

import pytest
from django.urls import reverse

from larp.redplains import services
from larp.redplains import situation as sit
from larp.rehearsal.bots import Act, Page, form_values
from larp.rehearsal.checks import Checks
from larp.rehearsal.redplains_table import RedPlainsTable, fog, turn_bound

ARMIES = {"north": [{"type": "cavalry", "figures": 16}, {"type": "samurai_bows", "figures": 8},
                    {"type": "samurai_spears", "figures": 8}],
          "south": [{"type": "ashigaru_spears", "figures": 8}, {"type": "ashigaru_arquebus", "figures": 8}]}
PLACES = {"north": {"n1": "A11", "n2": "B11", "n3": "A12"}, "south": {"s1": "C11", "s2": "D11"}}


@pytest.fixture
def rolled(tiny_game, moderator):
    """A placed battle at turn 1, north has rolled (its order form is offered)."""
    north, south = tiny_game.factions.get(code="north"), tiny_game.factions.get(code="south")
    table = services.create(tiny_game, moderator, "Бот выбирает приказы",
                            [("north", "Журавль", north), ("south", "Скорпион", south)], sit.make_setup(ARMIES),
                            seed=11)
    for side in sit.SIDES:
        services.deploy(table.pk, moderator, side, PLACES[side])
        services.confirm(table.pk, moderator, side)
    services.roll(table.pk, moderator, "north", hand=[6, 6])
    return table


def page_of(client, url, number=1):
    answer = client.get(url)
    return Page(Act(number, "test", "read", "GET", url, status=answer.status_code), url,
                answer.content.decode())


def test_the_orders_the_bot_picks_are_offered_and_taken(rolled, player, client_for):
    url = reverse("redplains:table", args=[rolled.game_id, rolled.pk])
    client = client_for(player)
    tried = 0
    for seed in range(12):
        page = page_of(client, url)
        form = RedPlainsTable._form(page.doc, "orders")
        assert form is not None
        picks = RedPlainsTable.choose_orders(form, random.Random(seed))
        for unit, group, detail in picks:
            offered = form.xpath(f".//select[@name='o_{unit}_1']//option[@value='{group}']")
            assert offered and offered[0].get("disabled") is None
        values = form_values(form)
        values.update({k: [v] for k, v in RedPlainsTable.order_choice(form, picks).items()})
        answer = client.post(form.get("action"), values)
        assert answer.status_code == 302, answer.content.decode()[:2000]
        rolled.refresh_from_db()
        assert len(rolled.state["orders"]["north"]) == len(picks)
        tried += bool(picks)
    assert tried >= 6


def test_fog_passes_the_sides_own_page_and_fails_the_moderators(rolled, player, moderator, client_for):
    url = reverse("redplains:table", args=[rolled.game_id, rolled.pk])
    checks = Checks(seed=1)
    fog(checks, page_of(client_for(player), url), "north", rolled.pk)
    assert not checks.failed and checks.counts["fog"] == 4
    fog(checks, page_of(client_for(moderator), url, 2), "north", rolled.pk)
    assert checks.failed and {v.act for v in checks.violations} == {2}
    assert any("['south']" in v.message for v in checks.violations)


def test_the_turn_bound_is_the_rules_data():
    from larp.redplains.engine.data import load

    assert turn_bound() == load().max_battle_turns == 12


def test_tactical_fog_passes_a_sides_own_page_and_fails_the_moderators(tiny_game, moderator, player, other_player,
                                                                        client_for):
    from larp.rehearsal.tables import tactical_fog
    from larp.tactical import services as tactical
    from tests.tactical_table.conftest import ARCHERS, KNIGHTS, PHALANX, add_unit

    north, south = tiny_game.factions.get(code="north"), tiny_game.factions.get(code="south")
    table = tactical.create(tiny_game, "Туман у стола", [("north", "Север", north), ("south", "Юг", south)],
                            moderator, army_lists={"north": "macedonian_sample", "south": "feudal_sample"}, seed=42)
    assert add_unit(client_for(player), table, "north", PHALANX).status_code == 302
    assert add_unit(client_for(other_player), table, "south", KNIGHTS).status_code == 302
    assert add_unit(client_for(other_player), table, "south", ARCHERS).status_code == 302
    url = reverse("tactical:table", args=[tiny_game.pk, table.pk])
    checks = Checks(seed=1)
    own = page_of(client_for(player), url)
    assert own.xpath("//section[@id='tr-army-north']")
    tactical_fog(checks, own, "north")
    assert not checks.failed and checks.counts["fog"] == 2
    tactical_fog(checks, page_of(client_for(moderator), url, 2), "north")
    assert checks.failed and any("['south']" in v.message for v in checks.violations)
    assert any("moderator's forms" in v.message for v in checks.violations)
