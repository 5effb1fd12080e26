"""Plain data for the printed documents of a table (T41): roster, unit cards, the battle record."""
from __future__ import annotations

from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from larp import ru
from larp.tactical import selectors as sel
from larp.tactical import situation as sit
from larp.tactical.labels import name, stat_string, weapon


def _card(name_: str, entry: str, stats: str, formation: str, category: str, figures: int, bases: int,
          weapon_id: str | None, equipment: str) -> dict:
    """One unit card (T41): what a player needs beside the base."""
    cat = sit.RULES["categories"].get(category)
    mounted = bool(cat["mounted"]) if cat else False
    wdata = sit.RULES["weapons"].get(weapon_id) if weapon_id else None
    return {"name": name_, "entry": entry, "stats": stats, "formation": name("formations", formation),
            "front": sit.data.front(sit.RULES, formation, mounted), "figures": figures, "bases": bases,
            "weapon": weapon(weapon_id), "equipment": equipment or _("none"),
            "melee_ranks": str(sit.RULES["formations"][formation]["melee_ranks"]).replace("all", _("all")),
            "shoots": bool(wdata and wdata.get("kind") == "missile"), "mounted": mounted}


def roster(table, state: dict, side) -> dict:
    """A side's army: before the battle the builder's army (or the army suggested from a battle of the war),
    afterwards the same army with its state."""
    suggestion = sel.suggested_view(state, side) if state["phase"] == "setup" else None
    if suggestion:
        cards = [_card(u["name"], u["entry"], u["stats"], u["formation_id"], u["profile"].get("category", ""),
                       u["count"], u["bases"], u["profile"].get("weapon"), u["equipment"])
                 for u in suggestion["units"]]
        return {"game": table.game.title, "table": table.title, "side": side.name,
                "list": _("suggested from the battle of the war"), "units": suggestion["units"],
                "generals": suggestion["generals"], "points": {"total": "—", "limit": "—"},
                "refused": suggestion["refused"], "approved": suggestion["status"] == "approved", "cards": cards,
                "date": timezone.localtime().strftime("%d.%m.%Y")}
    view = sel.army_view(table, state, side)
    cards = []
    lst = sit.army_list(view["doc"]["army_list"]) or {"entries": []}
    entries = {e["id"]: e for e in lst["entries"]}
    for u in view["doc"]["units"]:
        e = entries.get(u["entry"], {})
        category = e.get("category", "swordsmen")
        cards.append(_card(u["name"], e.get("ru") or "", stat_string({**u, "category": category}), u["formation"],
                           category, u["count"], u["bases"], u.get("weapon"),
                           ", ".join(name("protection", u[k]) for k in ("armour", "shield", "horse_armour")
                                     if u.get(k))))
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
            "dice_chosen": seat.table.dice.chosen,
            "sides": [{"name": s["name"], "start": s["start"], "now": s["now"], "lost": s["lost"],
                       "fleeing": s["fleeing"], "destroyed": s["destroyed"]} for s in board],
            "steps": [{"seq": s["seq"], "summary": s["summary"], "dice": s["dice"], "lines": s["lines"],
                       "undone": s["undone"], "reason": s["reason"] or s["undone_reason"],
                       "who": str(s["user"] or ""), "at": timezone.localtime(s["at"]).strftime("%H:%M")}
                      for s in steps],
            "winner": names.get(result.get("winner")) if result else None,
            "ended_by": sel.end_label(result.get("ended_by", "")) if result else "",
            "date": timezone.localtime().strftime("%d.%m.%Y")}


def reference() -> dict:
    """The quick-reference sheet's data: the rules data's numbers in the players' words."""
    from larp.tactical.labels import name as label
    rules = sit.RULES
    formations = [{"name": label("formations", k), "foot": f["front"]["foot"], "mounted": f["front"]["mounted"],
                   "melee": _("all") if f["melee_ranks"] == "all" else f["melee_ranks"],
                   "shooting": _("yes") if f["shooting"] else _("no")} for k, f in rules["formations"].items()]
    weapons = []
    for k, w in rules["weapons"].items():
        notes = []
        if w.get("ignores_armour_in_melee"):
            notes.append(_("ignores armour in melee"))
        if w.get("ignores_shields"):
            notes.append(_("ignores shields"))
        if w.get("defensive_fire"):
            notes.append(_("defensive fire"))
        if w.get("rain_affects"):
            notes.append(_("rain may wet it"))
        if w.get("fixed_hit_on"):
            notes.append(_("hits on 1–%(n)s") % {"n": w["fixed_hit_on"]})
        forbidden = ", ".join(label("protection", p) for p in w.get("forbidden") or [])
        if forbidden:
            notes.append(_("not with: %(items)s") % {"items": forbidden})
        if w["kind"] == "missile":
            rng = (_("point blank") if not w.get("base_range_cm") else
                   _("%(n)s cm, long fire 2 cm per figure") % {"n": w["base_range_cm"]} if w.get("long_range") else
                   _("%(n)s cm") % {"n": w["base_range_cm"]})
        else:
            rng = "—"
        weapons.append({"name": label("weapons", k), "clash": w.get("clash_ranks") if w.get("clash") else "—",
                        "range": rng, "notes": "; ".join(notes)})
    against = {"melee": _("melee"), "shooting": _("shooting"), "clash": _("clash"),
               "clash_by_infantry": _("clash by infantry")}
    protection = [{"name": label("protection", k),
                   "save": (_("one in %(b)s saved, counting from the first hit") if p["count_from"] == "saved" else
                            _("every %(b)s-th killed survives")) % {"b": p["save"][1]},
                   "against": ", ".join(str(against.get(c, c)) for c in p.get("contexts", []))}
                  for k, p in rules["protection"].items()]
    mv = rules["movement"]
    return {"game": "", "formations": formations, "weapons": weapons, "protection": protection,
            "turn": [_("0. Tests of mercenary generals (T28)."), _("1. Shooting (T20)."),
                     _("2. Movement by orders, with clashes during or right after a move (T15, T18, T19)."),
                     _("3. Disorderly movement of units not moved (T16), then fleeing units move (T17)."),
                     _("4. Melee (T21); a melee with nobody fled goes on at the end of the other player's turn."),
                     _("The other player may answer with return fire, defensive fire and counter-attacks.")],
            "tests": [_("Value = steadiness (5 in a circle) + full ranks − killed this round + the general's "
                        "talent − 2 if broken + modifiers."),
                      _("A die at or below the value holds; above it the unit flees. 0 or less flees without a "
                        "roll, 6 or more holds without a roll."),
                      _("Attacked in the rear: failing the test destroys the unit.")],
            "movement": [_("Speed = %(base)s cm minus the figures in the first rank of the unit or battle line; "
                           "trot ×%(trot)s, gallop ×%(gallop)s for cavalry.") % {
                "base": mv["base_speed_cm"], "trot": mv["cavalry_moves"]["trot"],
                "gallop": mv["cavalry_moves"]["gallop"]},
                _("Tired troops, wet ground (cavalry) and heavy mud count each first-rank figure as two.")],
            "weather": [_("Rain: before each volley of bows, crossbows and handguns roll a die; odd — wet strings, "
                          "no volley."),
                        _("Sun: melee and shooting −1 for the side with the sun in its face."),
                        _("Wind: bows facing the wind −1; a strong wind at the back +1."),
                        _("Fog: line of sight 10 cm.")]}


def operational_cards() -> dict:
    """The 40 operational cards (T33) to cut out, with their MP cost and effect."""
    from larp.tactical.labels import card_name
    from larp.tactical.labels import CARD_EFFECTS, CARD_KINDS
    cards = []
    for c in sit.RULES["cards"]:
        cost = ru.say(_("%(n)s MP") % {"n": c["cost"]}) if c.get("cost") else ""
        cards.append({"name": card_name(c["id"]), "kind": str(CARD_KINDS.get(c["kind"], "")), "cost": cost,
                      "effect": str(CARD_EFFECTS.get(c["id"], ""))})
    return {"game": "", "cards": cards}


def battlefield(table, state: dict) -> dict:
    """The 5x5 map at the moment of battle and the six chosen cards with their terrain pieces (T34)."""
    from larp.tactical.labels import card_name, cell_name
    from larp.tactical.labels import name as label
    m = sit.strategic(state)
    field = m.get("field")
    inside = set()
    if field:
        inside = {(r, c) for r in range(field["rows"][0], field["rows"][1] + 1)
                  for c in range(field["cols"][0], field["cols"][1] + 1)}
    grid = [[{"card": "" if card == "clear" else card_name(card), "field": (r, c) in inside}
             for c, card in enumerate(row)] for r, row in enumerate(m["grid"])]
    pieces = []
    for r, c in sorted(inside):
        card = m["grid"][r][c]
        piece = sit.CARD_PIECES.get(card)
        if piece:
            el = sit.RULES["terrain_elements"][piece]
            count = (f"{el['pieces']} {el['unit']}" if el.get("pieces") and (get_language() or "ru").startswith("ru")
                     else str(el.get("pieces") or _("the whole square")))
            pieces.append({"cell": cell_name([r, c]), "card": card_name(card), "piece": label("terrain_elements", piece),
                           "count": count})
    return {"game": table.game.title, "table": table.title, "grid": grid, "pieces": pieces,
            "chosen": bool(field), "weather": [card_name(w) for w in m["weather"]]}
