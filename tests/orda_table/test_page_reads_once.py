"""A table's page opened (a plain GET) reads the table's row once: the seat's check has just read it, with its state
(an Orda table's is tens of KB of JSON), and nothing changed it since. After an act the page reads it again."""
from django.urls import reverse

from tests.tables.reads import table_reads


def test_an_orda_page_reads_its_table_once(orda_table, moderator, player, client_for):
    path = reverse("orda:table", args=[orda_table.game_id, orda_table.pk])
    for user in (moderator, player):
        assert table_reads(client_for(user), path) == 1
