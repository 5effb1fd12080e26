"""Reading a case document (O24) into a State, strictly: every problem is a CaseError naming the field."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import outcomes as O
from .data import STATS, Data, Kind, load
from .errors import CaseError
from .hexes import Hex, disc

MAX_RADIUS = 30
MAX_HEXES = 4000
MAX_UNITS = 100
MAX_LIST = 500
MAX_STAT = 20
MAX_TOUR = 100000
MAX_INT = 2 ** 62


def _type_name(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "an integer",
            float: "a number", type(None): "null"}.get(type(value), type(value).__name__)


def need_obj(value: Any, path: str) -> dict:
    if not isinstance(value, dict):
        raise CaseError(f"{path}: expected an object, got {_type_name(value)}")
    return value


def need_list(value: Any, path: str, limit: int = MAX_LIST) -> list:
    if not isinstance(value, list):
        raise CaseError(f"{path}: expected a list, got {_type_name(value)}")
    if len(value) > limit:
        raise CaseError(f"{path}: at most {limit} entries, got {len(value)}")
    return value


def need_int(value: Any, path: str, lo: int = -MAX_INT, hi: int = MAX_INT) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise CaseError(f"{path}: expected an integer, got {_type_name(value)}")
    if not lo <= value <= hi:
        raise CaseError(f"{path}: {value} is outside {lo}..{hi}")
    return value


def need_str(value: Any, path: str, choices=None) -> str:
    if not isinstance(value, str) or not value or len(value) > 200:
        raise CaseError(f"{path}: expected a non-empty string, got {_type_name(value)}")
    if choices is not None and value not in choices:
        raise CaseError(f"{path}: {value!r} is not one of {', '.join(choices)}")
    return value


def need_bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise CaseError(f"{path}: expected true or false, got {_type_name(value)}")
    return value


def need_hex(value: Any, path: str) -> Hex:
    if not isinstance(value, list) or len(value) != 2:
        raise CaseError(f"{path}: expected a hex [q, r]")
    return (need_int(value[0], f"{path}[0]", -1000, 1000), need_int(value[1], f"{path}[1]", -1000, 1000))


@dataclass
class Unit:
    id: str
    index: int
    faction: str
    side: str
    kind: Kind
    where: str
    hex: Hex | None
    stats: dict
    damage: int
    effects: list
    revealed: bool
    drill: bool

    def stat(self, name: str) -> int:
        value = self.stats[name]
        if value is None:
            raise CaseError(f"units[{self.index}].stats.{name}: {self.id}'s printed {name} is unknown "
                            f"(not in the source, O23) and the case does not give it")
        return value

    @property
    def on_board(self) -> bool:
        return self.where == O.BOARD

    def as_dict(self) -> dict:
        return {"id": self.id, "faction": self.faction, "token": self.kind.id, "where": self.where,
                "hex": None if self.hex is None else [self.hex[0], self.hex[1]], "stats": dict(self.stats),
                "damage": self.damage, "effects": [dict(e) for e in self.effects],
                "revealed": self.revealed, "drill": self.drill}


@dataclass
class City:
    id: str
    index: int
    kind: str
    faction: str
    side: str
    hex: Hex
    colour: str | None
    durability: int | None
    damage: int
    destroyed: bool

    def as_dict(self) -> dict:
        return {"id": self.id, "kind": self.kind, "faction": self.faction, "hex": [self.hex[0], self.hex[1]],
                "colour": self.colour, "durability": self.durability, "damage": self.damage,
                "destroyed": self.destroyed}


@dataclass
class State:
    data: Data
    raw: dict
    mode: str
    players: int
    order: list
    tour: int
    active: str
    capitals: dict            # faction -> city id
    factions: list            # faction ids in the order of `factions`
    board: frozenset
    border: dict | None       # {"line": str, "beyond": frozenset}
    cities: list
    units: list
    traps: list               # [{"hex": Hex, "faction": str}]
    summon_track: dict
    event: dict
    modifiers: list
    activations: dict
    border_hold: dict | None
    seed: int | None
    by_id: dict = field(default_factory=dict)
    winner: str | None = None
    cities_to_win: int | None = None   # game.cities_to_win: overrides the mode's number (a war battle's table)

    # --- look-ups -------------------------------------------------------
    def unit(self, uid: Any, path: str) -> Unit:
        need_str(uid, path)
        if uid not in self.by_id:
            raise CaseError(f"{path}: no unit {uid!r} in the case")
        return self.by_id[uid]

    def occupant(self) -> dict:
        return {u.hex: u for u in self.units if u.on_board}

    def side(self, faction: str) -> str:
        return self.data.side_of(faction)

    def live_cities(self):
        return [c for c in self.cities if not c.destroyed]

    def capital(self, faction: str) -> City:
        return next(c for c in self.cities if c.id == self.capitals[faction])

    def enemy_city_at(self, h: Hex, side: str) -> City | None:
        return next((c for c in self.cities if not c.destroyed and c.hex == h and c.side != side), None)

    def is_free(self, h: Hex, side: str, occupied: dict | None = None) -> bool:
        """O2: a board hex with no unit, not a city or capital of the other side."""
        occupied = self.occupant() if occupied is None else occupied
        return h in self.board and h not in occupied and self.enemy_city_at(h, side) is None

    def trap_at(self, h: Hex) -> dict | None:
        return next((t for t in self.traps if t["hex"] == h), None)

    def position(self, faction: str) -> int:
        return self.order.index(faction)

    # --- output ---------------------------------------------------------
    def game_dict(self) -> dict:
        game = {"mode": self.mode, "players": self.players, "order": list(self.order), "tour": self.tour,
                "active": self.active}
        if self.cities_to_win is not None:
            game["cities_to_win"] = self.cities_to_win
        if self.winner:
            game["winner"] = self.winner
        return game

    def traps_list(self) -> list:
        return [{"hex": [t["hex"][0], t["hex"][1]], "faction": t["faction"]} for t in self.traps]


def _stats(raw: Any, kind: Kind, path: str) -> dict:
    stats = dict(kind.stats)
    if raw is None:
        return stats
    need_obj(raw, path)
    for key, value in raw.items():
        if key not in STATS:
            raise CaseError(f"{path}.{key}: not a parameter (one of {', '.join(STATS)})")
        if value is None:
            continue
        if key == "health":
            stats[key] = need_int(value, f"{path}.health", 1, 4)
        elif key == "summon":
            stats[key] = need_int(value, f"{path}.summon", 1, MAX_STAT)
        else:
            stats[key] = need_int(value, f"{path}.{key}", 0, MAX_STAT)
    return stats


def _effect(raw: Any, path: str, state_factions) -> dict:
    need_obj(raw, path)
    kind = need_str(raw.get("kind"), f"{path}.kind", O.EFFECT_KINDS)
    out: dict = {"kind": kind}
    if kind in O.VALUE_EFFECTS:
        out["param"] = need_str(raw.get("param"), f"{path}.param", O.EFFECT_PARAMS)
        out["value"] = need_int(raw.get("value"), f"{path}.value", -MAX_STAT, MAX_STAT)
    if kind == "theft":
        out["trait"] = need_str(raw.get("trait"), f"{path}.trait", tuple(load().traits))
    if raw.get("from") is not None:
        out["from"] = need_str(raw.get("from"), f"{path}.from")
    exp = raw.get("expires")
    if exp is not None:
        need_obj(exp, f"{path}.expires")
        out["expires"] = {"faction": need_str(exp.get("faction"), f"{path}.expires.faction", state_factions),
                          "tour": need_int(exp.get("tour"), f"{path}.expires.tour", 1, MAX_TOUR)}
    else:
        out["expires"] = None
    return out


def parse(doc: Any, *, setup: bool = False) -> State:
    """The whole case as a State; `setup` lets off-board units through (orda.setup reports them)."""
    data = load()
    need_obj(doc, "case")
    for key in ("game", "factions", "board", "cities", "units"):
        if key not in doc:
            raise CaseError(f"{key}: missing")
    all_factions = tuple(data.faction_side)
    game = need_obj(doc["game"], "game")
    mode = need_str(game.get("mode"), "game.mode", (O.SKIRMISH, O.BORDER, O.CONQUEST))
    players = need_int(game.get("players"), "game.players", 2, 4)
    order = [need_str(f, f"game.order[{i}]", all_factions)
             for i, f in enumerate(need_list(game.get("order"), "game.order", 4))]
    if len(set(order)) != len(order) or not order:
        raise CaseError("game.order: must name each faction in play once")
    tour = need_int(game.get("tour"), "game.tour", 1, MAX_TOUR)
    active = need_str(game.get("active"), "game.active", order)
    cities_to_win = game.get("cities_to_win")
    if cities_to_win is not None:
        if mode != O.CONQUEST:
            raise CaseError("game.cities_to_win: only in conquest")
        cities_to_win = need_int(cities_to_win, "game.cities_to_win", 1, 12)

    capitals: dict = {}
    factions: list = []
    for i, f in enumerate(need_list(doc["factions"], "factions", 4)):
        need_obj(f, f"factions[{i}]")
        fid = need_str(f.get("id"), f"factions[{i}].id", all_factions)
        if fid in capitals:
            raise CaseError(f"factions[{i}].id: {fid} listed twice")
        capitals[fid] = need_str(f.get("capital"), f"factions[{i}].capital")
        factions.append(fid)
    for f in order:
        if f not in capitals:
            raise CaseError(f"game.order: {f} is not in factions")

    board_raw = need_obj(doc["board"], "board")
    if "radius" in board_raw:
        board = disc(need_int(board_raw["radius"], "board.radius", 0, MAX_RADIUS))
    elif "hexes" in board_raw:
        board = frozenset(need_hex(h, f"board.hexes[{i}]")
                          for i, h in enumerate(need_list(board_raw["hexes"], "board.hexes", MAX_HEXES)))
    else:
        raise CaseError("board: expected {\"radius\": N} or {\"hexes\": [[q, r], ...]}")

    border = None
    if doc.get("border") is not None:
        b = need_obj(doc["border"], "border")
        border = {"line": need_str(b.get("line"), "border.line", ("red", "green")),
                  "beyond": frozenset(need_hex(h, f"border.beyond[{i}]") for i, h in
                                      enumerate(need_list(b.get("beyond"), "border.beyond", MAX_HEXES)))}

    cities: list = []
    seen: set = set()
    for i, c in enumerate(need_list(doc["cities"], "cities", 40)):
        p = f"cities[{i}]"
        need_obj(c, p)
        cid = need_str(c.get("id"), f"{p}.id")
        if cid in seen:
            raise CaseError(f"{p}.id: {cid!r} listed twice")
        seen.add(cid)
        owner = need_str(c.get("faction"), f"{p}.faction", all_factions)
        h = need_hex(c.get("hex"), f"{p}.hex")
        if h not in board:
            raise CaseError(f"{p}.hex: {list(h)} is off the board")
        dur = c.get("durability")
        dur = None if dur is None else need_int(dur, f"{p}.durability", 1, 1000)
        dmg = need_int(c.get("damage", 0), f"{p}.damage", 0, 1000)
        colour = c.get("colour")
        colour = None if colour is None else need_str(colour, f"{p}.colour")
        cities.append(City(cid, i, need_str(c.get("kind"), f"{p}.kind", ("city", "capital")), owner,
                           data.side_of(owner), h, colour, dur, dmg,
                           need_bool(c.get("destroyed", False), f"{p}.destroyed")))
    if len({c.hex for c in cities}) != len(cities):
        raise CaseError("cities: two cities on one hex")
    for f, cid in capitals.items():
        cap = next((c for c in cities if c.id == cid), None)
        if cap is None or cap.kind != "capital" or cap.faction != f:
            raise CaseError(f"factions: {f}'s capital {cid!r} is not a capital of {f} in cities")

    units: list = []
    by_id: dict = {}
    hexes_taken: dict = {}
    for i, u in enumerate(need_list(doc["units"], "units", MAX_UNITS)):
        p = f"units[{i}]"
        need_obj(u, p)
        uid = need_str(u.get("id"), f"{p}.id")
        if uid in by_id:
            raise CaseError(f"{p}.id: {uid!r} listed twice")
        fac = need_str(u.get("faction"), f"{p}.faction", all_factions)
        if fac not in capitals:
            raise CaseError(f"{p}.faction: {fac} is not in factions")
        token = need_str(u.get("token"), f"{p}.token")
        if token not in data.kinds[fac]:
            raise CaseError(f"{p}.token: {token!r} is not a kind of {fac}'s roster")
        kind = data.kinds[fac][token]
        where = need_str(u.get("where"), f"{p}.where", O.WHERE)
        h = None
        if where == O.BOARD:
            if u.get("hex") is None:
                raise CaseError(f"{p}.hex: a unit on the board needs a hex")
            h = need_hex(u["hex"], f"{p}.hex")
            if h not in board and not setup:
                raise CaseError(f"{p}.hex: {list(h)} is off the board")
            if h in hexes_taken:
                raise CaseError(f"{p}.hex: {list(h)} already holds {hexes_taken[h]}")
            hexes_taken[h] = uid
        elif u.get("hex") is not None:
            raise CaseError(f"{p}.hex: a unit {where} has no hex (null)")
        stats = _stats(u.get("stats"), kind, f"{p}.stats")
        if not O.RANGED == kind.cls:
            stats["range"] = None
        damage = need_int(u.get("damage", 0), f"{p}.damage", 0, 4)
        if where != O.DEAD and stats["health"] is not None and damage >= stats["health"]:
            raise CaseError(f"{p}.damage: {damage} would have killed a unit of health {stats['health']}")
        effects = [_effect(e, f"{p}.effects[{j}]", tuple(capitals))
                   for j, e in enumerate(need_list(u.get("effects", []), f"{p}.effects", 100))]
        unit = Unit(uid, i, fac, data.side_of(fac), kind, where, h, stats, damage, effects,
                    need_bool(u.get("revealed", False), f"{p}.revealed"),
                    need_bool(u.get("drill", False), f"{p}.drill"))
        units.append(unit)
        by_id[uid] = unit

    traps = []
    for i, t in enumerate(need_list(doc.get("traps") or [], "traps")):
        need_obj(t, f"traps[{i}]")
        h = need_hex(t.get("hex"), f"traps[{i}].hex")
        if h not in board:
            raise CaseError(f"traps[{i}].hex: {list(h)} is off the board")
        if any(x["hex"] == h for x in traps):
            raise CaseError(f"traps[{i}].hex: two traps on {list(h)}")
        traps.append({"hex": h, "faction": need_str(t.get("faction"), f"traps[{i}].faction", all_factions)})

    track = {}
    for f, v in need_obj(doc.get("summon_track") or {}, "summon_track").items():
        need_str(f, "summon_track", tuple(capitals))
        if v is None:
            track[f] = None
            continue
        need_obj(v, f"summon_track.{f}")
        su = by_id.get(v.get("unit"))
        if su is None:
            raise CaseError(f"summon_track.{f}.unit: no unit {v.get('unit')!r} in the case")
        if su.faction != f or su.where != O.INDICATOR:
            raise CaseError(f"summon_track.{f}.unit: {su.id} is not a {f} unit on the indicator")
        track[f] = {"unit": su.id, "cell": need_int(v.get("cell"), f"summon_track.{f}.cell", 1, 100)}

    ev = need_obj(doc.get("event") or {}, "event")
    event = {"current": None if ev.get("current") is None else need_str(ev.get("current"), "event.current"),
             "draw_pile": [need_str(x, f"event.draw_pile[{i}]")
                           for i, x in enumerate(need_list(ev.get("draw_pile", []), "event.draw_pile", 100))],
             "discard": [need_str(x, f"event.discard[{i}]")
                         for i, x in enumerate(need_list(ev.get("discard", []), "event.discard", 100))]}

    modifiers = []
    for i, m in enumerate(need_list(doc.get("modifiers") or [], "modifiers")):
        p = f"modifiers[{i}]"
        need_obj(m, p)
        target = m.get("unit")
        if need_str(target, f"{p}.unit") not in by_id:
            raise CaseError(f"{p}.unit: no unit {target!r} in the case")
        modifiers.append({"unit": target, "param": need_str(m.get("param"), f"{p}.param", O.EFFECT_PARAMS),
                          "value": need_int(m.get("value"), f"{p}.value", -MAX_STAT, MAX_STAT),
                          "source": need_str(m.get("source"), f"{p}.source", O.MODIFIER_SOURCES)})

    activations = {}
    acts = need_obj(doc.get("activations") or {}, "activations")
    if len(acts) > data.number("turn", "units_per_turn"):
        raise CaseError(f"activations: at most {data.number('turn', 'units_per_turn')} units act in a turn (O12)")
    for uid, steps in acts.items():
        if uid not in by_id:
            raise CaseError(f"activations.{uid}: no such unit in the case")
        activations[uid] = [need_str(s, f"activations.{uid}[{j}]", O.STEPS)
                            for j, s in enumerate(need_list(steps, f"activations.{uid}", 3))]

    hold = doc.get("border_hold")
    if hold is not None:
        need_obj(hold, "border_hold")
        hold = {"faction": need_str(hold.get("faction"), "border_hold.faction", tuple(capitals)),
                "units": [need_str(x, f"border_hold.units[{i}]")
                          for i, x in enumerate(need_list(hold.get("units"), "border_hold.units", MAX_UNITS))]}
        for i, x in enumerate(hold["units"]):
            if x not in by_id:
                raise CaseError(f"border_hold.units[{i}]: no unit {x!r} in the case")
    seed = doc.get("seed")
    seed = None if seed is None else need_int(seed, "seed", -2 ** 63, 2 ** 63 - 1)

    return State(data, doc, mode, players, order, tour, active, capitals, factions, board, border, cities,
                 units, traps, track, event, modifiers, activations, hold, seed, by_id, cities_to_win=cities_to_win)
