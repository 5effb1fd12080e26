"""Red Plains' acts are offered only when open, and refused when posted while closed (issue 33), at every stage of
a battle walked through from the deployment to its end, for the moderator and both sides' players; every act is
offered somewhere on the way."""
import pytest
from django.urls import reverse

from larp.redplains import services
from larp.redplains import situation as sit
from larp.redplains.acts import ACTS
from larp.tables import services as tables
from tests.tables.offered import offered_both_ways

from .conftest import ARMIES, PLACES

DATA = {"deploy": {"cell_n1": "A11", "cell_s1": "C11"}, "stake": {"stake": "low"}, "roll": {"source": "server"},
        "reroll": {"source": "server"}, "scout": {"cells": "C11"}, "dice": {"source": "server"},
        "shinobi": {"task": "sabotage", "unit": "s1", "source": "server"}, "leader": {"leader": 0, "unit": "n1"},
        "plan": {"kind": "special", "count": 1, "reason": "x"}, "undo": {"reason": "x"},
        "roster": {"unit": "n1", "type": "cavalry", "figures": 8}, "traits": {"leader": 0},
        "override": {"unit": "n1", "figures": 5, "reason": "x"}, "extend": {"cells": "A0", "reason": "x"}}


@pytest.fixture
def seats(moderator, player, other_player):
    return [(moderator, True, None), (player, False, "north"), (other_player, False, "south")]


def check(table, seats, client_for, posted=None):
    return offered_both_ways(ACTS, table, seats, reverse("redplains:table", args=[table.game_id, table.pk]),
                             lambda name: reverse("redplains:act", args=[table.game_id, table.pk, name]), DATA,
                             client_for, posted)


def test_every_act_is_offered_only_when_open_through_a_whole_battle(tiny_game, moderator, seats, client_for):
    north, south = tiny_game.factions.get(code="north"), tiny_game.factions.get(code="south")
    table = services.create(tiny_game, moderator, "Все действия", [("north", "Журавль", north), ("south", "Скорпион", south)],
                            sit.make_setup(ARMIES, messengers={"north": 1}, shinobi={"north": 1, "south": 1},
                                           generals={"north": [("Ода", 1)]}), seed=5)
    user, tried = moderator, set()
    seen = check(table, seats, client_for, tried)                                  # the deployment
    services.deploy(table.pk, user, "north", PLACES["north"], infiltrate=1)
    seen |= check(table, seats, client_for, tried)                                 # north may confirm
    services.deploy(table.pk, user, "south", PLACES["south"], infiltrate=1)
    for side in sit.SIDES:
        services.confirm(table.pk, user, side)
    seen |= check(table, seats, client_for, tried)                                 # the plan change: scouting
    for side in sit.SIDES:
        services.confirm(table.pk, user, side)
    seen |= check(table, seats, client_for, tried)                                 # the command phase, before the roll
    services.roll(table.pk, user, "north", hand=[1, 1])
    seen |= check(table, seats, client_for, tried)                                 # rolled: orders, re-roll, shinobi
    services.roll(table.pk, user, "north", hand=[6, 6])
    services.give_orders(table.pk, user, "north", [{"unit": "n1", "slot": 1, "kind": "ordinary", "type": "move"},
                                                   {"unit": "n2", "slot": 1, "kind": "ordinary", "type": "move"}])
    services.confirm(table.pk, user, "north")
    services.roll(table.pk, user, "south", hand=[3, 4])
    services.confirm(table.pk, user, "south")
    seen |= check(table, seats, client_for, tried)                                 # the execution awaits dice
    for _ in range(40):
        table.refresh_from_db()
        if sit.preview(table.setup, services.current(table))["awaiting"] is None:
            break
        services.execution_dice(table.pk, user)
    seen |= check(table, seats, client_for, tried)                                 # every die in: execute
    services.execute(table.pk, user)
    seen |= check(table, seats, client_for, tried)                                 # the next turn, or the end
    assert seen >= set(ACTS.by_name) - {"stop"}, set(ACTS.by_name) - seen


def test_the_stop_is_offered_to_the_winner_only(tiny_game, moderator, seats, client_for):
    setup = sit.make_setup({"north": [{"type": "cavalry", "figures": 8}], "south": [{"type": "ashigaru_spears",
                                                                                    "figures": 6}]})
    for u, cell in zip(setup["units"], ("A11", "C36")):
        u["cell"] = cell
        u["fled_ever"] = u["side"] == "south"
    north, south = tiny_game.factions.get(code="north"), tiny_game.factions.get(code="south")
    table = tables.create_table(tiny_game, "red-plains", "Преследование", [("north", "Север", north),
                                                                          ("south", "Юг", south)],
                                moderator, setup=setup)
    for side in sit.SIDES:
        services.roll(table.pk, moderator, side, hand=[3, 3])
        services.confirm(table.pk, moderator, side)
    services.execute(table.pk, moderator)
    assert "stop" in check(table, seats, client_for)


def test_a_finished_battle_offers_only_the_undo(tiny_game, moderator, seats, client_for):
    from tests.redplains_table.conftest import deploy_both
    north, south = tiny_game.factions.get(code="north"), tiny_game.factions.get(code="south")
    table = services.create(tiny_game, moderator, "Конец", [("north", "Север", north), ("south", "Юг", south)],
                            sit.make_setup(ARMIES), seed=4242)
    deploy_both(table, moderator)
    table.refresh_from_db()
    with tables.locked(table.pk) as t:
        tables.finish(t, {"winner": "north", "ended_by": "rout", "losses": {}}, moderator)
    assert check(table, seats, client_for) == {"undo"}
    page = client_for(moderator).get(reverse("redplains:table", args=[table.game_id, table.pk])).content.decode()
    assert "data-override" not in page


def test_a_refusal_is_the_table_page_with_the_message_and_a_reload_goes_back_to_it(table, moderator, player,
                                                                                  client_for):
    from tests.redplains_table.conftest import deploy_both
    deploy_both(table, moderator)
    services.roll(table.pk, player, "north")
    client = client_for(player)
    url = reverse("redplains:act", args=[table.game_id, table.pk, "roll"])
    r = client.post(url, {"side": "north", "source": "server"})           # «Бросить» again: not a re-roll
    assert r.status_code == 400
    text = r.content.decode()
    assert "data-refusal" in text and "переброс гонцом — отдельной кнопкой" in text and "data-side-panel" in text
    back = client.get(url)
    assert back.status_code == 302 and back.url == reverse("redplains:table", args=[table.game_id, table.pk])
    table.refresh_from_db()
    assert len(services.current(table)["command"]["north"]["rolls"]) == 1


def test_a_second_press_with_the_same_key_is_already_done(table, moderator, player, client_for):
    from larp.tables.models import Press, Step
    from tests.redplains_table.conftest import deploy_both
    deploy_both(table, moderator)
    client = client_for(player)
    url = reverse("redplains:act", args=[table.game_id, table.pk, "stake"])
    for stake in ("low", "high"):                                # the second press names another stake: same key
        r = client.post(url, {"side": "north", "stake": stake, "act_key": "k1"}, follow=True)
        assert r.status_code == 200
    assert "Уже сделано" in r.content.decode()
    assert Step.objects.filter(table=table, kind="stake").count() == 1 and Press.objects.filter(table=table).count() == 1
    table.refresh_from_db()
    assert services.current(table)["command"]["north"]["stake"] == "low"


def test_a_roll_that_gave_no_special_order_offers_none(table, moderator, player, client_for):
    """Special orders were selectable with none left: now each is greyed with the reason; ordinary ones stay."""
    from tests.redplains_table.conftest import deploy_both
    deploy_both(table, moderator)
    services.roll(table.pk, moderator, "north", hand=[1, 1])                # the low stake failed: 0 special
    table.refresh_from_db()
    state = services.current(table)
    assert state["command"]["north"]["result"]["orders"]["special"] == 0
    options = sit.order_options(table.setup, state, "north")["n1"]
    assert all(o["refused"] for o in options if o["order"]["kind"] == "special")
    assert any(o["refused"] is None for o in options if o["order"]["kind"] == "ordinary")
    assert any(o["refused"]["reason"] == "not_enough_special" for o in options if o["order"]["kind"] == "special")
    services.undo(table.pk, moderator, "бросок заново")
    services.stake(table.pk, moderator, "north", "high")
    services.roll(table.pk, moderator, "north", hand=[6, 6])               # high stake made: 2 special
    table.refresh_from_db()
    options = sit.order_options(table.setup, services.current(table), "north")["n1"]
    assert any(o["refused"] is None for o in options if o["order"]["kind"] == "special")
