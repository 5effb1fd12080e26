"""Every check a scenario must pass before it becomes a game (R1, R2, the map graph).

Problems are collected, never raised one by one: a moderator fixing a file
wants the whole list. Each names the place with the file's own ids.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

ID_RE = re.compile(r"^[a-z][a-z0-9_\-]*$")
COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
DEFAULT_ARMY_MAX_MEN = 60000


@dataclass(frozen=True)
class Problem:
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


class ScenarioError(Exception):
    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _text(value) -> bool:
    return isinstance(value, str) and value.strip() != ""


class _Collector:
    def __init__(self):
        self.problems: list[Problem] = []

    def add(self, where: str, message: str) -> None:
        self.problems.append(Problem(where, message))

    def need(self, ok: bool, where: str, message: str) -> bool:
        if not ok:
            self.add(where, message)
        return ok


def _list(c: _Collector, data: dict, key: str) -> list:
    value = data.get(key)
    if value is None:
        c.add(key, "missing")
        return []
    if not isinstance(value, list):
        c.add(key, "must be a list")
        return []
    return value


def _items_with_ids(c: _Collector, items: list, what: str) -> dict[str, dict]:
    """Index items by id, reporting bad and duplicate ids."""
    seen: dict[str, dict] = {}
    for i, item in enumerate(items):
        where = f"{what}[{i}]"
        if not c.need(isinstance(item, dict), where, "must be a mapping"):
            continue
        ident = item.get("id")
        if not c.need(isinstance(ident, str) and ID_RE.match(ident) is not None, where, f"bad id {ident!r}"):
            continue
        if not c.need(ident not in seen, f"{what} {ident}", "duplicate id"):
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
        return [Problem("scenario", "the top level must be a mapping")]
    scenario = data.get("scenario")
    if c.need(isinstance(scenario, dict), "scenario", "missing or not a mapping"):
        c.need(isinstance(scenario.get("id"), str) and ID_RE.match(scenario.get("id") or "") is not None,
               "scenario.id", "missing or not an id")
        c.need(_text(scenario.get("name_ru")), "scenario.name_ru", "missing")

    rules = data.get("rules") or {}
    if not c.need(isinstance(rules, dict), "rules", "must be a mapping"):
        rules = {}
    max_men = rules.get("army_max_men", DEFAULT_ARMY_MAX_MEN)
    if not c.need(_is_int(max_men) and max_men > 0, "rules.army_max_men", "must be a positive whole number"):
        max_men = DEFAULT_ARMY_MAX_MEN
    specials = rules.get("specials") or {}
    if not c.need(isinstance(specials, dict), "rules.specials", "must be a mapping"):
        specials = {}
    _check_loss_table(c, rules)

    troop_types = _items_with_ids(c, _list(c, data, "troop_types"), "troop_types")
    for tid, t in troop_types.items():
        where = f"troop_types {tid}"
        c.need(t.get("domain") in ("land", "naval"), where, "domain must be land or naval")
        c.need(_is_int(t.get("power")) and t["power"] > 0, where, "power must be a positive whole number")
        c.need(_is_int(t.get("men")) and t["men"] > 0, where, "men must be a positive whole number")
        c.need(_text(t.get("name_ru")), where, "name_ru missing")
        if "supply" in t and t["supply"] is not None:
            c.need(_is_int(t["supply"]) and t["supply"] >= 0, where, "supply must be a whole number >= 0")
    land_types = {k for k, t in troop_types.items() if t.get("domain") == "land"}
    naval_types = {k for k, t in troop_types.items() if t.get("domain") == "naval"}
    _check_tables(c, rules.get("tables"), land_types)

    factions = _items_with_ids(c, _list(c, data, "factions"), "factions")
    provinces = _items_with_ids(c, _list(c, data, "provinces"), "provinces")

    land: set[str] = set()
    seas: set[str] = set()
    for pid, p in provinces.items():
        where = f"provinces {pid}"
        domain = p.get("domain")
        if not c.need(domain in ("land", "sea"), where, f"domain must be land or sea, not {domain!r}"):
            continue
        (land if domain == "land" else seas).add(pid)
        c.need(_text(p.get("name_ru")), where, "name_ru missing")
        c.need(_is_number(p.get("lat")) and _is_number(p.get("lon")), where, "lat and lon must be numbers")
        owner = p.get("owner")
        garrison = p.get("garrison") or []
        if not c.need(isinstance(garrison, list), where, "garrison must be a list"):
            garrison = []
        if domain == "sea":
            c.need(owner is None, where, f"a sea zone cannot have an owner (has {owner!r})")
            c.need(not p.get("fortress"), where, "a sea zone cannot have a fortress")
            c.need(not garrison, where, "a sea zone cannot have a garrison")
            c.need(not p.get("special"), where, "a sea zone cannot have a city special")
            continue
        c.need(owner is None or owner in factions, where, f"owner {owner!r} is not a faction id")
        c.need(isinstance(p.get("fortress", False), bool), where, "fortress must be true or false")
        if garrison:
            c.need(bool(p.get("fortress")), where, "a garrison needs a fortress")
        for g in garrison:
            if g not in troop_types:
                c.add(where, f"garrison: unknown troop type {g!r}")
            elif g not in land_types:
                c.add(where, f"garrison: {g} is a naval troop type")
        special = p.get("special")
        if special is not None:
            c.need(special in specials, where, f"special {special!r} is not defined under rules.specials")

    neighbours = _check_adjacency(c, _list(c, data, "adjacency"), provinces, land, seas)

    for pid in sorted(land):
        if not neighbours[pid]:
            c.add(f"provinces {pid}", "touches no province and no sea zone")
    for sid in sorted(seas):
        if not (neighbours[sid] & land):
            c.add(f"provinces {sid}", "a sea zone that touches no land province")

    capitals: dict[str, str] = {}
    for fid, f in factions.items():
        where = f"factions {fid}"
        c.need(_text(f.get("name_ru")), where, "name_ru missing")
        c.need(isinstance(f.get("colour"), str) and COLOUR_RE.match(f["colour"]) is not None,
               where, f"colour {f.get('colour')!r} is not like #1a237e")
        c.need(isinstance(f.get("crusader", False), bool), where, "crusader must be true or false")
        cap = f.get("capital")
        if c.need(cap in provinces, where, f"capital {cap!r} is not a province id"):
            c.need(cap in land, where, f"capital {cap} is a sea zone")
            c.need(provinces[cap].get("owner") == fid, where,
                   f"capital {cap} is owned by {provinces[cap].get('owner')!r}, not {fid}")
            if cap in capitals:
                c.add(where, f"capital {cap} is already the capital of {capitals[cap]}")
            capitals[cap] = fid
        for sp in f.get("specials") or []:
            c.need(sp in specials, where, f"special {sp!r} is not defined under rules.specials")
        owned = {pid for pid in land if provinces[pid].get("owner") == fid}
        _check_armies(c, f, fid, owned, provinces, land, troop_types, land_types, max_men)
        _check_fleets(c, f, fid, owned, provinces, seas, neighbours, troop_types, naval_types)
    return c.problems


TABLE_SYSTEMS = ("red-plains", "tactical", "orda")
ORDA_MONGOLS, ORDA_RUS_CHINA = ("north_mongolia", "south_mongolia"), ("rus", "china")


def _check_card_map(c: _Collector, mapping, where: str, land_types: set[str], check) -> None:
    """A map from every land troop type of the scenario to what the system makes of it."""
    if not c.need(isinstance(mapping, dict), where, "must map each land troop type to a unit"):
        return
    for tid in sorted(land_types):
        c.need(tid in mapping, where, f"the land troop type {tid} has no unit")
    for tid, unit in mapping.items():
        if c.need(tid in land_types, where, f"{tid!r} is not a land troop type"):
            check(unit, f"{where}.{tid}")


def _check_tables(c: _Collector, tables, land_types: set[str]) -> None:
    """rules.tables: how a battle of the war becomes a table of another system (docs/bridge.md)."""
    if tables is None:
        return
    if not c.need(isinstance(tables, dict), "rules.tables", "must be a mapping of rule systems"):
        return
    for system, conv in tables.items():
        where = f"rules.tables.{system}"
        if not c.need(system in TABLE_SYSTEMS, where, f"unknown rule system; one of {', '.join(TABLE_SYSTEMS)}"):
            continue
        if not c.need(isinstance(conv, dict), where, "must be a mapping"):
            continue
        sides = conv.get("sides")
        if c.need(isinstance(sides, dict) and all(isinstance(sides.get(k), str) and sides.get(k)
                                                  for k in ("attacker", "defender")),
                  f"{where}.sides", "needs the attacker's and the defender's side ids"):
            c.need(sides["attacker"] != sides["defender"], f"{where}.sides", "the two sides need different ids")
        size = conv.get("size")
        if c.need(isinstance(size, dict), f"{where}.size", "needs per_power, min and max"):
            c.need(_is_number(size.get("per_power")) and size.get("per_power", 0) > 0, f"{where}.size",
                   "per_power must be a positive number")
            c.need(_is_int(size.get("min")) and _is_int(size.get("max")) and 1 <= size["min"] <= size["max"],
                   f"{where}.size", "min and max must be whole numbers, 1 <= min <= max")

        def text(value, w):
            c.need(isinstance(value, str) and bool(value), w, "must name a unit")

        units = conv.get("units")
        if system == "tactical":
            profiles = conv.get("profiles")
            ids = set()
            if c.need(isinstance(profiles, list) and profiles, f"{where}.profiles", "must list the profiles"):
                ids = {p.get("id") for p in profiles if isinstance(p, dict)}

            def tactical(value, w):
                if c.need(isinstance(value, dict), w, "needs a profile and a formation"):
                    c.need(value.get("profile") in ids, w, f"profile {value.get('profile')!r} is not listed")
                    c.need(isinstance(value.get("formation"), str), w, "needs a formation")

            _check_card_map(c, units, f"{where}.units", land_types, tactical)
        elif system == "orda":
            # Conquest (O6): the attacker must be the Mongol side (it wins by destroying cities), the defender
            # Rus or China (it wins by exhausting the attacker).
            sides = conv.get("sides") if isinstance(conv.get("sides"), dict) else {}
            c.need(sides.get("attacker") in ORDA_MONGOLS and sides.get("defender") in ORDA_RUS_CHINA,
                   f"{where}.sides", "the attacker is a Mongol faction (north_mongolia, south_mongolia), "
                   "the defender rus or china")
            if c.need(isinstance(units, dict), f"{where}.units", "needs the attacker's and the defender's tokens"):
                for role in ("attacker", "defender"):
                    _check_card_map(c, units.get(role), f"{where}.units.{role}", land_types, text)
            walls = conv.get("walls")
            if c.need(isinstance(walls, dict), f"{where}.walls", "needs the fortress's and the capital's city"):
                for kind in ("fortress", "capital"):
                    w = walls.get(kind)
                    c.need(isinstance(w, dict) and w.get("kind") in ("city", "capital")
                           and _is_int(w.get("durability")) and w["durability"] > 0,
                           f"{where}.walls.{kind}", "needs kind (city or capital) and a positive durability")
            c.need(_is_int(conv.get("board_radius")) and conv["board_radius"] >= 2, f"{where}.board_radius",
                   "must be a whole number of at least 2")
        else:
            _check_card_map(c, units, f"{where}.units", land_types, text)


def _check_loss_table(c: _Collector, rules: dict) -> None:
    bounds = rules.get("band_upper_bounds")
    losses = rules.get("losses")
    if bounds is None and losses is None:
        return
    if not c.need(isinstance(bounds, list) and all(_is_int(b) for b in bounds)
                  and bounds == sorted(set(bounds)), "rules.band_upper_bounds", "must be increasing whole numbers"):
        return
    bands = len(bounds) + 1
    if not c.need(isinstance(losses, dict), "rules.losses", "must be a mapping"):
        return
    c.need(isinstance(losses.get("tie"), list) and len(losses["tie"]) == bands,
           "rules.losses.tie", f"needs {bands} values, one per band")
    rows = losses.get("rows") or []
    for i, row in enumerate(rows):
        where = f"rules.losses.rows[{i}]"
        if not c.need(isinstance(row, dict), where, "must be a mapping"):
            continue
        for side in ("winner", "loser"):
            c.need(isinstance(row.get(side), list) and len(row[side]) == bands, where,
                   f"{side} needs {bands} values, one per band")
        diff = row.get("difference")
        c.need(isinstance(diff, list) and len(diff) == 2 and all(_is_int(d) for d in diff) and diff[0] <= diff[1],
               where, "difference must be [low, high]")


def _check_adjacency(c, pairs, provinces, land, seas) -> dict[str, set[str]]:
    neighbours: dict[str, set[str]] = {pid: set() for pid in provinces}
    seen: set[frozenset] = set()
    for i, pair in enumerate(pairs):
        where = f"adjacency[{i}]"
        if not c.need(isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair),
                      where, f"must be a pair of ids, got {pair!r}"):
            continue
        a, b = pair
        where = f"adjacency[{i}] ({a}, {b})"
        unknown = [x for x in (a, b) if x not in provinces]
        if unknown:
            c.add(where, f"unknown id {', '.join(unknown)}")
            continue
        if not c.need(a != b, where, "a province next to itself"):
            continue
        key = frozenset((a, b))
        if not c.need(key not in seen, where, "duplicate pair"):
            continue
        seen.add(key)
        if (a in land or a in seas) and (b in land or b in seas):
            neighbours[a].add(b)
            neighbours[b].add(a)
    return neighbours


def _check_armies(c, f, fid, owned, provinces, land, troop_types, land_types, max_men) -> None:
    armies = f.get("armies") or []
    if not c.need(isinstance(armies, list), f"factions {fid}", "armies must be a list"):
        return
    numbers: set = set()
    for j, a in enumerate(armies):
        where = f"factions {fid} army #{j + 1}"
        if not c.need(isinstance(a, dict), where, "must be a mapping"):
            continue
        number = a.get("number")
        if c.need(_is_int(number) and number > 0, where, f"number {number!r} must be a positive whole number"):
            where = f"factions {fid} army {number}"
            c.need(number not in numbers, where, "duplicate army number")
            numbers.add(number)
        pid = a.get("province")
        if c.need(pid in provinces, where, f"unknown province {pid!r}"):
            if pid not in land:
                c.add(where, f"starts in {pid}, a sea zone")
            elif pid not in owned:
                c.add(where, f"starts in {pid}, outside {fid}'s land (owner {provinces[pid].get('owner')!r})")
        troops = a.get("troops") or []
        men = 0
        for t in troops:
            if t not in troop_types:
                c.add(where, f"unknown troop type {t!r}")
            elif t not in land_types:
                c.add(where, f"{t} is a naval card; an army takes land cards only")
            else:
                men += int(troop_types[t].get("men") or 0)
        c.need(men <= max_men, where, f"{men:,} men; an army may have at most {max_men:,} (R1)".replace(",", " "))
        for k, cm in enumerate(a.get("commanders") or []):
            cw = f"{where} commander #{k + 1}"
            if c.need(isinstance(cm, dict), cw, "must be a mapping"):
                c.need(_text(cm.get("name_ru")), cw, "name_ru missing")
                c.need(_is_int(cm.get("power")) and cm["power"] >= 0, cw, "power must be a whole number >= 0")


def _check_fleets(c, f, fid, owned, provinces, seas, neighbours, troop_types, naval_types) -> None:
    fleets = f.get("fleets") or []
    if not c.need(isinstance(fleets, list), f"factions {fid}", "fleets must be a list"):
        return
    numbers: set = set()
    for j, fl in enumerate(fleets):
        where = f"factions {fid} fleet #{j + 1}"
        if not c.need(isinstance(fl, dict), where, "must be a mapping"):
            continue
        number = fl.get("number")
        if c.need(_is_int(number) and number > 0, where, f"number {number!r} must be a positive whole number"):
            where = f"factions {fid} fleet {number}"
            c.need(number not in numbers, where, "duplicate fleet number")
            numbers.add(number)
        sea = fl.get("sea")
        if c.need(sea in provinces, where, f"unknown sea zone {sea!r}"):
            if c.need(sea in seas, where, f"{sea} is land, not a sea zone"):
                # A fleet claims a coast of its faction: the zone must touch its land.
                c.need(bool(neighbours[sea] & owned), where,
                       f"{sea} touches none of {fid}'s provinces (no sea link to its coast)")
        for t in fl.get("troops") or []:
            if t not in troop_types:
                c.add(where, f"unknown troop type {t!r}")
            elif t not in naval_types:
                c.add(where, f"{t} is a land card; a fleet takes naval cards only")
