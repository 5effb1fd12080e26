"""Strategic manoeuvring (T30-T33): the `march` and `battle_offer` modes on the 5x5 card map.

Dice order (for the seed's k, dice.py): the marches in the order listed, one
die each (two, summed, for a wholly mounted corps, T31.3); a refused march
takes none.
"""
from __future__ import annotations

from typing import Any, Mapping

from . import fields as f
from . import outcomes as o
from .dice import Dice, parse_list, parse_seed
from .errors import CaseError


def _size(rules: Mapping) -> tuple[int, int]:
    rows, cols = rules["strategic"]["grid"]
    return rows, cols


def _cell(rules: Mapping, raw: Any, field: str) -> tuple[int, int]:
    rows, cols = _size(rules)
    pair = f.lst(raw, field, 2)
    if len(pair) != 2:
        raise CaseError(field, "a cell is [row, column]")
    return f.integer(pair[0], f"{field}[0]", 0, rows - 1), f.integer(pair[1], f"{field}[1]", 0, cols - 1)


def _cards(rules: Mapping) -> dict[str, Mapping]:
    out = {}
    for card in rules["cards"]:
        out.setdefault(card["id"], card)
    return out


def _corps(rules: Mapping, raw: Any, field: str) -> list[dict]:
    out = []
    for i, c in enumerate(f.lst(raw or [], field, 100)):
        cf = f"{field}[{i}]"
        c = f.obj(c, cf)
        out.append({"id": f.ident(f.need(c, "id", cf), f"{cf}.id"), "side": f.ident(f.need(c, "side", cf), f"{cf}.side"),
                    "cell": _cell(rules, f.need(c, "cell", cf), f"{cf}.cell"),
                    "tired": f.boolean(c.get("tired", False), f"{cf}.tired")})
    f.unique_ids(out, field)
    return out


def adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def _map(rules: Mapping, case: dict) -> dict:
    rows, cols = _size(rules)
    cards = _cards(rules)
    terrain = [k for k, v in cards.items() if v.get("kind") == "terrain"]
    grid = f.lst(f.need(case, "grid", ""), "grid", rows)
    if len(grid) != rows:
        raise CaseError("grid", f"{rows} rows of {cols} cards")
    cells = {}
    for r, row in enumerate(grid):
        row = f.lst(row, f"grid[{r}]", cols)
        if len(row) != cols:
            raise CaseError(f"grid[{r}]", f"{cols} cards in a row")
        for c, card in enumerate(row):
            cells[(r, c)] = f.choice(card, f"grid[{r}][{c}]", [o.CLEAR] + terrain)
    river_cells = set()
    for i, rv in enumerate(f.lst(case.get("rivers") or [], "rivers", 10)):
        rv = f.obj(rv, f"rivers[{i}]")
        if "row" in rv:
            r = f.integer(rv["row"], f"rivers[{i}].row", 0, rows - 1)
            river_cells |= {(r, c) for c in range(cols)}
        elif "col" in rv:
            c = f.integer(rv["col"], f"rivers[{i}].col", 0, cols - 1)
            river_cells |= {(r, c) for r in range(rows)}
        else:
            raise CaseError(f"rivers[{i}]", "a river is {\"row\": r} or {\"col\": c}")
    river_cells |= {cell for cell, card in cells.items() if card == "river"}
    paths = {_cell(rules, p, f"paths[{i}]") for i, p in enumerate(f.lst(case.get("paths") or [], "paths", 25))}
    weather_ids = [k for k, v in cards.items() if v.get("kind") == "weather"]
    weather = [f.choice(w, f"weather[{i}]", weather_ids) for i, w in enumerate(f.lst(case.get("weather") or [], "weather", 10))]
    guides = None
    if case.get("good_guides") is not None:
        g = f.obj(case["good_guides"], "good_guides")
        guides = {"side": f.ident(f.need(g, "side", "good_guides"), "good_guides.side"),
                  "terrain": f.choice(f.need(g, "terrain", "good_guides"), "good_guides.terrain", terrain)}
    return {"cells": cells, "rivers": river_cells, "paths": paths, "weather": weather, "guides": guides,
            "flood": f.boolean(case.get("flood", False), "flood"), "cards": cards}


def step_cost(rules: Mapping, m: dict, cell: tuple[int, int], crossing: bool, crosses_river: bool, side: str,
              road: bool) -> int | str:
    """T31.2, T31.6: the MP of entering one card, or the reason it is impassable."""
    st = rules["strategic"]
    card = m["cells"][cell]
    water = card != o.CLEAR and m["cards"][card].get("water") or cell in m["rivers"]
    if m["flood"] and water:
        return "a flood makes water cards impassable (T31.6)"
    river_crossing = cell in m["rivers"] and (crosses_river or (card == "river" and crossing))
    if river_crossing or card == "mountains":                      # impassable except where a Path lies
        if cell not in m["paths"]:
            return f"{'a river' if river_crossing else 'mountains'} cannot be crossed without a Path (T31.6)"
        cost = st["path_cost"]
    elif card == o.CLEAR or not crossing or card == "river":
        cost = st["clear_cost"]                                    # a feature not crossed counts as clear
    else:
        cost = m["cards"][card]["cost"]
    if road:
        cost = st["road_cost"]
    g = m["guides"]
    if g and g["side"] == side and card == g["terrain"] and crossing:
        cost = max(1, cost - 1)
    extra = [st["weather_cost"][w] for w in m["weather"] if w in st["weather_cost"]]
    return cost + (max(extra) if extra else 0)                     # rain and heavy mud: the higher


def run_march(rules: Mapping, case: Any) -> dict:
    case = f.obj(case, "case")
    m = _map(rules, case)
    rows, cols = _size(rules)
    positions = {c["id"]: dict(c) for c in _corps(rules, case.get("corps"), "corps")}
    marches = f.lst(f.need(case, "marches", ""), "marches", 50)
    plans = []
    for i, raw in enumerate(marches):
        mf = f"marches[{i}]"
        mr = f.obj(raw, mf)
        src = mr.get("from", o.EDGE)
        plan = {"corps": f.ident(f.need(mr, "corps", mf), f"{mf}.corps"),
                "side": f.ident(f.need(mr, "side", mf), f"{mf}.side"),
                "mounted": f.boolean(mr.get("mounted", False), f"{mf}.mounted"),
                "tired": f.boolean(mr.get("tired", False), f"{mf}.tired"),
                "road": f.boolean(mr.get("road", False), f"{mf}.road"),
                "stealth": f.boolean(mr.get("stealth", False), f"{mf}.stealth"),
                "from": None if src == o.EDGE else _cell(rules, src, f"{mf}.from"), "steps": []}
        for j, s in enumerate(f.lst(f.need(mr, "steps", mf), f"{mf}.steps", rows * cols)):
            sf = f"{mf}.steps[{j}]"
            s = f.obj(s, sf)
            plan["steps"].append({"cell": _cell(rules, f.need(s, "cell", sf), f"{sf}.cell"),
                                  "crossing": f.boolean(s.get("crossing", True), f"{sf}.crossing"),
                                  "crosses_river": f.boolean(s.get("crosses_river", False), f"{sf}.crosses_river")})
        if not plan["steps"]:
            raise CaseError(f"{mf}.steps", "a march enters at least one card")
        plans.append(plan)
    f.unique_ids(plans, "marches", "corps")
    ids = {p["corps"] for p in plans}
    dice_raw = f.obj(case.get("dice") or {}, "dice")
    lists = {}
    for cid, entered in dice_raw.items():
        if cid not in ids:
            raise CaseError(f"dice.{cid[:64]}", "no march of this case moves this corps")
        lists[(cid, "march")] = parse_list(entered, f"dice.{cid}")
    dice = Dice(lists, parse_seed(case.get("seed")))
    done, refused = [], []
    for plan in plans:
        result = _march(rules, m, plan, positions, dice, rows, cols)
        (refused if "rule" in result else done).append(result)
        if "rule" in result:
            dice.used[(plan["corps"], "march")] = len(lists.get((plan["corps"], "march"), []))  # takes no dice
    dice.check_used()
    return {"marches": done, "refused": refused}


def _march(rules, m, plan, positions, dice, rows, cols) -> dict:
    cid, side = plan["corps"], plan["side"]

    def no(rule, reason):
        return {"corps": cid, "rule": rule, "reason": reason}
    if plan["tired"]:
        return no("T31.4", "tired corps cannot march")
    here = plan["from"]
    steps_out, total = [], 0
    for j, s in enumerate(plan["steps"]):
        cell = s["cell"]
        if here is None:
            if not (cell[0] in (0, rows - 1) or cell[1] in (0, cols - 1)):
                return no("T31.7", f"step {j + 1}: a corps entering from the edge first enters a card of the edge")
        elif not adjacent(here, cell):
            return no("T31.7", f"step {j + 1}: {list(cell)} is not next to {list(here)}")
        enemies = [c for c in positions.values() if c["side"] != side and c["cell"] == cell and c["id"] != cid]
        if enemies and (not plan["stealth"] or j == len(plan["steps"]) - 1):
            return no("T31.7", f"step {j + 1}: an enemy corps ({enemies[0]['id']}) holds {list(cell)}")
        cost = step_cost(rules, m, cell, s["crossing"], s["crosses_river"], side, plan["road"])
        if isinstance(cost, str):
            return no("T31.6", f"step {j + 1}: {cost}")
        total += cost
        steps_out.append({"cell": list(cell), "cost": cost, "total": total})
        here = cell
    count = rules["strategic"]["mounted_corps_dice"] if plan["mounted"] else 1
    rolled = [dice.take(cid, "march") for _ in range(count)]
    roll = sum(rolled)
    arrived = roll >= total
    position, spent = plan["from"], 0
    for s, out in zip(plan["steps"], steps_out):
        if out["total"] > roll:
            break
        enemy_here = any(c["side"] != side and c["cell"] == s["cell"] for c in positions.values() if c["id"] != cid)
        if not enemy_here:                          # Stealth: pass through, never stop on an enemy
            position, spent = s["cell"], out["total"]
    positions[cid] = {"id": cid, "side": side, "cell": position, "tired": not arrived}
    if position is None:
        positions.pop(cid)
    return {"corps": cid, "cost": total, "steps": steps_out, "dice": rolled, "roll": roll, "arrived": arrived,
            "tired": not arrived, "position": None if position is None else list(position), "spent": spent}


def run_battle_offer(rules: Mapping, case: Any) -> dict:
    case = f.obj(case, "case")
    corps = _corps(rules, f.need(case, "corps", ""), "corps")
    by = f.ident(f.need(case, "offered_by", ""), "offered_by")
    sides = list(dict.fromkeys(c["side"] for c in corps))
    if by not in sides:
        raise CaseError("offered_by", f"no corps of side {by!r}")
    if len(sides) > 2:
        raise CaseError("corps", "corps of two sides")
    mine = [c for c in corps if c["side"] == by]
    theirs = [c for c in corps if c["side"] != by]
    contacts = sorted([a["id"], b["id"]] for a in mine for b in theirs
                      if a["cell"] == b["cell"] or adjacent(a["cell"], b["cell"]))
    if not contacts:
        return {"refused": [{"rule": "T32.1", "reason": "no corps of the two sides are in contact"}]}
    in_contact = {b for _, b in contacts}
    tired = sorted(c["id"] for c in theirs if c["id"] in in_contact and c["tired"])
    rows, cols = _size(rules)
    blocks = []
    for h, w in ((2, 3), (3, 2)):                                   # T32.2 ruling: 2x3 or 3x2 cards
        for r in range(rows - h + 1):
            for c in range(cols - w + 1):
                inside = [x for x in corps if r <= x["cell"][0] < r + h and c <= x["cell"][1] < c + w]
                if {x["side"] for x in inside} == set(sides) and len(sides) == 2:
                    blocks.append({"rows": [r, r + h - 1], "cols": [c, c + w - 1],
                                   "corps": sorted(x["id"] for x in inside)})
    most = max(len(b["corps"]) for b in blocks)
    best = sorted((b for b in blocks if len(b["corps"]) == most),
                  key=lambda b: (b["rows"][0], b["cols"][0], b["rows"][1] - b["rows"][0]))
    return {"contacts": contacts, "may_refuse": not tired, "tired_in_contact": tired, "max_generals": most,
            "battlefields": best}


# T33 rulings on the weather cards: which cards each one removes, and which need Rain in play.
WEATHER_REMOVES = {"sun": ("rain", "wet_ground", "heavy_mud"), "strong_wind": ("heavy_mud",)}
NEEDS_RAIN = ("heavy_mud", "river_flood")


def play_card(rules: Mapping, case: Any) -> dict:
    """A weather card, River flood or a Path played from a hand (T33): the weather, the flood and the paths after it.

    Case: the map's `grid`, `rivers`, `paths`, `weather`, `flood`, the `card` played and, for a Path, its `cell`.
    Weather cards lie together; a card removes only the cards it names (Sun, Strong wind); a new card of the same
    weather replaces the old; Heavy mud and River flood only after Rain; a Path lies on Mountains or a river.
    Any other card changes none of these (its effect is the moderator's procedure, T36).
    """
    case = f.obj(case, "case")
    m = _map(rules, case)
    cards = m["cards"]
    card = f.choice(f.need(case, "card", ""), "card", list(cards))
    weather = list(dict.fromkeys(m["weather"]))
    flood = m["flood"]
    paths = sorted(m["paths"])

    def no(reason):
        return {"refused": [{"card": card, "rule": "T33", "reason": reason}]}
    if card in NEEDS_RAIN and "rain" not in weather:
        return no("only after Rain")
    if card == "path":
        cell = _cell(rules, f.need(case, "cell", ""), "cell")
        if m["cells"][cell] != "mountains" and cell not in m["rivers"]:
            return no("a Path lies on Mountains or a river")
        paths = sorted(set(paths) | {cell})
    elif card == "river_flood":
        flood = True
    elif cards[card].get("kind") == "weather":
        weather = [w for w in weather if w not in WEATHER_REMOVES.get(card, ()) and w != card] + [card]
    return {"weather": weather, "flood": flood, "paths": [list(p) for p in paths]}
