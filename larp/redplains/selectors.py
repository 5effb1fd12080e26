"""What a Red Plains page shows, filtered by the seat on the server (W42; docs/tables.md "Who sees what").

The fog: a side sees its own deployment, stake, roll and orders; of the other
side only that it has confirmed, until the turn is executed; and no enemy unit
standing unrevealed in a forest (W38.2). The moderator sees everything; the
projector sees what the whole hall may see.
"""
from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from larp.redplains import labels
from larp.redplains import services
from larp.redplains import situation as sit
from larp.tables.access import Seat

CELL = 60
COLOURS = {"north": "#2f5d8a", "south": "#a23b2a"}
ARROWS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def viewer_sees(state: dict, setup: dict, viewer: str | None, u: dict, hidden: set[str] | None = None) -> bool:
    """`viewer`: a side's key, "moderator", or "hall" (the projector: what its enemy sees of a unit, the hall sees).
    `hidden`: the units unseen in a forest now (situation.unseen: unrevealed, no enemy next to them, W38.2)."""
    if viewer == "moderator":
        return True
    if viewer == u["side"]:
        return True
    if state["phase"] in (sit.DEPLOYMENT, sit.PLAN_CHANGE):
        return False
    return u["id"] not in (set(sit.unseen(setup, state)) if hidden is None else hidden)


def board(state: dict, setup: dict, viewer: str | None) -> dict:
    """The grid as SVG-ready shapes: cells with their labels and terrain, and the counters this viewer may see."""
    field = sit.field_of(setup, state)
    hills, forests = set(field.get("hills") or []), set(field.get("forests") or [])
    grid = []
    known = {c["id"] for c in sit.cells()}
    for c in sit.table_cells(setup, state):
        x, y = (c["col"] - 1) * CELL, (c["row"] - 1) * CELL
        grid.append({"id": c["id"], "x": x, "y": y, "hill": c["id"] in hills, "forest": c["id"] in forests,
                     "zone": "north" if c["row"] <= 3 else "south", "extra": c["id"] not in known})
    pos = {c["id"]: (c["x"], c["y"]) for c in grid}
    ghosts = [{"id": c["id"], "x": (c["col"] - 1) * CELL, "y": (c["row"] - 1) * CELL}
              for c in sit.addable(setup, state)] if viewer == "moderator" and sit.may_extend(state) else []
    counters = []
    orders = {}
    if viewer in ("moderator",) + sit.SIDES and state["phase"] != sit.DEPLOYMENT:
        for side in sit.SIDES:
            if viewer in ("moderator", side):
                for o in state["orders"][side]:
                    orders[o["unit"]] = orders.get(o["unit"], 0) + 1
    hidden = set(sit.unseen(setup, state))
    for u in state["units"]:
        cell = u.get("cell")
        if state["phase"] in (sit.DEPLOYMENT, sit.PLAN_CHANGE):
            if viewer not in ("moderator", u["side"]):
                continue
            cell = state["deploy"][u["side"]].get(u["id"]) or cell
        if not cell or cell not in pos or u.get("status", "ready") not in ("ready", "fleeing"):
            continue
        if not viewer_sees(state, setup, viewer, u, hidden):
            continue
        x, y = pos[cell]
        dx, dy = ARROWS.get(u.get("facing", "N"), (0, -1))
        cx, cy = x + CELL // 2, y + CELL // 2                         # whole numbers: no locale decimal comma in SVG
        counters.append({"id": u["id"], "x": x, "y": y, "cx": cx, "cy": cy, "side": u["side"],
                         "colour": COLOURS[u["side"]], "short": str(labels.TYPE_SHORT[u["type"]]),
                         "figures": u["figures"], "fleeing": u.get("status") == "fleeing",
                         "name": labels.unit_name(state, u["id"]),
                         "arrow": arrow(x, y, u.get("facing", "N")), "orders": orders.get(u["id"], 0)})
    return {"cells": grid, "counters": counters, "size": CELL, "ghosts": ghosts, **frame(grid + ghosts),
            **water(field, grid)}


def water(field: dict, grid: list[dict]) -> dict:
    """W36: the river along the line of contact (between rows 3 and 4) and the bridge over it, as SVG shapes: the
    bridge a plank across the river in its column, named for its two cells."""
    if not field.get("river"):
        return {"river": None, "bridge": None}
    bridge = None
    if field.get("bridge"):
        a, b = field["bridge"] if isinstance(field["bridge"], list) else (field["bridge"].get("north"),
                                                                          field["bridge"].get("south"))
        col = {c["id"]: c["col"] for c in sit.cells()}.get(a)
        if col is not None:
            bridge = {"x": (col - 1) * CELL + CELL // 5, "y": 3 * CELL - 10, "width": CELL - 2 * (CELL // 5),
                      "height": 20, "cells": f"{a} — {b}"}
    left, right = min(c["x"] for c in grid), max(c["x"] for c in grid) + CELL     # the field's cells, not the ghosts
    return {"river": {"x": left, "width": right - left, "y": 3 * CELL - 5, "height": 10}, "bridge": bridge}


def frame(shapes: list[dict]) -> dict:
    """The SVG's view box around the cells (the field grows past 12 x 6 with added cells, W2.5) and the centre line."""
    left, top = min(c["x"] for c in shapes), min(c["y"] for c in shapes)
    right, bottom = max(c["x"] for c in shapes) + CELL, max(c["y"] for c in shapes) + CELL
    return {"view_box": f"{left - 4} {top - 4} {right - left + 8} {bottom - top + 8}",
            "centre": {"x1": left, "x2": right, "y": 3 * CELL, "width": right - left}}


def arrow(x: int, y: int, facing: str) -> str:
    """The facing mark: a small triangle just outside the counter (x+6..x+54, y+14..y+48) on its front side."""
    cx, cy = x + CELL // 2, y + 31
    points = {"N": [(cx - 8, y + 14), (cx + 8, y + 14), (cx, y + 4)],
              "S": [(cx - 8, y + 48), (cx + 8, y + 48), (cx, y + 58)],
              "E": [(x + 54, cy - 8), (x + 54, cy + 8), (x + 60, cy)],
              "W": [(x + 6, cy - 8), (x + 6, cy + 8), (x, cy)]}[facing if facing in ARROWS else "N"]
    return " ".join(f"{a},{b}" for a, b in points)


def unit_rows(state: dict, setup: dict, viewer: str | None, side: str | None = None) -> list[dict]:
    rows = []
    riders, commanders = {}, {}
    moved_by = sit.SIDES if viewer == "moderator" else (viewer,) if viewer in sit.SIDES else ()
    units = sit.unit_map(state)
    for g in sit.leaders_now(setup, state, moved_by):                 # the enemy sees no move before execution
        name = g.get("name")
        home = units.get(g.get("unit")) or {}
        if g.get("traits") and viewer in ("moderator", home.get("side")):  # traits stay hidden from the enemy (W10.2)
            name += f", {labels.traits_text(g['traits'])}"
        (commanders if g.get("kind") == "commander" else riders).setdefault(g.get("unit"), []).append(name)
    hidden = set(sit.unseen(setup, state))
    for u in state["units"]:
        if side and u["side"] != side:
            continue
        if not viewer_sees(state, setup, viewer, u, hidden):
            continue
        name = labels.unit_name(state, u["id"])
        if u.get("minor_clan"):
            name += " — " + _("clan %(clan)s") % {"clan": u["minor_clan"]}
        if u["id"] in riders:
            name += " — " + _("general %(names)s") % {"names": ", ".join(riders[u["id"]])}
        if u["id"] in commanders:
            name += " — " + _("commander %(names)s") % {"names": ", ".join(commanders[u["id"]])}
        rows.append({"id": u["id"], "side": u["side"], "name": name,
                     "type": labels.TYPES[u["type"]], "figures": u["figures"], "cell": u.get("cell") or "—",
                     "facing": labels.FACINGS.get(u.get("facing"), ""),
                     "status": labels.STATUSES.get(u.get("status", "ready"), ""), "ammo": u.get("ammo"),
                     "status_code": u.get("status", "ready")})
    return rows


def leader_rows(setup: dict, state: dict, side: str) -> list[dict]:
    """The side's generals and commander: where each rides, the units he may move to now (W11.1), his fate when
    his unit is out of the battle (W11.2)."""
    units = sit.unit_map(state)

    def where(uid):
        return f"{labels.unit_name(state, uid)} ({units[uid].get('cell') or '—'})"

    rows = []
    for g in sit.leader_board(setup, state, side):
        fate = None
        if not g["alive"]:
            fate = _("fell with his unit: his extra order is lost (W11.2)") if g["kind"] == "general" else \
                _("his unit is out of the battle: he is unharmed, but Brawler and Charisma no longer work (W11.2)")
        choices = [(g["unit"], where(g["unit"]) + " — " + _("stays"))] + [(uid, where(uid)) for uid in g["targets"]]
        rows.append({"index": g["index"], "name": g["name"], "kind": labels.LEADER_KINDS.get(g["kind"], ""),
                     "traits": labels.traits_text(g["traits"]),
                     "where": where(g["now"]), "moved": g["now"] != g["unit"], "fate": fate,
                     "may_move": g["alive"] and bool(g["targets"]), "choices": choices, "current": g["now"]})
    return rows


def command_view(state: dict, side: str) -> dict:
    c = state["command"][side]
    result = c["result"]
    rolls = [{"values": r, "total": sum(r), "source": labels.SOURCES.get(s, s)}
             for r, s in zip(c["rolls"], c["sources"])]
    extra = (result or {}).get("extra") or {}
    extras = [_("%(n)s ordinary for the units of clan %(clan)s") % {"n": x["count"], "clan": x["minor_clan"]}
              for x in extra.get("ordinary", [])]
    extras += [_("%(n)s special from general %(name)s, for his unit or one next to it") % {
        "n": x["count"], "name": x["general"]} for x in extra.get("special", [])]
    extras += labels.plan_lines(extra.get("cunning_plan") if result else sit.cunning_plan(state, side))   # W9.3
    return {"extras": extras, "stake": c["stake"], "stake_label": labels.STAKES.get(c["stake"] or "low"), "rolls": rolls,
            "result": result, "rerolls_left": state["rerolls_left"][side] - max(0, len(c["rolls"]) - 1),
            "special": result["orders"]["special"] if result else None,
            "ordinary": result["orders"]["ordinary"] if result else None}


def stake_odds(rerolls_left: int) -> dict[str, str]:
    """W41.7 for the command roll: each stake's chance of success with the messengers' re-rolls left."""
    from larp.redplains.engine.modes import odds_mode
    odds = odds_mode({"command": {"rerolls_left": max(0, rerolls_left)}})
    return {k: f"{100 * odds[k]['success']['value']:.0f}" for k in ("low", "high")}


def orders_view(state: dict, side: str) -> list[dict]:
    check = state["orders_check"][side] or {"refused": []}
    bad = {(r["unit"], r["slot"]): labels.reason(r["reason"]) for r in check["refused"]}
    return [{"unit": labels.unit_name(state, o["unit"]), "slot": o["slot"], "kind": labels.KINDS[o["kind"]],
             "text": labels.order_text(state, o), "refused": bad.get((o["unit"], o["slot"]))}
            for o in state["orders"][side]]


SECTIONS = ("ordinary", "special", "special+ordinary", "special+special", "dragon")


def picker_keys(order: dict, cavalry: bool) -> tuple[str, str, str]:
    """Where an order sits in the picker: its section, its group (the first select) and its detail (the second).

    The group is the order's kind and name (a cavalry order's first action, W21.1); the detail what it names
    besides (cavalry's second action, the target and a cavalry Decisive attack's first action, the direction,
    the face, the Dragon's turn and distance), so a phone's list stays short (W42.2).
    """
    otype = order["type"]
    if otype == "dragon":
        section = "dragon"
    elif order["kind"] == "special" and otype in sit.ORDINARY_TYPES:                        # W16.5
        section = f"special+{order.get('timing') or 'ordinary'}"
    else:
        section = order["kind"]
    actions = list(order.get("actions") or [])
    if not actions and cavalry and labels.single_action(order):
        actions = [labels.single_action(order)]
    if actions:
        return section, f"{section}:{actions[0]}", actions[1] if len(actions) > 1 else ""
    if order.get("target"):
        detail = order["target"] + (f"+{order['first']}" if order.get("first") else "")
    elif otype == "dragon":
        detail = f"{order.get('dir') or 'ahead'}:{order.get('moves') or ''}"
    else:
        detail = order.get("dir") or order.get("face") or ""
    return section, f"{section}:{otype}", detail


def order_pickers(table, state: dict, side: str) -> list[dict]:
    """Per unit, the legal orders in two selects: the order (grouped by kind), then what it names; refused ones
    greyed with the reason (W42.2). `lookup` maps (group, detail) to the order the engine accepted."""
    out = []
    given = {(o["unit"], o["slot"]): o for o in state["orders"][side]}
    units = sit.unit_map(state)
    for uid, options in sit.order_options(table.setup, state, side).items():
        cavalry = sit.is_cavalry(units[uid]["type"])
        groups: dict[str, dict] = {}
        lookup: dict[tuple[str, str], dict] = {}
        for opt in options:
            o = opt["order"]
            section, group, detail = picker_keys(o, cavalry)
            refused = labels.reason(opt["refused"]["reason"]) if opt["refused"] else None
            g = groups.setdefault(group, {"value": group, "section": section, "details": [], "refused": None,
                                          "first_only": o["type"] == "dragon", "legal": False,
                                          "label": f"{labels.order_head(o, cavalry)} "
                                                   f"({labels.PICKER_SECTIONS_SHORT[section]})"})
            g["details"].append({"value": detail, "refused": refused,
                                 "label": labels.order_detail(state, o, cavalry) or
                                 str(labels.ONLY_ACTION if cavalry and section != "dragon" and
                                     o["type"] in ("move", "retreat", "reform") else "—")})
            g["legal"] = g["legal"] or refused is None
            if refused is None:
                lookup[(group, detail)] = o
        for g in groups.values():
            if not g["legal"]:
                g["refused"] = g["details"][0]["refused"]
            g["single"] = len(g["details"]) == 1
        # The orders legal now come first, by kind; those the rules forbid now wait in one group at the end with
        # the reason (a phone's list of up to 22 entries reads from the top).
        sections = [{"key": key, "label": labels.PICKER_SECTIONS[key],
                     "groups": [g for g in groups.values() if g["section"] == key]} for key in SECTIONS]
        for x in sections:
            x["legal"] = any(g["legal"] for g in x["groups"])
        slots = []
        for slot in (1, 2):
            g = given.get((uid, slot))
            keys = picker_keys(g, cavalry) if g else ("", "", "")
            slots.append({"slot": slot, "group": keys[1], "detail": keys[2]})
        raised = {x["unit"]: x["banner"] for x in state["banners"][side]}
        left = [b for b in sit.BANNERS if state["banners_left"][side].get(b, 0) > 0]
        out.append({"unit": uid, "name": labels.unit_name(state, uid), "sections": [x for x in sections if x["groups"]],
                    "forbidden": [g for g in groups.values() if not g["legal"]],
                    "groups": list(groups.values()), "lookup": lookup, "slots": slots,
                    "banners": left, "banner_choices": [(b, labels.BANNERS[b]) for b in left],
                    "banner": raised.get(uid, "") if raised.get(uid) != "dragon" else "",
                    "withdrawn": uid in state["withdraw"][side],
                    "may_withdraw": int(units[uid]["figures"]) < 4})
    return out


def unseen_by(state: dict, setup: dict, turn: dict, viewer: str | None) -> set[str]:
    """W38.2: the units the viewer did not see in that turn (unrevealed in a forest at its end; the enemy's only).

    The moderator sees all; the hall (the projector) what both sides may see. Turns executed before the table kept
    `unseen` take today's forests."""
    if viewer == "moderator":
        return set()
    ids = turn.get("unseen")
    if ids is None:
        ids = sit.unseen(setup, state)
    sides = {u["id"]: u["side"] for u in state["units"]}
    return {uid for uid in ids if sides.get(uid) != viewer}


def event_lines(state: dict, events: list[dict], hidden: set[str]) -> list[str]:
    """The events as sentences for one viewer: what a hidden unit did alone is left out, elsewhere it is «a unit in a
    forest» (W38.2)."""
    return [labels.event_text(state, e, hidden) for e in events
            if not (e.get("unit") in hidden or e.get("swap_with") in hidden)]


def turn_log(state: dict, setup: dict | None = None, viewer: str | None = "moderator",
             names: dict[str, str] | None = None) -> list[dict]:
    """The executed turns as a replay, as far as the viewer may see them (W38.2; the moderator sees everything)."""
    out = []
    names = names or {s: str(labels.SIDE_WORDS[s]) for s in sit.SIDES}
    for t in state["turns"]:
        hidden = unseen_by(state, setup or {}, t, viewer)
        out.append({"turn": t["turn"], "events": event_lines(state, t["events"], hidden),
                    "shinobi": [labels.task_text(state, names.get(s, s), x) for s in sit.SIDES
                                for x in (t.get("shinobi") or {}).get(s, [])],
                    "rolls": {s: command_view({**state, "command": t["command"], "plan": {},
                                               "rerolls_left": {x: 0 for x in sit.SIDES}}, s)
                              for s in sit.SIDES},
                    "orders": {s: [{"unit": labels.unit_name(state, o["unit"]), "slot": o["slot"],
                                    "text": labels.order_text(state, o)} for o in t["orders"][s]
                                   if o["unit"] not in hidden]
                               for s in sit.SIDES},
                    "leaders": [_("%(kind)s %(name)s moved: %(from)s → %(to)s (W11.1).") % {
                        "kind": capfirst(str(labels.LEADER_KINDS.get(m["kind"], ""))), "name": m["name"],
                        "from": labels.unit_name(state, m["from"]), "to": labels.unit_name(state, m["to"])}
                        for m in t.get("leaders") or [] if m["from"] not in hidden and m["to"] not in hidden]})
    return out


def shinobi_panel(table, state: dict, side: str, name: str) -> dict | None:
    """W10 on a side's panel: its shinobi (through, used, ready), the tasks given this turn, the task form, the
    signals' reports in the plan-change phase, and what an enemy shinobi did to it that it must know (W10.5).
    Nothing here names the enemy's targets: the other side's tasks are shown only by their effect on this side."""
    tally = sit.shinobi_tally(state, side)
    mine = sit.tasks(state, side)
    struck = [t["effect"] for t in sit.tasks(state, sit.other(side))
              if t["task"] == "interception" and t.get("effect") in ("voided", "lost_one")]
    if not tally["through"] and not struck:
        return None
    rolled = state["command"][side]["result"] is not None
    open_now = state["phase"] == sit.COMMAND and not state["confirmed"][side] and tally["ready"] > 0
    words = {"voided": _("An enemy shinobi killed your messenger: your last re-roll this turn is void, the roll "
                         "before it stands."),
             "lost_one": _("An enemy shinobi killed one of your messengers: you have one re-roll fewer.")}
    return {"tally": tally, "given": [labels.task_text(state, name, t) for t in mine],
            "may_task": open_now and rolled, "after_roll": open_now and not rolled,
            "tasks": [{"key": k, "label": labels.TASKS[k], "hint": labels.TASK_HINTS[k]} for k in sit.TASKS],
            "targets": [{"id": u["id"], "name": labels.unit_name(state, u["id"])}
                        for u in sit.visible_enemies(table.setup, state, side)],
            "reports": [{"unit": labels.unit_name(state, t["unit"]), "lines": labels.report_lines(state, t["report"])}
                        for t in mine if t["task"] == "signals" and t.get("report")],
            "struck": [words[e] for e in struck]}


def shinobi_turn(state: dict, names: dict[str, str]) -> list[dict]:
    """The moderator's list of the turn's shinobi tasks (both sides), each sabotage with what its roll does against
    the target's orders as given now (the engine's shinobi mode), each signal with its report."""
    if state["phase"] not in (sit.COMMAND, sit.SIGNALS, sit.EXECUTION):
        return []
    verdicts = iter(sit.sabotage_verdicts(state))
    out = []
    for side in sit.SIDES:
        for t in sit.tasks(state, side):
            line = {"text": labels.task_text(state, names.get(side, side), t), "verdict": None,
                    "report": labels.report_lines(state, t["report"]) if t.get("report") else []}
            if t["task"] == "sabotage":
                line["verdict"] = _("against the orders given now: all cancelled") if next(verdicts)["cancelled"] \
                    else _("against the orders given now: nothing cancelled")
            out.append(line)
    return out


def execution(table, state: dict) -> dict | None:
    """The moderator's view of the execution phase: the events so far, the roll awaited, the dice taken."""
    if state["phase"] != sit.EXECUTION:
        return None
    seen = sit.preview(table.setup, state)
    awaiting = None
    if seen["awaiting"]:
        roller = seen["awaiting"]["roller"]
        kind = sit.awaiting_kind(seen["awaiting"]["what"])
        awaiting = {"unit": labels.unit_name(state, roller) if roller != "random" else _("a random choice"),
                    "count": dice_wanted(table.setup, state, seen["awaiting"]),
                    "odds": odds_view(sit.roll_odds(table.setup, state, seen["awaiting"])),
                    "kind": {"melee": _("melee roll"), "shooting": _("shooting roll"),
                             "random": _("a die for a random choice")}[kind]}
    rolls = [{"unit": labels.unit_name(state, r["roller"]) if r["roller"] != "random" else _("a random choice"),
              "values": r["values"], "source": labels.SOURCES.get(r["source"], "")} for r in state["rolls"]]
    return {"complete": seen["complete"], "awaiting": awaiting, "error": seen["error"], "rolls": rolls,
            "events": [labels.event_text(state, e) for e in seen["events"]],
            "traits": trait_lines(table.setup, state)}


def trait_lines(setup: dict, state: dict) -> list[str]:
    """W11.3 on the moderator's screen: each leader's trait modifier the engine takes this turn, on which unit."""
    leaders = sit.leaders_now(setup, state)
    return [_("%(trait)s of %(kind)s %(name)s in %(unit)s: %(stat)s %(value)s") % {
        "trait": labels.TRAITS[m["source"]], "kind": labels.LEADER_KINDS.get(leaders[m["_leader"]].get("kind"), ""),
        "name": m["reason"], "unit": labels.unit_name(state, uid), "stat": labels.STATS[m["stat"]],
        "value": f"{m['value']:+d}"} for uid, mods in sit.trait_modifiers(setup, state).items() for m in mods]


def odds_view(odds: dict | None) -> dict | None:
    if not odds:
        return None
    return {"text": _("%(n)s dice at %(needs)s+, re-rolls %(r)s, guaranteed damage %(gd)s; expected hits %(e)s") % {
                "n": odds["dice"], "needs": odds["needs"], "r": odds["rerolls"], "gd": odds["guaranteed"],
                "e": f"{odds['expected']:.2f}".replace(".", ",")},
            "hits": [{"hits": h["hits"], "percent": f"{100 * h['p']:.1f}".replace(".", ",")}
                     for h in odds["hits"] if h["p"] >= 0.0005]}


def dice_wanted(setup: dict, state: dict, awaiting: dict) -> int:
    """How many dice the awaited roll takes now (sixes never fail, so no re-roll is counted)."""
    trial = {**state, "dice": {k: list(v) for k, v in state["dice"].items()}}
    for n in range(1, 201):
        trial["dice"].setdefault(awaiting["roller"], []).append(6)
        if sit.preview(setup, trial)["awaiting"] != awaiting:
            return n
    return 0


def page(table, seat: Seat) -> dict:
    """Everything the table's page shows this seat."""
    state = services.current(table)
    viewer = "moderator" if seat.moderator else seat.side_key
    sides = {s.key: s for s in table.sides.all()}
    ctx = {"state": state, "phase": state["phase"], "phase_label": labels.PHASES[state["phase"]],
           "turn": state["turn"], "board": board(state, table.setup, viewer), "viewer": viewer,
           "sides": [{"key": k, "name": sides[k].name if k in sides else k,
                      "confirmed": state["confirmed"][k], "colour": COLOURS[k]} for k in sit.SIDES],
           "log": turn_log(state, table.setup, viewer, {k: v.name for k, v in sides.items()}),
           "end": end_view(table, state), "rulings": rulings(table, state, viewer)}
    mine = list(sit.SIDES) if seat.moderator else [seat.side_key]
    ctx["my_sides"] = []
    for key in mine:
        entry = {"key": key, "name": sides[key].name if key in sides else key, "confirmed": state["confirmed"][key],
                 "units": unit_rows(state, table.setup, viewer, key)}
        if state["phase"] in (sit.DEPLOYMENT, sit.PLAN_CHANGE):
            check = state["deploy_check"][key]
            entry["zone"] = sit.zone(key)
            entry["placed"] = state["deploy"][key]
            entry["deploy_refused"] = [labels.reason(r["reason"]) for r in (check or {}).get("refused", [])]
            entry["deploy_ok"] = bool(check and check["ok"])
            entry["shinobi"] = state["shinobi"][key]
            entry["infiltrate"] = state["infiltrate"][key]
        if state["phase"] == sit.PLAN_CHANGE:
            through = state["infiltration"][key]["through"]
            scouted = state["scouted"][key]
            entry["through"] = through
            entry["scout_cells"] = through * sit.SCOUTING_CELLS
            entry["may_scout"] = through > 0 and scouted is None and not state["confirmed"][key]
            entry["scouted"] = scouted is not None
            entry["seen"] = [_("%(cell)s: %(type)s, %(n)s figures") % {"cell": x["cell"], "type": labels.TYPES[x["type"]],
                                                                       "n": x["figures"]}
                             for x in (scouted or {}).get("seen", [])]
            entry["looked"] = ", ".join((scouted or {}).get("cells", []))
        if state.get("infiltration") and state["turn"] in (0, 1) and state["phase"] != sit.DEPLOYMENT:
            entry["infiltration"] = state["infiltration"][key]
        if state["phase"] in (sit.COMMAND, sit.SIGNALS):
            entry["shinobi_panel"] = shinobi_panel(table, state, key, sides[key].name if key in sides else key)
            entry["may_stop"] = sit.may_stop(state) == key
            entry["command"] = command_view(state, key)
            entry["odds"] = stake_odds(state["rerolls_left"][key])
            entry["orders"] = orders_view(state, key)
            entry["orders_ok"] = (state["orders_check"][key] or {"ok": True})["ok"]
            entry["retreat_signal"] = state["retreat_signal"][key]
            entry["raised"] = [_("%(banner)s in %(unit)s") % {"banner": labels.BANNERS[x["banner"]],
                                                            "unit": labels.unit_name(state, x["unit"])}
                               for x in state["banners"][key]]
            entry["retreat_since"] = state["general_retreat"][key]
            entry["orders_refused"] = [labels.reason(r["reason"]) for r in
                                       (state["orders_check"][key] or {"refused": []})["refused"]
                                       if not r["unit"] or r.get("slot") is None]
            if state["command"][key]["result"] and not state["confirmed"][key]:
                entry["pickers"] = order_pickers(table, state, key)
            entry["leaders"] = leader_rows(table.setup, state, key)
            entry["plan_next"] = [_("%(unit)s: %(text)s") % {"unit": labels.unit_name(state, uid), "text": text}
                                  for uid, text in ((state.get("plan_next") or {}).get(key) or {}).items()]
            entry["may_plan"] = seat.moderator and state["phase"] == sit.COMMAND and not state["confirmed"][key]
        ctx["my_sides"].append(entry)
    if seat.moderator:
        ctx["execution"] = execution(table, state)
        ctx["shinobi_turn"] = shinobi_turn(state, {k: v.name for k, v in sides.items()})
        ctx["all_units"] = unit_rows(state, table.setup, "moderator")
        ctx["cell_ids"] = [c["id"] for c in sit.table_cells(table.setup, state)]
        ctx["addable"] = sit.addable(table.setup, state) if sit.may_extend(state) else []
        ctx["before_play"] = sit.before_play(state)
        ctx["all_leaders"] = all_leaders(table, state) if ctx["before_play"] else []
        field = sit.field_of(table.setup, state)
        ctx["terrain_now"] = {"river": bool(field.get("river")), "bridge": " ".join(field.get("bridge") or []),
                              "hills": " ".join(field.get("hills") or []),
                              "forests": " ".join(field.get("forests") or []),
                              "places": [(f"{a} {b}", f"{a} — {b}") for a, b in sit.bridge_places()]}
        ctx["trait_choices"] = [(k, labels.TRAITS[k]) for k in sit.TRAITS]
        ctx["plan_kinds"] = [(k, labels.KINDS[k]) for k in sit.KINDS]
        ctx["stat_choices"] = [(k, labels.STATS[k]) for k in sit.TRAIT_STATS]
        ctx["placed"] = state["phase"] == sit.COMMAND
        ctx["type_choices"] = list(labels.TYPES.items())
        ctx["head"] = head(table, state, ctx)
    else:
        ctx["enemy_units"] = unit_rows(state, table.setup, viewer, sit.other(seat.side_key)) \
            if state["phase"] not in (sit.DEPLOYMENT, sit.PLAN_CHANGE) else []
    return ctx


SIDE_ACTS = {sit.DEPLOYMENT: gettext_lazy("deployment"), sit.PLAN_CHANGE: gettext_lazy("the plan after scouting"),
             sit.SIGNALS: gettext_lazy("the plan after the signals"),
             sit.COMMAND: gettext_lazy("stake, roll and orders")}


def head(table, state: dict, ctx: dict) -> dict:
    """The table frame of the moderator's page (templates/tables/partials/frame.html): the turn, whose move in
    words, and the next act as a button to its form on the page. Both sides move at once in Red Plains: in the
    deployment, plan-change and command phases «whose move» names the sides not yet confirmed; in the execution
    it is the moderator's (the dice, then applying the turn)."""
    names = {s["key"]: s["name"] for s in ctx["sides"]}
    phase = state["phase"]
    if phase == sit.DEPLOYMENT or not state["turn"]:
        round_text = str(labels.PHASES[phase])
    elif phase == sit.ENDED:
        round_text = _("Turn %(n)s of 12 · the battle is over") % {"n": state["turn"]}
    else:
        round_text = _("Turn %(n)s of 12 · %(phase)s") % {"n": state["turn"], "phase": labels.PHASES[phase]}
    out = {"title": table.title, "system": _("Warlords: Battle of Red Plains"), "round": round_text,
           "whose": "", "over": False, "next": None}
    if phase == sit.ENDED or table.status == table.FINISHED:
        end = ctx.get("end") or {}
        out.update(over=True, whose=end.get("sentence") or str(labels.PHASES[sit.ENDED]))
        return out
    if phase == sit.EXECUTION:
        execution = ctx.get("execution") or {}
        if execution.get("awaiting"):
            out["whose"] = _("The moderator: the dice of the execution")
            out["next"] = {"label": _("Roll the dice"), "anchor": "rp-dice"}
        elif execution.get("complete"):
            out["whose"] = _("The moderator: apply the turn")
            out["next"] = {"label": _("Apply the turn to the board"), "anchor": "rp-execute"}
        else:
            out["whose"] = _("The moderator: undo the last step")
            out["next"] = {"label": _("Undo"), "anchor": "rp-undo"}
        return out
    waiting = [k for k in sit.SIDES if not state["confirmed"][k]
               and (phase != sit.SIGNALS or sit.signalled(state, k))]
    if not waiting:
        return out
    out["whose"] = _("Waiting for: %(sides)s — %(what)s") % {
        "sides": ", ".join(names.get(k, k) for k in waiting), "what": SIDE_ACTS.get(phase, "")}
    out["next"] = {"label": _("%(side)s: %(what)s") % {"side": names.get(waiting[0], waiting[0]),
                                                      "what": SIDE_ACTS.get(phase, "")},
                   "anchor": f"side-{waiting[0]}"}
    return out


def rulings(table, state: dict, viewer: str | None, limit: int = 12) -> list[str]:
    """The moderator's rulings as the table sees them, the newest first: a unit changed (with what and why), cells
    added, a step undone (why). A player sees a ruling on an enemy unit only if he sees that unit now (the fog,
    W38.2); an undone step is named only on the moderator's screen (it may be a side's secret orders)."""
    hidden = set(sit.unseen(table.setup, state))
    units = sit.unit_map(state)
    out = []
    for step in table.steps.filter(kind__in=("override", "extend")).order_by("-seq")[:limit * 2]:
        if step.undone:
            continue
        p = step.payload or {}
        if step.kind == "extend":
            out.append((step.seq, _("The moderator added cells to the field: %(cells)s — %(reason)s") % {
                "cells": ", ".join(sit.extra_label(c["col"], c["row"]) for c in p.get("cells", [])),
                "reason": step.reason}))
            continue
        unit = units.get(p.get("unit")) or {}
        if viewer != "moderator" and unit.get("side") != viewer and (
                state["phase"] in (sit.DEPLOYMENT, sit.PLAN_CHANGE) or p.get("unit") in hidden):
            continue
        changes = p.get("changes") or {}
        parts = []
        if "figures" in changes:
            parts.append(_("%(n)s figures") % {"n": changes["figures"]})
        if changes.get("status"):
            parts.append(str(labels.STATUSES.get(changes["status"], changes["status"])))
        if changes.get("cell"):
            parts.append(_("to %(cell)s") % {"cell": changes["cell"]})
        if changes.get("facing"):
            parts.append(_("facing %(dir)s") % {"dir": labels.FACINGS.get(changes["facing"], "")})
        out.append((step.seq, _("Ruling on %(unit)s: %(changes)s — %(reason)s") % {
            "unit": labels.unit_name(state, p.get("unit")), "changes": ", ".join(parts) or "—",
            "reason": step.reason}))
    for step in table.steps.filter(undone=True).exclude(undone_reason="").order_by("-seq")[:limit]:
        if viewer == "moderator":
            text = _("The moderator undid a step (%(what)s) — %(reason)s") % {
                "what": labels.STEP_KINDS.get(step.kind, step.kind), "reason": step.undone_reason}
        else:
            text = _("The moderator undid a step — %(reason)s") % {"reason": step.undone_reason}
        out.append((step.seq, text))
    return [text for _seq, text in sorted(out, key=lambda x: -x[0])[:limit]]


def all_leaders(table, state: dict) -> list[dict]:
    """The battle's leaders for the moderator's editing before play: who, of which side, in which unit, his traits."""
    names = {s.key: s.name for s in table.sides.all()}
    units = sit.unit_map(state)
    out = []
    for i, g in enumerate(sit.leaders_now(table.setup, state)):
        side = (units.get(g.get("unit")) or {}).get("side")
        out.append({"index": i, "traits": g.get("traits") or {}, "traits_text": labels.traits_text(g.get("traits")),
                    "label": f"{capfirst(str(labels.LEADER_KINDS.get(g.get('kind'), '')))} {g.get('name', '')} "
                             f"({names.get(side, '')}, {labels.unit_name(state, g.get('unit'))})"})
    return out


def end_view(table, state: dict) -> dict | None:
    if not state["end"]:
        return None
    result = table.result or sit.result_of(table.setup, state)
    names = {s.key: s.name for s in table.sides.all()}
    return {"sentence": labels.end_sentence(table, result),
            "outcome": labels.OUTCOMES.get(state["end"].get("outcome"), ""),
            "losses": [{"name": names.get(k, k), "start": v["start"], "lost": v["lost"]}
                       for k, v in result["losses"].items()]}


def projector(table) -> dict:
    state = services.current(table)
    sides = {s.key: s for s in table.sides.all()}
    return {"state": state, "phase": state["phase"], "phase_label": labels.PHASES[state["phase"]],
            "turn": state["turn"], "board": board(state, table.setup, "hall"),
            "sides": [{"key": k, "name": sides[k].name if k in sides else k, "confirmed": state["confirmed"][k],
                       "colour": COLOURS[k]} for k in sit.SIDES],
            "last": turn_log(state, table.setup, "hall", {k: v.name for k, v in sides.items()})[-1:],
            "end": end_view(table, state), "whose": hall_whose(state, {k: v.name for k, v in sides.items()})}


def hall_whose(state: dict, names: dict[str, str]) -> str:
    """Whose move, for the hall: the sides the table waits for, or the moderator's execution."""
    phase = state["phase"]
    if phase == sit.ENDED:
        return ""
    if phase == sit.EXECUTION:
        return _("The moderator executes the turn")
    waiting = [names.get(k, k) for k in sit.SIDES if not state["confirmed"][k]
               and (phase != sit.SIGNALS or sit.signalled(state, k))]
    return _("Waiting for: %(sides)s — %(what)s") % {"sides": ", ".join(waiting),
                                                    "what": SIDE_ACTS.get(phase, "")} if waiting else ""
