"""The tables' shared core: sides and seats, the log with undo, dice on the record, the version pages poll."""
import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from larp.campaign.models import AuditEntry
from larp.dice.models import Roll, fingerprint
from larp.rules import dice as generator
from larp.tables import services
from larp.tables.access import seat, visible_tables
from larp.tables.models import Table
from larp.turns.audit_text import sentence


def test_a_table_commits_its_seed_and_shows_only_the_fingerprint(table):
    assert table.dice.fingerprint == fingerprint(77)
    assert table.dice.label == f"table-{table.pk}"
    assert table.dice.revealed_at is None
    entry = AuditEntry.objects.get(action="table_created")
    assert entry.detail["fingerprint"] == fingerprint(77)
    # The seed in no field: the record holds these four, none of them the seed (the table's id may well read
    # "177" on PostgreSQL, whose ids keep counting across tests, so the text is not searched for "77").
    assert set(entry.detail) == {"table", "title", "system", "fingerprint"} and entry.detail["table"] == table.pk
    assert not {77, "77"} & set(entry.detail.values())


def test_sides_must_differ_and_belong_to_the_game(tiny_game, moderator):
    north = tiny_game.factions.get(code="north")
    with pytest.raises(ValidationError):
        services.create_table(tiny_game, "orda", "x", [("a", "A", north), ("a", "B", None)], moderator)
    with pytest.raises(ValidationError):
        services.create_table(tiny_game, "chess", "x", [("a", "A", None), ("b", "B", None)], moderator)
    assert not Table.objects.exists()


def test_server_dice_take_the_next_counters_and_hand_dice_none(table, moderator):
    with services.locked(table.pk) as t:
        seq = services.next_seq(t)
        values = services.take_dice(t, seq, count=3, purpose="melee", user=moderator)
        services.record(t, "melee", moderator, seq=seq, payload={"dice": values}, summary="схватка")
    assert values == [generator.die(77, k) for k in range(3)]
    with services.locked(table.pk) as t:
        seq = services.next_seq(t)
        hand = services.take_dice(t, seq, hand=[6, 1], user=moderator)
        services.record(t, "melee", moderator, seq=seq, payload={"dice": hand})
    rolls = list(Roll.objects.filter(stream=table.dice).order_by("pk"))
    assert [(r.counter, r.source) for r in rolls] == [(0, "server"), (1, "server"), (2, "server"),
                                                      (None, "hand"), (None, "hand")]
    table.refresh_from_db()
    assert table.status == Table.PLAYING and table.version == 2


def test_undo_marks_the_last_step_and_discards_its_dice_never_reusing_a_counter(table, moderator):
    with services.locked(table.pk) as t:
        values = services.take_dice(t, 1, count=2, user=moderator)
        services.record(t, "volley", moderator, seq=1)
    with services.locked(table.pk) as t:
        with pytest.raises(ValidationError):
            services.undo_last(t, moderator, "  ")
    with services.locked(table.pk) as t:
        step = services.undo_last(t, moderator, "не тот отряд")
    assert step.seq == 1 and step.undone
    assert set(Roll.objects.filter(stream=table.dice).values_list("status", flat=True)) == {Roll.DISCARDED}
    with services.locked(table.pk) as t:
        again = services.take_dice(t, 2, count=2, user=moderator)
    assert [r.counter for r in Roll.objects.filter(stream=table.dice).order_by("pk")] == [0, 1, 2, 3]
    assert again == [generator.die(77, 2), generator.die(77, 3)] and values == [generator.die(77, k) for k in (0, 1)]
    assert services.live_steps(table) == []
    text = sentence(AuditEntry.objects.get(action="table_undo"), {})
    assert text == "Стол «Битва у брода»: шаг 1 отменён."


def test_seats_follow_the_sides(table, tiny_game, moderator, player, other_player, east_player, stranger):
    assert seat(moderator, tiny_game.pk, table.pk).moderator
    assert seat(player, tiny_game.pk, table.pk).side_key == "north"
    assert seat(other_player, tiny_game.pk, table.pk).side_key == "south"
    assert not seat(player, tiny_game.pk, table.pk).may_act_for("south")
    for user in (east_player, stranger):
        with pytest.raises(PermissionDenied):
            seat(user, tiny_game.pk, table.pk)
    assert list(visible_tables(east_player, tiny_game)) == []
    assert list(visible_tables(player, tiny_game)) == [table]


@pytest.mark.parametrize("who, status", [("moderator", 200), ("player", 200), ("other_player", 200),
                                         ("east_player", 403), ("stranger", 403), (None, 302)])
def test_version_and_list_pages_by_role(request, client_for, table, tiny_game, who, status):
    user = request.getfixturevalue(who) if who else None
    c = client_for(user)
    r = c.get(reverse("tables:version", args=[tiny_game.pk, table.pk]))
    assert r.status_code == status
    if status == 200:
        assert r.json()["version"] == table.version
        page = c.get(reverse("tables:list", args=[tiny_game.pk])).content.decode()
        assert "Битва у брода" in page and "Столы" in page
        assert ("Новый стол" in page) == (who == "moderator")


def test_a_table_of_another_game_is_not_found(client_for, table, moderator, tiny_game):
    r = client_for(moderator).get(reverse("tables:version", args=[tiny_game.pk + 999, table.pk]))
    assert r.status_code == 404


def test_an_east_player_sees_no_table_in_the_list(client_for, table, tiny_game, east_player):
    page = client_for(east_player).get(reverse("tables:list", args=[tiny_game.pk])).content.decode()
    assert "Битва у брода" not in page and "Столов пока нет." in page


def test_orda_data_edits_read_as_sentences(tiny_game, moderator):
    from larp.campaign.audit import audit

    entry = audit(tiny_game, moderator, "orda_data_edited", {"data": 1, "title": "Набор клуба"})
    assert sentence(entry, {}) == "«Орда»: изменён набор данных «Набор клуба»."
