"""Plain data for the «Орда» paper (O25), in the reader's language; the renderers lay it out."""
from __future__ import annotations

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from larp.campaign.people import person
from larp.orda import describe, labels
from larp.orda.engine import outcomes as O
from larp.orda.engine.data import STATS, load
from larp.orda.selectors import FACTION_COLOURS
from larp.tables.models import Table


def _common(table: Table, state: dict) -> dict:
    game = state["case"]["game"]
    tours = load().number("modes", "border", "rus_china_tours") if game["mode"] == O.BORDER else None
    tour = (_("Tour %(n)s of %(m)s") % {"n": game["tour"], "m": tours}) if tours else _("Tour %(n)s") % {"n": game["tour"]}
    return {"game": str(table.game), "title": table.title, "tour_text": tour,
            "date": date_format(timezone.localtime(), "j E Y, H:i"),
            "mode_text": _("Mode: %(mode)s. Order of turns: %(order)s.") % {
                "mode": labels.mode(game["mode"]), "order": ", ".join(labels.faction(f) for f in game["order"])},
            "test_data": bool(table.origin.get("test_data"))}


def protocol(table: Table, state: dict, log: list) -> dict:
    d = _common(table, state)
    d["fingerprint"], d["dice_chosen"] = table.dice.fingerprint, table.dice.chosen
    losses = table.result.get("losses") or {}
    d["sides"] = []
    for side in table.sides.all():
        lost = losses.get(side.key)
        d["sides"].append({"name": side.name, "players": str(side.faction) if side.faction else "—",
                           "losses": (_("%(lost)s of %(start)s") % lost) if lost else "—"})
    if state.get("winner"):
        d["result_text"] = _("Victory: %(side)s — %(reason)s.") % {"side": labels.side(state["winner"]),
                                                                  "reason": labels.reason(state.get("reason"))}
    elif table.status == Table.CANCELLED:
        d["result_text"] = _("The table is cancelled.")
    else:
        d["result_text"] = _("The battle is not over yet.")
    d["steps"] = []
    for s in reversed(log):
        if s["deck"]:
            dice = _("server (the event deck's order stays hidden)")
        elif s["dice"]:
            how = _("server") if s["dice"][0]["server"] else _("rolled by hand")
            dice = ", ".join(str(x["value"]) for x in s["dice"]) + f" ({how}" + (
                ": " + ", ".join(f"#{x['counter']}" for x in s["dice"]) if s["dice"][0]["server"] else "") + ")"
        else:
            dice = ""
        text = s["text"] + (f" — {s['reason']}" if s["reason"] else "")
        if s["undone"]:
            text += " " + _("[undone: %(why)s]") % {"why": s["undone_reason"]}
        who = person(s["user"]) + ", " + date_format(timezone.localtime(s["at"]), "H:i")
        d["steps"].append({"seq": s["seq"], "text": text, "dice": dice, "who": who})
    return d


def state_sheet(table: Table, state: dict) -> dict:
    d = _common(table, state)
    case = state["case"]
    d["units"] = []
    for u in case["units"]:
        health = u["stats"]["health"]
        d["units"].append({"name": describe.unit_name(case, u["id"]), "faction": labels.faction(u["faction"]),
                           "where": describe.hex_text(u["hex"]) if u["hex"] else labels.where(u["where"]),
                           "health": f"{health - u['damage']}/{health}" if health is not None else "?",
                           "effects": ", ".join([_("%(n)s penalty chips on health") % {"n": u["damage"]}] * bool(u["damage"])
                                                + [labels.source(e["kind"]) for e in u["effects"]])})
    d["cities"] = [{"name": (_("Capital") if c["kind"] == "capital" else _("City")) + f" ({labels.faction(c['faction'])})",
                    "hex": describe.hex_text(c["hex"]),
                    "left": (_("destroyed") if c["destroyed"] else f"{c['durability'] - c['damage']}/{c['durability']}")}
                   for c in case["cities"]]
    d["tracks"] = []
    for f in case["game"]["order"]:
        t = (case.get("summon_track") or {}).get(f)
        d["tracks"].append(f"{labels.faction(f)}: " + (_("%(unit)s on cell %(cell)s") % {
            "unit": describe.unit_name(case, t["unit"]), "cell": t["cell"]} if t else _("the indicator is empty")))
    d["traps"] = ", ".join(f"{describe.hex_text(t['hex'])} ({labels.faction(t['faction'])})" for t in case.get("traps", []))
    return d


def factions(table: Table, state: dict) -> dict:
    case = state["case"]
    engine = load()
    out = []
    for f in case["game"]["order"]:
        kinds = []
        for kind in engine.kinds[f].values():
            unit = next(u for u in case["units"] if u["faction"] == f and u["token"] == kind.id)
            numbers = ", ".join(f"{labels.param(p)} {'?' if unit['stats'].get(p) is None else unit['stats'][p]}"
                                for p in STATS if not (p == "range" and kind.cls != "ranged"))
            kinds.append({"name": f"{kind.name_ru} ×{kind.count}", "cls": labels.cls(kind.cls), "numbers": numbers,
                          "trait": f"{labels.trait_name(kind.trait)}. {labels.trait_text(kind.trait)}"})
        out.append({"name": labels.faction(f), "colour": FACTION_COLOURS[f], "kinds": kinds,
                    "reserve": sum(k.count for k in engine.kinds[f].values())})
    return {"game": str(table.game), "title": table.title, "factions": out}


def _kinds(faction: str, stats: dict) -> list[dict]:
    engine = load()
    out = []
    for kind in engine.kinds[faction].values():
        numbers = ", ".join(f"{labels.param(p)} {'?' if stats[kind.id].get(p) is None else stats[kind.id][p]}"
                            for p in STATS if not (p == "range" and kind.cls != "ranged"))
        out.append({"name": f"{kind.name_ru} ×{kind.count}", "cls": labels.cls(kind.cls), "numbers": numbers,
                    "trait": f"{labels.trait_name(kind.trait)}. {labels.trait_text(kind.trait)}"})
    return out


def reference(ds) -> dict:
    """All 36 kinds with the data set's numbers ("?" where not entered) and the rules in brief (O25)."""
    summary = [
        _("A turn: event (the first faction of the tour), summon, battle (up to 3 units act), results (O9)."),
        _("An activation: a move of up to the unit's speed, then an attack or the trait's action (O12, O13)."),
        _("Attack: d6 + attack against d6 + defence; a hit only if strictly greater, 1 health (O16, O17)."),
        _("Retreat, against melee attacks only: d6 + speed against the attacker's d6 + speed; a tie lets it go (O16)."),
        _("Minority rule: −1 defence for every adjacent enemy beyond the first (O18)."),
        _("Zone of control: a step from one hex next to an enemy melee unit to another provokes its attack (O14)."),
        _("Siege: each enemy next to a city from the start of its turn takes 1 durability at the results (O20)."),
    ]
    return {"title": ds.title, "date": date_format(timezone.localtime(), "j E Y"), "summary": summary,
            "factions": [{"name": labels.faction(f), "kinds": _kinds(f, ds.data["stats"][f])}
                         for f in ("rus", "china", "south_mongolia", "north_mongolia")]}


def board(ds) -> dict:
    """The data set's board with coordinates, for transcribing the physical one (O23, O25)."""
    from larp.orda.selectors import CAPITAL_COLOURS, hex_xy

    d = ds.data
    fills = {tuple(h): CAPITAL_COLOURS[c] for c, h in d["capitals"].items() if h}
    fills.update({tuple(h): CAPITAL_COLOURS[c] for c, hexes in d["cities"].items() for h in hexes})
    marks: dict = {}
    for line, hexes in d["borders"].items():
        for h in hexes:
            marks[tuple(h)] = (marks.get(tuple(h), "") + ("К" if line == "red" else "З"))
    cells = []
    for h in d["board"]:
        x, y = hex_xy(*h)
        cells.append({"x": x / 30.0, "y": y / 30.0 * 1.0, "label": f"{h[0]},{h[1]}", "fill": fills.get(tuple(h)),
                      "mark": marks.get(tuple(h), "")})
    legend = _("Filled hexes: capitals (blue, red, green, yellow) and cities (dark blue, dark red). "
               "К: beyond the red line, З: beyond the green line.")
    return {"title": ds.title, "date": date_format(timezone.localtime(), "j E Y"), "cells": cells, "legend": legend}
