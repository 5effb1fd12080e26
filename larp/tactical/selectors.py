"""Reads for the pages and the printing of a «Тактические правила» table, filtered by the seat (the fog).

Before the battle a player sees only their own side's army (the other side's is
reported as being built, submitted or approved, nothing of it); once the battle
starts both armies stand in plain sight on the physical table (T40), so the board
shows both. The log shows a player no roster of the other side.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from larp import ru
from larp.dice.models import Roll
from larp.tables import services as tables
from larp.tables.access import Seat
from larp.tactical import situation as sit
from larp.tactical.labels import (ACTIONS, CARD_EFFECTS, CARD_KINDS, COLUMNS, DIRECTIONS, DISORDER_CAUSES, END_REASONS,
                                  ITEMS, LOYALTY, RESULTS, TEST_KINDS, army_refusal_text, card_name, cell_name, name, path_words, rule_text,
                                  stat_string, terrain_label, unit_label, weapon)

SETUP_KINDS = {"roster", "confirm", "setup"}
# Steps a player never sees of the other side: its corps' targets, marches and the moderator's rulings on them
# (the map's fog, docs/tactical-rules.md).
HIDDEN_KINDS = {"target", "march", "override"}


def state_of(table) -> dict:
    return table.state if table.state.get("phase") else sit.initial_state(table.setup)


def sides_for(seat: Seat) -> list:
    """The sides whose army this seat may see and build before the battle."""
    sides = list(seat.table.sides.all())
    return sides if seat.moderator else [s for s in sides if s.key == seat.side_key]


def profile(state: dict, pid: str) -> dict | None:
    return next((p for p in state["profiles"] if p["id"] == pid), None)


def unit_view(state: dict, u: dict) -> dict:
    ranks = sit.shown_ranks(u, state)
    cells = [[("dis" if i < g.get("disordered", 0) else "in") for g in rank for i in range(g["count"])]
             for rank in ranks]
    cells = [sorted(row, key=lambda c: c == "dis") for row in cells]
    pids = []
    for rank in ranks:
        for g in rank:
            if g["profile"] not in pids:
                pids.append(g["profile"])
    profiles = []
    for pid in pids:
        p = profile(state, pid)
        if p:
            profiles.append({"name": p.get("name") or _("warriors"), "stats": stat_string(p),
                             "category": name("categories", p["category"]), "weapon": weapon(p.get("weapon")),
                             "equipment": ", ".join(name("protection", p[k]) for k in ("armour", "shield",
                                                                                       "horse_armour") if p.get(k))})
    width = None
    if pids and profile(state, pids[0]):
        from larp.tactical.engine import data
        width = data.front(sit.RULES, u["formation"], sit._mounted(state, pids[0]))
    full = sum(1 for rank in ranks if width and sum(g["count"] - g.get("disordered", 0) for g in rank) >= width)
    gen = u.get("general")
    destroyed = u["id"] in state.get("destroyed", [])
    return {"id": u["id"], "name": u.get("name") or _("unit"), "side": u["side"], "profiles": profiles,
            "formation": name("formations", u["formation"]),
            "special": name("special_formations", u.get("special")) if u.get("special") else "",
            "ranks": cells, "figures": sit.figures(u), "disordered": sit.disordered(u), "full_ranks": full,
            "general": None if not gen else {"name": gen.get("name") or _("general"),
                                             "talents": gen.get("talents") or {}, "deputy": gen.get("deputy")},
            "in_melee": u.get("in_melee"), "fleeing": u.get("fleeing"), "destroyed": destroyed}


def board(seat: Seat, state: dict) -> list[dict]:
    """Per side: its units on the table and the tallies T16.3, T28 and T29 need."""
    out = []
    for side in seat.table.sides.all():
        units = [unit_view(state, u) for u in state["units"] if u["side"] == side.key]
        if state["phase"] == "setup" and not seat.moderator and side.key != seat.side_key:
            units = []
        start = state.get("start", {}).get(side.key, 0)
        now = sit.side_figures(state, side.key)
        out.append({"key": side.key, "name": side.name, "mine": seat.side_key == side.key, "units": units,
                    "fleeing": sum(1 for u in units if u["fleeing"] and not u["destroyed"]),
                    "destroyed": sum(1 for u in units if u["destroyed"]),
                    "start": start, "now": now, "lost": start - now if start else 0})
    return out


def suggested_view(state: dict, side) -> dict | None:
    """The army the bridge suggested for the side from a battle of the war (`Table.setup`'s units), while the side
    has built none of its own: its units as the builder shows them (no points: it is not bought from a list), its
    generals, and the units that do not fit their bases, for the moderator's approval and the printed roster."""
    units = sit.suggested(state, side.key)
    if not units:
        return None
    bad = set(sit.misfits(state, side.key))
    wrong = sit.profile_refusals(state, side.key)     # the same checks of the values as a bought army (T5-T8)
    rows, generals = [], []
    for u in units:
        view = unit_view(state, u)
        p = profile(state, sit.first_profile(u)) or {}
        rows.append({"id": u["id"], "name": view["name"], "entry": p.get("name") or "",
                     "role": name("categories", p.get("category")), "stats": stat_string(p) if p else "",
                     "weapon": weapon(p.get("weapon")), "javelin": bool(p.get("javelin")),
                     "equipment": ", ".join(name("protection", p[k]) for k in ("armour", "shield", "horse_armour")
                                            if p.get(k)),
                     "formation": view["formation"], "formation_id": u["formation"], "count": view["figures"],
                     "bases": u.get("bases", 1), "points": None, "each": None,
                     "ok": u["id"] not in bad and u["id"] not in wrong,
                     "profile": p})
        gen = u.get("general")
        if gen:
            generals.append({"id": gen.get("id"), "name": gen.get("name") or _("general"),
                             "c_in_c": gen.get("_kind") == "commander_in_chief", "mercenary": False,
                             "talents": gen.get("talents") or {}, "initiative": 0, "unit": view["name"]})
    refused = [_("%(unit)s: %(text)s (T8.7)") % {"unit": f"«{r['name']}»", "text": rule_text("T8.7")}
               for r in rows if r["id"] in bad]
    for r in rows:
        for x in wrong.get(r["id"], []):
            refused.append(_("%(unit)s (%(stats)s): %(text)s (%(rule)s); correct its values with a ruling") % {
                "unit": f"«{r['name']}»", "stats": r["stats"], "text": rule_text(x["rule"]), "rule": x["rule"]})
    return {"side": side, "suggested": True, "units": rows, "generals": generals, "valid": not bad and not wrong,
            "refused": refused,
            "status": "approved" if side.key in state["approved"] else "suggested"}


def army_view(table, state: dict, side) -> dict:
    """A side's army in the builder: units with points, generals with talents, refusals in words."""
    from larp.tactical.services import army_of
    doc = army_of(table, state, side.key)
    verdict = state["verdicts"].get(side.key)
    if verdict is None:
        try:
            verdict = sit.check_army(doc)
        except Exception:  # noqa: BLE001 - an empty or incomplete army has no verdict yet
            verdict = {"valid": False, "points": {"total": 0, "limit": doc["points_limit"]}, "units": [],
                       "profiles": {}, "generals": {"list": []}, "refused": []}
    lst = sit.army_list(doc["army_list"]) or {"entries": [], "name_ru": doc["army_list"]}
    entries = {e["id"]: e for e in lst["entries"]}
    points = {u["id"]: u for u in verdict.get("units", [])}
    each = verdict.get("profiles", {})
    units = []
    for u in doc["units"]:
        e = entries.get(u["entry"], {})
        p = {**u, "category": e.get("category", "swordsmen")}
        units.append({"id": u["id"], "name": u["name"], "entry": e.get("ru") or "",
                      "role": _("auxiliary") if e.get("role") == "auxiliary" else _("main"),
                      "stats": stat_string(p), "weapon": weapon(u["weapon"]),
                      "equipment": ", ".join(name("protection", u[k]) for k in ("armour", "shield", "horse_armour")
                                             if u.get(k)), "javelin": u.get("javelin"),
                      "formation": name("formations", u["formation"]), "count": u["count"], "bases": u["bases"],
                      "each": (each.get(u["id"]) or {}).get("each"),
                      "points": (points.get(u["id"]) or {}).get("points"),
                      "ok": (points.get(u["id"]) or {}).get("ok", True) and (each.get(u["id"]) or {}).get("ok", True)})
    talents = {g["id"]: g for g in verdict.get("generals", {}).get("list", [])}
    generals = []
    for g in doc["generals"]:
        t = talents.get(g["id"], {})
        generals.append({"id": g["id"], "name": g["name"], "c_in_c": g["c_in_c"], "mercenary": g["mercenary"],
                         "type": _("regular") if g["type"] == "regular" else _("irregular"),
                         "method": _("rolled") if g["method"] == "roll" else _("bought"),
                         "dice": g.get("dice") or [], "talents": t.get("talents") or g.get("talents") or {},
                         "initiative": t.get("initiative", 0),
                         "unit": next((u["name"] for u in doc["units"] if u["id"] == g.get("unit")), "")})
    status = ("approved" if side.key in state["approved"] else "submitted" if side.key in state["armies"] else "new")
    return {"side": side, "doc": doc, "list_name": lst.get("name_ru") or "", "units": units, "generals": generals,
            "points": verdict.get("points", {}), "valid": verdict.get("valid") and bool(doc["units"]),
            "allowance": {"ordinary": (verdict.get("generals") or {}).get("ordinary") or {},
                          "mercenary": (verdict.get("generals") or {}).get("mercenary") or {}},
            "refused": [army_refusal_text(doc, r) for r in verdict.get("refused", [])], "status": status,
            "entries": [{"id": e["id"], "name": e.get("ru") or e["id"], "category": e["category"],
                         "weapons": e["weapons"], "armour": e["armour"], "shields": e["shields"],
                         "horse_armour": e["horse_armour"], "javelin": e["javelin"]} for e in lst["entries"]]}


def army_status(state: dict, side) -> str:
    if side.key in state["approved"]:
        return _("approved by the moderator")
    if side.key in state["armies"]:
        return _("being built")
    if sit.suggested(state, side.key):
        return _("suggested from the battle of the war, waiting for the moderator")
    return _("not started")


def _dice_line(rolls: list[Roll]) -> str:
    hand = [str(r.value) for r in rolls if r.source == Roll.HAND]
    server = [f"{r.value} (№{r.counter + 1})" for r in rolls if r.source == Roll.SERVER]
    parts = []
    if hand:
        parts.append(_("by hand: %(dice)s") % {"dice": " ".join(hand)})
    if server:
        parts.append(_("by the server: %(dice)s") % {"dice": ", ".join(server)})
    return "; ".join(parts)


def log(seat: Seat, state: dict) -> list[dict]:
    """The table's steps, newest first, with their itemised numbers and dice; a player sees no other side's roster."""
    steps = list(seat.table.steps.select_related("user").order_by("-seq"))
    rolls: dict[str, list[Roll]] = {}
    for r in Roll.objects.filter(stream=seat.table.dice).order_by("pk"):
        rolls.setdefault(r.ref, []).append(r)
    names = {side.key: side.name for side in seat.table.sides.all()}
    out = []
    for s in steps:
        if not seat.moderator and s.kind in SETUP_KINDS and s.side and s.side != seat.side_key:
            continue
        if not seat.moderator and s.kind == "roster" and s.side != seat.side_key:
            continue
        if not seat.moderator and s.kind in HIDDEN_KINDS and s.side and s.side != seat.side_key:
            continue
        out.append({"seq": s.seq, "kind": s.kind, "at": s.at, "user": s.user, "undone": s.undone,
                    "undone_reason": s.undone_reason, "reason": s.reason,
                    "summary": step_summary(seat, s),
                    # the deal's shuffle dice would tell the other side's hand: the moderator's only
                    "dice": "" if s.kind == "deal" and not seat.moderator else _dice_line(rolls.get(s.ref, [])),
                    "lines": itemise(state, s.kind, s.payload, s.outcome, names) if s.kind in sit.ACTIONS else []})
    return out


def step_summary(seat: Seat, step) -> str:
    from larp.campaign.models import AuditEntry
    entry = (AuditEntry.objects.filter(game=seat.table.game, action__in=["table_step", "table_override"],
                                       detail__table=seat.table.pk, detail__seq=step.seq).order_by("-pk").first())
    return (entry.detail.get("summary") if entry else "") or str(ACTIONS.get(step.kind, step.kind))


def itemise(state: dict, kind: str, payload: dict, outcome: dict, names: dict | None = None) -> list[str]:
    """The engine's numbers in words, one line per group of strikers, per unit's losses and test."""
    lines: list[str] = []
    names = names or {}
    if kind == "test":
        t = payload.get("test", {})
        label = str(TEST_KINDS.get(t.get("kind"), ""))
        if t.get("kind") == "initiative":
            for r in outcome.get("rolls", []):
                lines.append(_("Initiative roll: %(rolls)s") % {"rolls": ", ".join(
                    f"{names.get(k, k)}: {v}" for k, v in r.get("totals", {}).items())})
            return lines
        if t.get("kind") in ("disorder", "recover"):
            dice = " ".join(map(str, outcome.get("dice") or [])) or _("none: the outcome is certain")
            if t["kind"] == "disorder":
                lines.append(_("%(test)s (%(cause)s): value %(value)s, dice %(dice)s — %(n)s newly disordered, "
                               "%(left)s still in ranks") % {
                    "test": label, "cause": DISORDER_CAUSES.get(t.get("cause"), t.get("cause")),
                    "value": outcome.get("value"), "dice": dice, "n": outcome.get("newly_disordered"),
                    "left": outcome.get("in_ranks")})
                if outcome.get("flees"):
                    lines.append(_("every warrior is disordered: the skirmishers flee"))
            else:
                lines.append(_("%(test)s: value %(value)s, dice %(dice)s — %(n)s back in ranks, %(left)s still "
                               "disordered") % {"test": label, "value": outcome.get("value"), "dice": dice,
                                                "n": outcome.get("recovered"), "left": outcome.get("disordered")})
            return lines
        if t.get("kind") == "loyalty":
            lines.append(_("%(test)s: units lost %(own)s against the enemy's %(enemy)s, %(die)s — %(result)s; the "
                           "general is %(status)s") % {
                "test": label, "own": t.get("own_lost"), "enemy": t.get("enemy_lost"),
                "die": _die(outcome.get("die")) if outcome.get("die") is not None else _("no die"),
                "result": RESULTS.get(outcome.get("result"), ""), "status": LOYALTY.get(outcome.get("status"), "")})
            return lines
        if t.get("kind") == "disorderly":
            lines.append(_("%(test)s: steadiness %(s)s minus %(lost)s units lost = %(value)s, %(die)s — %(result)s")
                         % {"test": label, "s": t.get("steadiness"), "lost": t.get("own_lost"),
                            "value": outcome.get("value"),
                            "die": _die(outcome.get("die")) if outcome.get("die") is not None else _("no die"),
                            "result": RESULTS.get(outcome.get("result"), "")})
            if outcome.get("target"):
                lines.append(_("its target: %(unit)s (dice %(dice)s)") % {
                    "unit": unit_label(state, outcome["target"]),
                    "dice": " ".join(map(str, outcome.get("target_dice") or [])) or "—"})
            return lines
        result = RESULTS.get(outcome.get("result"), outcome.get("result") or (
            _("killed") if outcome.get("killed") else _("survives")))
        if "value" in outcome:
            lines.append(_("%(test)s: value %(value)s (%(items)s), %(die)s — %(result)s") % {
                "test": label, "value": outcome.get("value"), "items": _items(outcome.get("items", [])) or "—",
                "die": _die(outcome.get("die")), "result": result})
        else:
            lines.append(_("%(test)s: %(die)s — %(result)s") % {"test": label, "die": _die(outcome.get("die")),
                                                                 "result": result})
        return lines
    for v in outcome.get("volleys", []):
        if v.get("wet"):
            lines.append(_("%(unit)s: the rain wet the strings (die %(die)s), no volley") % {
                "unit": unit_label(state, v["shooter"]), "die": v.get("rain_die")})
            continue
        if v.get("rain_die") is not None:
            lines.append(_("%(unit)s: the rain die %(die)s — the strings stayed dry") % {
                "unit": unit_label(state, v["shooter"]), "die": v["rain_die"]})
        lines.append(ru.say(_("%(unit)s shoots at %(target)s: %(strikers)s shooters, %(hits)s hits, range %(range)s cm") % {
            "unit": unit_label(state, v["shooter"]), "target": unit_label(state, v["target"]),
            "strikers": v.get("strikers"), "hits": v.get("hits"), "range": v.get("range_cm")}))
        for g in v.get("groups", []):
            lines.append("  " + _group_line(state, g))
    for uid, r in (outcome.get("units") or {}).items():
        label = unit_label(state, uid)
        if r.get("strikers") is not None and "groups" in r:
            lines.append(_("%(unit)s: %(strikers)s strikers, %(hits)s hits") % {
                "unit": label, "strikers": r.get("strikers"), "hits": r.get("hits")})
            for g in r.get("groups", []):
                lines.append("  " + _group_line(state, g))
            for rider in r.get("riders", []) or []:
                if rider.get("dice"):
                    lines.append("  " + _("rider: dice %(dice)s, %(hits)s hits%(through)s") % {
                        "dice": " ".join(map(str, rider["dice"])), "hits": rider.get("hits"),
                        "through": _(", rides through") if rider.get("through") else ""})
                else:               # a value of 6 or more: every rank is hit without a die
                    lines.append("  " + _("rider: hits without a die (his value is 6 or more), %(hits)s hits"
                                          "%(through)s") % {"hits": rider.get("hits"),
                                                            "through": _(", rides through") if rider.get("through")
                                                            else ""})
        lines.append(_("%(unit)s: %(taken)s hits taken, %(saved)s saved, %(killed)s killed, %(dis)s newly "
                       "disordered") % {"unit": label, "taken": r.get("hits_taken", 0), "saved": r.get("saved", 0),
                                        "killed": r.get("killed", 0),
                                        "dis": r.get("newly_disordered", (r.get("disorder") or {}).get(
                                            "newly_disordered", 0))})
        test = r.get("test")
        if test:
            lines.append("  " + _("steadiness test: value %(value)s (%(items)s), %(die)s — %(result)s") % {
                "value": test.get("value"), "items": _items(test.get("items", [])),
                "result": RESULTS.get(test.get("result"), ""), "die": _die(test.get("die"))})
        gen = r.get("general")
        if gen:
            lines.append("  " + (_("the general is killed (die %(die)s)") if gen.get("killed") else
                                 _("the general survives (die %(die)s)")) % {"die": gen.get("die")})
    if kind in ("clash", "melee") or outcome.get("loser") is not None:
        loser = outcome.get("loser")
        lines.append(_("Loser: %(side)s") % {"side": names.get(loser, loser)} if loser else _("No loser"))
    return lines


def _items(items: list) -> str:
    """A test's items (T24.2): the base value plain, the rest signed."""
    out = []
    for i in items:
        value = i["value"] if i["source"] in ("steadiness", "circle") else f"{i['value']:+d}"
        out.append(f"{ITEMS.get(i['source'], i['source'])} {value}")
    return ", ".join(out)


def _die(die) -> str:
    return _("die %(n)s") % {"n": die} if die is not None else _("no die: the outcome is certain")


def _group_line(state: dict, g: dict) -> str:
    p = profile(state, g.get("profile")) or {}
    rank = _("general") if g.get("rank") == 0 else _("rank %(n)s") % {"n": g.get("rank")}
    return _("%(rank)s, %(who)s: %(n)s × value %(value)s, dice %(dice)s → %(hits)s hits") % {
        "rank": rank, "who": p.get("name") or "", "n": g.get("strikers"), "value": g.get("value"),
        "dice": " ".join(map(str, g.get("dice", []))) or _("none: the outcome is certain"), "hits": g.get("hits")}


def odds_view(state: dict, odds: dict | None, sides: dict) -> dict | None:
    """The engine's exact odds in words: who loses, each unit's chance to flee or be destroyed, expected killed."""
    if not odds or odds.get("refused"):
        return None
    loser = []
    for key, v in (odds.get("loser") or {}).items():
        who = _("nobody") if key == "none" else sides.get(key, key)
        loser.append({"who": who, "fraction": v["fraction"], "percent": round(v["value"] * 100, 1)})
    units = []
    for uid, v in (odds.get("units") or {}).items():
        units.append({"name": unit_label(state, uid),
                      "flees": round(v.get("flees", {}).get("value", 0) * 100, 1),
                      "destroyed": round(v.get("destroyed", {}).get("value", 0) * 100, 1),
                      "killed": v.get("killed", {}).get("expected")})
    return {"loser": loser, "units": units}


def end_label(ended_by: str) -> str:
    return str(END_REASONS.get(ended_by, ended_by))


def direction_label(d: str) -> str:
    return str(DIRECTIONS.get(d, d))


def fingerprint(table) -> str:
    return table.dice.fingerprint


__all__ = ["board", "army_view", "log", "itemise", "odds_view", "state_of", "sides_for", "tables"]


def strategic_view(seat: Seat, state: dict) -> dict:
    """The 5x5 map as this seat may see it (the fog, on the server).

    The moderator sees everything. Before the battle a player sees their own corps, and of the other side only
    the corps in contact with one of theirs (T32.1 ruling: on the same or an adjacent card — where battle can be
    offered), never its fatigue, its hand, its targets or its marches; once the battle starts, every corps.
    """
    m = sit.strategic(state)
    names = {s.key: s.name for s in seat.table.sides.all()}
    mine = seat.side_key
    if seat.moderator or state["phase"] != "setup":
        shown = list(m["corps"])
        met = set()
    else:
        met = {c["id"] for c in sit.contacts(m, mine)}
        shown = [c for c in m["corps"] if c["side"] == mine or c["id"] in met]
    offer = m.get("offer")
    agreed = bool(offer and offer.get("answer") == "accepted")
    blocks = (offer or {}).get("battlefields", []) if (seat.moderator or agreed) else []
    offered = set()
    for b in blocks:
        offered |= {(r, c) for r in range(b["rows"][0], b["rows"][1] + 1) for c in range(b["cols"][0], b["cols"][1] + 1)}
    field = m.get("field")

    def token(x: dict) -> dict:
        own = seat.moderator or x["side"] == mine or state["phase"] != "setup"
        return {"name": x["name"], "side": names.get(x["side"], ""), "tired": x["tired"] if own else False,
                "mine": x["side"] == mine, "contact": x["id"] in met}
    rows = []
    for r, row in enumerate(m["grid"]):
        cells = []
        for c, card in enumerate(row):
            cells.append({"name": cell_name([r, c]), "card": "" if card == "clear" else card_name(card),
                          "path": [r, c] in m["paths"], "corps": [token(x) for x in shown if x.get("cell") == [r, c]],
                          "offered": (r, c) in offered,
                          "field": bool(field and field["rows"][0] <= r <= field["rows"][1]
                                        and field["cols"][0] <= c <= field["cols"][1])})
        rows.append(cells)
    off_map = [token(x) for x in shown if x.get("cell") is None]
    last = m.get("last") or {}
    own_ids = {c["id"] for c in m["corps"] if seat.moderator or c["side"] == mine}
    return {"rows": rows, "columns": COLUMNS, "off_map": off_map,
            "weather": [card_name(w) for w in m["weather"]], "flood": m["flood"],
            "corps": [{"id": x["id"], "name": x["name"]} for x in m["corps"] if x["id"] in own_ids],
            "offer": _offer_view(seat, state, m, names, met),
            "field": field and {"cards": f"{cell_name([field['rows'][0], field['cols'][0]])}–"
                                         f"{cell_name([field['rows'][1], field['cols'][1]])}",
                                "terrain": [terrain_label(t, names) for t in state.get("terrain") or []]},
            "last": [{"corps": unit_label(state, x["corps"]), "cost": x["cost"], "roll": x["roll"],
                      "dice": x["dice"], "arrived": x["arrived"], "position": cell_name(x["position"])}
                     for x in last.get("marches", []) if x["corps"] in own_ids],
            "hands": _hands_view(seat, m, names), "move": _move_view(seat, m, names),
            "targets": [{"corps": unit_label(state, t["corps"]), "corps_id": t["corps"], "side": names.get(t["side"], ""),
                         "side_key": t["side"], "path": path_words(t["steps"]), "cost": t["cost"],
                         "cards": [card_name(card) for flag, card in sit.MARCH_CARDS.items() if t.get(flag)]}
                        for t in m["targets"] if seat.moderator or t["side"] == mine],
            "agreed": sit.battle_agreed(m), "offer_open": sit.offer_open(m),
            "lay_next": names.get(sit.next_layer(m), "") if m["hands"] else "",
            "lay_mine": bool(m["hands"]) and not seat.moderator and sit.next_layer(m) == mine}


def _hands_view(seat: Seat, m: dict, names: dict) -> list[dict]:
    """Each side's hand (T30.2): the cards of one's own (the moderator: every side's), of the other only how many."""
    out = []
    for key, hand in m["hands"].items():
        visible = seat.moderator or key == seat.side_key
        out.append({"side": names.get(key, ""), "key": key, "mine": key == seat.side_key, "count": len(hand),
                    "cards": [{"id": c, "name": card_name(c), "kind": str(CARD_KINDS.get(sit.CARD_KIND[c], "")),
                               "effect": str(CARD_EFFECTS.get(c, ""))} for c in hand] if visible else []})
    return out


def _move_view(seat: Seat, m: dict, names: dict) -> dict | None:
    """The move tracker (T31.1-T31.5): the day, whose move or the night, and what this seat may do now."""
    mv = m["move"]
    if mv is None:
        return None
    mine = seat.side_key
    agreed, open_offer = sit.battle_agreed(m), sit.offer_open(m)
    free = not agreed and not open_offer
    my_turn = bool(mine) and not mv["night"] and mv["side"] == mine
    may_march = free and bool(mine) and mine not in mv["rolled"] and (
        my_turn or (mv["night"] and mine not in mv["halted"]))
    return {"day": mv["day"], "night": mv["night"], "side": names.get(mv["side"], ""), "side_key": mv["side"],
            "mine": my_turn, "halted": [names.get(k, "") for k in mv["halted"]],
            "i_halted": bool(mine) and mine in mv["halted"],
            "may_march": may_march, "may_pass": free and my_turn, "may_offer": free and my_turn,
            "may_halt": free and mv["night"] and bool(mine) and mine not in mv["halted"],
            "marched": [c["name"] for c in m["corps"] if c["id"] in mv["marched"] and (seat.moderator
                                                                                      or c["side"] == mine)]}


def _offer_view(seat: Seat, state: dict, m: dict, names: dict, met: set) -> dict | None:
    """The last offer of battle (T32): who offered, the answer; the answering side sees whether it may refuse and
    which of its tired corps forbid it (T32.1); the fields once accepted (the enemy's corps in them only counted)."""
    offer = m.get("offer")
    if not offer:
        return None
    mine = seat.side_key
    answering = seat.moderator or (mine is not None and mine != offer["by"])
    own = {c["id"] for c in m["corps"] if seat.moderator or c["side"] == mine}

    def block_corps(b: dict) -> str:
        seen = [unit_label(state, x) for x in b["corps"] if x in own or x in met]
        hidden = len(b["corps"]) - len(seen)
        return ", ".join(seen) + ((" " + _("and %(n)s corps of the enemy") % {"n": hidden}) if hidden else "")
    show_blocks = seat.moderator or offer.get("answer") == "accepted"
    other = next((k for k in names if k != offer["by"]), "")
    return {"by": names.get(offer["by"], ""), "by_key": offer["by"], "answer_key": other, "mine": offer["by"] == mine,
            "answer": offer.get("answer"), "open": offer.get("answer") is None,
            "may_refuse": offer.get("may_refuse") if answering else None,
            "tired": [unit_label(state, i) for i in offer.get("tired_in_contact", [])] if answering else [],
            "answering": answering and offer.get("answer") is None,
            "chooser": seat.moderator or (offer["by"] == mine and offer.get("answer") == "accepted"),
            "blocks": [{"index": i, "cards": f"{cell_name([b['rows'][0], b['cols'][0]])}–"
                                              f"{cell_name([b['rows'][1], b['cols'][1]])}",
                        "corps": block_corps(b)} for i, b in enumerate(offer.get("battlefields", []))]
            if show_blocks else []}


def frame_head(table, state: dict, sides: list, open_acts: set) -> dict:
    """The moderator's table frame (templates/tables/partials/frame.html): the turn and step, whose move, the
    winner at the end and the next act's form on the page."""
    from larp.tactical.labels import TURN_STEPS
    names = {x.key: x.name for x in sides}
    turn, phase = state.get("turn"), state["phase"]
    head = {"title": table.title, "system": _("Tactical rules"), "live_id": "tr-frame", "over": phase == "ended",
            "next": None, "whose": "", "round": ""}
    if phase == "setup":
        head["round"] = _("The armies are being built")
        waiting = [x for x in sides if x.key not in state["approved"]]
        head["whose"] = (_("Waiting for the approval of: %(sides)s") % {"sides": ", ".join(x.name for x in waiting)}
                         if waiting else _("Both armies approved"))
        if waiting and "approve" in open_acts:
            head["next"] = {"label": _("Approve the army of %(s)s") % {"s": waiting[0].name},
                            "anchor": f"tr-army-{waiting[0].key}"}
        elif "start" in open_acts:
            head["next"] = {"label": _("Start the battle"), "anchor": "tr-start"}
    elif phase == "battle":
        if not turn:
            head.update(round=_("Before the first turn"), whose=_("Roll the Initiative"),
                        next={"label": _("Begin the first turn"), "anchor": "tr-turn"})
        if sit.routed(state) and "end" in open_acts:
            # T29: one side has no unit left standing: the next act is the end, as the battle page offers it
            head["next"] = {"label": _("End the battle"), "anchor": "tr-end-box"}
        if turn:
            head["round"] = _("Turn %(n)s · %(step)s") % {"n": turn["number"], "step": TURN_STEPS[turn["step"]]}
            head["whose"] = _("%(side)s moves") % {"side": names.get(turn["side"], "")}
            if head["next"]:
                pass
            elif turn["step"] == 3 and sit.owing_t16(state):
                head["next"] = {"label": _("Disorderly movement tests"), "anchor": "tr-due-t16"}
            elif turn["step"] == 0 and sit.mercenaries_due(state):
                head["next"] = {"label": _("Loyalty tests"), "anchor": "tr-due-loyalty"}
            else:
                head["next"] = {"label": _("Action"), "anchor": "tr-action"}
    else:
        result = state.get("result") or {}
        head["round"] = _("The battle is over")
        winner = names.get(result.get("winner"))
        head["whose"] = _("%(w)s won") % {"w": winner} if winner else _("A draw")
    return head
