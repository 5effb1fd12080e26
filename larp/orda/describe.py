"""Sentences in the user's language for what happened at an «Орда» table (log, audit, protocol).

"Атака 3 + кубик 4 = 7 против защиты 2 − 2 (Топор) + кубик 2 = 2: попадание, −1 здоровье" (O25).
No engine id ever reaches the text: units are named by their token's name and number.
"""
from __future__ import annotations

from django.utils.translation import gettext as _, pgettext

from larp import ru
from larp.orda import labels
from larp.orda.engine.data import load


def unit_name(case: dict, uid: str | None) -> str:
    """«Дружинник с топором 2» — the token's printed name, numbered (in the case's order) when the table has more
    than one token of its kind: a faction's two in a new game, or as many as a battle of the war converted."""
    if not uid:
        return ""
    u = next((x for x in case.get("units", []) if x["id"] == uid), None)
    if u is None:
        return pgettext("orda", "a unit")
    name = labels.kind_name(u["faction"], u["token"])
    same = [x["id"] for x in case["units"] if x["faction"] == u["faction"] and x["token"] == u["token"]]
    if len(same) > 1:
        name = f"{name} {same.index(uid) + 1}"
    return name


def hex_text(h) -> str:
    """A hex as the board prints it on its cell («0,2»), so the log and the board name it alike."""
    return f"{h[0]},{h[1]}" if h else "—"


def _items(side: dict) -> str:
    parts = []
    for i, item in enumerate(side.get("items", [])):
        v = item["value"]
        if i == 0 and item["source"] == "printed":
            parts.append(str(v))
            continue
        sign = "+" if v >= 0 else "−"
        text = f"{sign} {abs(v)} ({labels.source(item['source'])})"
        parts.append(text if parts else (str(v) + f" ({labels.source(item['source'])})"))
    return " ".join(parts) if parts else str(side.get("param", 0))


@ru.agreeing
def attack_sentence(case: dict, r: dict) -> str:
    """The itemised sums and the result of one attack."""
    a, d = r["attacker"], r["defender"]
    head = _("%(attacker)s attacks %(target)s") % {"attacker": unit_name(case, r["attack"]["attacker"]),
                                                   "target": unit_name(case, r["attack"]["target"])}
    if r["attack"].get("provoked"):
        head += " " + _("(zone of control)")
    if d.get("total") is None:
        body = _("retreat without a roll")
    elif r["attack"]["counter"] == "defence":
        body = _("Attack %(a)s + die %(ad)s = %(at)s against defence %(d)s + die %(dd)s = %(dt)s") % {
            "a": _items(a), "ad": a["die"], "at": a["total"], "d": _items(d), "dd": d["die"], "dt": d["total"]}
    else:
        body = _("Pursuit: speed %(a)s + die %(ad)s = %(at)s against retreat: speed %(d)s + die %(dd)s = %(dt)s") % {
            "a": _items(a), "ad": a["die"], "at": a["total"], "d": _items(d), "dd": d["die"], "dt": d["total"]}
    if r["hit"]:
        res = _("hit, −%(n)s health") % {"n": r["damage"]}
    elif r.get("retreated"):
        res = _("the unit retreats to %(hex)s") % {"hex": hex_text(r["target"]["hex"])}
    else:
        res = _("no damage")
    if r["target"].get("killed"):
        res += "; " + _("%(unit)s dies") % {"unit": unit_name(case, r["target"]["id"])}
    if r.get("trap"):
        res += "; " + _("a trap takes %(n)s") % {"n": r["trap"]["damage"]}
    if r.get("pushed_to"):
        res += "; " + _("pushed to %(hex)s") % {"hex": hex_text(r["pushed_to"])}
    return f"{head}: {body}: {res}."


def odds_text(o: dict | None) -> str:
    """The exact odds of one counter-measure (orda.odds): damage and death, as fractions and per cent."""
    if not o:
        return ""
    hit = o.get("hit") or {"fraction": "0", "value": 0.0}
    return _("damage %(df)s (%(d)s %%), death %(kf)s (%(k)s %%)") % {
        "df": hit["fraction"], "d": round(hit["value"] * 100), "kf": o["kill"]["fraction"],
        "k": round(o["kill"]["value"] * 100)}


def order_text(order: list[str]) -> str:
    return ", ".join(labels.faction(f) for f in order)


def rolloff_sentence(payload: dict, outcome: dict) -> str:
    """«Жеребьёвка, бросок 1: Русь 4, Китай 4 — ничья, перебрасывают …» (O10), with how the dice were rolled."""
    dice = ", ".join(f"{labels.faction(f)} {d}" for f, d in outcome.get("rolled") or [])
    head = _("Roll-off for the first turn, round %(n)s: %(dice)s") % {"n": outcome.get("round", 1), "dice": dice}
    if outcome.get("first"):
        tail = _("%(faction)s moves first; the order of turns: %(order)s.") % {
            "faction": labels.faction(outcome["first"]), "order": order_text(outcome.get("order") or [])}
    else:
        tail = _("a tie for the best: %(list)s roll again.") % {"list": order_text(outcome.get("tied") or [])}
    how = _("hand dice") if payload.get("hand") else _("server dice")
    return f"{head} — {tail} ({how})"


@ru.agreeing
def step_summary(case_before: dict, case_after: dict, kind: str, payload: dict, outcome: dict) -> str:
    """One short sentence for the log and the game's audit."""
    name = lambda uid: unit_name(case_before, uid)  # noqa: E731
    if kind == "setup":
        return _("The event deck is shuffled by the server's dice.")
    if kind == "values":
        return _("Printed values taken from the data set «%(title)s»: %(units)s tokens, %(cities)s cities.") % {
            "title": payload.get("title", ""), "units": len(payload.get("units") or {}),
            "cities": len(payload.get("cities") or {})}
    if kind == "rolloff":
        return rolloff_sentence(payload, outcome)
    if kind == "override_first":
        return _("Moderator: %(faction)s moves first; the order of turns: %(order)s.") % {
            "faction": labels.faction(payload["first"]), "order": order_text(outcome.get("order") or [])}
    if kind == "deploy":
        if payload.get("hex"):
            return _("Setup: %(unit)s is placed on %(hex)s.") % {"unit": name(payload["unit"]),
                                                                  "hex": hex_text(payload["hex"])}
        return _("Setup: %(unit)s goes to the reserve.") % {"unit": name(payload["unit"])}
    if kind == "turn_start":
        text = _("Start of the turn: %(faction)s, tour %(tour)s.") % {
            "faction": labels.faction(outcome.get("faction", "")), "tour": outcome.get("tour")}
        if payload.get("skipped"):
            text = _("%(faction)s has no token left: its turn of tour %(tour)s is played for it.") % {
                "faction": labels.faction(outcome.get("faction", "")), "tour": outcome.get("tour")}
        if outcome.get("reshuffled"):
            text += " " + _("The event deck ran out and is reshuffled by the server's dice.")
        if outcome.get("event_drawn"):
            text += " " + _("Event card drawn.")
        if outcome.get("summoned"):
            text += " " + _("%(unit)s is summoned to %(hex)s.") % {"unit": name(outcome["summoned"]["unit"]),
                                                                  "hex": hex_text(outcome["summoned"]["hex"])}
        if outcome.get("placed"):
            text += " " + _("%(unit)s goes on cell %(cell)s of the summon indicator.") % {
                "unit": name(outcome["placed"]["unit"]), "cell": outcome["placed"]["cell"]}
        return text
    if kind == "turn_end":
        text = _("Results of the turn: %(faction)s.") % {"faction": labels.faction(outcome.get("faction", ""))}
        for s in outcome.get("siege") or []:
            city = next((c for c in case_after["cities"] if c["id"] == s["city"]), None)
            text += " " + _("Siege: −%(n)s durability.") % {"n": s["damage"]}
            if s.get("destroyed") and city:
                text += " " + (_("The capital is destroyed.") if city["kind"] == "capital" else _("The city is destroyed."))
        if outcome.get("winner"):
            text += " " + _("Victory: %(side)s — %(reason)s.") % {"side": labels.side(outcome["winner"]),
                                                                 "reason": labels.reason(outcome.get("reason"))}
        return text
    if kind == "move":
        text = _("%(unit)s moves to %(hex)s.") % {"unit": name(payload["unit"]), "hex": hex_text(payload["path"][-1])}
        for p in outcome.get("provoked") or []:
            if p.get("result"):
                text += " " + attack_sentence(case_before, p["result"])
        return text
    if kind == "declare":
        text = _("%(attacker)s declares an attack on %(target)s.") % {"attacker": name(payload["attacker"]),
                                                                      "target": name(payload["target"])}
        if outcome.get("second"):
            text += " " + _("Second target, attacked next: %(unit)s.") % {"unit": name(outcome["second"])}
        if outcome.get("push_to"):
            text += " " + (_("On a hit it is pushed to %(hex)s, as the shooter chose.") if payload.get("push_to")
                           else _("On a hit it is pushed to %(hex)s, the rules' default.")) % {
                "hex": hex_text(outcome["push_to"])}
        return text
    if kind == "counter":
        if payload["counter"] == "retreat":
            return _("Counter-measure: retreat to %(hex)s.") % {"hex": hex_text(payload.get("retreat_to"))}
        return _("Counter-measure: defence.")
    if kind == "attack":
        how = _("hand dice") if payload.get("hand") else _("server dice")
        text = f"{attack_sentence(case_before, outcome)} ({how})"
        second = outcome.get("second")
        if second and second["declared"]:
            text += " " + _("The second attack follows: on %(unit)s.") % {"unit": name(second["target"])}
        elif second:
            text += " " + _("The second attack, on %(unit)s, does not take place: %(why)s") % {
                "unit": name(second["target"]), "why": labels.refusal(second["code"])}
        return text
    if kind == "ability":
        text = _("%(unit)s uses «%(trait)s».") % {"unit": name(payload["unit"]), "trait": labels.trait_name(payload["trait"])}
        if outcome.get("healed"):
            text += " " + _("%(unit)s is healed.") % {"unit": name(outcome["healed"]["unit"])}
        return text
    if kind == "override_unit":
        return _("Moderator: %(unit)s now has %(n)s damage.") % {"unit": name(payload["unit"]), "n": payload["damage"]}
    if kind == "override_modifier":
        return _("Moderator: %(unit)s, %(param)s %(value)+d.") % {"unit": name(payload["unit"]),
                                                                 "param": labels.param(payload["param"]),
                                                                 "value": payload["value"]}
    if kind == "override_unmodify":
        m = outcome.get("removed") or {}
        return _("Moderator removes the modifier: %(unit)s, %(param)s %(value)+d.") % {
            "unit": name(m.get("unit")), "param": labels.param(m.get("param", "")), "value": m.get("value", 0)}
    if kind == "override_end":
        return _("Moderator ends the battle: %(side)s wins.") % {"side": labels.side(payload["winner"])}
    return kind
