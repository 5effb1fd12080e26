"""The data a moderator transcribes from the physical «Орда» (O23): one document, validated at the door.

The document (stored in `DataSet.data`, exported and imported as YAML):

    format: orda-data/1
    title: "Наша коробка"
    test_data: false            # true only for a set made up for the tests, never the physical game's numbers
    stats:                      # faction -> kind -> printed values; null = not entered yet
      rus: {axe_retainer: {health: null, attack: 3, defence: 3, speed: 1, summon: null, range: null}, ...}
    board: [[q, r], ...]        # the board's hexes (axial coordinates, O2)
    capitals: {blue: [q, r], red: ..., green: ..., yellow: ...}     # capital hexes by colour (O4)
    cities: {dark_blue: [[q, r], ...], dark_red: [...]}             # city hexes (Conquest, O6)
    borders: {red: [[q, r], ...], green: [...]}   # the hexes beyond each line (the Rus/China side, O6)
    durability: {capital: null, city: null}       # O20
    indicator_cells: null                          # the summon indicator's length (informative, O11)
    events: {e01: null, ..., e24: null}           # the event cards' texts (O10)

The five printed values the source gives (O7) come filled in from orda.yaml;
everything else starts null. Nothing here invents a number.
"""
from __future__ import annotations

from typing import Any

import yaml
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from larp.orda.engine.data import STATS, load

FORMAT = "orda-data/1"
CAPITAL_COLOURS = ("blue", "red", "green", "yellow")
CITY_COLOURS = ("dark_blue", "dark_red")
LINES = ("red", "green")
EVENTS = tuple(f"e{n:02d}" for n in range(1, 25))
MAX_HEXES = 800
MAX_COORD = 30


def blank(title: str = "") -> dict:
    """A new data set: every printed value the source gives, every other value null."""
    data = load()
    return {"format": FORMAT, "title": title, "test_data": False,
            "stats": {f: {k.id: {s: (k.stats[s] if s != "range" or k.cls == "ranged" else None) for s in STATS}
                          for k in kinds.values()} for f, kinds in data.kinds.items()},
            "board": [], "capitals": {c: None for c in CAPITAL_COLOURS}, "cities": {c: [] for c in CITY_COLOURS},
            "borders": {line: [] for line in LINES}, "durability": {"capital": None, "city": None},
            "indicator_cells": None, "events": {e: None for e in EVENTS}}


def _int(value: Any, where: str, lo: int, hi: int, *, nullable: bool = True) -> int | None:
    if value is None or value == "":
        if nullable:
            return None
        raise ValidationError(_("%(where)s: a value is required.") % {"where": where})
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError(_("%(where)s: a whole number is expected.") % {"where": where})
    if not lo <= value <= hi:
        raise ValidationError(_("%(where)s: %(value)s is outside %(lo)s–%(hi)s.")
                              % {"where": where, "value": value, "lo": lo, "hi": hi})
    return value


def _hex(value: Any, where: str) -> list[int]:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ValidationError(_("%(where)s: a hex [q, r] is expected.") % {"where": where})
    return [_int(value[0], where, -MAX_COORD, MAX_COORD, nullable=False),
            _int(value[1], where, -MAX_COORD, MAX_COORD, nullable=False)]


def _hexes(value: Any, where: str) -> list[list[int]]:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_HEXES:
        raise ValidationError(_("%(where)s: a list of hexes is expected.") % {"where": where})
    out = []
    for h in value:
        h = _hex(h, where)
        if h not in out:
            out.append(h)
    return out


def clean(raw: Any) -> dict:
    """The document checked and normalised (ValidationError in the user's language naming the field)."""
    if not isinstance(raw, dict):
        raise ValidationError(_("The data must be a mapping (the YAML this page exports)."))
    if raw.get("format", FORMAT) != FORMAT:
        raise ValidationError(_("Unknown data format: %(fmt)s.") % {"fmt": str(raw.get("format"))[:40]})
    engine = load()
    out = blank(str(raw.get("title") or "")[:200])
    out["test_data"] = bool(raw.get("test_data", False))
    stats = raw.get("stats") or {}
    if not isinstance(stats, dict):
        raise ValidationError(_("stats: a mapping of factions is expected."))
    for f, kinds in stats.items():
        if f not in engine.kinds:
            raise ValidationError(_("stats: unknown faction %(f)s.") % {"f": str(f)[:40]})
        if not isinstance(kinds, dict):
            raise ValidationError(_("stats.%(f)s: a mapping of kinds is expected.") % {"f": f})
        for k, values in kinds.items():
            if k not in engine.kinds[f]:
                raise ValidationError(_("stats.%(f)s: unknown kind %(k)s.") % {"f": f, "k": str(k)[:40]})
            if not isinstance(values, dict):
                raise ValidationError(_("stats.%(f)s.%(k)s: a mapping of values is expected.") % {"f": f, "k": k})
            for s, v in values.items():
                if s not in STATS:
                    raise ValidationError(_("stats.%(f)s.%(k)s: unknown parameter %(s)s.")
                                          % {"f": f, "k": k, "s": str(s)[:40]})
                where = f"stats.{f}.{k}.{s}"
                lo, hi = {"health": (1, 4), "summon": (1, 20)}.get(s, (0, 20))
                if s == "range" and engine.kinds[f][k].cls != "ranged":
                    v = None
                out["stats"][f][k][s] = _int(v, where, lo, hi)
    out["board"] = _hexes(raw.get("board"), "board")
    board = {tuple(h) for h in out["board"]}

    def on_board(h, where):
        if h is not None and tuple(h) not in board:
            raise ValidationError(_("%(where)s: the hex %(hex)s is not on the board.") % {"where": where, "hex": h})
        return h

    caps = raw.get("capitals") or {}
    if not isinstance(caps, dict):
        raise ValidationError(_("capitals: a mapping of colours is expected."))
    for colour, h in caps.items():
        if colour not in CAPITAL_COLOURS:
            raise ValidationError(_("capitals: unknown colour %(c)s.") % {"c": str(colour)[:40]})
        out["capitals"][colour] = None if h is None else on_board(_hex(h, f"capitals.{colour}"), f"capitals.{colour}")
    cities = raw.get("cities") or {}
    if not isinstance(cities, dict):
        raise ValidationError(_("cities: a mapping of colours is expected."))
    for colour, hexes in cities.items():
        if colour not in CITY_COLOURS:
            raise ValidationError(_("cities: unknown colour %(c)s.") % {"c": str(colour)[:40]})
        out["cities"][colour] = [on_board(h, f"cities.{colour}") for h in _hexes(hexes, f"cities.{colour}")]
    borders = raw.get("borders") or {}
    if not isinstance(borders, dict):
        raise ValidationError(_("borders: a mapping of lines is expected."))
    for line, hexes in borders.items():
        if line not in LINES:
            raise ValidationError(_("borders: unknown line %(l)s.") % {"l": str(line)[:40]})
        out["borders"][line] = [on_board(h, f"borders.{line}") for h in _hexes(hexes, f"borders.{line}")]
    places = [tuple(h) for h in out["capitals"].values() if h] + [tuple(h) for v in out["cities"].values() for h in v]
    if len(places) != len(set(places)):
        raise ValidationError(_("Two capitals or cities on one hex."))
    dur = raw.get("durability") or {}
    if not isinstance(dur, dict):
        raise ValidationError(_("durability: a mapping is expected."))
    for key in ("capital", "city"):
        out["durability"][key] = _int(dur.get(key), f"durability.{key}", 1, 100)
    out["indicator_cells"] = _int(raw.get("indicator_cells"), "indicator_cells", 1, 30)
    events = raw.get("events") or {}
    if not isinstance(events, dict):
        raise ValidationError(_("events: a mapping of cards is expected."))
    for e, text in events.items():
        if e not in EVENTS:
            raise ValidationError(_("events: unknown card %(e)s.") % {"e": str(e)[:40]})
        out["events"][e] = None if text in (None, "") else str(text)[:1000]
    return out


def from_yaml(text: str) -> dict:
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError:
        raise ValidationError(_("This is not valid YAML.")) from None
    return clean(raw)


def to_yaml(data: dict) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, default_flow_style=None, width=120)


def missing(data: dict, mode: str, factions: list[str], players: int) -> list[str]:
    """Every value a table of this mode and these factions needs that the data set lacks, in Russian words."""
    from larp.orda import labels

    engine = load()
    out = []
    for f in factions:
        for kind in engine.kinds[f].values():
            for s in STATS:
                if s == "range" and kind.cls != "ranged":
                    continue
                if data["stats"][f][kind.id][s] is None:
                    out.append(_("%(faction)s, «%(kind)s»: %(param)s is not entered.")
                               % {"faction": labels.faction(f), "kind": kind.name_ru, "param": labels.param(s)})
    if not data["board"]:
        out.append(_("The board has no hexes."))
    for colour in needed_capitals(factions, players):
        if not data["capitals"].get(colour):
            out.append(_("The %(colour)s capital's hex is not marked.") % {"colour": labels.colour(colour)})
    if data["durability"]["capital"] is None:
        out.append(_("The capitals' durability is not entered."))
    if mode == "conquest":
        if data["durability"]["city"] is None:
            out.append(_("The cities' durability is not entered."))
        for colour in needed_cities(factions, players):
            if len(data["cities"].get(colour) or []) != 3:
                out.append(_("Three %(colour)s city hexes are needed.") % {"colour": labels.colour(colour)})
    if mode == "border":
        line = engine.number("modes", "border", "line_by_players")[players]
        if not data["borders"].get(line):
            out.append(_("The hexes beyond the %(line)s line are not marked.") % {"line": labels.line(line)})
    return out


def capital_colour(faction: str, players: int) -> str:
    """O4: with 2 players the Rus-or-China player starts on blue, the Mongol player on yellow."""
    engine = load()
    if players == 2:
        return engine.number("positions", "two_players")[engine.side_of(faction)]
    return engine.number("factions", faction, "capital_colour")


def needed_capitals(factions: list[str], players: int) -> list[str]:
    return [capital_colour(f, players) for f in factions]


def city_owner(colour: str, factions: list[str], players: int) -> str | None:
    """O6 ruling: 1-v-1 uses the dark-blue cities, owned by the Rus/China player; 2-v-2 all six."""
    engine = load()
    if players == 2:
        if colour != "dark_blue":
            return None
        return next(f for f in factions if engine.side_of(f) == "rus_china")
    return "rus" if colour == "dark_blue" else "china"


def needed_cities(factions: list[str], players: int) -> list[str]:
    return [c for c in CITY_COLOURS if city_owner(c, factions, players)]
