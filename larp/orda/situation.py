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
from larp.orda.engine.values import active_trait, back_hexes, effective, is_ranged
from larp.plain import copy_of

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
        result = MODES[mode](copy_of(doc))
    except CaseError as exc:
        raise Refusal(explain(str(exc), doc)) from None
    if result.get("refused"):
        raise Refusal(labels.refusal(result["refused"].get("code", "")))
    return result


def state_of(case: dict):
    """The engine's parsed State, for the look-ups pages need (legal moves, values)."""
    try:
        return parse(copy_of(case))
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
    return {"case": copy_of(setup), "phase": START, "turn_start": {}, "pending": None,
            "winner": setup.get("game", {}).get("winner"), "reason": None, "started": False,
            "acted": list(setup.get("activations") or {})}


def restore(state: dict) -> dict:
    """The state as stored, with its activations back in the order the units acted. The engine reads that order (O12:
    only the unit that acted last may go on), and the database's JSON keeps no key order (PostgreSQL's jsonb sorts
    the keys), so the state keeps it as the list `acted`."""
    acts = state["case"].get("activations") or {}
    order = state.get("acted")
    if order is None or list(acts) == order or set(acts) != set(order):
        return state
    return {**state, "case": {**state["case"], "activations": {uid: acts[uid] for uid in order}}}


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


# ---------------------------------------------------------------- the event deck (O10)

def reshuffle_due(state: dict) -> list[str] | None:
    """The discarded cards the next `turn_start` must shuffle into a new deck, in the engine's discard order (the
    card still in force first), or None: the tour's first faction draws and the pile is empty (O10). The engine
    takes the new order as `choices.reshuffle`; the table rolls it with its dice (services)."""
    case = state["case"]
    game, ev = case["game"], case["event"]
    if state["phase"] != START or game.get("active") != game["order"][0] or ev.get("draw_pile"):
        return None
    cards = ([ev["current"]] if ev.get("current") is not None else []) + list(ev.get("discard") or [])
    return cards or None


# ---------------------------------------------------------------- the turn order before the first turn (O8, O10)

def rolloff_of(state: dict) -> dict:
    """The roll-off for the first turn so far: its rounds, who still rolls, and the faction fixed first (or None)."""
    return state.get("rolloff") or {"rounds": [], "contenders": list(state["case"]["game"]["order"]),
                                     "first": None, "named": False}


def order_open(state: dict) -> bool:
    """The table waits for its turn order: it was set up to decide it by a roll-off and nobody is first yet."""
    return bool(state["case"].get("rolloff")) and rolloff_of(state)["first"] is None


def _before_first_turn(state: dict) -> None:
    if state.get("started", True) or state["phase"] != START:
        raise Refusal(_("The turn order is fixed before the first turn (O8)."))


def _fix_order(state: dict, ro: dict, first: str) -> None:
    """O8 ruling: the order keeps its cycle (sides alternate, so every rotation of it alternates too), starting
    from the faction the roll-off or the moderator put first."""
    game = state["case"]["game"]
    order = list(game["order"])
    i = order.index(first)
    game["order"] = order[i:] + order[:i]
    game["active"] = first
    ro["first"] = first
    state["rolloff"] = ro


def _rolloff(state: dict, payload: dict) -> dict:
    """One round of the roll-off (O10): every faction still rolling rolls one die; those tied for the best roll
    again, until one is best; that one moves first."""
    _before_first_turn(state)
    ro = copy_of(rolloff_of(state))
    if ro["first"] is not None:
        raise Refusal(_("The turn order is already fixed: undo the last step to decide it again."))
    dice = payload.get("dice") or {}
    if set(dice) != set(ro["contenders"]) or any(not isinstance(d, int) or not 1 <= d <= 6 for d in dice.values()):
        raise Refusal(_("Enter one die from 1 to 6 for each faction still rolling: %(list)s.")
                      % {"list": ", ".join(labels.faction(f) for f in ro["contenders"])})
    best = max(dice.values())
    tied = [f for f in ro["contenders"] if dice[f] == best]
    rolled = [[f, dice[f]] for f in ro["contenders"]]          # pairs: the stored JSON keeps a list's order
    ro["rounds"].append(rolled)
    out = {"round": len(ro["rounds"]), "rolled": rolled, "tied": tied if len(tied) > 1 else [], "first": None,
           "order": None}
    if len(tied) > 1:
        ro["contenders"] = tied
        state["rolloff"] = ro
        return out
    _fix_order(state, ro, tied[0])
    return {**out, "first": tied[0], "order": list(state["case"]["game"]["order"])}


def _name_first(state: dict, payload: dict) -> dict:
    """The moderator names the first faction (a roll at the table, or any ruling), with the reason on the step."""
    _before_first_turn(state)
    if payload.get("first") not in state["case"]["game"]["order"]:
        raise Refusal(_("That faction is not at this table."))
    ro = copy_of(rolloff_of(state))
    ro["named"] = True
    _fix_order(state, ro, payload["first"])
    return {"first": payload["first"], "order": list(state["case"]["game"]["order"])}


# ---------------------------------------------------------------- what a declaration names (O21)

def push_hexes(case: dict, attacker: str, target: str) -> list[list[int]]:
    """O21 heavy bolts: the free hexes "back" from the shooter where its target may be pushed, in hex order (the
    first is the rules' default); empty when the attacker has no heavy bolts in force or no push is possible."""
    st = state_of(case)
    a, t = st.by_id.get(attacker), st.by_id.get(target)
    if a is None or t is None or not a.on_board or not t.on_board or active_trait(st, a) != "heavy_bolts":
        return []
    return [list(h) for h in back_hexes(st, a, t)]


def pair_trait(case: dict, attacker: str) -> str | None:
    """The attacker's trait in force when it hits two targets in one key action (O15, O21), else None."""
    st = state_of(case)
    a = st.by_id.get(attacker)
    trait = active_trait(st, a) if a is not None and a.on_board else None
    return trait if trait and st.data.trait(trait).get("targets") == 2 else None


def second_targets(case: dict, attacker: str, first: str) -> list[str]:
    """The units the attacker may name as the second target of a paired attack whose first target is `first`:
    Змей Горыныч's line of two (the unit next to him and the one right behind it, in either order), or two units
    next to the Подрывник (O21); each one the engine accepts as a target now."""
    trait = pair_trait(case, attacker)
    if trait is None:
        return []
    st = state_of(case)
    a, t = st.by_id[attacker], st.by_id.get(first)
    if t is None or not t.on_board:
        return []
    out = []
    for v in st.units:
        if v.id == first or not v.on_board or v.side == a.side:
            continue
        if trait == "linear_attack":
            near, far = (t, v) if distance(a.hex, t.hex) == 1 else (v, t)
            step = (near.hex[0] - a.hex[0], near.hex[1] - a.hex[1])
            if distance(a.hex, near.hex) != 1 or far.hex != (near.hex[0] + step[0], near.hex[1] + step[1]):
                continue
        elif distance(a.hex, v.hex) != 1 or distance(a.hex, t.hex) != 1:
            continue
        if refusal_code(O.ODDS, attack_doc(case, {"attacker": attacker, "target": v.id})) is None:
            out.append(v.id)
    return out


def refusal_code(mode: str, doc: dict) -> str | None:
    """The engine's refusal code for this case, or None when it accepts it (a malformed case counts as refused)."""
    try:
        result = MODES[mode](copy_of(doc))
    except CaseError:
        return "malformed"
    return (result.get("refused") or {}).get("code")


def _declare(state: dict, payload: dict) -> dict:
    """An attack named before the counter-measure and the dice: its push hex (Арбалетчик: the shooter's choice among
    the back hexes, else the rules' default) and its second target (a paired attack) are fixed here."""
    _need_battle(state)
    if state["pending"]:
        raise Refusal(_("An attack is already waiting for its counter-measure and dice."))
    case = state["case"]
    attacker, target = payload["attacker"], payload["target"]
    run(O.ODDS, attack_doc(case, payload))
    backs = push_hexes(case, attacker, target)
    push = payload.get("push_to")
    if push is not None and list(push) not in backs:
        raise Refusal(labels.refusal("push_hex_invalid"))
    second = payload.get("second")
    if second is not None:
        if pair_trait(case, attacker) is None:
            raise Refusal(_("This unit attacks one target at a time (O15)."))
        if second not in second_targets(case, attacker, target):
            raise Refusal(_("That second target is not allowed: a line attack strikes the unit next to the attacker and "
                            "the one right behind it, gunpowder two units next to the attacker (O15, O21)."))
    state["pending"] = {"attacker": attacker, "target": target, "aimed": bool(payload.get("aimed")),
                        "counter": None, "retreat_to": None,
                        "push_to": (list(push) if push is not None else backs[0]) if backs else None,
                        "second": second}
    return {"push_to": state["pending"]["push_to"], "second": second}


def _next_of_pair(state: dict, done: dict) -> dict | None:
    """After the first attack of a pair: the second is declared at once, if the engine still accepts it (the first
    target's death or retreat can break Змей Горыныч's line); what became of it, for the step's outcome."""
    second = done.get("second")
    if not second:
        return None
    p = {"attacker": done["attacker"], "target": second, "aimed": False}
    code = refusal_code(O.ODDS, attack_doc(state["case"], p))
    if code is not None:
        return {"target": second, "declared": False, "code": code}
    state["pending"] = {**p, "counter": None, "retreat_to": None, "push_to": None, "second": None}
    return {"target": second, "declared": True, "code": None}


def apply(state: dict, kind: str, payload: dict) -> tuple[dict, dict]:
    """One step on a state: the new state and what the engine gave (Refusal if the rules refuse it)."""
    new, outcome = _apply(restore(state), kind, payload)
    new["acted"] = list(new["case"].get("activations") or {})
    return new, outcome


def _apply(state: dict, kind: str, payload: dict) -> tuple[dict, dict]:
    state = copy_of(state)
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
            if order_open(state):
                raise Refusal(_("The turn order is not fixed yet: hold the roll-off or name the first faction (O8)."))
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
    if kind == "rolloff":
        return state, _rolloff(state, payload)
    if kind == "override_first":
        return state, _name_first(state, payload)
    if kind == "declare":
        return state, _declare(state, payload)
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
        outcome = _strip(result)
        nxt = _next_of_pair(state, p)
        if nxt is not None:
            outcome["second"] = nxt
        return state, outcome
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
