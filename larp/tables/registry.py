"""Each system's table pages by URL name, and its own work on a table another app set up.

This app imports no system's app. Its pages are named here as strings (pages that
are not installed are simply not offered); a system's work on a table made
elsewhere (`larp.bridge`) is a function the system registers at start-up
(`register_prepare`), as `larp.dice.registry` does for the higher apps.
"""
from __future__ import annotations

from typing import Callable

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


# system -> fn(table, user): what the system does, in the maker's transaction, to a table whose `setup` another
# app wrote (the bridge's conversion of a battle of the war): «Орда» takes the printed values its tokens lack
# from the game's data set (docs/orda.md, "Table").
_PREPARE: dict[str, Callable] = {}


def register_prepare(system: str, fn: Callable) -> None:
    _PREPARE[system] = fn


def prepare(table, user) -> None:
    """The system's own preparation of a table set up elsewhere, if it registered one."""
    fn = _PREPARE.get(table.system)
    if fn is not None:
        fn(table, user)


# fn(table) -> a refusal in the user's language, or None: whether a finished table's result has been taken
# elsewhere (the bridge: its result is in the war's turn), so undoing its end would reopen a battle the turn has
# already counted.
_RESULT_TAKEN: list[Callable] = []


def register_result_taken(fn: Callable) -> None:
    if fn not in _RESULT_TAKEN:
        _RESULT_TAKEN.append(fn)


def result_taken(table) -> str | None:
    for fn in _RESULT_TAKEN:
        refusal = fn(table)
        if refusal:
            return refusal
    return None


# system -> fn(game, conversion or None) -> dict: whether the system's own data for this game is ready for the night
# ({"ok", "text", "lines", "url", "url_label", ...}), said on the «Столы» page and on the bridge's send form
# («Орда»: the printed values its data set lacks). `conversion` is the scenario's conversion of a battle of the war
# to the system (docs/bridge.md), as the bridge registers it (`register_conversions`).
_READINESS: dict[str, Callable] = {}
_CONVERSIONS: list[Callable] = []


def register_readiness(system: str, fn: Callable) -> None:
    _READINESS[system] = fn


def register_conversions(fn: Callable) -> None:
    """fn(game) -> {system: conversion}: the game's conversions of a battle of the war (the bridge's)."""
    if fn not in _CONVERSIONS:
        _CONVERSIONS.append(fn)


def readiness(game, system: str | None = None) -> list[dict]:
    """Each system's (or one system's) readiness for this game, as the systems say it."""
    conversions = {}
    for fn in _CONVERSIONS:
        conversions.update(fn(game) or {})
    return [fn(game, conversions.get(code)) for code, fn in _READINESS.items() if system in (None, code)]
