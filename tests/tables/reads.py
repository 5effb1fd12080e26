"""How many times a page read a table's row (tests of the tables' pages: the seat's check reads it once)."""
import re

from django.db import connection
from django.test.utils import CaptureQueriesContext

TABLE_ROW = re.compile(r'FROM "tables_table"', re.I)


def table_reads(client, path) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200
    return sum(1 for q in queries.captured_queries if TABLE_ROW.search(q["sql"]))
