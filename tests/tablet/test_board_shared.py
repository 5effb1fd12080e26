"""At a phase change every faction's board is drawn for the new state (issue 36). While boards of one state are
drawn, a process reads every faction's stacks, orders, garrisons, reports and «ready» marks once and keeps them
for the other factions' boards (larp.tablet.selectors._faction_rows): what each board shows must be exactly what
it shows when drawn alone, and only its own faction's."""

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from larp.tablet import services as tablet_services
from larp.turns import services
from tests.tablet.boards import HTMX, board, untokened

PER_FACTION_TABLES = ("forces_army", "forces_fleet", "forces_troopcard", "forces_commander", "orders_order",
                      "orders_orderevent", "tablet_spyreport", "turns_readymark")


def file_url(game, unit, faction):
    return reverse("tablet:file_order", args=[game.pk, faction, unit])


def test_the_second_factions_board_reads_none_of_its_rows_again_and_equals_its_board_drawn_alone(
        client_for, tiny_game, moderator, player, other_player, started, state_cache, settings):
    """North orders and withdraws a fleet's order by boarding it (R5), South marks ready, holds a spy report
    and orders an army; both have garrisons. South's board drawn after North's in the same state reads no
    stack, order, report or mark (North's render read them for both), and is the board South gets alone."""
    from larp.forces.models import Army

    north, south = client_for(player), client_for(other_player)
    assert north.post(file_url(tiny_game, "north-f1", "north"), {"type": "fleet_move", "s1": "south_sea"},
                      **HTMX).status_code == 200
    assert north.post(file_url(tiny_game, "north-2", "north"), {"type": "sea_attack", "s1": "north_sea",
                                                                 "s2": "isle"}, **HTMX).status_code == 200
    assert north.post(file_url(tiny_game, "north-2", "north"), {"type": "hold"}, **HTMX).status_code == 200
    assert south.post(file_url(tiny_game, "south-1", "south"), {"type": "hold"}, **HTMX).status_code == 200
    services.mark_ready(other_player, tiny_game.factions.get(code="south"))
    army = Army.objects.get(faction__code="north", number=1)
    tablet_services.grant_spy_report(moderator, tiny_game, tiny_game.factions.get(code="south"), f"army:{army.pk}")

    settings.STATE_CACHE = False  # each board drawn alone: its own faction's rows only
    alone = {"north": board(north, tiny_game, "north"), "south": board(south, tiny_game, "south")}
    settings.STATE_CACHE = True
    drawn_north = board(north, tiny_game, "north")
    with CaptureQueriesContext(connection) as queries:
        drawn_south = board(south, tiny_game, "south")
    read = [q["sql"] for q in queries.captured_queries if any(f'"{t}"' in q["sql"] for t in PER_FACTION_TABLES)]
    assert read == [], read
    assert untokened(drawn_north) == untokened(alone["north"])
    assert untokened(drawn_south) == untokened(alone["south"])
    # What each shows is its own: the withdrawn fleet's note on North's, the ready mark and report on South's.
    assert "data-dropped" in drawn_north and "data-dropped" not in drawn_south
    assert "is-ready" in drawn_south and "is-ready" not in drawn_north
    assert "Альберт" in drawn_south.split('id="reports"')[1]  # the spy saw North's army I and its commander
    assert 'id="reports"' in drawn_north and "Альберт" not in drawn_north.split('id="reports"')[1]
    assert 'data-unit="south-1"' in drawn_south and 'data-unit="north-1"' not in drawn_south
    assert 'data-unit="north-1"' in drawn_north and 'data-unit="south-1"' not in drawn_north


def test_a_new_state_is_read_anew(client_for, tiny_game, player, started, state_cache):
    """The kept rows belong to one state: an order filed (a new state, its version bumped after commit) shows
    on the next board."""
    from larp.turns import state_version

    def card(html):
        return html.split('data-unit="north-1"')[1].split("</article>")[0]

    north = client_for(player)
    before = board(north, tiny_game, "north")
    assert north.post(file_url(tiny_game, "north-1", "north"), {"type": "march", "s1": "northfield"},
                      **HTMX).status_code == 200
    state_version.bump(tiny_game.pk)  # what the commit does (a test's transaction is never committed)
    after = board(north, tiny_game, "north")
    assert 'data-has-order=""' in card(before) and 'data-has-order="1"' in card(after)
