"""The printed sheets of a Red Plains table (W42.3): what goes on paper, in the reader's language.

Plain data for larp/sheets/renderers/redplains_sheets.py: the battle protocol, the quick-reference card, unit
cards and blank order sheets. A player's copy holds only their own side (the fog holds on paper too).
"""
from __future__ import annotations

from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from larp.dice.verify import chosen_note
from larp.redplains import labels, selectors, services
from larp.redplains import situation as sit
from larp.redplains.engine.data import load
from larp.sheets.renderers.redplains_sheets import RedPlainsSheet



def render(table, doc: str, seat) -> tuple[str, bytes]:
    build = {"protocol": protocol, "reference": reference, "units": unit_cards, "orders": order_sheets}[doc]
    data = build(table, seat)
    data.setdefault("game", table.game.title)
    data.setdefault("right", [timezone.localdate().strftime("%d.%m.%Y")])
    data["filename"] = f"red-plains-{table.pk}-{doc}.pdf"
    name, _mime, pdf = RedPlainsSheet(data).generate()
    return name, pdf


def _sides(table, seat) -> list[str]:
    return list(sit.SIDES) if seat.moderator else [seat.side_key]


def _names(table) -> dict[str, str]:
    return {s.key: s.name for s in table.sides.all()}


def protocol(table, seat) -> dict:
    state = services.current(table)
    names = _names(table)
    first = [{"p": _("Dice fingerprint (SHA-256 of the table's seed): %(f)s") % {"f": table.dice.fingerprint}},
             *([{"p": chosen_note()}] if table.dice.chosen else []), {"h": _("Armies at the start")}]
    rows = [[_("Side"), _("Army unit"), _("Figures"), _("Cell")]]
    setup_state = {"units": table.setup.get("units", [])}
    for u in table.setup.get("units", []):
        rows.append([names.get(u["side"], ""), labels.unit_name(setup_state, u["id"]), str(u["figures"]),
                     u.get("cell") or "—"])
    first.append({"table": rows, "widths": [40, 80, 20, 20]})
    units = sit.unit_map(state)
    for g in sit.leaders_now(table.setup, state):                              # W11.3: traits and their values
        if g.get("traits"):
            first.append({"p": _("%(kind)s %(name)s (%(side)s): %(traits)s") % {
                "kind": capfirst(str(labels.LEADER_KINDS.get(g.get("kind"), ""))), "name": g.get("name", ""),
                "side": names.get((units.get(g.get("unit")) or {}).get("side"), ""),
                "traits": labels.traits_text(g["traits"])}})
    pages = [first]
    for t in selectors.turn_log(state, table.setup, "moderator", names):
        blocks = [{"h": _("Turn %(n)s") % {"n": t["turn"]}}]
        for side in sit.SIDES:
            c = t["rolls"][side]
            rolls = "; ".join(f"{r['values'][0]}+{r['values'][1]}={r['total']} ({r['source']})" for r in c["rolls"])
            blocks.append({"p": _("%(side)s: %(stake)s, roll %(rolls)s, orders: %(s)s special, %(o)s ordinary.") % {
                "side": names.get(side, side), "stake": c["stake_label"], "rolls": rolls or "—",
                "s": c["special"] if c["special"] is not None else "—",
                "o": c["ordinary"] if c["ordinary"] is not None else "—"}})
            blocks += [{"small": x} for x in c["extras"]]                           # W9: minor clans, generals, plan
            orders = [[_("Army unit"), _("Slot"), _("Order")]] + [[o["unit"], str(o["slot"]), o["text"]]
                                                              for o in t["orders"][side]]
            if len(orders) > 1:
                blocks.append({"table": orders, "widths": [60, 12, 90]})
        blocks += [{"p": m} for m in t["leaders"]]
        if t["shinobi"]:                                                          # W10: what each shinobi did
            blocks.append({"p": _("Shinobi")})
            blocks += [{"small": x} for x in t["shinobi"]]
        raw = next(x for x in state["turns"] if x["turn"] == t["turn"])
        dice_rows = [[_("Roll"), _("Dice"), _("How")]]
        for r in raw["rolls"]:
            dice_rows.append([labels.unit_name(state, r["roller"]) if r["roller"] != "random" else _("a random choice"),
                              " ".join(map(str, r["values"])), str(labels.SOURCES.get(r["source"], ""))])
        if len(dice_rows) > 1:
            blocks.append({"table": dice_rows, "widths": [70, 60, 30]})
        blocks += [{"small": e} for e in t["events"]] or [{"small": _("Nothing happened.")}]
        pages.append(blocks)
    last = []
    for o in state["overrides"]:
        when = _("Turn %(n)s") % {"n": o["turn"]} if o["turn"] else str(labels.PHASES[sit.DEPLOYMENT])  # no «turn 0»
        last.append({"p": _("%(when)s: the moderator changed %(unit)s (%(reason)s).") % {
            "when": when, "unit": labels.unit_name(state, o["unit"]), "reason": o["reason"]}})
    undone = list(table.steps.filter(undone=True).order_by("seq"))
    if undone:                                              # every undone step with its reason, as Orda's protocol
        last.append({"h": _("Undone steps")})
        rows = [[_("Step"), _("What"), _("Why undone")]]
        rows += [[str(x.seq), _step_text(table, x), x.undone_reason or "—"] for x in undone]
        last.append({"table": rows, "widths": [14, 80, 70]})
    end = selectors.end_view(table, state)
    if end:
        last.append({"h": end["sentence"]})
        rows = [[_("Side"), _("Figures at the start"), _("Figures lost")]]
        rows += [[x["name"], str(x["start"]), str(x["lost"])] for x in end["losses"]]
        last.append({"table": rows, "widths": [60, 40, 40]})
    else:
        last.append({"p": _("The battle goes on: %(phase)s, turn %(turn)s.") % {
            "phase": labels.PHASES[state["phase"]], "turn": state["turn"]} if state["turn"] else
            _("The battle goes on: %(phase)s.") % {"phase": labels.PHASES[state["phase"]]}})   # turns count from 1
    if last:
        pages.append(last)
    return {"document": _("Warlords: Battle of Red Plains · battle protocol"), "kicker": _("Battle of Red Plains · protocol"),
            "title": table.title,
            "pages": pages}


def _step_text(table, step) -> str:
    """An undone step on paper: its kind, the side that acted and, for dice, the values."""
    names = _names(table)
    text = str(labels.STEP_KINDS.get(step.kind, step.kind))
    if step.side:
        text += f" ({names.get(step.side, step.side)})"
    values = (step.payload or {}).get("values")
    if step.kind == "dice" and values:
        text += ": " + " ".join(map(str, values))
    return text


def reference(table, seat) -> dict:
    data = load()
    blocks = [{"h": _("Stakes (the command roll, 2d6)")}]
    rows = [[_("Stake"), _("Success at"), _("Success gives"), _("Failure gives")]]
    for key, stake in data.stakes.items():
        s_sp, s_or = stake.success
        f_sp, f_or = stake.failure
        rows.append([str(labels.STAKES[key]), f"{stake.success_at}+",
                     _("%(s)s special + %(o)s ordinary") % {"s": s_sp, "o": s_or},
                     _("%(s)s special + %(o)s ordinary") % {"s": f_sp, "o": f_or}])
    blocks.append({"table": rows, "widths": [40, 25, 50, 50]})
    blocks.append({"h": _("Order of execution")})
    steps = [("S1", _("first special orders (simultaneously)")), ("S2", _("first ordinary orders (simultaneously)")),
             ("S3", _("units fleeing since the last turn flee on")), ("S4", _("can the second orders still be done?")),
             ("S5", _("second special orders")), ("S6", _("second ordinary orders"))]
    blocks.append({"table": [[_("Step"), _("What")]] + [[a, b] for a, b in steps], "widths": [15, 150]})
    prios = [("P0", _("Dragon banner move (S1 only)")), ("P1", _("Hold the position: the steadiness bonus")),
             ("P2", _("cavalry's first move")), ("P3", _("ordered shooting")),
             ("P4", _("attacks on a flank or the rear; melee")), ("P5", _("ordered retreats")),
             ("P6", _("regroups")), ("P7", _("attacks on the front; melee")), ("P8", _("other moves and reforms"))]
    blocks.append({"table": [[_("Priority"), _("What")]] + [[a, b] for a, b in prios], "widths": [15, 150]})
    blocks.append({"h": _("Troop types")})
    rows = [[_("Type"), _("Guaranteed damage"), _("Possible damage"), _("Armour rating"), _("Steadiness"), _("Impetus")]]
    for key, tt in data.troop_types.items():
        rows.append([str(labels.TYPES.get(key, key)), str(tt.gd_melee if tt.gd_melee is not None else "—"),
                     f"{tt.pd_melee}+", str(tt.armour), str(tt.steadiness), str(tt.impetus)])
    blocks.append({"table": rows, "widths": [55, 25, 25, 20, 22, 20]})
    blocks.append({"p": _("Armour lowers the damage but never below 1 loss when there was damage.")})
    blocks.append({"h": _("End of the battle (checked after every turn)")})
    for code, text in labels.CONDITIONS.items():
        blocks.append({"small": str(text)})
    return {"document": _("Warlords: Battle of Red Plains · quick reference"), "kicker": _("Battle of Red Plains"),
            "title": _("Quick reference"),
            "pages": [blocks]}


def unit_cards(table, seat) -> dict:
    data = load()
    state = services.current(table)
    names = _names(table)
    pages = []
    for side in _sides(table, seat):
        blocks = [{"h": names.get(side, side)}]
        for u in state["units"]:
            if u["side"] != side:
                continue
            tt = data.troop_types[u["type"]]
            ranks = -(-int(u["figures"]) // 4)
            rows = [[labels.unit_name(state, u["id"]), _("Figures"), _("Ranks"), _("Armour rating"), _("Steadiness"),
                     _("Impetus"), _("Ammunition")],
                    ["■" * min(int(u["figures"]), 16), str(u["figures"]), str(ranks), str(tt.armour),
                     str(tt.steadiness), str(tt.impetus),
                     str(u.get("ammo") if u.get("ammo") is not None else
                         (int(u["figures"]) * tt.ammo_per_figure if tt.shooter else "—"))]]
            blocks.append({"table": rows, "widths": [42, 18, 20, 16, 22, 18, 26]})
        pages.append(blocks)
    return {"document": _("Warlords: Battle of Red Plains · unit cards"), "kicker": _("Battle of Red Plains · unit cards"),
            "title": table.title,
            "pages": pages}


def order_sheets(table, seat) -> dict:
    state = services.current(table)
    names = _names(table)
    pages = []
    for side in _sides(table, seat):
        blocks = [{"h": _("%(side)s — turn ____") % {"side": names.get(side, side)}},
                  {"p": _("Stake (circle it BEFORE the roll): low / high.   Roll: ___ + ___   "
                          "Re-rolls: ___ ___ ___")},
                  {"p": _("Orders: ___ special, ___ ordinary.   General retreat: yes / no.")},
                  {"p": _("Shinobi (W10): task ______________ enemy unit ______________ "
                          "(sabotage is named before anyone sees an order).")}]
        rows = [[_("Army unit"), _("Cell"), _("Order 1 (kind)"), _("Order 2 (kind)")]]
        for u in state["units"]:
            if u["side"] == side and u.get("status", "ready") in ("ready", "fleeing"):
                rows.append([labels.unit_name(state, u["id"]), u.get("cell") or "", "", ""])
        blocks.append({"table": rows, "widths": [50, 18, 50, 50], "height": 11})
        blocks.append({"grid": field_grid(table.setup, state)})
        pages.append(blocks)
    return {"document": _("Warlords: Battle of Red Plains · order sheet"), "kicker": _("Battle of Red Plains · order sheet"),
            "title": table.title,
            "pages": pages}


def field_grid(setup: dict, state: dict) -> dict:
    """The field sheet's grid (W42.3): the 12 x 6 cells with their labels and any the moderator added (W2.5)."""
    cells = sit.table_cells(setup, state)
    cols, rows = [c["col"] for c in cells], [c["row"] for c in cells]
    return {"columns": max(cols) - min(cols) + 1, "rows": max(rows) - min(rows) + 1,
            "first_col": min(cols), "first_row": min(rows), "centre_row": max(load().deployment_rows["north"]) + 1,
            "labels": {(c["col"], c["row"]): c["id"] for c in cells}, "marks": {}, "shade": set()}
