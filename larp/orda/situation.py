"""The one adapter between the «Орда» table's models and its engine (docs/orda.md, "Table").

`Table.setup` is an engine case (O24) for the start of play; `Table.state` is
`{"case": <the current case>, "phase", "turn_start", "pending", "winner", "reason"}`,
always the replay of the live steps from `Table.setup` (`replay`). Each step's
`payload` holds everything the engine was given (dice included), so the replay
gives the same result without a die being rolled again.

Engine refusals and malformed cases come back as `Refusal` with a message in the
user's language naming the unit and the value; nothing is ever invented: a
printed value that is null stays null, and the engine refuses to play with it.
"""
from __future__ import annotations

import copy
import re
from typing import Any

from django.utils.translation import gettext as _

from larp.orda import dataset, labels
from larp.orda.engine import outcomes as O
from larp.orda.engine.case import parse
from larp.orda.engine.cli import MODES
from larp.orda.engine.data import STATS, load
from larp.orda.engine.errors import CaseError
from larp.orda.engine.hexes import distance, hex_order, neighbours
from larp.orda.engine.values import active_trait, effective, is_ranged

PREFIX = {"rus": "rus", "china": "cn", "south_mongolia": "sm", "north_mongolia": "nm"}
ZIGZAG = ["rus", "north_mongolia", "china", "south_mongolia"]   # O8's example order
START, BATTLE, OVER = "start", "battle", "over"


class Refusal(Exception):
    """The engine (or the rules around it) refused: `message` is in the user's language."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


# ---------------------------------------------------------------- the engine, wrapped

UNKNOWN = re.compile(r"^units\[(\d+)\]\.stats\.(\w+): ")


def explain(error: str, case: dict) -> str:
    """A CaseError's line in the user's words; an unknown printed value names the unit and the value (O23)."""
    m = UNKNOWN.match(error)
    if m and "unknown" in error:
        units = case.get("units") or []
        i = int(m.group(1))
        u = units[i] if i < len(units) else {}
        return (_("The printed value «%(param)s» of %(unit)s (%(faction)s) is not entered: transcribe it from the "
                  "token in the Orda data (O23); the engine does not play with an unknown number.")
                % {"param": labels.param(m.group(2)), "unit": labels.kind_name(u.get("faction", ""), u.get("token", "")),
                   "faction": labels.faction(u.get("faction", ""))})
    if "no unit" in error or "not a kind" in error:
        return _("No such unit.")
    return _("The rules engine cannot take this request: a value in it does not fit the situation.")


def run(mode: str, doc: dict) -> dict:
    """One engine call on a copy of the case; Refusal on a malformed case or a refusal."""
    try:
        result = MODES[mode](copy.deepcopy(doc))
    except CaseError as exc:
        raise Refusal(explain(str(exc), doc)) from None
    if result.get("refused"):
        raise Refusal(labels.refusal(result["refused"].get("code", "")))
    return result


def state_of(case: dict):
    """The engine's parsed State, for the look-ups pages need (legal moves, values)."""
    try:
        return parse(copy.deepcopy(case))
    except CaseError as exc:
        raise Refusal(explain(str(exc), case)) from None


# ---------------------------------------------------------------- the start of a table

def unit_id(faction: str, kind: str, n: int, count: int) -> str:
    return f"{PREFIX[faction]}-{kind}" + (f"-{n}" if count > 1 else "")


def order_for(players: int, first: str, second: str) -> list[str]:
    return [first, second] if players == 2 else list(ZIGZAG)


def build_setup(data: dict, mode: str, order: list[str], players: int | None = None) -> dict:
    """The starting case (O24) from a data set: capitals, cities, every token, starting units placed (O5).
    Three players play the four-faction game, one of them for both factions of a side (O4)."""
    engine = load()
    players = players or len(order)
    missing = dataset.missing(data, mode, order, players)
    if missing:
        raise Refusal(_("The Orda data lack values this table needs: %(list)s")
                      % {"list": " ".join(missing[:12]) + (" …" if len(missing) > 12 else "")})
    board = [list(h) for h in data["board"]]
    cities, factions = [], []
    for f in order:
        colour = dataset.capital_colour(f, players)
        cid = f"{PREFIX[f]}-cap"
        cities.append({"id": cid, "kind": "capital", "faction": f, "hex": list(data["capitals"][colour]),
                       "colour": colour, "durability": data["durability"]["capital"], "damage": 0,
                       "destroyed": False})
        factions.append({"id": f, "capital": cid})
    if mode == O.CONQUEST:
        for colour in dataset.needed_cities(order, players):
            owner = dataset.city_owner(colour, order, players)
            for n, h in enumerate(data["cities"][colour], 1):
                cities.append({"id": f"{PREFIX[owner]}-c{n}", "kind": "city", "faction": owner, "hex": list(h),
                               "colour": colour, "durability": data["durability"]["city"], "damage": 0,
                               "destroyed": False})
    border = None
    if mode == O.BORDER:
        line = engine.number("modes", "border", "line_by_players")[players]
        border = {"line": line, "beyond": [list(h) for h in data["borders"][line]]}
    start = dict(engine.number("modes", mode, "start"))
    taken: set = set()
    units = []
    for f in order:
        cap = tuple(next(c["hex"] for c in cities if c["id"] == f"{PREFIX[f]}-cap"))
        want = dict(start)
        enemy = {tuple(c["hex"]) for c in cities if engine.side_of(c["faction"]) != engine.side_of(f)}
        spots = [h for h in hex_order(cap, [tuple(h) for h in board]) if h != cap and h not in enemy]
        for kind in engine.kinds[f].values():
            for n in range(1, kind.count + 1):
                stats = dict(data["stats"][f][kind.id])
                if kind.cls != "ranged":
                    stats["range"] = None
                u = {"id": unit_id(f, kind.id, n, kind.count), "faction": f, "token": kind.id, "where": O.RESERVE,
                     "hex": None, "stats": stats, "damage": 0, "effects": [], "revealed": False, "drill": False}
                if want.get(kind.cls, 0) > 0:
                    want[kind.cls] -= 1
                    h = next(h for h in spots if h not in taken)
                    taken.add(h)
                    u.update(where=O.BOARD, hex=list(h))
                units.append(u)
    case = {"game": {"mode": mode, "players": players, "order": list(order), "tour": 1, "active": order[0]},
            "factions": factions, "board": {"hexes": board}, "border": border, "cities": cities, "units": units,
            "traps": [], "summon_track": {f: None for f in order},
            "event": {"current": None, "draw_pile": [], "discard": []}, "modifiers": [], "activations": {},
            "border_hold": None, "seed": None}
    errors = [p for p in setup_problems(case) if p["severity"] == O.ERROR]
    if errors:
        raise Refusal(_("The setup breaks the rules: %(codes)s") % {"codes": "; ".join(problem_text(p) for p in errors)})
    return case


# A battle of the war set up by the bridge (docs/bridge.md) is not the start of a new game: its armies come
# from the war's stacks by the stated conversion, so the start-of-game checks of O4/O5 do not apply (Ruling,
# docs/orda.md "Table"). Every other check stays.
WAR_BATTLE_SKIPS = frozenset({"capital_colour", "roster", "start_classes", "placement"})


def is_war_battle(case: dict) -> bool:
    return case.get("war_battle") is True


def setup_problems(case: dict) -> list[dict]:
    """orda.setup's problems for the starting situation (O4, O5, O8, O13/O20); for a battle of the war, less
    the start-of-game checks its converted armies cannot meet (WAR_BATTLE_SKIPS)."""
    doc = {k: v for k, v in case.items() if k not in ("summon_track", "activations", "traps")}
    problems = run(O.SETUP, doc)["problems"]
    if is_war_battle(case):
        problems = [p for p in problems if p["code"] not in WAR_BATTLE_SKIPS]
    return problems


# ---------------------------------------------------------------- printed values a table lacks (O23)

def _needed(u: dict) -> list[str]:
    """The printed values this token plays with (range only for a ranged kind)."""
    kind = load().kinds[u["faction"]][u["token"]]
    return [s for s in STATS if s != "range" or kind.cls == "ranged"]


def _lacks(u: dict) -> list[str]:
    """The values the token needs that neither the case nor the source (orda.yaml's five, O7) gives."""
    kind = load().kinds[u["faction"]][u["token"]]
    stats = u.get("stats") or {}
    return [s for s in _needed(u) if stats.get(s) is None and kind.stats.get(s) is None]


def missing_values(case: dict) -> dict:
    """What the table still lacks: {"units": {uid: [params]}, "cities": [city ids with no durability]}."""
    return {"units": {u["id"]: lacks for u in case["units"] if (lacks := _lacks(u))},
            "cities": [c["id"] for c in case["cities"] if c.get("durability") is None and not c.get("destroyed")]}


def missing_text(case: dict) -> list[str]:
    """missing_values in the user's words: which token (or city) and which values, one line each."""
    from larp.orda import describe

    gaps = missing_values(case)
    out = []
    for u in case["units"]:
        if u["id"] in gaps["units"]:
            out.append(_("%(unit)s (%(faction)s): %(params)s.") % {
                "unit": describe.unit_name(case, u["id"]), "faction": labels.faction(u["faction"]),
                "params": ", ".join(labels.param(p) for p in gaps["units"][u["id"]])})
    for c in case["cities"]:
        if c["id"] in gaps["cities"]:
            out.append(_("%(city)s (%(faction)s): durability.") % {
                "city": _("Capital") if c["kind"] == "capital" else _("City"), "faction": labels.faction(c["faction"])})
    return out


def values_from(case: dict, data: dict) -> dict:
    """The values a data set (O23) gives for what the table lacks: {"units": {uid: {param: value}}, "cities":
    {cid: durability}}. A token takes them only when the data set has every value it lacks for its kind
    (a health the conversion gave stays); nothing is invented, and nothing the table has is replaced."""
    gaps = missing_values(case)
    units, cities = {}, {}
    for u in case["units"]:
        lacks = gaps["units"].get(u["id"])
        if not lacks:
            continue
        given = ((data.get("stats") or {}).get(u["faction"]) or {}).get(u["token"]) or {}
        if all(given.get(s) is not None for s in lacks):
            units[u["id"]] = {s: given[s] for s in lacks}
    durability = data.get("durability") or {}
    for c in case["cities"]:
        if c["id"] in gaps["cities"] and durability.get(c["kind"]) is not None:
            cities[c["id"]] = durability[c["kind"]]
    return {"units": units, "cities": cities}


def problem_text(p: dict) -> str:
    words = {"factions_in_play": _("the factions in play do not fit the number of players"),
             "capital_colour": _("a faction starts on another faction's capital"),
             "order_not_alternating": _("allies may not move one right after the other"),
             "roster": _("a faction's tokens are not its twelve"),
             "start_classes": _("the starting units are not the classes the mode asks for"),
             "placement": _("starting units stand on the hexes nearest their capital, never on it"),
             "hex_invalid": _("a unit stands off the board or on an enemy city")}
    who = f"{labels.faction(p['faction'])}: " if p.get("faction") else ""
    return f"{who}{words.get(p['code'], p['code'])} ({p['rule']})"


# ---------------------------------------------------------------- the log, replayed

def initial(setup: dict) -> dict:
    return {"case": copy.deepcopy(setup), "phase": START, "turn_start": {}, "pending": None,
            "winner": setup.get("game", {}).get("winner"), "reason": None, "started": False}


def _merge(case: dict, result: dict) -> None:
    case["units"] = result["state"]["units"]
    case["traps"] = result["state"]["traps"]
    case["activations"] = result["activations"]


def _winner(state: dict, result: dict) -> None:
    if result.get("winner"):
        state.update(phase=OVER, winner=result["winner"], reason=result.get("reason"))


def attack_doc(case: dict, p: dict, counter: str | None = None, dice: Any = None) -> dict:
    doc = dict(case)
    doc["attack"] = {"attacker": p["attacker"], "target": p["target"], "provoked": False,
                     "aimed": bool(p.get("aimed")), "counter": counter or p.get("counter") or O.DEFENCE,
                     "retreat_to": p.get("retreat_to"), "push_to": p.get("push_to")}
    if dice is not None:
        doc["dice"] = dice
    return doc


def apply(state: dict, kind: str, payload: dict) -> tuple[dict, dict]:
    """One step on a state: the new state and what the engine gave (Refusal if the rules refuse it)."""
    state = copy.deepcopy(state)
    case = state["case"]
    if state["phase"] == OVER and not kind.startswith("override"):
        raise Refusal(labels.refusal("game_over"))
    if kind == "setup":
        case["event"] = {"current": case["event"].get("current"), "draw_pile": list(payload["order"]),
                         "discard": list(case["event"].get("discard", []))}
        return state, {"deck": len(payload["order"])}
    if kind == "deploy":
        if state.get("started", True) or state["phase"] != START:
            raise Refusal(_("Units are placed only before the first turn (O5)."))
        u = next((x for x in case["units"] if x["id"] == payload["unit"]), None)
        if u is None or u["where"] not in (O.BOARD, O.RESERVE):
            raise Refusal(_("No such unit."))
        h = payload.get("hex")
        if h is not None:
            st = state_of(case)
            if tuple(h) not in st.board or any(x["hex"] == h for x in case["units"] if x["id"] != u["id"]):
                raise Refusal(_("That hex is not free."))
            u.update(where=O.BOARD, hex=list(h))
        else:
            u.update(where=O.RESERVE, hex=None)
        return state, {"problems": setup_problems(case)}
    if kind == "values":
        if state.get("started", True) or state["phase"] != START:
            raise Refusal(_("Printed values are entered only before the first turn."))
        by_id = {u["id"]: u for u in case["units"]}
        cities = {c["id"]: c for c in case["cities"]}
        for uid, given in (payload.get("units") or {}).items():
            if uid not in by_id:
                raise Refusal(_("No such unit."))
            by_id[uid]["stats"] = {**(by_id[uid].get("stats") or {}), **given}
        for cid, durability in (payload.get("cities") or {}).items():
            if cid not in cities:
                raise Refusal(_("No such city."))
            cities[cid]["durability"] = durability
        state_of(case)                                   # a value out of its bounds is refused here
        return state, {"units": len(payload.get("units") or {}), "cities": len(payload.get("cities") or {})}
    if kind == "turn_start":
        if state["phase"] != START:
            raise Refusal(_("The turn has already begun."))
        if not state.get("started", True):
            lacking = missing_text(case) if is_war_battle(case) else []   # a data-set table has them all
            if lacking:
                raise Refusal(_("The table lacks printed values the engine needs (O23): %(list)s")
                              % {"list": " ".join(lacking)})
            problems = [p for p in setup_problems(case) if p["severity"] == O.ERROR]
            if problems:
                raise Refusal(_("The setup breaks the rules: %(codes)s")
                              % {"codes": "; ".join(problem_text(p) for p in problems)})
            state["started"] = True
        result = run(O.TURN, {**case, "stage": O.START, "choices": payload.get("choices") or {}})
        case.update({k: v for k, v in result["state"].items() if k != "game"})
        state["phase"] = BATTLE
        state["turn_start"] = {u["id"]: u["hex"] for u in case["units"]
                               if u["faction"] == case["game"]["active"] and u["where"] == O.BOARD}
        _winner(state, result)
        return state, _strip(result)
    if kind == "turn_end":
        _need_battle(state)
        result = run(O.TURN, {**case, "stage": O.END, "turn_start": state["turn_start"]})
        winner = result["state"]["game"].pop("winner", None)
        case.update(result["state"])
        state.update(phase=START, turn_start={})
        _winner(state, {"winner": winner, "reason": result.get("reason")})
        return state, _strip(result)
    if kind == "move":
        _need_battle(state)
        doc = {**case, "move": {"unit": payload["unit"], "path": payload["path"]}}
        if payload.get("dice") is not None:
            doc["dice"] = payload["dice"]
        result = run(O.MOVE, doc)
        if "state" not in result:
            raise Refusal(_("This move provokes attacks: their dice are needed."))
        _merge(case, result)
        return state, _strip(result)
    if kind == "declare":
        _need_battle(state)
        if state["pending"]:
            raise Refusal(_("An attack is already waiting for its counter-measure and dice."))
        run(O.ODDS, attack_doc(case, payload))
        state["pending"] = {"attacker": payload["attacker"], "target": payload["target"],
                            "aimed": bool(payload.get("aimed")), "counter": None, "retreat_to": None}
        return state, {}
    if kind == "counter":
        p = state["pending"]
        if not p or p.get("counter"):
            raise Refusal(_("No attack is waiting for a counter-measure."))
        odds = run(O.ODDS, attack_doc(case, p))
        if payload["counter"] == O.RETREAT:
            if odds["retreat"] is None:
                raise Refusal(labels.refusal(odds["retreat_refused"]["code"]))
            if payload.get("retreat_to") not in retreat_hexes(case, p["target"]):
                raise Refusal(labels.refusal("retreat_hex_not_free"))
        p.update(counter=payload["counter"], retreat_to=payload.get("retreat_to") if payload["counter"] == O.RETREAT
                 else None)
        return state, {}
    if kind == "attack":
        _need_battle(state)
        p = state["pending"]
        if not p or not p.get("counter"):
            raise Refusal(_("The target has not chosen its counter-measure yet."))
        result = run(O.ATTACK, attack_doc(case, p, p["counter"], payload["dice"]))
        _merge(case, result)
        state["pending"] = None
        return state, _strip(result)
    if kind == "ability":
        _need_battle(state)
        if state["pending"]:
            raise Refusal(_("An attack is waiting for its counter-measure and dice."))
        result = run(O.ABILITY, {**case, "ability": payload})
        _merge(case, result)
        return state, _strip(result)
    if kind == "override_unit":
        u = next((x for x in case["units"] if x["id"] == payload["unit"]), None)
        if u is None or u["where"] != O.BOARD:
            raise Refusal(_("That unit is not on the board."))
        health = u["stats"]["health"]
        if health is None:
            raise Refusal(explain(f"units[{case['units'].index(u)}].stats.health: unknown", case))
        u["damage"] = payload["damage"]
        if u["damage"] >= health:
            u.update(where=O.DEAD, hex=None, effects=[])
        return state, {"unit": u["id"], "damage": u["damage"], "killed": u["where"] == O.DEAD}
    if kind == "override_modifier":
        if not any(x["id"] == payload["unit"] for x in case["units"]):
            raise Refusal(_("No such unit."))
        case.setdefault("modifiers", []).append({"unit": payload["unit"], "param": payload["param"],
                                                 "value": payload["value"], "source": payload["source"]})
        state_of(case)
        return state, {}
    if kind == "override_unmodify":
        mods = case.get("modifiers") or []
        i = payload["index"]
        if not 0 <= i < len(mods):
            raise Refusal(_("No such modifier."))
        removed = mods.pop(i)
        return state, {"removed": removed}
    if kind == "override_end":
        state.update(phase=OVER, winner=payload["winner"], reason="moderator")
        return state, {"winner": payload["winner"]}
    raise Refusal(_("Unknown action."))


def _need_battle(state: dict) -> None:
    if state["phase"] != BATTLE:
        raise Refusal(_("Begin the turn first."))


def _strip(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "state"}


def replay(setup: dict, steps) -> dict:
    """The state after the live steps (each `(kind, payload)`), from the setup."""
    state = initial(setup)
    for kind, payload in steps:
        state, _outcome = apply(state, kind, payload)
    return state


# ---------------------------------------------------------------- what pages ask

def retreat_hexes(case: dict, target: str) -> list[list[int]]:
    """Free hexes next to the target, in hex order (O16)."""
    st = state_of(case)
    u = st.by_id.get(target)
    if u is None or not u.on_board:
        return []
    occupied = st.occupant()
    return [list(h) for h in hex_order(u.hex, [h for h in neighbours(u.hex) if st.is_free(h, u.side, occupied)])]


def legal_moves(case: dict, uid: str) -> dict[tuple, dict]:
    """Every hex the unit may end a move on: the path (fewest provoked attacks, then shortest) and its cost."""
    st = state_of(case)
    u = st.by_id.get(uid)
    if u is None or not u.on_board:
        return {}
    speed = effective(st, u, "speed").param
    occupied = st.occupant()
    enemies = [v for v in st.units if v.on_board and v.side != u.side and not is_ranged(st, v)]
    camo = active_trait(st, u) == "camouflage"
    best: dict[tuple, tuple] = {}

    def provokes(a, b):
        return 0 if camo else sum(1 for v in enemies if distance(v.hex, a) == 1 and distance(v.hex, b) == 1)

    def walk(h, path, cost):
        if path and h not in occupied:
            key = (cost, len(path))
            if h not in best or key < best[h][0]:
                best[h] = (key, list(path))
        if len(path) >= speed:
            return
        for n in neighbours(h):
            if n in path or n == u.hex or n not in st.board or st.enemy_city_at(n, u.side) is not None:
                continue
            other = occupied.get(n)
            if other is not None and other.side != u.side:
                continue
            path.append(n)
            walk(n, path, cost + provokes(h, n))
            path.pop()

    walk(u.hex, [], 0)
    out = {}
    for h, (_key, path) in best.items():
        doc = {**case, "move": {"unit": uid, "path": [list(x) for x in path]}}
        try:
            result = run(O.MOVE, doc)
        except Refusal:
            continue
        out[h] = {"path": [list(x) for x in path], "provoked": [p["attacker"] for p in result["provoked"]],
                  "trap": any(s["trap"] for s in result["steps"])}
    return out


def legal_targets(case: dict, uid: str) -> list[dict]:
    """Enemy units this unit may attack now (the engine's odds accept them), with `aimed` where only aimed."""
    st = state_of(case)
    u = st.by_id.get(uid)
    if u is None or not u.on_board:
        return []
    out = []
    aimed_too = u.kind.trait == "aimed_shot"
    for v in st.units:
        if not v.on_board or v.side == u.side:
            continue
        for aimed in ((False, True) if aimed_too else (False,)):
            try:
                run(O.ODDS, attack_doc(case, {"attacker": uid, "target": v.id, "aimed": aimed}))
            except Refusal:
                continue
            out.append({"target": v.id, "aimed": aimed, "hex": list(v.hex)})
            break
    return out


def summon_hexes(case: dict, faction: str) -> list[list[int]]:
    """Where the unit leaving cell 1 of the indicator may be summoned (O11): the capital's nearest free hexes."""
    from larp.orda.engine.turn import _summon_hexes

    st = state_of(case)
    cands, capital_ok = _summon_hexes(st, faction)
    out = [list(h) for h in cands]
    if capital_ok:
        out.insert(0, list(st.capital(faction).hex))
    return out


def odds(case: dict, pending: dict) -> dict:
    return run(O.ODDS, attack_doc(case, pending))


def values(case: dict, uid: str) -> dict:
    """The unit's effective attack, defence, speed (and range), itemised (O19)."""
    st = state_of(case)
    u = st.by_id[uid]
    out = {}
    for p in ("attack", "defence", "speed", "range"):
        if p == "range" and not is_ranged(st, u):
            continue
        try:
            out[p] = effective(st, u, p).as_dict()
        except CaseError:
            out[p] = None
    return out


def losses(setup: dict, case: dict) -> dict:
    """Per faction: tokens at the start (all 12) and tokens dead now (docs/tables.md's measure for Orda)."""
    out = {}
    for f in setup["game"]["order"]:
        start = [u for u in setup["units"] if u["faction"] == f]
        dead = [u for u in case["units"] if u["faction"] == f and u["where"] == O.DEAD]
        out[f] = {"start": len(start), "lost": len(dead)}
    return out
