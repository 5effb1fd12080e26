"""A table's page opened (a plain GET) reads the table's row once: the seat's check has just read it, with its state
(an Orda table's is tens of KB of JSON), and nothing changed it since. After an act the page reads it again."""
import re

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

TABLE_ROW = re.compile(r'FROM "tables_table"', re.I)


def table_reads(client, path) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200
    return sum(1 for q in queries.captured_queries if TABLE_ROW.search(q["sql"]))


def test_an_orda_page_reads_its_table_once(orda_table, moderator, player, client_for):
    path = reverse("orda:table", args=[orda_table.game_id, orda_table.pk])
    for user in (moderator, player):
        assert table_reads(client_for(user), path) == 1
