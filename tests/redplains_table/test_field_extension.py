"""W2.5 at the table: the moderator adds cells during the battle (a step: replayed, undoable, audited with the
reason); the board, the paper and the engine's moves use them; the deployment stays in the deployment zones."""
from io import BytesIO

import pytest
from django.urls import reverse
from pypdf import PdfReader

from larp.campaign.models import AuditEntry
from larp.redplains import services
from larp.redplains import situation as sit
from larp.redplains.engine.data import load
from larp.tables.models import Step

from .conftest import PLACES, deploy_both, give_turn_one


@pytest.fixture
def edge_table(tiny_game, moderator):
    """Both armies placed; north's ashigaru n3 stands on the east edge (B16) facing east, off the field."""
    setup = sit.make_setup({"north": [{"type": "samurai_spears", "figures": 8}, {"type": "samurai_spears", "figures": 8},
                                      {"type": "ashigaru_spears", "figures": 6}],
                            "south": [{"type": "ashigaru_spears", "figures": 8},
                                      {"type": "ashigaru_spears", "figures": 8}]})
    for u, cell in zip(setup["units"], ("A11", "B11", "B16", "C36", "D36")):
        u["cell"] = cell
    setup["units"][2]["facing"] = "E"
    return services.create(tiny_game, moderator, "Край поля", [
        ("north", "Север", tiny_game.factions.get(code="north")),
        ("south", "Юг", tiny_game.factions.get(code="south"))], setup, seed=77)


def play_turn(table, moderator, player, north_orders):
    services.roll(table.pk, player, "north", hand=None)
    services.give_orders(table.pk, player, "north", north_orders)
    services.confirm(table.pk, player, "north")
    services.roll(table.pk, moderator, "south", hand=[3, 3])
    services.confirm(table.pk, moderator, "south")
    services.execute(table.pk, moderator)


MOVE_N3 = [{"unit": "n3", "slot": 1, "kind": "ordinary", "type": "move"}]


def test_labels_of_added_cells_follow_the_field_s_own_rule():
    assert all(sit.extra_label(col, row) == label for label, (col, row) in load().cells.items())
    assert sit.extra_label(13, 3) == "B17" and sit.extra_label(0, 6) == "C37" and sit.extra_label(6, 0) == "A41"
    assert sit.extra_label(1, 7) == "C46" and sit.extra_label(-3, 1) == "A3-10"


def test_a_unit_moves_into_an_added_cell_and_the_state_is_the_replay(edge_table, moderator, player):
    table = edge_table
    assert "B17" in {c["id"] for c in sit.addable(table.setup, table.state)}
    services.extend_field(table.pk, moderator, [(13, 3)], "отряд вышел за край стола")
    table.refresh_from_db()
    assert table.state["extra_cells"] == [{"id": "B17", "col": 13, "row": 3}]
    step = Step.objects.get(table=table, kind="extend")
    assert step.payload == {"cells": [{"col": 13, "row": 3}]} and step.reason == "отряд вышел за край стола"
    entry = AuditEntry.objects.filter(action="table_step").last()
    assert entry.user == moderator and entry.reason == "отряд вышел за край стола"
    assert "B17" in entry.detail["summary"]
    play_turn(table, moderator, player, MOVE_N3)
    table.refresh_from_db()
    n3 = sit.unit_map(table.state)["n3"]
    assert n3["cell"] == "B17"
    assert {"type": "move", "unit": "n3", "from": "B16", "to": "B17"}.items() <= \
        next(e for e in table.state["turns"][0]["events"] if e.get("unit") == "n3").items()
    assert table.state == sit.replay(table.setup, services.step_dicts(table))


def test_without_the_added_cell_the_move_fails(edge_table, moderator, player):
    play_turn(edge_table, moderator, player, MOVE_N3)
    edge_table.refresh_from_db()
    assert sit.unit_map(edge_table.state)["n3"]["cell"] == "B16"


def test_undo_takes_the_cells_away_again(edge_table, moderator):
    services.extend_field(edge_table.pk, moderator, [(13, 3), (13, 2)], "места мало")
    services.undo(edge_table.pk, moderator, "ошибся")
    edge_table.refresh_from_db()
    assert not edge_table.state.get("extra_cells")
    assert Step.objects.get(table=edge_table, kind="extend").undone


def test_cells_must_touch_the_field_and_the_engine_checks_them(edge_table, moderator):
    before = Step.objects.filter(table=edge_table).count()
    for positions in ([(15, 3)], [(6, 3)], [], [(13, 3), (13, 3)], [(13, 3)] * 13):
        with pytest.raises(sit.StepRefused) as refused:
            services.extend_field(edge_table.pk, moderator, positions, "так надо")
        assert refused.value.code == "bad_extra_cells"
    with pytest.raises(sit.StepRefused):
        sit.apply(edge_table.setup, edge_table.state, "extend", "", {"cells": [{"col": "13", "row": [3]}]})
    assert Step.objects.filter(table=edge_table).count() == before
    # a cell added next to an added one: the field grows outward step by step
    services.extend_field(edge_table.pk, moderator, [(13, 3)], "шаг 1")
    services.extend_field(edge_table.pk, moderator, [(14, 3)], "шаг 2")
    edge_table.refresh_from_db()
    assert [c["id"] for c in edge_table.state["extra_cells"]] == ["B17", "B18"]


def test_no_cells_while_a_roll_of_the_execution_is_being_resolved(table, moderator, player, other_player):
    deploy_both(table, moderator)
    give_turn_one(table, moderator, player, other_player)
    services.extend_field(table.pk, moderator, [(0, 3)], "до кубиков можно")
    services.execution_dice(table.pk, moderator)
    with pytest.raises(sit.StepRefused) as refused:
        services.extend_field(table.pk, moderator, [(0, 2)], "посреди броска")
    assert refused.value.code == "extend_now"


def test_deployment_stays_in_the_deployment_zone(table, moderator):
    services.extend_field(table.pk, moderator, [(13, 3)], "на всякий случай")
    state = services.deploy(table.pk, moderator, "north", {**PLACES["north"], "n1": "B17"})
    assert {"unit": "n1", "slot": None, "rule": "W6.1", "reason": "outside_deployment_zone"} in \
        state["deploy_check"]["north"]["refused"]
    assert "B17" not in sit.zone("north")


# ---------------------------------------------------------------------------- the pages
def act(table, action):
    return reverse("redplains:act", args=[table.game_id, table.pk, action])


def page_of(client, table, name="table"):
    r = client.get(reverse(f"redplains:{name}", args=[table.game_id, table.pk]))
    assert r.status_code == 200
    return r.content.decode()


def test_only_the_moderator_adds_cells(edge_table, moderator, player, other_player, east_player, stranger,
                                       client_for):
    data = {"cells": ["B17"], "reason": "тесно"}
    for user, code in ((player, 403), (other_player, 403), (east_player, 403), (stranger, 403), (None, 302)):
        assert client_for(user).post(act(edge_table, "extend"), data).status_code == code
    assert not Step.objects.filter(table=edge_table, kind="extend").exists()
    assert 'data-add-cell="B17"' not in page_of(client_for(player), edge_table)
    assert 'data-add-cell="B17"' in page_of(client_for(moderator), edge_table)
    r = client_for(moderator).post(act(edge_table, "extend"), data)
    assert r.status_code == 302
    assert Step.objects.get(table=edge_table, kind="extend").user == moderator
    for client, name in ((client_for(moderator), "table"), (client_for(player), "table"),
                         (client_for(other_player), "table"), (client_for(moderator), "projector")):
        text = page_of(client, edge_table, name)
        assert 'data-cell="B17"' in text and 'class="rp-cell extra north"' in text
    assert 'data-add-cell="B17"' not in page_of(client_for(moderator), edge_table)
    assert 'data-add-cell="B18"' in page_of(client_for(moderator), edge_table)
    # the override's cell list has the new cell
    r = client_for(moderator).post(act(edge_table, "override"), {"unit": "n3", "cell": "B17", "reason": "сам ушёл"})
    assert r.status_code == 302
    edge_table.refresh_from_db()
    assert sit.unit_map(edge_table.state)["n3"]["cell"] == "B17"


@pytest.mark.parametrize("data,words", [
    ({"cells": ["Z99"], "reason": "так"}, "из списка"),
    ({"cells": ["B16"], "reason": "так"}, "из списка"),
    ({"reason": "так"}, "Отметьте клетки"),
    ({"cells": ["B17"], "reason": ""}, "Укажите причину"),
    ({"cells": ["B17"] * 3 + ["B15", "X"], "reason": "так"}, "из списка"),
])
def test_hostile_input_adds_nothing(edge_table, moderator, client_for, data, words):
    before = Step.objects.filter(table=edge_table).count()
    r = client_for(moderator).post(act(edge_table, "extend"), data)
    assert r.status_code == 400 and words in r.content.decode()
    assert Step.objects.filter(table=edge_table).count() == before


def test_a_finished_table_takes_no_cells(edge_table, moderator, client_for):
    from larp.tables import services as tables
    tables.cancel(edge_table, moderator, "разошлись")
    r = client_for(moderator).post(act(edge_table, "extend"), {"cells": ["B17"], "reason": "так"})
    assert r.status_code == 400 and not Step.objects.filter(table=edge_table, kind="extend").exists()


def test_the_field_sheet_draws_the_added_cells(edge_table, moderator, client_for):
    services.extend_field(edge_table.pk, moderator, [(13, 3), (0, 4)], "места мало")
    r = client_for(moderator).get(reverse("redplains:sheet", args=[edge_table.game_id, edge_table.pk, "orders"]))
    text = "".join(p.extract_text() for p in PdfReader(BytesIO(r.content)).pages)
    assert "B17" in text and "C17" in text and "A36" in text and "D36" in text
