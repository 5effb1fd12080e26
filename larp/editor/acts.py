"""The editor's acts on a scenario's data: each takes the scenario dict and the act's fields and changes the dict.

Pure (no database): `apply(data, act, fields, size)` checks the fields it is given and raises ActError with a
sentence for the user when they are wrong; it never checks the scenario as a whole — that is
larp.scenarios.validate's work, shown after every act. Places stand at pixels of the map picture (`x`, `y`);
their `lat` and `lon` follow (a tenth of a degree per hundredth of the picture), so a game of the scenario
drawn without the picture keeps the same layout.
"""
from __future__ import annotations

import re

from django.utils.translation import gettext as _

from larp.scenarios.validate import COLOUR_RE, ID_RE

DOMAINS = ("land", "sea")
PHASES = ("strategy", "movement", "tactics", "regroup")


class ActError(Exception):
    """A wrong field of an act; the message is in the user's language and says what to do."""


def blank(title: str) -> dict:
    """A new scenario: its name, two troop types to start from, nothing on the map yet."""
    return {
        "scenario": {"id": slug(title) or "scenario", "name_ru": title},
        "rules": {},
        "troop_types": [
            {"id": "infantry", "name_ru": "Пехота", "name_en": "Infantry", "domain": "land", "power": 1,
             "men": 1000},
            {"id": "ships", "name_ru": "Корабли", "name_en": "Ships", "domain": "naval", "power": 1, "men": 500},
        ],
        "factions": [],
        "provinces": [],
        "adjacency": [],
    }


_LATIN = str.maketrans({"а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh",
                        "з": "z", "и": "i", "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p",
                        "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f", "х": "h", "ц": "c", "ч": "ch", "ш": "sh",
                        "щ": "sch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu", "я": "ya"})


def slug(text: str) -> str:
    """An id from a name: lower-case Latin letters, digits and `_`, starting with a letter."""
    s = re.sub(r"[^a-z0-9]+", "_", (text or "").lower().translate(_LATIN)).strip("_")
    s = re.sub(r"^[^a-z]+", "", s)
    return s[:40]


def _new_id(taken, base: str) -> str:
    base = slug(base) or "p"
    if base not in taken:
        return base
    n = 2
    while f"{base}_{n}" in taken:
        n += 1
    return f"{base}_{n}"


def _text(fields: dict, key: str, *, required: bool = True, limit: int = 120) -> str:
    value = (fields.get(key) or "").strip()
    if required and not value:
        raise ActError(_("Write a name."))
    if len(value) > limit:
        raise ActError(_("The name is too long: at most %(n)s characters.") % {"n": limit})
    return value


def _int(fields: dict, key: str, *, low: int = 0, high: int = 10**9) -> int:
    try:
        value = int(str(fields.get(key, "")).strip())
    except ValueError:
        raise ActError(_("Write a whole number.")) from None
    if not low <= value <= high:
        raise ActError(_("Write a whole number from %(low)s to %(high)s.") % {"low": low, "high": high})
    return value


def _point(fields: dict, size: tuple[int, int]) -> tuple[float, float]:
    try:
        x, y = float(fields.get("x")), float(fields.get("y"))
    except (TypeError, ValueError):
        raise ActError(_("Click on the map to place it.")) from None
    if not (0 <= x <= size[0] and 0 <= y <= size[1]):
        raise ActError(_("The point is outside the map: click inside the picture."))
    return round(x, 1), round(y, 1)


def _place(data: dict, pid) -> dict:
    for p in data["provinces"]:
        if p["id"] == pid:
            return p
    raise ActError(_("That place is no longer on the map: the page shows the map as it is now."))


def _faction(data: dict, fid) -> dict:
    for f in data["factions"]:
        if f["id"] == fid:
            return f
    raise ActError(_("That faction is no longer in the scenario: the page shows it as it is now."))


def _follow(p: dict, size: tuple[int, int]) -> None:
    """lat and lon from the point on the picture (the map drawn without the picture keeps the layout)."""
    s = max(size)
    p["lat"] = round(-10 * p["y"] / s, 5)
    p["lon"] = round(10 * p["x"] / s, 5)


def _units(data: dict, fid: str, kind: str) -> list:
    return _faction(data, fid).setdefault("armies" if kind == "army" else "fleets", [])


def _unit(data: dict, fields: dict) -> tuple[dict, list, dict]:
    kind = "fleet" if fields.get("kind") == "fleet" else "army"
    units = _units(data, fields.get("faction"), kind)
    number = _int(fields, "number", low=1)
    for u in units:
        if u.get("number") == number:
            return _faction(data, fields.get("faction")), units, u
    raise ActError(_("That army or fleet is no longer in the scenario: the page shows it as it is now."))


# --- the map --------------------------------------------------------------------------------------------------

def add_place(data, fields, size):
    x, y = _point(fields, size)
    domain = fields.get("domain") if fields.get("domain") in DOMAINS else "land"
    taken = {p["id"] for p in data["provinces"]}
    n = sum(1 for p in data["provinces"] if p["domain"] == domain) + 1
    name = (_("Sea zone %(n)s") if domain == "sea" else _("Province %(n)s")) % {"n": n}
    pid = _new_id(taken, f"{'sea' if domain == 'sea' else 'p'}{n}")
    place = {"id": pid, "name_ru": name, "name_en": "", "domain": domain, "owner": None, "fortress": False,
             "garrison": [], "x": x, "y": y}
    if domain == "sea":
        place.pop("fortress")
        place.pop("garrison")
    _follow(place, size)
    data["provinces"].append(place)
    return pid


def move_place(data, fields, size):
    p = _place(data, fields.get("place"))
    p["x"], p["y"] = _point(fields, size)
    _follow(p, size)
    return p["id"]


def rename_place(data, fields, size):
    p = _place(data, fields.get("place"))
    p["name_ru"] = _text(fields, "name_ru")
    p["name_en"] = _text(fields, "name_en", required=False)
    return p["id"]


def set_place(data, fields, size):
    """The place's kind, owner and fortress, and whether it is its owner's capital."""
    p = _place(data, fields.get("place"))
    domain = fields.get("domain", p["domain"])
    if domain not in DOMAINS:
        raise ActError(_("Choose land or sea."))
    p["domain"] = domain
    if domain == "sea":
        p["owner"] = None
        for key in ("fortress", "garrison", "special"):
            p.pop(key, None)
        for f in data["factions"]:
            if f.get("capital") == p["id"]:
                f["capital"] = None
        return p["id"]
    owner = fields.get("owner") or None
    if owner is not None:
        _faction(data, owner)
    p["owner"] = owner
    p["fortress"] = fields.get("fortress") in ("on", "1", "true", True)
    p.setdefault("garrison", [])
    if not p["fortress"]:
        p["garrison"] = []
    capital = fields.get("capital") in ("on", "1", "true", True)
    for f in data["factions"]:
        if f.get("capital") == p["id"] and (not capital or f["id"] != owner):
            f["capital"] = None
    if capital:
        if owner is None:
            raise ActError(_("A capital belongs to a faction: choose the owner first."))
        _faction(data, owner)["capital"] = p["id"]
    return p["id"]


def delete_place(data, fields, size):
    p = _place(data, fields.get("place"))
    data["provinces"].remove(p)
    data["adjacency"] = [pair for pair in data["adjacency"] if p["id"] not in pair]
    for f in data["factions"]:
        if f.get("capital") == p["id"]:
            f["capital"] = None
    return None


def border(data, fields, size):
    """A border between two places: drawn when there is none, taken away when there is one."""
    a, b = _place(data, fields.get("a"))["id"], _place(data, fields.get("b"))["id"]
    if a == b:
        raise ActError(_("A border joins two different places: click another one."))
    pair = {a, b}
    kept = [pr for pr in data["adjacency"] if set(pr) != pair]
    if len(kept) == len(data["adjacency"]):
        kept.append([a, b])
    data["adjacency"] = kept
    return a


# --- factions and their forces ---------------------------------------------------------------------------------

FACTION_COLOURS = ("#1565c0", "#c62828", "#2e7d32", "#f9a825", "#6a1b9a", "#00838f", "#ef6c00", "#4e342e",
                   "#ad1457", "#37474f")


def add_faction(data, fields, size):
    name = _text(fields, "name_ru")
    fid = _new_id({f["id"] for f in data["factions"]}, fields.get("name_en") or name)
    used = {f.get("colour") for f in data["factions"]}
    colour = next((c for c in FACTION_COLOURS if c not in used), "#555555")
    data["factions"].append({"id": fid, "name_ru": name, "name_en": _text(fields, "name_en", required=False),
                             "colour": colour, "capital": None, "crusader": False, "specials": [],
                             "armies": [], "fleets": []})
    return None


def set_faction(data, fields, size):
    f = _faction(data, fields.get("faction"))
    f["name_ru"] = _text(fields, "name_ru")
    f["name_en"] = _text(fields, "name_en", required=False)
    colour = (fields.get("colour") or "").strip()
    if not COLOUR_RE.match(colour):
        raise ActError(_("Choose the colour with the colour picker (like #1a237e)."))
    f["colour"] = colour.lower()
    capital = fields.get("capital") or None
    if capital is not None:
        _place(data, capital)
    f["capital"] = capital
    f["crusader"] = fields.get("crusader") in ("on", "1", "true", True)
    return capital


def set_provinces(data, fields, size):
    """The faction's starting provinces: exactly the land places ticked."""
    f = _faction(data, fields.get("faction"))
    chosen = set(fields.getlist("provinces") if hasattr(fields, "getlist") else fields.get("provinces") or [])
    for p in data["provinces"]:
        if p["domain"] != "land":
            continue
        if p["id"] in chosen:
            p["owner"] = f["id"]
        elif p.get("owner") == f["id"]:
            p["owner"] = None
    return None


def delete_faction(data, fields, size):
    f = _faction(data, fields.get("faction"))
    data["factions"].remove(f)
    for p in data["provinces"]:
        if p.get("owner") == f["id"]:
            p["owner"] = None
    kept = [r for r in data.get("relations") or []
            if f["id"] not in (r.get("factions") or []) and f["id"] not in (r.get("from"), r.get("to"))]
    if kept:
        data["relations"] = kept
    else:
        data.pop("relations", None)
    return None


def add_relation(data, fields, size):
    """An alliance of two factions, or a passage the first grants the second, at the start (R1)."""
    kind = fields.get("kind")
    a, b = _faction(data, fields.get("a"))["id"], _faction(data, fields.get("b"))["id"]
    if a == b:
        raise ActError(_("A relation joins two different factions: choose another one."))
    if kind == "alliance":
        rel = {"kind": "alliance", "factions": [a, b]}
    elif kind == "passage":
        rel = {"kind": "passage", "from": a, "to": b}
    else:
        raise ActError(_("Choose an alliance or a right of passage."))
    data.setdefault("relations", []).append(rel)
    return None


def delete_relation(data, fields, size):
    relations = data.get("relations") or []
    index = _int(fields, "index", high=max(0, len(relations) - 1))
    if index < len(relations):
        relations.pop(index)
    if not relations:
        data.pop("relations", None)
    return None


def add_unit(data, fields, size):
    kind = "fleet" if fields.get("kind") == "fleet" else "army"
    units = _units(data, fields.get("faction"), kind)
    where = _place(data, fields.get("place"))["id"]
    number = max((u.get("number", 0) for u in units), default=0) + 1
    unit = {"number": number, ("sea" if kind == "fleet" else "province"): where, "troops": []}
    if kind == "army":
        unit["commanders"] = []
    units.append(unit)
    return where


def set_unit(data, fields, size):
    """Where the army or fleet starts and its stack: how many cards of each troop type."""
    _f, _units_, unit = _unit(data, fields)
    kind = "fleet" if fields.get("kind") == "fleet" else "army"
    where = _place(data, fields.get("place"))["id"]
    unit["sea" if kind == "fleet" else "province"] = where
    domain = "naval" if kind == "fleet" else "land"
    troops = []
    for t in data["troop_types"]:
        if t.get("domain") != domain:
            continue
        count = _int(fields, f"count_{t['id']}", high=500) if fields.get(f"count_{t['id']}") not in (None, "") else 0
        troops += [t["id"]] * count
    unit["troops"] = troops
    return where


def delete_unit(data, fields, size):
    _f, units, unit = _unit(data, fields)
    units.remove(unit)
    return None


# --- the rules' numbers ---------------------------------------------------------------------------------------

def add_troop_type(data, fields, size):
    name = _text(fields, "name_ru")
    tid = _new_id({t["id"] for t in data["troop_types"]}, fields.get("name_en") or name)
    domain = "naval" if fields.get("domain") == "naval" else "land"
    data["troop_types"].append({"id": tid, "name_ru": name, "name_en": _text(fields, "name_en", required=False),
                                "domain": domain, "power": 1, "men": 1000})
    return None


def set_troop_type(data, fields, size):
    for t in data["troop_types"]:
        if t["id"] == fields.get("troop_type"):
            t["name_ru"] = _text(fields, "name_ru")
            t["name_en"] = _text(fields, "name_en", required=False)
            t["power"] = _int(fields, "power", low=1, high=1000)
            t["men"] = _int(fields, "men", low=1, high=1_000_000)
            if fields.get("supply") not in (None, ""):
                t["supply"] = _int(fields, "supply", high=1000)
            else:
                t.pop("supply", None)
            return None
    raise ActError(_("That troop type is no longer in the scenario: the page shows it as it is now."))


def delete_troop_type(data, fields, size):
    tid = fields.get("troop_type")
    data["troop_types"] = [t for t in data["troop_types"] if t["id"] != tid]
    for f in data["factions"]:
        for u in (f.get("armies") or []) + (f.get("fleets") or []):
            u["troops"] = [t for t in u.get("troops") or [] if t != tid]
    for p in data["provinces"]:
        if p.get("garrison"):
            p["garrison"] = [t for t in p["garrison"] if t != tid]
    return None


def set_numbers(data, fields, size):
    """The phases' lengths (minutes) and the largest army (R1)."""
    rules = data.setdefault("rules", {})
    seconds = {}
    for phase in PHASES:
        if fields.get(f"minutes_{phase}") not in (None, ""):
            seconds[phase] = _int(fields, f"minutes_{phase}", low=1, high=24 * 60) * 60
    if seconds:
        rules["phase_seconds"] = seconds
    else:
        rules.pop("phase_seconds", None)
    if fields.get("army_max_men") not in (None, ""):
        rules["army_max_men"] = _int(fields, "army_max_men", low=1000, high=10_000_000)
    else:
        rules.pop("army_max_men", None)
    return None


SIMPLE_RULES = ("phase_seconds", "army_max_men")


def rules_text(data: dict) -> str:
    """The rules block but for the numbers the page has fields for, as YAML (the loss table, specials, ...)."""
    from larp.scenarios.files import dump_yaml

    rest = {k: v for k, v in (data.get("rules") or {}).items() if k not in SIMPLE_RULES}
    if not rest:
        return ""
    text = dump_yaml(rest)
    return "\n".join(line for line in text.splitlines() if not line.startswith("#")) + "\n"


def set_rules_text(data, fields, size):
    """The rest of the rules block (loss table, bands, specials, tables of other systems) from its YAML text;
    validate.py checks what it says."""
    import yaml

    text = fields.get("rules_text") or ""
    if len(text) > 200_000:
        raise ActError(_("The text is too long."))
    try:
        rest = yaml.safe_load(text) if text.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ActError(_("This is not valid YAML (line %(line)s): check the indentation and the brackets.")
                       % {"line": mark.line + 1 if mark else "?"}) from None
    if not isinstance(rest, dict):
        raise ActError(_("Write the rules as keys with their values (losses:, specials:, ...)."))
    simple = [k for k in rest if k in SIMPLE_RULES]
    if simple:
        raise ActError(_("The phases and the largest army have their own fields above: leave them out here."))
    rules = {k: v for k, v in (data.get("rules") or {}).items() if k in SIMPLE_RULES}
    rules.update(rest)
    data["rules"] = rules
    return None


def set_header(data, fields, size):
    header = data["scenario"]
    header["name_ru"] = _text(fields, "name_ru", limit=200)
    header["name_en"] = _text(fields, "name_en", required=False, limit=200)
    sid = (fields.get("id") or "").strip()
    if not ID_RE.match(sid):
        raise ActError(_("The scenario's id: lower-case Latin letters, digits and _, starting with a letter."))
    header["id"] = sid
    return None


ACTS = {fn.__name__: fn for fn in (
    add_place, move_place, rename_place, set_place, delete_place, border,
    add_faction, set_faction, set_provinces, delete_faction, add_relation, delete_relation, add_unit, set_unit, delete_unit,
    add_troop_type, set_troop_type, delete_troop_type, set_numbers, set_rules_text, set_header)}


def apply(data: dict, act: str, fields, size: tuple[int, int]) -> str | None:
    """Do one act on the data; the place to show afterwards (its id) or None."""
    if act not in ACTS:
        raise ActError(_("Unknown action: reload the page."))
    return ACTS[act](data, fields, size)
