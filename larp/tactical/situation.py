"""The one adapter of «Тактические правила»: the table's models <-> the engine's data (docs/tactical-rules.md, "Table").

- `Table.setup` is the engine's combat case for the battle's start (T37.2, T37.3):
  `profiles`, `units` (each with `side` = a Side's key), `conditions`, plus the
  table's own optional `points_limit`, `army_lists` and `terrain`.
- A side's army built on the pages is a `roster` step (the army document, see
  `army_case`); the moderator's approval a `confirm` step; `start` puts the
  approved armies on the table.
- Each action (`clash`, `melee`, `shooting`, `test`) is a step whose payload is
  the case's own block and the dice per unit as the engine consumed them; the
  state is always `replay(setup, live steps)`.

Dice are always given to the engine as data (`resolve`): the engine is run with
the dice so far and, when it asks for one more of a list, that die is taken
from the hand dice typed in or from the table's server stream — never from a
seed of the engine's own.
"""
from __future__ import annotations

from typing import Callable, Iterable

from larp.plain import copy_of
from larp.tactical.engine import data
from larp.tactical.engine.army import run_army
from larp.tactical.engine.checks import run_test
from larp.tactical.engine.combat import run_clash, run_melee
from larp.tactical.engine.errors import CaseError
from larp.tactical.engine.odds import run_odds
from larp.tactical.engine.shooting import run_shooting
from larp.tactical.engine.units import parse_profiles, parse_unit, ranks_out

RULES = data.load()
ACTIONS = ("clash", "melee", "shooting", "test")
TEST_KINDS = ("unit", "rally", "disorderly", "disorder", "recover", "loyalty", "general_death", "initiative")
# T15.5-T15.8 and the rest: what disorders a unit's warriors (the engine's `disorder` causes)
DISORDER_CAUSES = ("terrain", "heavy_mud", "trot", "gallop", "reform", "rank_swap", "remount", "dismount",
                   "skirmishers_pushed", "handgun", "retreat")
DIRECTIONS = ("front", "flank", "rear")
END_REASONS = ("rout", "concession", "time")
DEFAULT_LIMIT = RULES["army"]["recommended_max_points"]
MAX_UNITS = 40
MAX_GENERALS = 8
MAX_DICE = 400
# A side standing in fortifications (the «Укрепления» card; a storm's walls from the bridge, docs/bridge.md): the
# advantageous position of T16.2, kept in `terrain` as {"piece": "fortifications", "side": key}.
FORTIFICATIONS = "fortifications"


class NeedDice(Exception):
    """The hand dice ran out and the server may not roll the rest: which list the engine waits for."""

    def __init__(self, unit: str, kind: str, given: int):
        super().__init__(f"{unit}:{kind}")
        self.unit, self.kind, self.given = unit, kind, given


class LeftOver(Exception):
    def __init__(self, count: int):
        super().__init__(str(count))
        self.count = count


# ---------------------------------------------------------------------------------------------- the army builder
def thaw(value):
    """Plain dicts and lists of the frozen rules data (the engine takes JSON-shaped cases)."""
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    if hasattr(value, "items"):
        return {k: thaw(v) for k, v in value.items()}
    return value


def army_lists() -> list[dict]:
    return thaw(RULES["sample_army_lists"])


def army_list(list_id: str) -> dict | None:
    return next((a for a in army_lists() if a["id"] == list_id), None)


def entry_of(list_id: str, entry_id: str) -> dict | None:
    lst = army_list(list_id)
    return next((e for e in lst["entries"] if e["id"] == entry_id), None) if lst else None


def empty_army(list_id: str, limit: int) -> dict:
    return {"army_list": list_id, "points_limit": limit, "units": [], "generals": []}


def army_case(doc: dict) -> dict:
    """The engine's `army` case (T38) of an army document saved by the builder (one profile per unit)."""
    lst = army_list(doc["army_list"]) or {"id": doc["army_list"], "year": None, "entries": []}
    entries = [{k: e.get(k) for k in ("id", "role", "category", "weapons", "armour", "shields", "horse_armour",
                                      "javelin", "melee", "price")} for e in lst["entries"]]
    profiles, units = [], []
    for u in doc["units"]:
        profiles.append({"id": u["id"], "entry": u["entry"], "specialty": u["specialty"], "melee": u["melee"],
                         "steadiness": u["steadiness"], "weapon": u["weapon"], "armour": u["armour"],
                         "shield": u["shield"], "horse_armour": u["horse_armour"], "javelin": u["javelin"]})
        units.append({"id": u["id"], "formation": u["formation"], "bases": u["bases"],
                      "figures": [{"profile": u["id"], "count": u["count"]}]})
    generals = [{"id": g["id"], "type": g["type"], "mercenary": g["mercenary"], "c_in_c": g["c_in_c"],
                 "entry": g["entry"], "method": g["method"], "dice": list(g.get("dice") or []),
                 **({"talents": g["talents"]} if g["method"] == "points" else {})} for g in doc["generals"]]
    return {"army_list": {"id": lst["id"], "year": lst.get("year"), "entries": entries},
            "points_limit": doc["points_limit"], "profiles": profiles, "units": units, "generals": generals,
            "seed": None}


def check_army(doc: dict) -> dict:
    """The engine's verdict on an army document: points, legality, generals' talents."""
    return run_army(RULES, army_case(doc))


def general_dice_count(c_in_c: bool) -> int:
    """Talent dice (steadiness, melee, specialty), then the commander-in-chief's Initiative die (T12.5)."""
    return 4 if c_in_c else 3


def army_units(side: str, doc: dict, verdict: dict) -> tuple[list[dict], list[dict]]:
    """The combat profiles and units (T37.2) of an approved army, ids prefixed by the side's key."""
    category = {e["id"]: e["category"] for e in (army_list(doc["army_list"]) or {"entries": []})["entries"]}
    names = {e["id"]: e.get("ru") or e["id"] for e in (army_list(doc["army_list"]) or {"entries": []})["entries"]}
    talents = {g["id"]: g["talents"] for g in verdict.get("generals", {}).get("list", [])}
    profiles, units = [], []
    for u in doc["units"]:
        pid = f"{side}.{u['id']}"
        profiles.append({"id": pid, "name": u.get("name") or names.get(u["entry"], u["entry"]),
                         "category": category.get(u["entry"], "swordsmen"),
                         "specialty": u["specialty"], "melee": u["melee"], "steadiness": u["steadiness"],
                         "weapon": u["weapon"], "javelin": u["javelin"], "armour": u["armour"],
                         "shield": u["shield"], "horse_armour": u["horse_armour"]})
        general = next((g for g in doc["generals"] if g.get("unit") == u["id"]), None)
        units.append({"id": pid, "name": u.get("name") or names.get(u["entry"], u["entry"]), "side": side,
                      "formation": u["formation"], "special": None, "bases": u["bases"],
                      "figures": [{"profile": pid, "count": u["count"], "disordered": 0}],
                      "general": None if general is None else {
                          "id": f"{side}.{general['id']}", "name": general.get("name") or "",
                          "profile": pid, "deputy": False, "mercenary": bool(general.get("mercenary")),
                          "talents": talents.get(general["id"], {"steadiness": 0, "melee": 0, "specialty": 0})},
                      "in_melee": False, "fleeing": False})
    return profiles, units


# ----------------------------------------------------------------------------------------------- state and replay
def initial_state(setup: dict) -> dict:
    units = [_normal_unit(u) for u in setup.get("units") or []]
    return {"phase": "setup", "profiles": copy_of(setup.get("profiles") or []), "units": units,
            "conditions": copy_of(setup.get("conditions") or {}),
            "terrain": copy_of(setup.get("terrain") or []),
            "armies": {}, "verdicts": {}, "approved": [], "start": {}, "destroyed": [], "result": None,
            **({"strategic": copy_of(setup["strategic"])} if setup.get("strategic") else {})}


def _normal_unit(u: dict) -> dict:
    """A setup unit as the state keeps it: `ranks` always laid out (the engine's T22 layout of `figures`)."""
    u = copy_of(u)
    u.setdefault("special", None)
    u.setdefault("general", None)
    u.setdefault("in_melee", False)
    u.setdefault("fleeing", False)
    u.setdefault("bases", 1)
    return u


def figures(unit: dict) -> int:
    if "ranks" in unit:
        return sum(g["count"] for rank in unit["ranks"] for g in rank)
    return sum(g["count"] for g in unit.get("figures") or [])


def disordered(unit: dict) -> int:
    groups = [g for rank in unit["ranks"] for g in rank] if "ranks" in unit else unit.get("figures") or []
    return sum(g.get("disordered", 0) for g in groups)


def side_figures(state: dict, side: str) -> int:
    return sum(figures(u) for u in state["units"] if u["side"] == side and u["id"] not in state["destroyed"])


def apply_step(state: dict, kind: str, payload: dict, outcome: dict) -> None:
    """One live step onto the state (the replay's only rule of change)."""
    if kind == "roster":
        side = payload["side"]
        if "army" in payload:
            state["armies"][side] = payload["army"]
            state["verdicts"][side] = outcome
        else:                                   # the moderator's edit of a unit of the setup's (suggested) army
            rule_on_unit(state, payload["unit"], payload["changes"])
        if side in state["approved"]:
            state["approved"].remove(side)
    elif kind == "confirm":
        side = payload["side"]
        if payload.get("approve") and side not in state["approved"]:
            state["approved"].append(side)
        elif not payload.get("approve") and side in state["approved"]:
            state["approved"].remove(side)
    elif kind == "turn":
        state["turn"] = {k: payload[k] for k in ("number", "side", "step", "first")}
        if payload["step"] == 0:
            state["acted"] = []                 # a side's new turn: no unit has acted yet (T16.1)
    elif kind in MANOEUVRE_KINDS or (kind == "override" and "corps" in payload):
        apply_strategic(state, kind, payload, outcome)
    elif kind in ("setup", "conditions"):
        if "strategic" in payload:
            state["strategic"] = copy_of(payload["strategic"])
        if "conditions" in payload:
            state["conditions"] = payload["conditions"]
        if "terrain" in payload:
            state["terrain"] = payload["terrain"]
    elif kind == "start":
        for side in state["approved"]:
            if side not in state["armies"]:
                continue                      # the setup's army (the bridge's suggestion) stays as approved
            profiles, units = army_units(side, state["armies"][side], state["verdicts"][side])
            state["profiles"] = [p for p in state["profiles"] if not p["id"].startswith(f"{side}.")] + profiles
            state["units"] = [u for u in state["units"] if u["side"] != side] + units
        state["units"] = [_laid_out(u, state) for u in state["units"]]
        state["start"] = {u["side"]: 0 for u in state["units"]}
        for u in state["units"]:
            state["start"][u["side"]] += figures(u)
        state["phase"] = "battle"
    elif kind in ("clash", "melee", "shooting"):
        _acted(state, [v["shooter"] for v in payload["shooting"]["volleys"]] if kind == "shooting"
               else involved(kind, payload))
        for uid, res in outcome.get("units", {}).items():
            _after(state, uid, res)
        if kind == "clash" and not outcome.get("refused"):
            ids = [payload["clash"]["attacker"], payload["clash"]["defender"]]
            if all(not unit(state, i)["fleeing"] and i not in state["destroyed"] for i in ids):
                for i in ids:
                    unit(state, i)["in_melee"] = True
        if kind == "melee" and not outcome.get("refused"):
            ids = payload["melee"]["units"]
            over = any(unit(state, i)["fleeing"] or i in state["destroyed"] for i in ids)
            for i in ids:
                unit(state, i)["in_melee"] = not over and not unit(state, i)["fleeing"] and i not in state["destroyed"]
    elif kind == "test":
        if payload.get("unit") and payload["test"]["kind"] not in ("general_death", "loyalty"):
            _acted(state, [payload["unit"]])
        _after_test(state, payload, outcome)
    elif kind == "override":
        rule_on_unit(state, payload["unit"], payload["changes"])
    elif kind == "end":
        state["phase"] = "ended"
        state["result"] = outcome


def rule_on_unit(state: dict, uid: str, ch: dict) -> None:
    """A moderator's ruling on a unit: its formation, state, figures (laid out again by the engine), its general."""
    u = unit(state, uid)
    if ch.get("stats"):
        own_profile(state, uid, ch["stats"])
    for key in ("formation", "fleeing", "in_melee", "bases"):
        if key in ch:
            u[key] = ch[key]
    if "figures" in ch:
        u["ranks"] = _layout(u, state, ch["figures"], min(ch.get("disordered", 0), ch["figures"]))
        u.pop("figures", None)
    if ch.get("destroyed") and u["id"] not in state["destroyed"]:
        state["destroyed"].append(u["id"])
    if ch.get("destroyed") is False and u["id"] in state["destroyed"]:
        state["destroyed"].remove(u["id"])
    if ch.get("general_lost"):
        u["general"] = None


def _after(state: dict, uid: str, res: dict) -> None:
    u = unit(state, uid)
    after = res.get("after")
    if after:
        u["formation"] = after["formation"]
        u["fleeing"] = after["fleeing"]
        u["ranks"] = after["ranks"]
        if after["destroyed"] and uid not in state["destroyed"]:
            state["destroyed"].append(uid)
            u["in_melee"] = False
        if after["fleeing"]:
            u["in_melee"] = False
    if (res.get("general") or {}).get("killed"):
        u["general"] = None


def _acted(state: dict, ids) -> None:
    """The units that acted in the moving side's turn (a ruling of T16.1: such a unit takes no disorderly test)."""
    if state.get("turn"):
        acted = state.setdefault("acted", [])
        acted += [i for i in ids if i not in acted]


def owing_t16(state: dict) -> list[dict]:
    """The moving side's units that owe the disorderly-movement test this turn (T16.1): on the field, not
    fleeing, not recorded as having acted this turn (the moderator skips those that moved by orders)."""
    turn = state.get("turn")
    if not turn or state.get("phase") != "battle":
        return []
    acted = set(state.get("acted") or [])
    return [u for u in state["units"] if u["side"] == turn["side"] and u["id"] not in state["destroyed"]
            and not u.get("fleeing") and u["id"] not in acted
            and (u.get("general") or {}).get("loyalty") not in ("withdrawn", "defected")]


def lost_units(state: dict, side: str) -> int:
    """The side's units fleeing or destroyed, skirmishers not counted (T16.3, T28.1)."""
    return sum(1 for u in state["units"] if u["side"] == side and u["formation"] != "loose"
               and (u.get("fleeing") or u["id"] in state["destroyed"]))


def mercenaries_due(state: dict) -> list[dict]:
    """The moving side's units led by a mercenary general whose loyalty is tested this turn (T28.1)."""
    turn = state.get("turn")
    if not turn or state.get("phase") != "battle":
        return []
    side = turn["side"]
    enemy = next((s for s in state.get("start", {}) if s != side), None)
    if lost_units(state, side) <= (lost_units(state, enemy) if enemy else 0):
        return []                                # the enemy lost as many or more: no test (T28.1)
    return [u for u in state["units"] if u["side"] == side and (u.get("general") or {}).get("mercenary")
            and u["general"].get("loyalty") != "defected" and u["id"] not in state["destroyed"]]


def _after_test(state: dict, payload: dict, outcome: dict) -> None:
    test = payload["test"]
    uid = payload.get("unit")
    if not uid or outcome.get("refused"):
        return
    u = unit(state, uid)
    result = outcome.get("result")
    if test["kind"] == "unit":
        if result == "flees":
            u["fleeing"], u["in_melee"] = True, False
        elif result == "destroyed" and uid not in state["destroyed"]:
            state["destroyed"].append(uid)
    elif test["kind"] == "rally" and result == "stops":
        u["fleeing"] = False
    elif test["kind"] == "general_death" and outcome.get("killed"):
        u["general"] = None
    elif test["kind"] in ("disorder", "recover"):
        rule_on_unit(state, uid, {"figures": figures(u), "disordered": outcome["disordered"]})
        if outcome.get("flees"):
            u["fleeing"], u["in_melee"] = True, False
    elif test["kind"] == "loyalty" and u.get("general"):
        u["general"]["loyalty"] = outcome["status"]


def suggested(state: dict, side: str) -> list[dict]:
    """The side's units written into the setup (the bridge's suggestion from a battle of the war), as long as the
    side has built no army of its own on the pages (which would replace them at the start)."""
    if side in state["armies"]:
        return []
    return [u for u in state["units"] if u["side"] == side]


def bases_needed(state: dict, u: dict, formation: str, count: int) -> int:
    """The bases a unit of `count` figures in `formation` stands on, as many as its ranks need (at most three ranks a
    base, T8.7) — the bridge's rule for a converted unit, kept when the moderator corrects one."""
    front = data.front(RULES, formation, _mounted(state, first_profile(u)))
    ranks = -(-count // front)
    return max(1, -(-ranks // RULES["bases"]["max_ranks_per_base"]))


def misfits(state: dict, side: str) -> list[str]:
    """The side's suggested units the engine cannot lay out on their bases (T8.7, T22.2)."""
    out = []
    for u in suggested(state, side):
        try:
            _laid_out(copy_of(u), state)
        except CaseError:
            out.append(u["id"])
    return out


def profile_refusals(state: dict, side: str) -> dict[str, list[dict]]:
    """The engine's refusals (T5-T8, as for an army bought by the builder) of the side's suggested units' profiles,
    by unit id. A converted army has no army list: each profile is checked against an entry that offers exactly
    its own equipment, so what is judged is what the builder also judges — the grades (2-4, T8.5), the melee of a
    category whose melee is 2 (T8.6), weapons and protection the category never carries (T5.3, T6, T7)."""
    units = suggested(state, side)
    used = {g["profile"] for u in units for g in (u.get("figures") or [x for r in u.get("ranks", []) for x in r])}
    profiles = [p for p in state["profiles"] if p["id"] in used]
    entries = [{"id": f"e{i}", "role": "main", "category": p["category"], "weapons": [p.get("weapon")],
                "armour": [p.get("armour")], "shields": [p.get("shield")], "horse_armour": [p.get("horse_armour")],
                "javelin": bool(p.get("javelin")), "melee": None, "price": None} for i, p in enumerate(profiles)]
    case = {"army_list": {"id": "converted", "year": None, "entries": entries}, "points_limit": 100000,
            "profiles": [{"id": f"p{i}", "entry": f"e{i}", **{k: p.get(k) for k in (
                "specialty", "melee", "steadiness", "weapon", "armour", "shield", "horse_armour")},
                          "javelin": bool(p.get("javelin"))} for i, p in enumerate(profiles)],
            "units": [], "generals": [], "seed": None}
    try:
        verdict = run_army(RULES, case)
    except CaseError as error:
        return {u["id"]: [{"rule": "T8.5", "reason": error.problem}] for u in units}
    by_profile: dict[str, list[dict]] = {}
    for r in verdict["refused"]:
        if r.get("where", "").startswith("p") and r["where"][1:].isdigit():
            by_profile.setdefault(profiles[int(r["where"][1:])]["id"], []).append(r)
    out = {}
    for u in units:
        pid = first_profile(u)
        if by_profile.get(pid):
            out[u["id"]] = by_profile[pid]
    return out


def own_profile(state: dict, uid: str, stats: dict) -> None:
    """A ruling on one unit's values (melee, steadiness, specialty): the unit gets a profile of its own."""
    u = unit(state, uid)
    old = first_profile(u)
    base = next(p for p in state["profiles"] if p["id"] == old)
    pid = old if old.endswith(f"~{uid}") else f"{old}~{uid}"
    mine = {**base, "id": pid, **{k: v for k, v in stats.items() if k in ("specialty", "melee", "steadiness")}}
    state["profiles"] = [p for p in state["profiles"] if p["id"] != pid] + [mine]
    for g in (u.get("figures") or []) + [x for r in u.get("ranks", []) for x in r]:
        if g["profile"] == old:
            g["profile"] = pid
    if u.get("general") and u["general"].get("profile") == old:
        u["general"]["profile"] = pid


def shown_ranks(u: dict, state: dict) -> list:
    """The unit's ranks for the pages: a setup unit given by `figures` as the engine will lay it out at the start
    (one rank of its groups if it does not fit its bases)."""
    if "ranks" in u:
        return u["ranks"]
    try:
        return _laid_out(copy_of(u), state)["ranks"]
    except CaseError:
        return [list(u.get("figures") or [])]


def _laid_out(u: dict, state: dict) -> dict:
    """A unit given by `figures` laid out in ranks by the engine (T22.2); a unit with `ranks` as it is."""
    if "ranks" in u:
        return u
    return _engine_layout(u, state, u.get("figures") or [])


def _layout(u: dict, state: dict, n: int, dis: int) -> list:
    """The ranks of the unit with n figures (dis of them disordered), laid out by the engine (T22)."""
    laid = _engine_layout(dict(u), state, [{"profile": first_profile(u), "count": n, "disordered": dis}])
    return laid["ranks"]


def _engine_layout(u: dict, state: dict, groups: list) -> dict:
    profiles = parse_profiles(RULES, [_engine_profile(p) for p in state["profiles"]])
    raw = {k: v for k, v in _engine_unit(u).items() if k != "ranks"}
    raw["figures"] = groups
    parsed = parse_unit(RULES, raw, f"units.{u['id']}", profiles)
    u["ranks"] = ranks_out(parsed)
    u.pop("figures", None)
    return u


def pieces(terrain: list) -> list[str]:
    """The terrain elements on the table (ids of `terrain_elements`), without the fortified side."""
    return [t for t in terrain or [] if isinstance(t, str)]


def fortified(terrain: list) -> str | None:
    """The side standing in fortifications (T16.2), if any."""
    return next((t.get("side") for t in terrain or [] if isinstance(t, dict)), None)


def first_profile(u: dict) -> str:
    if u.get("ranks"):
        return u["ranks"][0][0]["profile"]
    if u.get("figures"):
        return u["figures"][0]["profile"]
    return ""


def _mounted(state: dict, profile_id: str) -> bool:
    p = next((p for p in state["profiles"] if p["id"] == profile_id), None)
    return bool(p and RULES["categories"][p["category"]]["mounted"])


def unit(state: dict, uid: str) -> dict:
    for u in state["units"]:
        if u["id"] == uid:
            return u
    raise KeyError(uid)


def replay(setup: dict, steps: Iterable) -> dict:
    """The state: the setup with every live step applied in order (each step as (kind, payload, outcome))."""
    state = initial_state(setup)
    for kind, payload, outcome in steps:
        apply_step(state, kind, payload, outcome)
    return state


def rerun(state: dict, kind: str, payload: dict) -> dict:
    """The engine's outcome of a stored action, from the state before it and the stored dice."""
    return _run(kind, case_for(state, kind, payload), payload.get("test"))


# ----------------------------------------------------------------------------------------------- actions
def live_units(state: dict) -> list[dict]:
    return [u for u in state["units"] if u["id"] not in state["destroyed"]]


def _engine_unit(u: dict) -> dict:
    return {k: u[k] for k in ("id", "side", "formation", "special", "bases", "ranks", "general", "in_melee",
                              "fleeing") if k in u}


def involved(kind: str, payload: dict) -> list[str]:
    if kind == "clash":
        return [payload["clash"]["attacker"], payload["clash"]["defender"]]
    if kind == "melee":
        return list(payload["melee"]["units"])
    if kind == "shooting":
        ids: list[str] = []
        for v in payload["shooting"]["volleys"]:
            ids += [i for i in (v["shooter"], v["target"]) if i not in ids]
        return ids
    return [payload["unit"]] if payload.get("unit") else []


def case_for(state: dict, kind: str, payload: dict) -> dict:
    """The engine case of an action on the current state (only the units it involves), with the payload's dice."""
    if kind == "test":
        return {"test": payload["test"], "dice": list(payload.get("dice") or []), "seed": None}
    ids = involved(kind, payload)
    units = [_engine_unit(unit(state, i)) for i in ids]
    used = {g["profile"] for u in units for rank in u["ranks"] for g in rank}
    used |= {u["general"]["profile"] for u in units if u.get("general")}
    case = {"profiles": [_engine_profile(p) for p in state["profiles"] if p["id"] in used],
            "units": units, "conditions": state.get("conditions") or {},
            "modifiers": payload.get("modifiers") or [], kind: payload[kind],
            "dice": copy_of(payload.get("dice") or {}), "seed": None}
    return case


def _engine_profile(p: dict) -> dict:
    return {k: p.get(k) for k in ("id", "name", "category", "specialty", "melee", "steadiness", "weapon", "javelin",
                                  "armour", "shield", "horse_armour")}


def _run(kind: str, case: dict, test: dict | None = None) -> dict:
    if kind == "clash":
        return run_clash(RULES, case)
    if kind == "melee":
        return run_melee(RULES, case)
    if kind == "shooting":
        return run_shooting(RULES, case)
    return run_test(RULES, case)


def odds(state: dict, kind: str, payload: dict) -> dict | None:
    """Exact odds before any die (clash, melee, shooting); None for a test or a fight too large to weigh."""
    if kind not in ("clash", "melee", "shooting"):
        return None
    case = case_for(state, kind, payload)
    case["of"] = kind
    case.pop("dice", None)
    try:
        return run_odds(RULES, case)
    except CaseError:
        return None


def resolve(state: dict, kind: str, payload: dict, hand: list[int],
            server: Callable[[], int] | None) -> tuple[dict, dict, list[int], int]:
    """Run the action, feeding the engine die by die as it asks: hand dice first, then `server()` if allowed.

    Returns (outcome, the payload with its dice, the hand dice used, the number of server dice taken).
    Raises NeedDice when hand dice run out and no server may roll; LeftOver when hand dice are left;
    CaseError for anything else malformed.
    """
    payload = copy_of(payload)
    payload["dice"] = [] if kind == "test" else {}
    hand = list(hand)
    used_hand, from_server = [], 0
    for _ in range(MAX_DICE):
        case = case_for(state, kind, payload)
        try:
            outcome = _run(kind, case, payload.get("test"))
        except CaseError as error:
            where = _awaited(error)
            if where is None:
                raise
            unit_id, list_name = where
            if hand:
                value = hand.pop(0)
                used_hand.append(value)
            elif server is not None:
                value = server()
                from_server += 1
            else:
                given = len(payload["dice"]) if kind == "test" else len(payload["dice"].get(unit_id, {}).get(list_name, []))
                raise NeedDice(unit_id, list_name, given) from None
            if kind == "test":
                payload["dice"].append(value)
            else:
                payload["dice"].setdefault(unit_id, {}).setdefault(list_name, []).append(value)
            continue
        if hand and not outcome.get("refused"):
            raise LeftOver(len(hand))
        return outcome, payload, used_hand, from_server
    raise CaseError("dice", "too many dice")


def _awaited(error: CaseError) -> tuple[str, str] | None:
    """(unit id, list) the engine waits for, from its "dice ran out" error; None for any other problem."""
    if "ran out" not in error.problem:
        return None
    parts = error.field.split(".")
    if error.field == "dice":
        return "", ""
    if len(parts) >= 3 and parts[0] == "dice":
        return ".".join(parts[1:-1]), parts[-1]
    return None


def test_case(state: dict, kind: str, uid: str | None, form: dict) -> dict:
    """The `test` block of a test on a unit, its numbers read from the unit (T24, T25, T12.9, T14.1)."""
    if kind == "initiative":
        sides = sorted({u["side"] for u in state["units"]})
        init = {side: 0 for side in sides}
        for side, verdict in (state.get("verdicts") or {}).items():
            if side in init:
                init[side] = max([g.get("initiative", 0) for g in verdict.get("generals", {}).get("list", [])] or [0])
        return {"kind": "initiative", "initiative": init}
    if kind == "general_death":
        return {"kind": "general_death"}
    u = unit(state, uid)
    profile = next(p for p in state["profiles"] if p["id"] == first_profile(u))
    gen = (u.get("general") or {}).get("talents", {}).get("steadiness", 0) if u.get("general") else 0
    if kind == "rally":
        return {"kind": "rally", "steadiness": profile["steadiness"], "general": gen,
                "in_command": bool(form.get("in_command"))}
    if kind == "recover":
        return {"kind": "recover", "steadiness": profile["steadiness"], "general": gen,
                "in_ranks": figures(u) - disordered(u), "disordered": disordered(u)}
    if kind == "disorder":
        return {"kind": "disorder", "cause": form.get("cause") or "terrain", "formation": u["formation"],
                "mounted": _mounted(state, profile["id"]), "in_ranks": figures(u) - disordered(u),
                "disordered": disordered(u), "steadiness": profile["steadiness"], "general": gen}
    if kind == "disorderly":
        return {"kind": "disorderly", "stage": form.get("stage") or "first", "steadiness": profile["steadiness"],
                "own_lost": lost_units(state, u["side"]),
                "advantageous_position": bool(form.get("advantageous")),
                "shot_with_losses": bool(form.get("shot_with_losses")),
                "candidates": [c for c in form.get("candidates") or [] if c][:3], "shoots": bool(form.get("shoots"))}
    if kind == "loyalty":
        enemy = next((s for s in state.get("start", {}) if s != u["side"]), None)
        status = (u.get("general") or {}).get("loyalty") or "loyal"
        return {"kind": "loyalty", "own_lost": lost_units(state, u["side"]),
                "enemy_lost": lost_units(state, enemy) if enemy else 0,
                "status": "withdrawn" if status == "withdrawn" else "loyal"}
    width = data.front(RULES, u["formation"], _mounted(state, profile["id"]))
    full = sum(1 for rank in u["ranks"] if sum(g["count"] - g.get("disordered", 0) for g in rank) >= width)
    return {"kind": "unit", "steadiness": profile["steadiness"], "circle": u.get("special") == "circle",
            "full_ranks": full, "attacked_from": form.get("attacked_from") or "front",
            "killed": int(form.get("killed") or 0), "general": gen, "broken": bool(form.get("broken")),
            "modifiers": []}


def losses(state: dict) -> dict:
    return {side: {"start": start, "lost": start - side_figures(state, side)}
            for side, start in state.get("start", {}).items()}


TURN_STEPS = 5       # T14.2: (0) mercenary tests, (1) shooting, (2) movement and clashes, (3) disorderly, (4) melee


def next_turn(state: dict, sides: list[str], first: str | None = None) -> dict:
    """The turn tracker's next step (T14.2): through the five steps, then the other side; a round ends with both."""
    turn = state.get("turn")
    if first is not None or not turn:
        side = first or sides[0]
        return {"number": 1, "side": side, "step": 0, "first": side}
    if turn["step"] + 1 < TURN_STEPS:
        return {**turn, "step": turn["step"] + 1}
    other = next((s for s in sides if s != turn["side"]), turn["side"])
    number = turn["number"] + (1 if other == turn["first"] else 0)
    return {**turn, "side": other, "step": 0, "number": number}


def routed(state: dict) -> list[str]:
    """Sides whose every unit has fled or been destroyed (T29: the battle page shows it; the moderator ends)."""
    out = []
    for side in state.get("start", {}):
        mine = [u for u in state["units"] if u["side"] == side]
        if mine and all(u["id"] in state["destroyed"] or u["fleeing"] for u in mine):
            out.append(side)
    return out


# ---------------------------------------------------------------------------------------- strategic manoeuvring
# The map is the state's `strategic` block (docs/tactical-rules.md, "Table"). Besides the cards and the corps it
# keeps the hands dealt (T30.2), the order of laying, the move tracker (whose move, the night, T31.1-T31.5), the
# targets marked for the next roll (T31.1), the last offer of battle and its answer (T32.1) and the chosen field.
from larp.rules import dice as rules_dice  # noqa: E402
from larp.tactical.engine.strategic import adjacent, play_card, run_battle_offer, run_march  # noqa: E402

TERRAIN_CARDS = list(dict.fromkeys(c["id"] for c in RULES["cards"] if c["kind"] == "terrain"))
WEATHER_CARDS = list(dict.fromkeys(c["id"] for c in RULES["cards"] if c["kind"] == "weather"))
CARD_KIND = {c["id"]: c["kind"] for c in RULES["cards"]}
DECK = [c["id"] for c in RULES["cards"]]                   # the 40 cards, in the original's order
HAND_SIZE = RULES["strategic"]["cards_dealt_each"]
MARCH_CARDS = {"road": "road", "stealth": "stealth_march"}  # played with a march, not on their own
# T34.2 ruling: a River card is a deep river, Mountains are cliffs; a card's terrain piece by its id otherwise.
CARD_PIECES = {"river": "deep_river", "mountains": "cliffs", "stream": "stream", "bushes": "bushes",
               "rocks": "rocks", "forest": "forest", "hedge": "hedge", "ravine": "ravine", "hill": "hill",
               "village": "village"}
MANOEUVRE_KINDS = ("deal", "lay", "play", "first", "target", "march", "pass", "halt", "offer", "answer", "field")


def empty_map() -> dict:
    rows, cols = RULES["strategic"]["grid"]
    return {"grid": [["clear"] * cols for _ in range(rows)], "rivers": [], "paths": [], "weather": [],
            "flood": False, "corps": [], "offer": None, "field": None,
            "hands": {}, "deck": [], "lays": [], "lay_first": None, "move": None, "targets": []}


def _filled(m: dict) -> dict:
    """A map block with every key (a map stored before hands and moves were kept, or made by the bridge)."""
    for key, value in empty_map().items():
        m.setdefault(key, value)
    return m


def strategic(state: dict) -> dict:
    return _filled(state.get("strategic") or empty_map())


def _map_case(m: dict) -> dict:
    return {"grid": m["grid"], "rivers": m["rivers"], "paths": m["paths"],
            "weather": [w for w in m["weather"] if w in ("rain", "heavy_mud")], "flood": m["flood"],
            "good_guides": None}


def _corps_case(m: dict) -> list[dict]:
    return [{"id": c["id"], "side": c["side"], "cell": c["cell"], "tired": c["tired"]} for c in m["corps"]
            if c.get("cell") is not None]


def corps_of(m: dict, cid: str) -> dict | None:
    return next((c for c in m["corps"] if c["id"] == cid), None)


def march_dice_count(corps: dict) -> int:
    return RULES["strategic"]["mounted_corps_dice"] if corps.get("mounted") else 1


def march_case(m: dict, plan: dict, dice: list[int]) -> dict:
    corps = corps_of(m, plan["corps"])
    march = {"corps": corps["id"], "side": corps["side"], "mounted": corps.get("mounted", False),
             "tired": corps["tired"], "road": plan.get("road", False), "stealth": plan.get("stealth", False),
             "from": corps["cell"] if corps.get("cell") is not None else "edge", "steps": plan["steps"]}
    return {**_map_case(m), "corps": _corps_case(m), "marches": [march],
            "dice": {corps["id"]: list(dice)} if dice else {}, "seed": None}


def resolve_march(state: dict, plan: dict, hand: list[int], server: Callable[[], int] | None):
    """A march (T31) with its die or dice (two for a mounted corps): typed in, else the server's."""
    m = strategic(state)
    dice: list[int] = []
    hand = list(hand)
    for _ in range(3):
        try:
            outcome = run_march(RULES, march_case(m, plan, dice))
        except CaseError as error:
            if "ran out" not in error.problem:
                raise
            if hand:
                dice.append(hand.pop(0))
            elif server is not None:
                dice.append(server())
            else:
                raise NeedDice(plan["corps"], "march", len(dice)) from None
            continue
        if hand and not outcome["refused"]:
            raise LeftOver(len(hand))
        return outcome, dice
    raise CaseError("dice", "too many dice")


def march_check(state: dict, plan: dict) -> dict:
    """The engine's verdict on a marked target before any die: its cost, or why it is refused (T31.2, T31.7).

    A march's refusal and its cost do not depend on the dice, so the engine is run with the highest dice.
    """
    m = strategic(state)
    outcome = run_march(RULES, march_case(m, plan, [6] * march_dice_count(corps_of(m, plan["corps"]))))
    if outcome["refused"]:
        return {"refused": outcome["refused"]}
    return {"cost": outcome["marches"][0]["cost"], "steps": outcome["marches"][0]["steps"]}


def offer(state: dict, side: str) -> dict:
    m = strategic(state)
    return run_battle_offer(RULES, {"corps": _corps_case(m), "offered_by": side})


def played(state: dict, card: str, cell: list[int] | None) -> dict:
    """The weather, the flood and the paths after a card played from a hand (the engine's T33 rulings)."""
    m = strategic(state)
    return play_card(RULES, {"grid": m["grid"], "rivers": m["rivers"], "paths": m["paths"], "weather": m["weather"],
                             "flood": m["flood"], "card": card, "cell": cell})


def field_terrain(m: dict, block: dict) -> list[str]:
    """The terrain pieces of the six cards of the battlefield (T34.2), one entry per card that has them."""
    out = []
    for r in range(block["rows"][0], block["rows"][1] + 1):
        for c in range(block["cols"][0], block["cols"][1] + 1):
            card = m["grid"][r][c]
            if card in CARD_PIECES:
                out.append(CARD_PIECES[card])
    return out


def field_conditions(m: dict, conditions: dict) -> dict:
    """The weather in play on the strategic map carried into the battle (T35.1)."""
    out = dict(conditions)
    out["rain"] = "rain" in m["weather"]
    out["fog"] = "fog" in m["weather"]
    return out


# -- the hands (T30.2) -----------------------------------------------------------------------------------------------
def dealt(picks: list[int], sides: list[str]) -> tuple[dict, list[str]]:
    """The hands and the undealt deck: the 40 cards in the order the recorded dice give (Fisher-Yates, position i
    takes a die of i + 1 sides), dealt one by one to the sides in turn, six each."""
    n = len(DECK)
    order = rules_dice.shuffled(DECK, lambda i: picks[n - 1 - i] - 1)
    hands: dict[str, list[str]] = {s: [] for s in sides}
    for i in range(HAND_SIZE * len(sides)):
        hands[sides[i % len(sides)]].append(order[i])
    return hands, order[HAND_SIZE * len(sides):]


def terrain_count(hand: list[str]) -> int:
    return sum(1 for card in hand if CARD_KIND.get(card) == "terrain")


def roll_off_winner(rolls: list[list[int]], sides: list[str]) -> str | None:
    """The side whose die is the higher in the last pair of a roll-off (ties are rolled again)."""
    if not rolls or rolls[-1][0] == rolls[-1][1]:
        return None
    return sides[0] if rolls[-1][0] > rolls[-1][1] else sides[1]


def lays_first(hands: dict, sides: list[str], rolls: list[list[int]]) -> str | None:
    """T30.2: the side with more terrain cards lays first; equal numbers: the roll-off's winner."""
    counts = [terrain_count(hands.get(s, [])) for s in sides]
    if not any(counts):
        return None
    if counts[0] != counts[1]:
        return sides[0] if counts[0] > counts[1] else sides[1]
    return roll_off_winner(rolls, sides)


def next_layer(m: dict) -> str | None:
    """Whose terrain card is laid next (T30.2: alternately until all are down); None when none is left."""
    hands = m["hands"]
    left = [s for s, hand in hands.items() if terrain_count(hand)]
    if not left:
        return None
    if not m["lays"]:
        return m["lay_first"] if m["lay_first"] in left else left[0]
    last = m["lays"][-1]
    other = next((s for s in hands if s != last), last)
    return other if other in left else last


def take_card(hand: list[str], card: str) -> None:
    hand.remove(card)


# -- the moves (T31.1-T31.5, T32.1) ------------------------------------------------------------------------------------
def new_move(first: str, sides: list[str]) -> dict:
    order = [first] + [s for s in sides if s != first]
    return {"day": 1, "sides": order, "side": first, "night": False, "marched": [], "rolled": [], "halted": []}


def contacts(m: dict, side: str) -> list[dict]:
    """The other side's corps in contact with one of `side`'s corps (T32.1 ruling: the same or an adjacent card)."""
    own = [c["cell"] for c in m["corps"] if c["side"] == side and c.get("cell") is not None]
    return [c for c in m["corps"] if c["side"] != side and c.get("cell") is not None
            and any(c["cell"] == o or adjacent(tuple(c["cell"]), tuple(o)) for o in own)]


def offer_open(m: dict) -> bool:
    return bool(m["offer"]) and m["offer"].get("answer") is None


def battle_agreed(m: dict) -> bool:
    return bool(m["field"]) or bool(m["offer"] and m["offer"].get("answer") == "accepted")


def _end_move(m: dict, side: str) -> None:
    """The end of a side's day move: its tired corps that stood still lose their marker (T31.4); the other side
    moves next, or, after both, the night comes (T31.5)."""
    mv = m["move"]
    for c in m["corps"]:
        if c["side"] == side and c["tired"] and c["id"] not in mv["marched"]:
            c["tired"] = False
    m["targets"] = [t for t in m["targets"] if t["side"] != side]
    if side == mv["sides"][0]:
        mv.update(side=mv["sides"][1], marched=[], rolled=[])
    else:
        mv.update(side=None, night=True, marched=[], rolled=[])


def _halt(m: dict, marched_by_night: Iterable[str]) -> None:
    """The night halt (T31.5): every fatigue marker removed but those of corps that marched by night; a new day."""
    mv = m["move"]
    moved = set(marched_by_night) | (set(mv["marched"]) if mv and mv["night"] else set())
    for c in m["corps"]:
        if c["id"] not in moved:
            c["tired"] = False
    m["targets"] = []
    if mv:
        mv.update(day=mv["day"] + 1, side=mv["sides"][0], night=False, marched=[], rolled=[], halted=[])


def apply_strategic(state: dict, kind: str, payload: dict, outcome: dict) -> None:
    m = _filled(state.setdefault("strategic", empty_map()))
    mv = m["move"]
    if kind == "march":
        for res in outcome.get("marches", []):
            corps = corps_of(m, res["corps"])
            corps["cell"] = res["position"]
            corps["tired"] = res["tired"]
            m["targets"] = [t for t in m["targets"] if t["corps"] != res["corps"]]
            if mv is not None and res["corps"] not in mv["marched"]:
                mv["marched"].append(res["corps"])
            hand = m["hands"].get(corps["side"])
            for flag, card in MARCH_CARDS.items():
                if payload["march"].get(flag) and hand and card in hand:
                    take_card(hand, card)
        if mv is not None and payload.get("roll") and payload["side"] not in mv["rolled"]:
            mv["rolled"].append(payload["side"])
        m["last"] = outcome
    elif kind == "target":
        m["targets"] = [t for t in m["targets"] if t["corps"] != payload["corps"]]
        if payload.get("steps"):
            m["targets"].append({k: payload[k] for k in ("corps", "side", "steps", "road", "stealth", "cost")})
    elif kind == "halt":
        if payload.get("side"):
            mv["halted"].append(payload["side"])
            if set(mv["sides"]) <= set(mv["halted"]):
                _halt(m, [])
        else:
            _halt(m, payload.get("marched") or [])
    elif kind == "pass":
        _end_move(m, payload["side"])
    elif kind == "offer":
        m["offer"] = {"by": payload["side"], **outcome, "answer": None}
    elif kind == "answer":
        m["offer"]["answer"] = "accepted" if payload["accept"] else "refused"
        if not payload["accept"] and mv is not None and mv["side"] == m["offer"]["by"]:
            _end_move(m, m["offer"]["by"])           # the offer ended the offerer's move; the other moves as usual
    elif kind == "field":
        block = payload["block"]
        m["field"] = block
        state["terrain"] = field_terrain(m, block) + [t for t in state.get("terrain") or [] if isinstance(t, dict)]
        state["conditions"] = field_conditions(m, state.get("conditions") or {})
    elif kind == "deal":
        m["hands"], m["deck"] = dealt(payload["picks"], payload["sides"])
        m["lays"] = []
        m["lay_first"] = lays_first(m["hands"], payload["sides"], payload.get("rolls") or [])
    elif kind == "lay":
        take_card(m["hands"][payload["side"]], payload["card"])
        r, c = payload["cell"]
        m["grid"][r][c] = payload["card"]
        m["lays"].append(payload["side"])
    elif kind == "play":
        take_card(m["hands"][payload["side"]], payload["card"])
        m["weather"], m["flood"], m["paths"] = outcome["weather"], outcome["flood"], outcome["paths"]
    elif kind == "first":
        m["move"] = new_move(payload["first"], payload["sides"])
    elif kind == "override":
        corps = corps_of(m, payload["corps"])
        corps["cell"], corps["tired"] = payload["cell"], payload["tired"]
