"""The tactical rules' acts are offered only when open, and refused when posted while closed (issue 33): a table
walked from the army builder and the map through the battle to its end, on the battle's page and the map's, for
the moderator and the north's player. (The acts of a side name it in their address; north's is the one tried.)"""
import re

import pytest
from django.urls import reverse

from larp.tactical import services
from larp.tactical.acts import ACTS
from tests.tables.offered import offered_both_ways

from .conftest import url

def act_url(table, name):
    head, _, op = name.partition("-")
    if head == "army":
        return url(table, "army", "north", op)
    if head == "map":
        return url(table, "manoeuvre_act", op)
    if head == "move":
        return url(table, "manoeuvre_side", "north", op)
    return url(table, name)


DATA = {"undo": {"reason": "x"}, "map-undo": {"reason": "x"}, "turn": {"first": "north"},
        "end": {"winner": "", "ended_by": "time"}}


def check(table, seats, client_for, tried):
    seen = set()
    for page in ("table", "manoeuvre"):
        seen |= offered_both_ways(ACTS, table, seats, url(table, page), lambda name: act_url(table, name), DATA,
                                  client_for, tried)
    return seen


@pytest.fixture
def seats(moderator, player):
    return [(moderator, True, None), (player, False, "north")]


def test_a_table_offers_each_act_only_when_open(battle, table, moderator, seats, client_for):
    tried = set()
    resolve = f'formaction="{url(battle, "act")}"'                      # «Решить»: a button of the odds form
    assert resolve in client_for(moderator).get(url(battle, "table")).content.decode()
    seen = check(battle, seats, client_for, tried)                       # the battle
    services.end(battle.pk, moderator, None, "time", "ничья")
    battle.refresh_from_db()
    seen |= check(battle, seats, client_for, tried)                      # over: only the undo
    assert resolve not in client_for(moderator).get(url(battle, "table")).content.decode()
    assert {"turn", "end", "undo", "override", "conditions"} <= seen
    assert "army-unit" not in seen and "start" not in seen


def test_the_builder_and_the_map_offer_each_act_only_when_open(table, moderator, seats, client_for):
    tried = set()
    seen = check(table, seats, client_for, tried)                        # the builder, the map before the deal
    services.edit_map(table.pk, moderator, lambda m: m["corps"].append(
        {"id": "c1", "name": "Парменион", "side": "north", "cell": [2, 4], "tired": False, "mounted": False}),
        "corps", side="north")
    services.first_move(table.pk, moderator, "north", lambda first, rolls: "north first")
    seen |= check(table, seats, client_for, tried)                       # north's move
    assert {"army-unit", "army-general", "army-list", "approve", "start", "map-cell", "map-corps", "map-deal",
            "map-march", "map-first", "move-target", "move-pass", "move-offer"} <= seen
    assert "act" not in seen and "turn" not in seen


def test_a_fleeing_unit_is_not_tested_for_steadiness(battle, moderator, client_for):
    from larp.tables.models import Step
    mod = client_for(moderator)
    unit = next(u["id"] for u in battle.state["units"] if u["name"] == "Арбалетчики")
    assert mod.post(url(battle, "override"), {"unit": unit, "state": "fleeing", "reason": "бегут"}).status_code == 302
    # The page marks the fleeing unit in the unit picker, and tactical.js disables it for a steadiness test.
    page = mod.get(reverse("tactical:table", args=[battle.game_id, battle.pk])).content.decode()
    marked = re.findall(r'<option value="([^"]+)"[^>]*data-fleeing="1"', page)
    assert marked and set(marked) == {unit}
    before = Step.objects.filter(table=battle).count()
    r = mod.post(url(battle, "act"), {"kind": "test", "test_kind": "unit", "attacker": unit, "server_rest": "on"})
    assert r.status_code == 400 and "Бегущий отряд не проходит тест на стойкость" in r.content.decode()
    assert Step.objects.filter(table=battle).count() == before
