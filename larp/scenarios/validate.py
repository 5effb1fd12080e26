"""Every check a scenario must pass before it becomes a game (R1, R2, the map graph, the JSON Schema).

Problems are collected, never raised one by one: a moderator fixing a file
wants the whole list. Each names the place with the file's own ids. A
problem's text is an English template and its values: `str(problem)` reads
it in English (logs, tests), `problem.localized()` in the user's language
(the console, the command line; Russian by default, locale/ru/translations/
scenarios.json). When these checks find nothing, the file is checked against
the shipped JSON Schema too (scenario.schema.json: unknown keys, misspelt
ones), so a file that passes here passes any tool that reads the schema.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from django.utils.translation import gettext, gettext_noop

ID_RE = re.compile(r"^[a-z][a-z0-9_\-]*$")
COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
DEFAULT_ARMY_MAX_MEN = 60000
SCHEMA_PATH = Path(__file__).resolve().parent / "scenario.schema.json"
SAME_POINT_DEGREES = 0.001  # two places closer than this (about 100 m) are on the same point of the map
SAME_POINT_PIXELS = 4       # on a map picture: two points closer than this in both directions


@dataclass(frozen=True)
class Problem:
    where: str
    message: str
    params: dict = field(default_factory=dict, compare=False, hash=False)
    place: str = field(default="", compare=False, hash=False)  # the id of the province or sea zone it is about

    @property
    def target(self) -> str:
        """The province or sea zone the problem is about (the editor shows it on the map), or ""."""
        if self.place:
            return self.place
        m = re.match(r"^provinces (\S+)$", self.where)
        return m.group(1) if m else ""

    @property
    def faction(self) -> str:
        """The faction the problem is about, or ""."""
        m = re.match(r"^factions (\S+)", self.where)
        return m.group(1) if m else ""

    def __str__(self) -> str:
        return f"{self.where}: {self.message % self.params if self.params else self.message}"

    def localized(self) -> str:
        """The problem in the active language: the place and what to do."""
        text = gettext(self.message)
        params = {k: gettext(v) if isinstance(v, _Word) else v for k, v in self.params.items()}
        return f"{localized_place(self.where)}: {text % params if params else text}"


# The place as the file names it -> in the user's words (the ids stay as they are in the file).
_PLACES = [
    (re.compile(r"^factions (?P<id>\S+) (?P<kind>army|fleet) #(?P<n>\d+)(?P<rest>.*)$"),
     lambda m: (gettext("faction %(id)s, army no. %(n)s in the list") if m["kind"] == "army"
                else gettext("faction %(id)s, fleet no. %(n)s in the list")) % m.groupdict() + _rest(m["rest"])),
    (re.compile(r"^factions (?P<id>\S+) (?P<kind>army|fleet) (?P<n>\d+)(?P<rest>.*)$"),
     lambda m: (gettext("faction %(id)s, army %(n)s") if m["kind"] == "army"
                else gettext("faction %(id)s, fleet %(n)s")) % m.groupdict() + _rest(m["rest"])),
    (re.compile(r"^factions (?P<id>\S+)$"), lambda m: gettext("faction %(id)s") % m.groupdict()),
    (re.compile(r"^provinces (?P<id>\S+)$"), lambda m: gettext("province or sea zone %(id)s") % m.groupdict()),
    (re.compile(r"^troop_types (?P<id>\S+)$"), lambda m: gettext("troop type %(id)s") % m.groupdict()),
    (re.compile(r"^adjacency\[(?P<i>\d+)\](?P<rest>.*)$"),
     lambda m: gettext("border no. %(n)s in adjacency") % {"n": int(m["i"]) + 1} + m["rest"]),
]


def _rest(rest: str) -> str:
    m = re.match(r"^ commander #(\d+)$", rest)
    return gettext(", commander no. %(n)s") % {"n": m.group(1)} if m else rest


def localized_place(where: str) -> str:
    for rx, words in _PLACES:
        m = rx.match(where)
        if m:
            return words(m)
    return where


class ScenarioError(Exception):
    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))

    def localized(self) -> list[str]:
        return [p.localized() for p in self.problems]


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _text(value) -> bool:
    return isinstance(value, str) and value.strip() != ""


class _Collector:
    def __init__(self):
        self.problems: list[Problem] = []

    def add(self, where: str, message: str, _place: str = "", **params) -> None:
        self.problems.append(Problem(where, message, params, place=_place if isinstance(_place, str) else ""))

    def need(self, ok: bool, where: str, message: str, _place: str = "", **params) -> bool:
        if not ok:
            self.add(where, message, _place, **params)
        return ok


def _list(c: _Collector, data: dict, key: str) -> list:
    value = data.get(key)
    if value is None:
        c.add(key, gettext_noop("missing"))
        return []
    if not isinstance(value, list):
        c.add(key, gettext_noop("must be a list"))
        return []
    return value


def _items_with_ids(c: _Collector, items: list, what: str) -> dict[str, dict]:
    """Index items by id, reporting bad and duplicate ids."""
    seen: dict[str, dict] = {}
    for i, item in enumerate(items):
        where = f"{what}[{i}]"
        if not c.need(isinstance(item, dict), where, gettext_noop("must be a mapping")):
            continue
        ident = item.get("id")
        if not c.need(isinstance(ident, str) and ID_RE.match(ident) is not None, where,
                      gettext_noop("bad id %(ident)s"), ident=repr(ident)):
            continue
        if not c.need(ident not in seen, f"{what} {ident}", gettext_noop("duplicate id")):
            continue
        seen[ident] = item
    return seen


def validate(data: dict) -> list[Problem]:
    """Every problem of the scenario, named by the file's own ids; never raises."""
    c = _Collector()
    try:
        return _validate(data, c)
    except (TypeError, AttributeError, KeyError, IndexError, ValueError) as exc:
        # A value of a type no check expected (a list where an id goes, a number where a list goes):
        # the problems found so far, and one saying the file's shape is wrong.
        return c.problems + [Problem("scenario", f"a value has the wrong type or shape ({type(exc).__name__}: "
                                                 f"{exc}); compare the file with larp/scenarios/tiny.yaml")]


def _validate(data: dict, c: "_Collector") -> list[Problem]:
    if not isinstance(data, dict):
        return [Problem("scenario", gettext_noop("the top level must be a mapping"))]
    scenario = data.get("scenario")
    if c.need(isinstance(scenario, dict), "scenario", gettext_noop("missing or not a mapping")):
        c.need(isinstance(scenario.get("id"), str) and ID_RE.match(scenario.get("id") or "") is not None,
               "scenario.id", gettext_noop("missing or not an id"))
        c.need(_text(scenario.get("name_ru")), "scenario.name_ru", gettext_noop("missing"))

    rules = data.get("rules") or {}
    if not c.need(isinstance(rules, dict), "rules", gettext_noop("must be a mapping")):
        rules = {}
    max_men = rules.get("army_max_men", DEFAULT_ARMY_MAX_MEN)
    if not c.need(_is_int(max_men) and max_men > 0, "rules.army_max_men",
                  gettext_noop("must be a positive whole number")):
        max_men = DEFAULT_ARMY_MAX_MEN
    specials = rules.get("specials") or {}
    if not c.need(isinstance(specials, dict), "rules.specials", gettext_noop("must be a mapping")):
        specials = {}
    _check_loss_table(c, rules)

    troop_types = _items_with_ids(c, _list(c, data, "troop_types"), "troop_types")
    for tid, t in troop_types.items():
        where = f"troop_types {tid}"
        c.need(t.get("domain") in ("land", "naval"), where, gettext_noop("domain must be land or naval"))
        c.need(_is_int(t.get("power")) and t["power"] > 0, where, gettext_noop("power must be a positive whole number"))
        c.need(_is_int(t.get("men")) and t["men"] > 0, where, gettext_noop("men must be a positive whole number"))
        c.need(_text(t.get("name_ru")), where, gettext_noop("name_ru missing"))
        if "supply" in t and t["supply"] is not None:
            c.need(_is_int(t["supply"]) and t["supply"] >= 0, where, gettext_noop("supply must be a whole number >= 0"))
    land_types = {k for k, t in troop_types.items() if t.get("domain") == "land"}
    naval_types = {k for k, t in troop_types.items() if t.get("domain") == "naval"}
    _check_tables(c, rules.get("tables"), land_types)

    factions = _items_with_ids(c, _list(c, data, "factions"), "factions")
    provinces = _items_with_ids(c, _list(c, data, "provinces"), "provinces")
    if isinstance(data.get("provinces"), list) and not data["provinces"]:
        c.add("provinces", gettext_noop("the map has no place yet: add its provinces and sea zones"))
    if isinstance(data.get("factions"), list) and not data["factions"]:
        c.add("factions", gettext_noop("no faction yet: add the factions that play"))

    land: set[str] = set()
    seas: set[str] = set()
    for pid, p in provinces.items():
        where = f"provinces {pid}"
        domain = p.get("domain")
        if not c.need(domain in ("land", "sea"), where,
                      gettext_noop("domain must be land or sea, not %(domain)s"), domain=repr(domain)):
            continue
        (land if domain == "land" else seas).add(pid)
        c.need(_text(p.get("name_ru")), where, gettext_noop("name_ru missing"))
        c.need(_is_number(p.get("lat")) and _is_number(p.get("lon")), where,
               gettext_noop("lat and lon must be numbers"))
        owner = p.get("owner")
        garrison = p.get("garrison") or []
        if not c.need(isinstance(garrison, list), where, gettext_noop("garrison must be a list")):
            garrison = []
        if domain == "sea":
            c.need(owner is None, where,
                   gettext_noop("a sea zone cannot have an owner (has %(owner)s)"), owner=repr(owner))
            c.need(not p.get("fortress"), where, gettext_noop("a sea zone cannot have a fortress"))
            c.need(not garrison, where, gettext_noop("a sea zone cannot have a garrison"))
            c.need(not p.get("special"), where, gettext_noop("a sea zone cannot have a city special"))
            continue
        c.need(owner is None or owner in factions, where,
               gettext_noop("owner %(owner)s is not a faction id"), owner=repr(owner))
        c.need(isinstance(p.get("fortress", False), bool), where, gettext_noop("fortress must be true or false"))
        if garrison:
            c.need(bool(p.get("fortress")), where, gettext_noop("a garrison needs a fortress"))
        for g in garrison:
            if g not in troop_types:
                c.add(where, gettext_noop("garrison: unknown troop type %(g)s"), g=repr(g))
            elif g not in land_types:
                c.add(where, gettext_noop("garrison: %(g)s is a naval troop type"), g=g)
        special = p.get("special")
        if special is not None:
            c.need(special in specials, where,
                   gettext_noop("special %(special)s is not defined under rules.specials"), special=repr(special))

    _check_points(c, provinces)
    _check_names(c, data, provinces)
    neighbours = _check_adjacency(c, _list(c, data, "adjacency"), provinces, land, seas)

    for pid in sorted(land):
        if not neighbours[pid]:
            c.add(f"provinces {pid}", gettext_noop("touches no province and no sea zone"))
    for sid in sorted(seas):
        if not (neighbours[sid] & land):
            c.add(f"provinces {sid}", gettext_noop("a sea zone that touches no land province"))
    _check_reachable(c, provinces, land | seas, neighbours)

    capitals: dict[str, str] = {}
    for fid, f in factions.items():
        where = f"factions {fid}"
        c.need(_text(f.get("name_ru")), where, gettext_noop("name_ru missing"))
        c.need(isinstance(f.get("colour"), str) and COLOUR_RE.match(f["colour"]) is not None,
               where, gettext_noop("colour %(colour)s is not like #1a237e"), colour=repr(f.get('colour')))
        c.need(isinstance(f.get("crusader", False), bool), where, gettext_noop("crusader must be true or false"))
        cap = f.get("capital")
        if c.need(cap in provinces, where, gettext_noop("capital %(cap)s is not a province id"), cap=repr(cap)):
            c.need(cap in land, where, gettext_noop("capital %(cap)s is a sea zone"), _place=cap, cap=cap)
            c.need(provinces[cap].get("owner") == fid, where,
                   gettext_noop("capital %(cap)s is owned by %(owner)s, not %(fid)s: give %(cap)s to %(fid)s or choose "
                                "another capital"), _place=cap,
                   cap=cap, owner=repr(provinces[cap].get("owner")), fid=fid)
            if cap in capitals:
                c.add(where,
                      gettext_noop("capital %(cap)s is already the capital of %(other)s"), _place=cap, cap=cap, other=capitals[cap])
            capitals[cap] = fid
        for sp in f.get("specials") or []:
            c.need(sp in specials, where,
                   gettext_noop("special %(sp)s is not defined under rules.specials"), sp=repr(sp))
        owned = {pid for pid in land if provinces[pid].get("owner") == fid}
        if not owned:
            c.add(where, gettext_noop("owns no province: give it its capital and its starting provinces"))
        _check_armies(c, f, fid, owned, provinces, land, troop_types, land_types, max_men)
        _check_fleets(c, f, fid, owned, provinces, seas, neighbours, troop_types, naval_types)
    _check_colours(c, factions)
    _check_relations(c, data.get("relations"), factions)
    if not c.problems:
        c.problems += schema_problems(data)
    return c.problems


def _check_relations(c: _Collector, relations, factions: dict[str, dict]) -> None:
    """Relations at the start (R1): an alliance of two factions, a passage granted by one to another, each once."""
    if relations is None:
        return
    if not c.need(isinstance(relations, list), "relations", gettext_noop("must be a list")):
        return
    seen: set = set()
    for i, rel in enumerate(relations):
        where = f"relations[{i}]"
        if not c.need(isinstance(rel, dict), where, gettext_noop("must be a mapping")):
            continue
        kind = rel.get("kind")
        if kind == "alliance":
            pair = rel.get("factions")
            if not c.need(isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair),
                          where, gettext_noop("an alliance names two factions: factions: [a, b]")):
                continue
            key = ("alliance", frozenset(pair))
        elif kind == "passage":
            pair = [rel.get("from"), rel.get("to")]
            if not c.need(all(isinstance(x, str) for x in pair), where,
                          gettext_noop("a passage names the faction that grants it (from) and the one that may "
                                       "pass (to)")):
                continue
            key = ("passage", tuple(pair))
        else:
            c.add(where, gettext_noop("kind must be alliance or passage, not %(kind)s"), kind=repr(kind))
            continue
        unknown = [x for x in pair if x not in factions]
        if unknown:
            c.add(where, gettext_noop("unknown faction %(ids)s"), ids=", ".join(unknown))
            continue
        if not c.need(pair[0] != pair[1], f"factions {pair[0]}", gettext_noop("a relation of a faction with itself")):
            continue
        c.need(key not in seen, f"factions {pair[0]}", gettext_noop("the same relation with %(other)s twice"),
               other=pair[1])
        seen.add(key)


def _check_reachable(c: _Collector, provinces: dict[str, dict], places: set[str],
                     neighbours: dict[str, set[str]]) -> None:
    """The map is one piece: a place cut off from the rest (with its own few neighbours) cannot be reached.

    The largest piece is the map; every place of a smaller piece that has borders at all is named (a place with
    no border is named above already).
    """
    seen: set[str] = set()
    pieces: list[list[str]] = []
    for start in sorted(places):
        if start in seen:
            continue
        piece, todo = [], [start]
        seen.add(start)
        while todo:
            here = todo.pop()
            piece.append(here)
            for nxt in sorted(neighbours.get(here, ())):
                if nxt in places and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        pieces.append(sorted(piece))
    if len(pieces) < 2:
        return
    pieces.sort(key=lambda p: (-len(p), p))
    main = pieces[0]
    for piece in pieces[1:]:
        if len(piece) < 2:
            continue  # no border at all: already named
        for pid in piece:
            c.add(f"provinces {pid}",
                  gettext_noop("cannot be reached from %(main)s and the rest of the map (it is cut off with "
                               "%(with)s): draw a border from this part to the rest"),
                  main=main[0], **{"with": ", ".join(p for p in piece if p != pid)})


# --- colours: two factions must be told apart on the map, also by colour-blind players -------------------

SAME_COLOUR_DELTA_E = 20.0        # CIE76 distance (in CIELAB) below which two faction colours look alike
COLOUR_BLIND_DELTA_E = 8.0        # the same after a colour-blind simulation (red-green and blue-yellow): eleven
                                  # factions (latin-east-1204) cannot all stand further apart for every dichromat
# Viénot, Brettel & Mollon (1999) / Machado et al. (2009), severity 1: linear RGB -> what a dichromat sees.
_DICHROMATS = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def _linear(colour: str) -> tuple[float, float, float]:
    def one(v):
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    return tuple(one(int(colour[i:i + 2], 16)) for i in (1, 3, 5))


def _lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (min(1.0, max(0.0, v)) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _simulate(rgb, matrix):
    return tuple(sum(m * v for m, v in zip(row, rgb)) for row in matrix)


def colour_distance(a: str, b: str, vision: str | None = None) -> float:
    """CIE76 ΔE between two #rrggbb colours, as seen with normal vision or by a dichromat (`_DICHROMATS`)."""
    ra, rb = _linear(a), _linear(b)
    if vision:
        ra, rb = _simulate(ra, _DICHROMATS[vision]), _simulate(rb, _DICHROMATS[vision])
    la, lb = _lab(ra), _lab(rb)
    return sum((p - q) ** 2 for p, q in zip(la, lb)) ** 0.5


def colours_alike(a: str, b: str) -> str | None:
    """None when two faction colours are told apart; otherwise who cannot tell them apart."""
    if colour_distance(a, b) < SAME_COLOUR_DELTA_E:
        return "everyone"
    for vision in _DICHROMATS:
        if colour_distance(a, b, vision) < COLOUR_BLIND_DELTA_E:
            return vision
    return None


_VISION_WORDS = {
    "everyone": gettext_noop("they look alike"),
    "protanopia": gettext_noop("players who do not see red (protanopia) cannot tell them apart"),
    "deuteranopia": gettext_noop("players who do not see green (deuteranopia) cannot tell them apart"),
    "tritanopia": gettext_noop("players who do not see blue (tritanopia) cannot tell them apart"),
}


def _check_colours(c: _Collector, factions: dict[str, dict]) -> None:
    good = [(fid, f["colour"]) for fid, f in factions.items()
            if isinstance(f.get("colour"), str) and COLOUR_RE.match(f["colour"])]
    for i, (fa, ca) in enumerate(good):
        for fb, cb in good[:i]:
            who = colours_alike(ca, cb)
            if who:
                c.add(f"factions {fa}", gettext_noop("its colour %(colour)s is too close to %(other)s's %(other_colour)s "
                                                     "(%(who)s): choose a colour further from it"),
                      colour=ca, other=fb, other_colour=cb, who=_Word(_VISION_WORDS[who]))


class _Word(str):
    """A parameter of a problem that is itself translated when the problem is read in the user's language."""


def picture_size(data: dict) -> tuple[float, float] | None:
    """The map picture's (width, height) in pixels as the scenario gives it (scenario.map_size), or None."""
    size = (data.get("scenario") or {}).get("map_size") if isinstance(data.get("scenario"), dict) else None
    if isinstance(size, list) and len(size) == 2 and all(_is_number(v) and v > 0 for v in size):
        return float(size[0]), float(size[1])
    return None


def label_font(size: tuple[float, float] | None) -> float:
    """The height of a place's name on the map picture, in its pixels (the editor draws names this large)."""
    return max(12.0, max(size) / 70) if size else 14.0


def name_box(x: float, y: float, name: str, font: float) -> tuple[float, float, float, float]:
    """The box a place's name covers on the picture: centred under its point, as the editor draws it."""
    width = max(font, 0.62 * font * len(name))
    top = y + font * 0.7
    return (x - width / 2, top, x + width / 2, top + font * 1.2)


def _check_names(c: _Collector, data: dict, provinces: dict[str, dict]) -> None:
    """On a map picture, two places' names must not cover each other (the points come from the editor)."""
    font = label_font(picture_size(data))
    boxes = []
    for pid, p in provinces.items():
        if _is_number(p.get("x")) and _is_number(p.get("y")) and _text(p.get("name_ru")):
            box = name_box(p["x"], p["y"], p["name_ru"], font)
            for other, ob in boxes:
                o = provinces[other]
                if abs(o["x"] - p["x"]) < SAME_POINT_PIXELS and abs(o["y"] - p["y"]) < SAME_POINT_PIXELS:
                    continue  # on the same point: named once, above
                if box[0] < ob[2] and ob[0] < box[2] and box[1] < ob[3] and ob[1] < box[3]:
                    c.add(f"provinces {pid}", gettext_noop("its name covers the name of %(other)s on the map: move one "
                                                           "of them further apart"), other=other)
                    break
            boxes.append((pid, box))


def _check_points(c: _Collector, provinces: dict[str, dict]) -> None:
    """Two places on the same point of the map cannot both be clicked, drawn or told apart."""
    seen: dict[tuple[int, int], str] = {}
    pixels: list[tuple[str, float, float]] = []
    for pid, p in provinces.items():
        x, y = p.get("x"), p.get("y")
        if _is_number(x) and _is_number(y):
            other = next((o for o, ox, oy in pixels if abs(ox - x) < SAME_POINT_PIXELS and abs(oy - y) < SAME_POINT_PIXELS),
                         None)
            if other:
                c.add(f"provinces {pid}", gettext_noop("on the same point as %(other)s (x %(x)s, y %(y)s): move one of "
                                                       "them to its own place on the map"), other=other, x=x, y=y)
            else:
                pixels.append((pid, x, y))
            continue  # on a picture the points are its pixels; lat and lon only follow them
        elif "x" in p or "y" in p:
            c.add(f"provinces {pid}", gettext_noop("x and y (its point on the map picture) must both be numbers"))
        lat, lon = p.get("lat"), p.get("lon")
        if not (_is_number(lat) and _is_number(lon)):
            continue
        key = (round(lat / SAME_POINT_DEGREES), round(lon / SAME_POINT_DEGREES))
        if key in seen:
            c.add(f"provinces {pid}", gettext_noop("on the same point as %(other)s (lat %(lat)s, lon %(lon)s): "
                                         "move one of them to its own place on the map"),
                  other=seen[key], lat=lat, lon=lon)
        else:
            seen[key] = pid


_SCHEMA = None


def schema() -> dict:
    global _SCHEMA
    if _SCHEMA is None:
        _SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return _SCHEMA


def _schema_place(data: dict, path: list) -> str:
    """A JSON path as the problems name places: `provinces X`, `factions X army 2`, `rules.defence`."""
    if len(path) >= 2 and path[0] in ("provinces", "factions", "troop_types") and isinstance(path[1], int):
        item = data[path[0]][path[1]]
        where = f"{path[0]} {item.get('id')}" if isinstance(item, dict) and item.get("id") else f"{path[0]}[{path[1]}]"
        rest = list(path[2:])
        if len(rest) >= 2 and rest[0] in ("armies", "fleets") and isinstance(rest[1], int):
            unit = item[rest[0]][rest[1]]
            kind = "army" if rest[0] == "armies" else "fleet"
            where += f" {kind} {unit['number']}" if isinstance(unit, dict) and _is_int(unit.get("number")) \
                else f" {kind} #{rest[1] + 1}"
            rest = rest[2:]
        return where + "".join(f".{r}" if isinstance(r, str) else f"[{r}]" for r in rest)
    if len(path) >= 2 and path[0] == "adjacency" and isinstance(path[1], int):
        return f"adjacency[{path[1]}]"
    return ".".join(str(p) for p in path) or "scenario"


def schema_problems(data: dict) -> list[Problem]:
    """The file against scenario.schema.json: what the checks above do not cover (unknown or misspelt keys)."""
    import jsonschema

    problems = []
    validator = jsonschema.Draft202012Validator(schema())
    for error in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
        where = _schema_place(data, list(error.absolute_path))
        if error.validator == "additionalProperties":
            allowed = sorted(error.schema.get("properties", {}))
            extra = sorted(set(error.instance) - set(allowed))
            problems.append(Problem(where, gettext_noop("unknown key %(keys)s: check its spelling "
                                                        "(the keys here are: %(allowed)s)"),
                                    {"keys": ", ".join(extra), "allowed": ", ".join(allowed)}))
        else:
            problems.append(Problem(where,
                                    gettext_noop("does not match the scenario schema: %(error)s (docs/scenarios.md)"),
                                    {"error": error.message}))
    return problems


TABLE_SYSTEMS = ("red-plains", "tactical", "orda")
ORDA_MONGOLS, ORDA_RUS_CHINA = ("north_mongolia", "south_mongolia"), ("rus", "china")


def _check_card_map(c: _Collector, mapping, where: str, land_types: set[str], check) -> None:
    """A map from every land troop type of the scenario to what the system makes of it."""
    if not c.need(isinstance(mapping, dict), where, gettext_noop("must map each land troop type to a unit")):
        return
    for tid in sorted(land_types):
        c.need(tid in mapping, where, gettext_noop("the land troop type %(tid)s has no unit"), tid=tid)
    for tid, unit in mapping.items():
        if c.need(tid in land_types, where, gettext_noop("%(tid)s is not a land troop type"), tid=repr(tid)):
            check(unit, f"{where}.{tid}")


def _check_tables(c: _Collector, tables, land_types: set[str]) -> None:
    """rules.tables: how a battle of the war becomes a table of another system (docs/bridge.md)."""
    if tables is None:
        return
    if not c.need(isinstance(tables, dict), "rules.tables", gettext_noop("must be a mapping of rule systems")):
        return
    for system, conv in tables.items():
        where = f"rules.tables.{system}"
        if not c.need(system in TABLE_SYSTEMS, where,
                      gettext_noop("unknown rule system; one of %(systems)s"), systems=', '.join(TABLE_SYSTEMS)):
            continue
        if not c.need(isinstance(conv, dict), where, gettext_noop("must be a mapping")):
            continue
        sides = conv.get("sides")
        if c.need(isinstance(sides, dict) and all(isinstance(sides.get(k), str) and sides.get(k)
                                                  for k in ("attacker", "defender")),
                  f"{where}.sides", gettext_noop("needs the attacker's and the defender's side ids")):
            c.need(sides["attacker"] != sides["defender"], f"{where}.sides",
                   gettext_noop("the two sides need different ids"))
        size = conv.get("size")
        if c.need(isinstance(size, dict), f"{where}.size", gettext_noop("needs per_power, min and max")):
            c.need(_is_number(size.get("per_power")) and size.get("per_power", 0) > 0, f"{where}.size",
                   gettext_noop("per_power must be a positive number"))
            c.need(_is_int(size.get("min")) and _is_int(size.get("max")) and 1 <= size["min"] <= size["max"],
                   f"{where}.size", gettext_noop("min and max must be whole numbers, 1 <= min <= max"))

        def text(value, w):
            c.need(isinstance(value, str) and bool(value), w, gettext_noop("must name a unit"))

        units = conv.get("units")
        if system == "tactical":
            profiles = conv.get("profiles")
            ids = set()
            if c.need(isinstance(profiles, list) and profiles, f"{where}.profiles",
                      gettext_noop("must list the profiles")):
                ids = {p.get("id") for p in profiles if isinstance(p, dict)}

            def tactical(value, w):
                if c.need(isinstance(value, dict), w, gettext_noop("needs a profile and a formation")):
                    c.need(value.get("profile") in ids, w,
                           gettext_noop("profile %(profile)s is not listed"), profile=repr(value.get('profile')))
                    c.need(isinstance(value.get("formation"), str), w, gettext_noop("needs a formation"))

            _check_card_map(c, units, f"{where}.units", land_types, tactical)
        elif system == "orda":
            # Conquest (O6): the attacker must be the Mongol side (it wins by destroying cities), the defender
            # Rus or China (it wins by exhausting the attacker).
            sides = conv.get("sides") if isinstance(conv.get("sides"), dict) else {}
            c.need(sides.get("attacker") in ORDA_MONGOLS and sides.get("defender") in ORDA_RUS_CHINA,
                   f"{where}.sides", gettext_noop("the attacker is a Mongol faction (north_mongolia, south_mongolia), "
                   "the defender rus or china"))
            if c.need(isinstance(units, dict), f"{where}.units",
                      gettext_noop("needs the attacker's and the defender's tokens")):
                for role in ("attacker", "defender"):
                    _check_card_map(c, units.get(role), f"{where}.units.{role}", land_types, text)
            walls = conv.get("walls")
            if c.need(isinstance(walls, dict), f"{where}.walls",
                      gettext_noop("needs the fortress's and the capital's city")):
                for kind in ("fortress", "capital"):
                    w = walls.get(kind)
                    c.need(isinstance(w, dict) and w.get("kind") in ("city", "capital")
                           and _is_int(w.get("durability")) and w["durability"] > 0,
                           f"{where}.walls.{kind}",
                           gettext_noop("needs kind (city or capital) and a positive durability"))
            c.need(_is_int(conv.get("board_radius")) and conv["board_radius"] >= 2, f"{where}.board_radius",
                   gettext_noop("must be a whole number of at least 2"))
        else:
            _check_card_map(c, units, f"{where}.units", land_types, text)


def _check_loss_table(c: _Collector, rules: dict) -> None:
    bounds = rules.get("band_upper_bounds")
    losses = rules.get("losses")
    if bounds is None and losses is None:
        return
    if not c.need(isinstance(bounds, list) and all(_is_int(b) for b in bounds)
                  and bounds == sorted(set(bounds)), "rules.band_upper_bounds",
                  gettext_noop("must be increasing whole numbers")):
        return
    bands = len(bounds) + 1
    if not c.need(isinstance(losses, dict), "rules.losses", gettext_noop("must be a mapping")):
        return
    c.need(isinstance(losses.get("tie"), list) and len(losses["tie"]) == bands,
           "rules.losses.tie", gettext_noop("needs %(bands)s values, one per band"), bands=bands)
    rows = losses.get("rows") or []
    for i, row in enumerate(rows):
        where = f"rules.losses.rows[{i}]"
        if not c.need(isinstance(row, dict), where, gettext_noop("must be a mapping")):
            continue
        for side in ("winner", "loser"):
            c.need(isinstance(row.get(side), list) and len(row[side]) == bands, where,
                   gettext_noop("%(side)s needs %(bands)s values, one per band"), side=side, bands=bands)
        diff = row.get("difference")
        c.need(isinstance(diff, list) and len(diff) == 2 and all(_is_int(d) for d in diff) and diff[0] <= diff[1],
               where, gettext_noop("difference must be [low, high]"))


def _check_adjacency(c, pairs, provinces, land, seas) -> dict[str, set[str]]:
    neighbours: dict[str, set[str]] = {pid: set() for pid in provinces}
    seen: set[frozenset] = set()
    for i, pair in enumerate(pairs):
        where = f"adjacency[{i}]"
        if not c.need(isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair),
                      where, gettext_noop("must be a pair of ids, got %(pair)s"), pair=repr(pair)):
            continue
        a, b = pair
        where = f"adjacency[{i}] ({a}, {b})"
        unknown = [x for x in (a, b) if x not in provinces]
        if unknown:
            c.add(where, gettext_noop("unknown id %(ids)s"), _place=a if a in provinces else b, ids=', '.join(unknown))
            continue
        if not c.need(a != b, where, gettext_noop("a province next to itself")):
            continue
        key = frozenset((a, b))
        if not c.need(key not in seen, where, gettext_noop("duplicate pair")):
            continue
        seen.add(key)
        if (a in land or a in seas) and (b in land or b in seas):
            neighbours[a].add(b)
            neighbours[b].add(a)
    return neighbours


def _check_armies(c, f, fid, owned, provinces, land, troop_types, land_types, max_men) -> None:
    armies = f.get("armies") or []
    if not c.need(isinstance(armies, list), f"factions {fid}", gettext_noop("armies must be a list")):
        return
    numbers: set = set()
    for j, a in enumerate(armies):
        where = f"factions {fid} army #{j + 1}"
        if not c.need(isinstance(a, dict), where, gettext_noop("must be a mapping")):
            continue
        number = a.get("number")
        if c.need(_is_int(number) and number > 0, where,
                  gettext_noop("number %(number)s must be a positive whole number"), number=repr(number)):
            where = f"factions {fid} army {number}"
            c.need(number not in numbers, where, gettext_noop("duplicate army number"))
            numbers.add(number)
        pid = a.get("province")
        if c.need(pid in provinces, where, gettext_noop("unknown province %(pid)s"), pid=repr(pid)):
            if pid not in land:
                c.add(where, gettext_noop("starts in %(pid)s, a sea zone: put the army on land"), _place=pid, pid=pid)
            elif pid not in owned:
                c.add(where, _place=pid, message=
                      gettext_noop("starts in %(pid)s, outside %(fid)s's land (owner %(owner)s)"),
                      pid=pid, fid=fid, owner=repr(provinces[pid].get('owner')))
        troops = a.get("troops") or []
        men = 0
        for t in troops:
            if t not in troop_types:
                c.add(where, gettext_noop("unknown troop type %(t)s"), t=repr(t))
            elif t not in land_types:
                c.add(where, gettext_noop("%(t)s is a naval card; an army takes land cards only"), t=t)
            else:
                men += int(troop_types[t].get("men") or 0)
        c.need(men <= max_men, where, _place=pid if isinstance(pid, str) else "", message=gettext_noop("%(men)s men; an army may have at most %(max)s (R1): move troops to "
                                         "another army"), men=f"{men:,}".replace(",", " "),
               max=f"{max_men:,}".replace(",", " "))
        for k, cm in enumerate(a.get("commanders") or []):
            cw = f"{where} commander #{k + 1}"
            if c.need(isinstance(cm, dict), cw, gettext_noop("must be a mapping")):
                c.need(_text(cm.get("name_ru")), cw, gettext_noop("name_ru missing"))
                c.need(_is_int(cm.get("power")) and cm["power"] >= 0, cw,
                       gettext_noop("power must be a whole number >= 0"))


def _check_fleets(c, f, fid, owned, provinces, seas, neighbours, troop_types, naval_types) -> None:
    fleets = f.get("fleets") or []
    if not c.need(isinstance(fleets, list), f"factions {fid}", gettext_noop("fleets must be a list")):
        return
    numbers: set = set()
    for j, fl in enumerate(fleets):
        where = f"factions {fid} fleet #{j + 1}"
        if not c.need(isinstance(fl, dict), where, gettext_noop("must be a mapping")):
            continue
        number = fl.get("number")
        if c.need(_is_int(number) and number > 0, where,
                  gettext_noop("number %(number)s must be a positive whole number"), number=repr(number)):
            where = f"factions {fid} fleet {number}"
            c.need(number not in numbers, where, gettext_noop("duplicate fleet number"))
            numbers.add(number)
        sea = fl.get("sea")
        if c.need(sea in provinces, where, gettext_noop("unknown sea zone %(sea)s"), sea=repr(sea)):
            if c.need(sea in seas, where, gettext_noop("%(sea)s is land, not a sea zone"), _place=sea, sea=sea):
                # A fleet claims a coast of its faction: the zone must touch its land.
                c.need(bool(neighbours[sea] & owned), where, _place=sea, message=
                       gettext_noop("%(sea)s touches none of %(fid)s's provinces (no sea link to its coast)"),
                       sea=sea, fid=fid)
        for t in fl.get("troops") or []:
            if t not in troop_types:
                c.add(where, gettext_noop("unknown troop type %(t)s"), t=repr(t))
            elif t not in naval_types:
                c.add(where, gettext_noop("%(t)s is a land card; a fleet takes naval cards only"), t=t)
