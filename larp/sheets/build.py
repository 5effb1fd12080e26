"""Plain data for the protocol and turn-results documents, made from the engine's own results.

No database here: the game's names (the one lookup, `larp.turns.selectors.names`, read
through its `faction`, `colour`, `province` and `troop`) and the engine's case and result
documents (docs/adjudication.md) go in, dicts ready for a renderer come out.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from larp.campaign import labels
from larp.engine.model import Fate, Rules
from larp.engine.rules import parse_rules
from larp.forces.models import roman

if TYPE_CHECKING:
    from larp.turns.selectors import Names


def cards(codes: Iterable[str], names: Names) -> list[dict]:
    """A stack's cards grouped by type, strongest first: [{"name", "count", "power", "men"}]."""
    counts = Counter(codes)
    out = []
    for code, count in counts.items():
        t = names.troop(code)
        out.append({"code": code, "name": t["name"], "count": count, "power": t["power"], "men": t["men"]})
    out.sort(key=lambda c: (-c["power"], c["name"]))
    return out


def cards_text(grouped: list[dict]) -> str:
    """"Среднее войско ×2, Малое войско"; an empty stack is a dash."""
    if not grouped:
        return "—"
    return ", ".join(f"{c['name']} ×{c['count']}" if c["count"] > 1 else c["name"] for c in grouped)


def stack_power(grouped: list[dict]) -> int:
    return sum(c["power"] * c["count"] for c in grouped)


def stack_men(grouped: list[dict]) -> int:
    return sum(c["men"] * c["count"] for c in grouped)


def unit_index(case: dict) -> dict[str, dict]:
    """Every army and fleet of a case: id -> {"kind", "faction", "number", "label", "commanders"}."""
    index = {}
    for kind, key in (("army", "armies"), ("fleet", "fleets")):
        source = case.get(key) or []
        if isinstance(source, dict):  # a turn result's state is keyed by id
            source = [{"id": uid, **entry} for uid, entry in source.items()]
        for unit in source:
            number = int(unit.get("number") or 0)
            label = (labels.army_label if kind == "army" else labels.fleet_label)(roman(number) if number else "?")
            index[unit["id"]] = {"kind": kind, "faction": unit.get("faction"), "number": number, "label": label,
                                 "commanders": list(unit.get("commanders") or [])}
    return index


def _provinces(case: dict) -> dict[str, dict]:
    provinces = case.get("provinces") or []
    if isinstance(provinces, dict):
        return provinces
    return {p["id"]: p for p in provinces}


def _band_range(rules: Rules, band: int) -> str:
    bounds = list(rules.band_upper_bounds)
    if band <= 1:
        return f"≤\u00a0{bounds[0]}" if bounds else ""
    if band - 1 >= len(bounds):
        return f">\u00a0{bounds[-1]}"
    return f"{bounds[band - 2] + 1}–{bounds[band - 1]}"


# --- one battle ----------------------------------------------------------------

def at_table(entry: dict | None) -> dict | None:
    """A battle decided at a table (larp/bridge) as the paper says it: the table, its system, what was lost
    there in the system's own measure, and the losses in power points entered into the turn."""
    table = (entry or {}).get("table")
    if not table:
        return None
    counted = table.get("lost") or {}
    return {"title": table.get("title", ""), "system": table.get("system_name") or table.get("system", ""),
            "table": table.get("id"),
            "lost": " : ".join(f"{c.get('lost', 0)}/{c.get('start', 0)}"
                               for c in (counted.get(role) or {} for role in ("attacker", "defender")))
            if counted else "",
            "losses": (entry.get("losses") or {})}


def protocol(battle: dict, result: dict, case: dict, names: Names, *, number: int | None = None,
             retreats: Iterable[dict] = (), header: dict | None = None, outside: dict | None = None) -> dict:
    """The data of one battle protocol (R8-R11), like the original's worked example.

    `battle` describes the fight (province, domain, storm, attacker/defender with
    faction, units or armies, garrison); `result` is the engine's battle result
    (or a `fought[]` entry), which names the outcome, the loser, each stack's
    cards going in and its fate; `retreats` the turn's retreat decisions for
    these units. Nothing here re-derives a rule: it translates.
    """
    rules = parse_rules(case.get("rules"))
    provinces = _provinces(case)
    province = provinces.get(battle["province"], {})
    units = unit_index(case)
    retreats = list(retreats)

    sides = []
    for role in ("attacker", "defender"):
        spec = battle.get(role) or {}
        res = result[role]
        stack_ids = list(spec.get("units") or spec.get("armies") or spec.get("fleets") or [])
        if spec.get("garrison"):
            stack_ids.append("garrison")
        sides.append(_side(role, spec.get("faction"), stack_ids, res, result, battle, province, rules, units,
                           retreats, names))

    decided_elsewhere = bool(result.get("outside"))
    weaker = None if decided_elsewhere else min(result["attacker"]["total"], result["defender"]["total"])
    outcome = result["outcome"]
    winner = result.get("winner")
    return {
        **(header or {}),
        "number": number,
        "province": names.province(battle["province"]),
        "domain": battle.get("domain", "land"),
        "kind": labels.battle_kind(battle.get("domain", "land"), bool(battle.get("storm")), battle.get("storm_no")),
        "storm": bool(battle.get("storm")),
        "sides": sides,
        "rows": _rows(sides),
        "difference": result["difference"],
        "band": result["band"],
        "band_range": None if decided_elsewhere else _band_range(rules, result["band"]),
        "weaker_total": weaker,
        "outcome": outcome,
        "decision": result.get("decision") or outcome,
        "decision_text": labels.decision(result),
        "winner": winner if winner in ("attacker", "defender") else None,
        # Fought at a table of another rule system: no totals, no dice (docs/bridge.md).
        "at_table": (at_table(outside) or {"title": "", "system": "", "table": None, "lost": "", "losses": {}})
        if decided_elsewhere else None,
    }


def _side(role, faction, stack_ids, res, result, battle, province, rules, units, retreats, names) -> dict:
    stacks = []
    commanders = []
    codes_in = []
    for sid in stack_ids:
        codes = (res.get("before") or {}).get(sid, [])
        before = cards(codes, names)
        if sid == "garrison" and not before:
            continue  # an empty garrison behind the walls: nothing to list
        after_codes = (res.get("remaining") or {}).get(sid)
        after = cards(after_codes, names) if after_codes is not None else before
        if sid == "garrison":
            label, kind = labels.garrison_label(), "garrison"
        else:
            kind = units.get(sid, {}).get("kind", "army")
            label = units.get(sid, {}).get("label", sid)
            commanders += units.get(sid, {}).get("commanders", [])
        codes_in += codes
        stacks.append({"id": sid, "kind": kind, "label": label, "before": before, "before_text": cards_text(before),
                       "after": after, "after_text": cards_text(after),
                       "fate": (res.get("fates") or {}).get(sid, Fate.STAYS),
                       "destroyed": (res.get("fates") or {}).get(sid) == Fate.DESTROYED})

    items = []
    for item in res.get("items") or []:
        source, value = item["source"], item["value"]
        detail = ""
        if source == "troops":
            grouped = cards(codes_in, names)
            detail = cards_text(grouped) if grouped else ""
            powers = [c["power"] for c in grouped for _i in range(c["count"])]
            if len(powers) > 1 and sum(powers) == value:  # the original's "10+10=20"
                detail += f" ({' + '.join(map(str, powers))})"
        elif source == "commanders":
            detail = ", ".join(f"{c['name']} ({c['power']})" for c in commanders)
        elif source == "dice" and len(res.get("dice") or []) > 1:
            detail = " + ".join(str(d) for d in res["dice"])
        elif source == "modifier":
            detail = item.get("reason", "")
        items.append({"source": source, "label": labels.item_label(source, value, province=province, rules=rules),
                      "value": value, "detail": detail})

    return {
        "role": role,
        "role_label": labels.side_role(role),
        "faction": faction,
        "name": names.faction(faction) if faction else _("neutral garrison"),
        "colour": names.colour(faction),
        "stacks": stacks,
        "items": items,
        "dice": list(res.get("dice") or []),
        "total": res["total"],
        "men": res.get("men", 0),
        "losses": res.get("losses", 0),
        "fate": _fate(role, stacks, battle, retreats, names),
    }


def _fate(role, stacks, battle, retreats, names) -> str:
    """What becomes of the side, in a few words: the engine's fates and the turn's retreats, translated."""
    if len(stacks) == 1 and stacks[0]["destroyed"]:
        return f"{stacks[0]['label']} {labels.destroyed(stacks[0]['kind'])}"  # «гарнизон уничтожен»
    if stacks and all(s["destroyed"] for s in stacks):
        return _("all destroyed")
    ids = {s["id"] for s in stacks}
    moves = [r for r in retreats if r.get("unit") in ids]
    if moves:
        parts = []
        for r in moves:
            stack = next(s for s in stacks if s["id"] == r["unit"])
            label = stack["label"]
            if (r.get("destroyed") or not r.get("to")) and stack["kind"] == "fleet":
                parts.append(_("%(unit)s is sunk: no free sea zone to retreat to") % {"unit": label})
            elif r.get("destroyed") or not r.get("to"):
                parts.append(_("%(unit)s is destroyed: nowhere to retreat") % {"unit": label})
            else:
                parts.append(_("%(unit)s retreats to %(province)s") % {"unit": label, "province": names.province(r["to"])})
        return "; ".join(parts)
    alive = [s for s in stacks if s["fate"] != Fate.DESTROYED]
    return labels.fate(alive[0]["fate"] if alive else Fate.STAYS, role, battle.get("domain", "land"))


def _rows(sides: list[dict]) -> list[dict]:
    """Both sides' items side by side, one row per source, in the original's order."""
    order: list[str] = []
    for s in sides:
        for item in s["items"]:
            if item["source"] not in order:
                order.append(item["source"])
    first = ["troops", "commanders", "defence", "militia"]
    last = ["modifier", "dice"]
    middle = [src for src in order if src not in first and src not in last]
    rows = []
    for source in [*first, *middle, *last]:
        if source not in order:
            continue
        row = {"source": source, "label": "", "cells": []}
        for s in sides:
            found = [i for i in s["items"] if i["source"] == source]
            if found:
                row["label"] = row["label"] or found[0]["label"]
                row["cells"].append({"value": sum(i["value"] for i in found),
                                     "detail": "; ".join(i["detail"] for i in found if i["detail"])})
            else:
                row["cells"].append(None)
        rows.append(row)
    return rows


# --- a whole turn --------------------------------------------------------------

def dice_note(how: dict | None) -> str:
    """How a battle's dice were had, for paper: by hand, or the server's with their counters on the turn's record."""
    if not how:
        return ""
    if how.get("source") == "server" and how.get("counters"):
        first, last = how["counters"]
        return _("Dice: rolled by the server, dice %(first)s–%(last)s of the turn's record") % {
            "first": first + 1, "last": last + 1}  # numbered from 1 for people (the formula's counter is n - 1)
    if how.get("source") == "server":
        return _("Dice: rolled by the server")
    return _("Dice: rolled by hand at the table")


def protocols_from_turn(case: dict, turn_result: dict, names: Names, *, header: dict | None = None,
                        only: int | None = None, dice: dict[int, dict] | None = None,
                        outside: dict | None = None) -> list[dict]:
    """One protocol per battle fought in the turn, with each stack's cards as they went in.

    `dice` (battle number -> {"source", "counters"}) says how each battle's dice were had; `outside`
    (battle number -> the table it was fought at) marks the battles decided at a table (larp/bridge)."""
    fought = list(turn_result.get("fought") or [])
    retreats = list(turn_result.get("retreats") or [])
    last_loss = _last_loss(fought)
    out = []
    for entry in fought:
        mine = [r for r in retreats if last_loss.get((r["unit"], r.get("from"))) == entry["n"]]
        if only is None or entry["n"] == only:
            table = (outside or {}).get(entry["n"], (outside or {}).get(str(entry["n"])))
            out.append({**protocol(entry, entry, case, names, number=entry["n"], retreats=mine, header=header,
                                   outside=table),
                        "dice_note": "" if table else dice_note((dice or {}).get(entry["n"]))})
    return out


def _last_loss(fought: list[dict]) -> dict[tuple[str, str], int]:
    """(unit, province) -> the number of the last battle there that it lost: its retreat belongs there."""
    last = {}
    for entry in fought:
        for uid in entry[entry["loser"]].get("units") or []:
            last[(uid, entry["province"])] = entry["n"]
    return last


class _Units:
    """The units of a turn (its case and its new state) as people name them."""

    def __init__(self, case: dict, result: dict):
        self.index = unit_index(case)
        self.index.update({k: v for k, v in unit_index(result.get("state") or {}).items() if k not in self.index})

    def label(self, uid: str) -> str:
        return self.index.get(uid, {}).get("label", uid)

    def faction(self, uid: str) -> str | None:
        return self.index.get(uid, {}).get("faction")

    def kind(self, uid: str) -> str:
        return self.index.get(uid, {}).get("kind", "army")


def turn_results(case: dict, result: dict, names: Names, *, header: dict | None = None, news: str = "",
                 raised: Iterable[dict] = (), refusal_text: Callable[[dict], str] | None = None,
                 orders: dict[str, dict] | None = None, dice: dict[int, dict] | None = None,
                 outside: dict | None = None) -> dict:
    """Everything a turn changed, for the printed turn results (R6-R12).

    `orders` (unit id -> the order as filed) makes each move read as on the tablet and the console."""
    units = _Units(case, result)
    moves, held = _moves(result, units, names, orders or {})
    destroyed = result.get("destroyed") or {}
    return {
        **(header or {}),
        "moves": moves,
        "held": held,
        "refused": [{"faction": names.faction(units.faction(r["unit"])), "unit": units.label(r["unit"]),
                     "reason": refusal_text(r) if refusal_text else r.get("reason", "")}
                    for r in result.get("refused") or []],
        "battles": [{**_battle_line(entry, units, names, (outside or {}).get(entry["n"])),
                     "dice_note": dice_note((dice or {}).get(entry["n"]))}
                    for entry in result.get("fought") or []],
        "retreats": [{"faction": names.faction(units.faction(r["unit"])), "unit": units.label(r["unit"]),
                      "kind": units.kind(r["unit"]), "from": names.province(r.get("from")),
                      "to": names.province(r["to"]) if r.get("to") and not r.get("destroyed") else None,
                      "reason": labels.retreat_reason(r.get("reason", ""))}
                     for r in result.get("retreats") or []],
        "recoloured": [{"province": names.province(r["province"]), "from": names.faction(r.get("from")),
                        "to": names.faction(r.get("to")), "colour": names.colour(r.get("to")),
                        "by": f"{names.faction(units.faction(r['by']))}, {units.label(r['by'])}" if r.get("by")
                        else "—"}
                       for r in result.get("recoloured") or []],
        "destroyed_units": [{"faction": names.faction(units.faction(u)), "unit": units.label(u)}
                            for u in [*destroyed.get("armies", []), *destroyed.get("fleets", [])]],
        "destroyed_garrisons": [names.province(p) for p in destroyed.get("garrisons", [])],
        "raised": list(raised),
        "unattached": [{"name": c["name"], "power": c["power"], "faction": names.faction(c.get("faction")),
                        "province": names.province(c.get("province"))}
                       for c in result.get("unattached_commanders") or []],
        "news": news or "",
        "awaiting": bool(result.get("awaiting")),
    }


def _moves(result: dict, units: _Units, names: Names, orders: dict[str, dict]) -> tuple[list[dict], int]:
    """The moves in execution order, numbered as the console's movement steps, and how many units simply held."""
    words = {"provinces": names["provinces"], "factions": names["factions"],
             "units": {uid: u["label"] for uid, u in units.index.items()},
             "numerals": {uid: roman(u["number"]) for uid, u in units.index.items() if u["number"]}}
    moves, held = [], 0
    for m in result.get("moves") or []:
        if m.get("result") == "held" and m.get("order") == "hold":
            held += 1
            continue
        result_text = labels.move_result(m.get("result", ""))
        if m.get("result") == "battle":
            result_text += ": " + names.province(m.get("to"))
        moves.append({"seq": len(moves) + 1, "faction": names.faction(m.get("faction")),
                      "colour": names.colour(m.get("faction")), "unit": units.label(m["unit"]),
                      "order": labels.move_order_text(m, words, orders.get(m.get("unit"))), "route": labels.route_text(m, words),
                      "result": result_text})
    return moves, held


def _battle_line(entry: dict, units: _Units, names: Names, outside: dict | None = None) -> dict:
    """One fought battle as a line of the turn results (a battle fought at a table says so)."""
    sides = {}
    for role in ("attacker", "defender"):
        spec = entry[role]
        stack = [units.label(u) for u in spec.get("units") or []]
        neutral = spec.get("faction") is None
        if spec.get("garrison") and not neutral:
            stack.append(labels.garrison_label())
        sides[role] = {"name": _("neutral garrison") if neutral else names.faction(spec.get("faction")),
                       "colour": names.colour(spec.get("faction")),
                       "units": ", ".join(stack), "total": spec["total"],
                       "dice": " + ".join(str(d) for d in spec.get("dice") or []), "losses": spec.get("losses", 0)}
    outcome = entry["outcome"]
    return {"number": entry["n"], "province": names.province(entry["province"]),
            "kind": labels.battle_kind(entry.get("domain", "land"), bool(entry.get("storm")), entry.get("storm_no")),
            "attacker": sides["attacker"], "defender": sides["defender"],
            "difference": entry["difference"], "band": entry["band"], "outcome": outcome,
            "decision": entry.get("decision") or outcome, "outcome_text": labels.decision(entry),
            "at_table": (at_table(outside) or {"title": "", "system": "", "table": None, "lost": "", "losses": {}})
            if entry.get("outside") else None}


# --- the map on paper --------------------------------------------------------------

def state_rows(value) -> list[dict]:
    """A state document's provinces, armies or fleets as rows with their "id": a turn's start (the engine's case)
    lists them, the state after a regroup keys them by id."""
    if isinstance(value, dict):
        return [{"id": key, **row} for key, row in value.items()]
    return list(value or [])


def map_stacks(state: dict, names: Names, commander: Callable[[str], str] = str) -> list[dict]:
    """Every army and fleet of a state document with its place and what it holds, armies first, by number:
    [{"id", "kind", "faction", "number", "label", "place", "cards", "cards_text", "power", "men",
    "commanders"}]. `commander` names a commander in the active language (the state keeps the Russian name)."""
    out = []
    for kind, key, where in (("army", "armies", "province"), ("fleet", "fleets", "sea")):
        for unit in state_rows(state.get(key)):
            numeral = roman(int(unit.get("number") or 0)) if unit.get("number") else "?"
            grouped = cards(unit.get("troops") or [], names)
            out.append({"id": unit["id"], "kind": kind, "faction": unit.get("faction"),
                        "number": int(unit.get("number") or 0),
                        "label": (labels.army_label if kind == "army" else labels.fleet_label)(numeral),
                        "place": names.province(unit.get(where)), "cards": grouped, "cards_text": cards_text(grouped),
                        "power": stack_power(grouped), "men": stack_men(grouped),
                        "commanders": [{"name": commander(c.get("name", "")), "power": c.get("power", 0)}
                                       for c in unit.get("commanders") or []]})
    out.sort(key=lambda s: (s["kind"] != "army", s["number"]))
    return out


def map_garrisons(state: dict, faction: str, names: Names) -> list[dict]:
    """The garrisons of a faction's fortresses in a state document, by the fortress's name: [{"place",
    "cards_text"}] (an empty fortress says so)."""
    out = []
    for row in state_rows(state.get("provinces")):
        if row.get("owner") != faction or not (row.get("fortress") or row.get("garrison")):
            continue
        grouped = cards(row.get("garrison") or [], names)
        out.append({"place": names.province(row["id"]), "cards_text": cards_text(grouped) if grouped else _("empty")})
    return labels.by_name(out, name=lambda g: g["place"])
