"""Reads for the «Орда» pages: the board as SVG-ready geometry, the turn, the acts a seat may take.

The game has no hidden units (O5): everything on the board is open to both sides.
What is hidden is the event deck's order (and the table's dice seed): neither
ever leaves this module; pages get the current card and the count of the piles.
"""
from __future__ import annotations

import math

from django.utils.translation import gettext as _

from larp.orda import describe, labels
from larp.orda.access import acts_for
from larp.orda import situation as sit
from larp.orda.engine import outcomes as O
from larp.orda.engine.data import STATS, load
from larp.orda.models import DataSet
from larp.tables.access import Seat
from larp.tables.models import Table

SIZE = 30.0
FACTION_COLOURS = {"rus": "#2b59c3", "china": "#c0392b", "south_mongolia": "#d4a017", "north_mongolia": "#2e8b57"}
CAPITAL_COLOURS = {"blue": "#2b59c3", "red": "#c0392b", "green": "#2e8b57", "yellow": "#d4a017",
                   "dark_blue": "#1b2f66", "dark_red": "#6e1a12"}


def hex_xy(q: int, r: int) -> tuple[float, float]:
    return SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r


def hex_points(x: float, y: float, size: float = SIZE) -> str:
    pts = []
    for i in range(6):
        a = math.radians(60 * i - 30)
        pts.append(f"{x + size * math.cos(a):.1f},{y + size * math.sin(a):.1f}")
    return " ".join(pts)


def hex_key(h) -> str:
    return f"{h[0]},{h[1]}"


def parse_hex(text: str) -> list[int] | None:
    try:
        q, r = (int(x) for x in str(text).split(","))
    except (TypeError, ValueError):
        return None
    return [q, r]


def board(hexes: list, *, cities=(), units=(), beyond=(), moves=None, targets=None, selected=None,
          marks=None) -> dict:
    """SVG geometry: every hex with its city, unit, and what the user may click on."""
    moves, targets, marks = moves or {}, targets or {}, marks or {}
    by_hex_city = {tuple(c["hex"]): c for c in cities}
    by_hex_unit = {tuple(u["hex"]): u for u in units if u.get("hex")}
    beyond = {tuple(h) for h in beyond}
    cells = []
    xs, ys = [], []
    for h in hexes:
        h = tuple(h)
        x, y = hex_xy(*h)
        xs.append(x)
        ys.append(y)
        cells.append({"q": h[0], "r": h[1], "key": hex_key(h), "x": f"{x:.1f}", "y": f"{y:.1f}",
                      "y_city": f"{y - 14:.1f}", "y_short": f"{y + 1:.1f}", "y_hp": f"{y + 13:.1f}",
                      "y_coord": f"{y + 4:.1f}", "bx": f"{x + 14:.1f}", "by": f"{y - 14:.1f}", "by_text": f"{y - 11:.1f}",
                      "points": hex_points(x, y), "inner": hex_points(x, y, SIZE * 0.82),
                      "city": by_hex_city.get(h), "unit": by_hex_unit.get(h), "beyond": h in beyond,
                      "move": moves.get(h), "target": targets.get(h), "selected": selected == list(h),
                      "mark": marks.get(h)})
    if not xs:
        xs, ys = [0.0], [0.0]
    pad = SIZE * 1.2
    return {"cells": cells, "viewbox": f"{min(xs) - pad:.0f} {min(ys) - pad:.0f} "
                                       f"{max(xs) - min(xs) + 2 * pad:.0f} {max(ys) - min(ys) + 2 * pad:.0f}"}


def printed(u: dict, kind, param: str) -> int | None:
    """The token's printed value as the engine reads it: the case's, else the source's (O7), else unknown."""
    value = (u.get("stats") or {}).get(param)
    return kind.stats.get(param) if value is None else value


def unit_view(case: dict, u: dict) -> dict:
    kind = load().kinds[u["faction"]][u["token"]]
    health = u["stats"].get("health")
    name = describe.unit_name(case, u["id"])
    return {"id": u["id"], "name": name, "short": "".join(w[0] for w in kind.name_ru.split()[:2]).upper(),
            "faction": u["faction"], "faction_name": labels.faction(u["faction"]),
            "colour": FACTION_COLOURS[u["faction"]], "where": u["where"], "where_name": labels.where(u["where"]),
            "hex": u["hex"], "health": health, "left": None if health is None else health - u["damage"],
            "damage": u["damage"], "cls": labels.cls(kind.cls), "trait": labels.trait_name(kind.trait),
            "trait_text": labels.trait_text(kind.trait), "trait_kind": load().traits[kind.trait]["kind"],
            "stats": [(labels.param(p), "—" if v is None else v) for p in STATS
                      if (v := printed(u, kind, p)) is not None or p != "range" or kind.cls == "ranged"],
            "effects": [labels.source(e["kind"]) for e in u["effects"]], "revealed": u.get("revealed")}


def city_view(c: dict) -> dict:
    return {**c, "name": (_("Capital") if c["kind"] == "capital" else _("City")) + f" ({labels.faction(c['faction'])})",
            "fill": CAPITAL_COLOURS.get(c.get("colour") or "", "#777"),
            "left": None if c["durability"] is None else max(0, c["durability"] - c["damage"])}


def data_set_for(table: Table) -> DataSet | None:
    """The data set the table reads (O23): the one it was made from, else (a table from the bridge) the game's
    last edited."""
    return DataSet.objects.filter(pk=table.origin.get("data_set"), game_id=table.game_id).first() or \
        DataSet.objects.filter(game_id=table.game_id).order_by("-updated_at", "-pk").first()


def event_text(table: Table, card: str | None) -> str:
    if not card:
        return ""
    return event_texts(table, [card])[card]


def event_texts(table: Table, cards) -> dict[str, str]:
    """Each card's text as the table shows it, from one reading of the data set."""
    ds = data_set_for(table)
    given = (ds.data.get("events") or {}) if ds else {}
    return {card: given.get(card) or _("Event card %(n)s: its text is not transcribed; read it from the card.")
            % {"n": card[1:]} for card in cards}


def table_context(table: Table, state: dict, seat: Seat, *, selected: str | None = None) -> dict:
    """Everything the table's page shows this seat (the deck's order never)."""
    case = state["case"]
    game = case["game"]
    active = game["active"]
    engine = load()
    units = [unit_view(case, u) for u in case["units"]]
    by_id = {u["id"]: u for u in units}
    cities = [city_view(c) for c in case["cities"]]
    phase = state["phase"]
    my_turn = table.is_open and phase != sit.OVER and acts_for(seat, active)
    moves, targets, sel, abilities = {}, {}, None, None
    pending = state.get("pending")
    if my_turn and phase == sit.BATTLE and not pending and selected in by_id:
        u = by_id[selected]
        if u["faction"] == active and u["where"] == O.BOARD:
            sel = u
            try:
                moves = sit.legal_moves(case, selected)
                targets = {tuple(t["hex"]): {**t, "name": by_id[t["target"]]["name"],
                                             **declare_choices(case, selected, t["target"], by_id)}
                           for t in sit.legal_targets(case, selected)}
            except sit.Refusal:
                moves, targets = {}, {}
            abilities = ability_choices(case, u)
    if my_turn and phase == sit.BATTLE and not pending:
        for u in units:
            if u["faction"] == active and u["where"] == O.BOARD:
                u["link"] = f"?unit={u['id']}"
    deploying = table.is_open and phase == sit.START and not state.get("started", True)
    deploy, problems = None, []
    if deploying:
        try:
            problems = [{"text": sit.problem_text(p), "error": p["severity"] == O.ERROR}
                        for p in sit.setup_problems(case)]
        except sit.Refusal as r:
            problems = [{"text": r.message, "error": True}]
        for u in units:
            if u["where"] in (O.BOARD, O.RESERVE) and acts_for(seat, u["faction"]):
                u["link"] = f"?unit={u['id']}"
        if selected in by_id and by_id[selected].get("link"):
            sel = by_id[selected]
            cap = next(c for c in case["cities"] if c["kind"] == "capital" and c["faction"] == sel["faction"])
            taken = {tuple(u["hex"]) for u in units if u["where"] == O.BOARD}
            from larp.orda.engine.hexes import distance
            hexes = case["board"].get("hexes") or _disc(case["board"].get("radius", 0))
            free = sorted(tuple(h) for h in hexes if tuple(h) not in taken and tuple(h) != tuple(cap["hex"])
                          and distance(tuple(h), tuple(cap["hex"])) <= 2)
            moves = {h: {"path": [list(h)], "provoked": [], "trap": False} for h in free}
        deploy = {"problems": problems, "ok": not any(p["error"] for p in problems),
                  "rolloff": rolloff_context(state, seat),
                  "pickable": [u for u in units if u.get("link")], "war_battle": sit.is_war_battle(case),
                  **missing_values_context(table, case, seat)}
    pend = None
    if pending:
        tgt_faction = by_id[pending["target"]]["faction"]
        atk_faction = by_id[pending["attacker"]]["faction"]
        pend = {"attacker": by_id[pending["attacker"]], "target": by_id[pending["target"]],
                "aimed": pending.get("aimed"), "counter": pending.get("counter"),
                "counter_name": labels.counter(pending["counter"]) if pending.get("counter") else "",
                "retreat_to": pending.get("retreat_to"),
                "may_counter": table.is_open and not pending.get("counter") and acts_for(seat, tgt_faction),
                "may_roll": table.is_open and bool(pending.get("counter")) and acts_for(seat, atk_faction),
                "may_hand": seat.moderator,
                "push_to": describe.hex_text(pending["push_to"]) if pending.get("push_to") else "",
                "push_key": hex_key(pending["push_to"]) if pending.get("push_to") else "",
                "second": by_id[pending["second"]] if pending.get("second") in by_id else None,
                "second_attacker": "golden_horde" in [e for e in _effect_kinds(case, pending["attacker"])],
                "second_target": "golden_horde" in [e for e in _effect_kinds(case, pending["target"])]}
        if pend["may_counter"] or seat.moderator or acts_for(seat, tgt_faction):
            try:
                o = sit.odds(case, pending)
                pend["odds_defence"] = describe.odds_text(o["defence"])
                pend["odds_retreat"] = describe.odds_text(o["retreat"]) if o["retreat"] else None
                pend["retreat_refused"] = labels.refusal(o["retreat_refused"]["code"]) if o["retreat_refused"] else ""
                pend["retreat_hexes"] = [{"key": hex_key(h), "text": describe.hex_text(h)}
                                         for h in sit.retreat_hexes(case, pending["target"])] if o["retreat"] else []
            except sit.Refusal as r:
                pend["odds_error"] = r.message
    acts = case.get("activations") or {}
    upt = engine.number("turn", "units_per_turn")
    tracks = []
    for f in game["order"]:
        t = (case.get("summon_track") or {}).get(f)
        tracks.append({"faction": labels.faction(f), "colour": FACTION_COLOURS[f],
                       "unit": by_id[t["unit"]]["name"] if t else None, "cell": t["cell"] if t else None,
                       "reserve": [u for u in units if u["faction"] == f and u["where"] == O.RESERVE],
                       "dead": [u for u in units if u["faction"] == f and u["where"] == O.DEAD]})
    tours = engine.number("modes", "border", "rus_china_tours") if game["mode"] == O.BORDER else None
    reserve = [u for u in units if u["faction"] == active and u["where"] == O.RESERVE]
    slot = (case.get("summon_track") or {}).get(active)
    arriving, summon_at = None, []
    if my_turn and phase == sit.START and slot and slot["cell"] <= 1:
        arriving = by_id[slot["unit"]]["name"]
        try:
            summon_at = [{"key": hex_key(h), "text": describe.hex_text(h)} for h in sit.summon_hexes(case, active)]
        except sit.Refusal:
            summon_at = []
    if slot and slot["cell"] > 1:
        reserve = []
    beyond = (case.get("border") or {}).get("beyond", [])
    return {
        "case_mode": labels.mode(game["mode"]), "tour": game["tour"], "tours": tours,
        "active": active, "active_name": labels.faction(active), "active_colour": FACTION_COLOURS[active],
        "phase": phase, "my_turn": my_turn, "seat": seat, "order_waits": deploying and sit.order_open(state),
        "order_names": describe.order_text(game["order"]),
        "acted": [{"name": by_id[k]["name"], "steps": v} for k, v in acts.items()], "slots_left": max(0, upt - len(acts)),
        "board": board(case["board"]["hexes"] if "hexes" in case["board"] else _disc(case["board"]["radius"]),
                       cities=cities, units=[u for u in units if u["where"] == O.BOARD], beyond=beyond,
                       moves=moves, targets=targets, selected=sel["hex"] if sel else None,
                       marks=_pending_marks(pend)),
        "units": units, "cities": cities, "tracks": tracks, "reserve": reserve, "arriving": arriving,
        "deploy": deploy,
        "summon_at": summon_at,
        "mine": [u for u in units if u["faction"] == active and u["where"] == O.BOARD],
        "selected": sel, "moves": [{"key": hex_key(h), "text": describe.hex_text(h), "provoked": len(m["provoked"]),
                                    "path": ";".join(hex_key(x) for x in m["path"]),
                                    "trap": m["trap"]} for h, m in sorted(moves.items())],
        "targets": list(targets.values()), "abilities": abilities, "pending": pend,
        "event": event_text(table, case["event"].get("current")),
        "deck_left": len(case["event"].get("draw_pile") or []),
        "winner": labels.side(state["winner"]) if state.get("winner") else None,
        "reason": labels.reason(state.get("reason")) if state.get("winner") else None,
        "modifiers": [{"unit": by_id.get(m["unit"], {}).get("name", ""), "param": labels.param(m["param"]),
                       "value": m["value"], "source": labels.source(m["source"])} for m in case.get("modifiers", [])],
        "board_units": [u for u in units if u["where"] == O.BOARD],
    }


def missing_values_context(table: Table, case: dict, seat: Seat) -> dict:
    """The printed values the table lacks (O23), one line each, and for the moderator the game's data sets to
    take them from (each with its editor, opened at the first faction that lacks a value)."""
    lines = sit.missing_text(case)
    if not lines or not seat.moderator:
        return {"missing": lines, "data_sets": [], "data_set": None}
    gaps = sit.missing_values(case)
    faction = next((u["faction"] for u in case["units"] if u["id"] in gaps["units"]), "")
    chosen = data_set_for(table)
    sets = [{"id": ds.pk, "title": ds.title, "faction": faction, "test_data": bool(ds.data.get("test_data")),
             "gives": bool(any(sit.values_from(case, ds.data).values()))}
            for ds in DataSet.objects.filter(game_id=table.game_id).order_by("-updated_at", "-pk")]
    return {"missing": lines, "data_sets": sets, "data_set": chosen.pk if chosen else None}


def _effect_kinds(case: dict, uid: str) -> list[str]:
    return [e["kind"] for u in case["units"] if u["id"] == uid for e in u["effects"]]


def _disc(radius: int) -> list:
    from larp.orda.engine.hexes import disc
    return sorted(disc(radius))


def _pending_marks(pend: dict | None) -> dict:
    """The hexes of a declared attack: its attacker, its target, a paired attack's second target, and where an
    Арбалетчик's bolt pushes the target (O21)."""
    if not pend:
        return {}
    out = {tuple(pend["attacker"]["hex"]): "attacker", tuple(pend["target"]["hex"]): "target"}
    if pend.get("second") and pend["second"].get("hex"):
        out[tuple(pend["second"]["hex"])] = "second"
    if pend.get("push_key"):
        out[tuple(parse_hex(pend["push_key"]))] = "push"
    return out


def declare_choices(case: dict, attacker: str, target: str, by_id: dict) -> dict:
    """What the attacker names with this target, before the dice: where an Арбалетчик's bolt pushes it (the back
    hexes, the rules' default first) and a paired attack's second target (O21); the legal choices only."""
    push = [{"key": hex_key(h), "text": describe.hex_text(h), "default": i == 0}
            for i, h in enumerate(sit.push_hexes(case, attacker, target))]
    seconds = [(uid, by_id[uid]["name"]) for uid in sit.second_targets(case, attacker, target)]
    return {"push": push, "seconds": seconds}


def rolloff_context(state: dict, seat: Seat) -> dict:
    """The roll-off for the first turn (O8, O10): its rounds so far, who rolls next, who is first; the moderator's
    forms are offered until the first turn begins."""
    ro = sit.rolloff_of(state)
    order = state["case"]["game"]["order"]
    return {"rounds": [{"n": i, "dice": [(labels.faction(f), d, d == max(x for _f, x in r)) for f, d in r]}
                       for i, r in enumerate(ro["rounds"], 1)],
            "contenders": [(f, labels.faction(f)) for f in ro["contenders"]],
            "first": labels.faction(ro["first"]) if ro["first"] else None, "named": ro["named"],
            "waits": sit.order_open(state), "asked": bool(state["case"].get("rolloff")),
            "factions": [(f, labels.faction(f)) for f in order], "may": seat.moderator}


def ability_choices(case: dict, u: dict) -> dict | None:
    """What the unit's action trait may be used on now (O21): only the targets the engine accepts are offered."""
    raw = next(x for x in case["units"] if x["id"] == u["id"])
    trait = load().kinds[raw["faction"]][raw["token"]].trait
    needs = {"supplies": "unit", "personal_healers": "unit", "princes_order": "unit_param", "mixed_poisons": "unit",
             "lance": "unit", "golden_horde": "unit", "traps": "hex", "theft": "copy"}.get(trait)
    if needs is None:
        return None

    def legal(extra: dict) -> bool:
        try:
            sit.run(O.ABILITY, {**case, "ability": {"unit": u["id"], "trait": trait, **extra}})
        except sit.Refusal:
            return False
        return True

    on_board = [x for x in case["units"] if x["where"] == O.BOARD]
    units, hexes, traits = [], [], []
    params = ["attack", "defence", "speed", "range"]
    if needs in ("unit", "unit_param"):
        extra = {"param": "attack"} if needs == "unit_param" else {}
        units = [(x["id"], describe.unit_name(case, x["id"]) + f" — {labels.faction(x['faction'])}")
                 for x in on_board if legal({"target": x["id"], **extra})]
        if needs == "unit_param":
            # The two lists are chosen apart, so a value is offered only if every target offered takes it (range
            # only for ranged units, O21): no pair the page offers is refused.
            params = [p for p in params if all(legal({"target": uid, "param": p}) for uid, _name in units)]
    elif needs == "hex":
        taken = {tuple(x["hex"]) for x in on_board}
        board_hexes = case["board"].get("hexes") or _disc(case["board"].get("radius", 0))
        hexes = [{"key": hex_key(h), "text": describe.hex_text(h)} for h in sorted(tuple(h) for h in board_hexes)
                 if h not in taken and legal({"hex": list(h)})]
    else:
        names = sorted({load().kinds[x["faction"]][x["token"]].trait for x in on_board} - {"theft"})
        traits = [(t, labels.trait_name(t)) for t in names if legal({"copy": t})]
    if not (units or hexes or traits):
        return None
    return {"trait": trait, "trait_name": labels.trait_name(trait), "needs": needs, "units": units, "hexes": hexes,
            "params": [(p, labels.param(p)) for p in params], "traits": traits}


def _deals(step) -> bool:
    """The step's dice put the event deck in order (the deal, a reshuffle): they stay off the log, as the order does."""
    return step.kind == "setup" or bool((step.payload.get("choices") or {}).get("reshuffle"))


LOG_SHOWN = 40  # the table's page shows the latest steps; the battle protocol (PDF) has every one


def log(table: Table, case: dict, limit: int | None = None) -> list[dict]:
    """The steps, newest first, each as a sentence, with its dice (hand or server, and the server's counters);
    only the latest `limit` of them when given (a table at tour 30 has hundreds: its page is drawn after every
    act, and a tablet cannot show them all anyway)."""
    from larp.dice.models import Roll

    steps = table.steps.select_related("user").order_by("-seq")
    rolled = Roll.objects.filter(stream=table.dice).order_by("pk")
    if limit is not None:
        steps = list(steps[:limit])
        rolled = rolled.filter(ref__in=[s.ref for s in steps])
    rolls: dict[str, list] = {}
    for r in rolled:
        rolls.setdefault(r.ref, []).append(r)
    out = []
    for s in steps:
        try:
            text = describe.step_summary(case, case, s.kind, s.payload, s.outcome)
        except (KeyError, TypeError, IndexError):
            text = s.kind
        dice = rolls.get(s.ref, [])
        out.append({"seq": s.seq, "text": text, "undone": s.undone, "undone_reason": s.undone_reason,
                    "reason": s.reason, "at": s.at, "user": s.user,
                    "dice": [{"value": r.value, "server": r.source == "server", "counter": r.counter,
                              "discarded": r.status != "used"} for r in dice] if not _deals(s) else [],
                    "deck": _deals(s)})
    return out


def head(table: Table, state: dict, ctx: dict, open_acts: set) -> dict:
    """The frame of the moderator's table page (templates/tables/partials/frame.html): the title, the tour, whose
    move in words, the winner once over, and the next act's label with the id of its form on the page."""
    phase, game = state["phase"], state["case"]["game"]
    rnd = (_("Tour %(n)s of %(m)s") % {"n": game["tour"], "m": ctx["tours"]}) if ctx.get("tours") else \
        _("Tour %(n)s") % {"n": game["tour"]}
    pending, deploy = ctx.get("pending"), ctx.get("deploy")
    nxt, over = None, False
    if phase == sit.OVER or not table.is_open:
        over = True
        whose = (_("Victory: %(side)s") % {"side": ctx["winner"]}) if ctx.get("winner") else \
            (_("The table is cancelled.") if table.status == Table.CANCELLED else _("the battle is over"))
    elif pending:
        if not pending.get("counter"):
            whose = _("%(faction)s chooses the counter-measure") % {"faction": pending["target"]["faction_name"]}
            if "counter" in open_acts:
                nxt = {"label": _("Counter-measure"), "anchor": "orda-act-counter"}
        else:
            whose = _("%(faction)s rolls the attack") % {"faction": pending["attacker"]["faction_name"]}
            if "attack" in open_acts:
                nxt = {"label": _("The dice"), "anchor": "orda-act-attack"}
    else:
        whose = _("Moving: %(faction)s") % {"faction": ctx["active_name"]}
        if deploy and deploy.get("missing") and "values" in open_acts:
            nxt = {"label": _("Take the values from the data set"), "anchor": "orda-act-values"}
        elif deploy and ctx.get("order_waits") and "rolloff" in open_acts:
            nxt = {"label": _("Turn order"), "anchor": "rolloff"}
        elif phase == sit.START and "turn_start" in open_acts:
            nxt = {"label": _("Start of the turn"), "anchor": "orda-act-turn-start"}
        elif phase == sit.BATTLE and "turn_end" in open_acts:
            nxt = {"label": _("Activations or «Results of the turn»"), "anchor": "orda-act-battle"}
    return {"title": table.title, "system": _("Orda"), "round": rnd, "whose": whose, "over": over, "next": nxt}
