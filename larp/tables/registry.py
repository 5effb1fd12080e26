"""Each system's table pages by URL name (strings only: this app imports no system's app).

A system's app registers nothing at import time: it names its pages here, and
pages that are not installed are simply not offered.
"""
from __future__ import annotations

from django.urls import NoReverseMatch, reverse

# system -> (URL name of "new table", URL name of the table's page); both take game_id (and table_id).
PAGES = {
    "red-plains": ("redplains:new", "redplains:table"),
    "tactical": ("tactical:new", "tactical:table"),
    "orda": ("orda:new", "orda:table"),
    "ordonnance": ("ordonnance:new", "ordonnance:table"),
}


def new_url(system: str, game_id: int) -> str | None:
    try:
        return reverse(PAGES[system][0], args=[game_id])
    except (KeyError, NoReverseMatch):
        return None


def table_url(system: str, game_id: int, table_id: int) -> str | None:
    try:
        return reverse(PAGES[system][1], args=[game_id, table_id])
    except (KeyError, NoReverseMatch):
        return None
