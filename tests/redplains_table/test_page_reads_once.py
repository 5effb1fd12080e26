"""A table's page opened (a plain GET) reads the table's row once: the seat's check has just read it, with its state
(an Orda table's is tens of KB of JSON), and nothing changed it since. After an act the page reads it again."""
from django.urls import reverse

from tests.tables.reads import table_reads

from .conftest import deploy_both


def test_a_red_plains_page_reads_its_table_once_and_shows_what_an_act_changed(table, moderator, player,
                                                                             client_for):
    deploy_both(table, moderator)
    path = reverse("redplains:table", args=[table.game_id, table.pk])
    for user in (moderator, player):
        assert table_reads(client_for(user), path) == 1
    table.refresh_from_db()
    before = table.version
    undo = reverse("redplains:act", args=[table.game_id, table.pk, "undo"])
    response = client_for(moderator).post(undo, {"reason": "ошибка расстановки"}, follow=True)
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.version > before
    assert response.context["table"].version == table.version  # the page after the act shows the table as it is now
