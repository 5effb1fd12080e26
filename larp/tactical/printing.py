"""Plain data for the printed documents of a table (T41): roster, unit cards, the battle record."""
from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from larp.tactical import selectors as sel
from larp.tactical import situation as sit
from larp.tactical.labels import name, stat_string, weapon


def roster(table, state: dict, side) -> dict:
    """A side's army: before the battle the builder's army, afterwards the same army with its state."""
    view = sel.army_view(table, state, side)
    cards = []
    lst = sit.army_list(view["doc"]["army_list"]) or {"entries": []}
    entries = {e["id"]: e for e in lst["entries"]}
    for u in view["doc"]["units"]:
        e = entries.get(u["entry"], {})
        cat = sit.RULES["categories"].get(e.get("category", "swordsmen"))
        mounted = bool(cat["mounted"]) if cat else False
        front = sit.data.front(sit.RULES, u["formation"], mounted)
        wdata = sit.RULES["weapons"].get(u["weapon"]) if u.get("weapon") else None
        cards.append({"name": u["name"], "entry": e.get("ru") or "", "stats": stat_string({**u, "category": e.get(
            "category", "swordsmen")}), "formation": name("formations", u["formation"]), "front": front,
            "figures": u["count"], "bases": u["bases"], "weapon": weapon(u.get("weapon")),
            "equipment": ", ".join(name("protection", u[k]) for k in ("armour", "shield", "horse_armour")
                                   if u.get(k)) or _("none"),
            "melee_ranks": str(sit.RULES["formations"][u["formation"]]["melee_ranks"]).replace("all", _("all")),
            "shoots": bool(wdata and wdata.get("kind") == "missile"), "mounted": mounted})
    return {"game": table.game.title, "table": table.title, "side": side.name, "list": view["list_name"],
            "units": view["units"], "generals": view["generals"], "points": view["points"],
            "refused": view["refused"], "approved": view["status"] == "approved", "cards": cards,
            "date": timezone.localtime().strftime("%d.%m.%Y")}


def record(seat, state: dict) -> dict:
    """The battle record: the fingerprint, every step with its dice and numbers, the tallies and the result."""
    steps = list(reversed(sel.log(seat, state)))
    board = sel.board(seat, state)
    result = state.get("result") or {}
    names = {s["key"]: s["name"] for s in board}
    return {"game": seat.table.game.title, "table": seat.table.title, "fingerprint": seat.table.dice.fingerprint,
            "sides": [{"name": s["name"], "start": s["start"], "now": s["now"], "lost": s["lost"],
                       "fleeing": s["fleeing"], "destroyed": s["destroyed"]} for s in board],
            "steps": [{"seq": s["seq"], "summary": s["summary"], "dice": s["dice"], "lines": s["lines"],
                       "undone": s["undone"], "reason": s["reason"] or s["undone_reason"],
                       "who": str(s["user"] or ""), "at": timezone.localtime(s["at"]).strftime("%H:%M")}
                      for s in steps],
            "winner": names.get(result.get("winner")) if result else None,
            "ended_by": sel.end_label(result.get("ended_by", "")) if result else "",
            "date": timezone.localtime().strftime("%d.%m.%Y")}
