"""Cells the moderator adds (W2.5) and the rest of the table: a shinobi scouts them (W6.5); adding them while the
armies are being placed keeps the table «being set up»; orders already given are checked again on the grown field,
and a side whose plan no longer stands must give it again."""
import pytest
from django.urls import reverse

from larp.redplains import services
from larp.redplains import situation as sit
from larp.tables.models import Step, Table

from .conftest import PLACES, deploy_both


def test_adding_cells_during_the_deployment_keeps_the_table_being_set_up(table, moderator):
    services.extend_field(table.pk, moderator, [(13, 3)], "стол шире поля")
    table.refresh_from_db()
    assert table.status == Table.SETUP and table.state["phase"] == sit.DEPLOYMENT
    deploy_both(table, moderator)
    table.refresh_from_db()
    assert table.status == Table.SETUP                                     # still nobody has rolled
    services.extend_field(table.pk, moderator, [(13, 2)], "ещё шире")
    table.refresh_from_db()
    assert table.status == Table.PLAYING                                   # the battle's turns have begun
    assert table.state == sit.replay(table.setup, services.step_dicts(table))


def test_a_shinobi_scouts_an_added_cell(shinobi_table, moderator, player, client_for):
    table = shinobi_table
    for side, n in (("north", 3), ("south", 2)):
        services.deploy(table.pk, moderator, side, PLACES[side], infiltrate=n)
    for side in sit.SIDES:
        services.confirm(table.pk, moderator, side)
    table.refresh_from_db()
    assert table.state["phase"] == sit.PLAN_CHANGE
    url = reverse("redplains:act", args=[table.game_id, table.pk, "scout"])
    r = client_for(player).post(url, {"cells": "B17 C11"})
    assert r.status_code == 400 and "На поле нет клетки «B17»" in r.content.decode()   # not yet a cell
    assert "A11…D36" not in r.content.decode()             # cells named as the board labels them
    services.extend_field(table.pk, moderator, [(13, 3)], "поле шире")
    assert client_for(player).post(url, {"cells": "B17 C11"}).status_code == 302
    table.refresh_from_db()
    assert table.state["scouted"]["north"]["cells"] == ["B17", "C11"]
    assert [x["unit"] for x in table.state["scouted"]["north"]["seen"]] == ["s1"]
    r = client_for(player).post(url, {"cells": "Z99"})
    assert r.status_code == 400
    assert Step.objects.filter(table=table, kind="scout").count() == 1


@pytest.fixture
def edge(tiny_game, moderator):
    """North's spearmen n1 at B16 on the east edge, facing east; south's s2 stands on an added cell D17 (beyond D16),
    facing north: once B17 exists, a step east would turn n1's right flank to s2's front (W15.1)."""
    setup = sit.make_setup({"north": [{"type": "samurai_spears", "figures": 8}, {"type": "samurai_spears", "figures": 8}],
                            "south": [{"type": "ashigaru_spears", "figures": 8},
                                      {"type": "ashigaru_spears", "figures": 8}]})
    for u, cell in zip(setup["units"], ("B16", "A11", "C11", "D16")):
        u["cell"] = cell
    setup["units"][0]["facing"] = "E"
    table = services.create(tiny_game, moderator, "Край поля", [
        ("north", "Север", tiny_game.factions.get(code="north")),
        ("south", "Юг", tiny_game.factions.get(code="south"))], setup, seed=2)
    services.extend_field(table.pk, moderator, [(13, 4)], "место для засады")
    services.override(table.pk, moderator, "s2", {"cell": "D17", "facing": "N"}, "засада за краем")
    table.refresh_from_db()
    return table


def test_orders_given_are_checked_again_when_cells_are_added(edge, moderator, player, client_for):
    table = edge
    services.roll(table.pk, player, "north", hand=None)
    services.give_orders(table.pk, player, "north", [{"unit": "n1", "slot": 1, "kind": "ordinary", "type": "move"}])
    services.confirm(table.pk, player, "north")
    table.refresh_from_db()
    assert table.state["orders_check"]["north"]["ok"] and table.state["confirmed"]["north"]
    services.extend_field(table.pk, moderator, [(13, 3)], "поле шире")
    table.refresh_from_db()
    check = table.state["orders_check"]["north"]
    assert not check["ok"] and check["refused"][0]["unit"] == "n1" and check["refused"][0]["reason"] == "exposes_flank"
    assert not table.state["confirmed"]["north"]                          # north must give its orders again
    page = client_for(player).get(reverse("redplains:table", args=[table.game_id, table.pk])).content.decode()
    assert "отряд подставил бы фланг или тыл фронту врага" in page
    assert "data-confirm" not in page.split('id="side-north"', 1)[1].split("</section>", 1)[0]
    assert table.state == sit.replay(table.setup, services.step_dicts(table))
    services.undo(table.pk, moderator, "клетка не нужна")
    table.refresh_from_db()
    assert table.state["orders_check"]["north"]["ok"] and table.state["confirmed"]["north"]
