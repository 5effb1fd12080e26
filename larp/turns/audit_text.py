"""The audit log as sentences a moderator reads: names instead of ids, the phase by its name, no raw data.

`sentence(entry, names)` takes the display names of the game (provinces, factions, units, orders) so this
module reads nothing itself; the time is shown by the template in the game's local time.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from larp.campaign import labels
from larp.turns.models import AuditEntry, Phase

PHASES = dict(Phase.KINDS)


def _phase(code) -> str:
    return str(PHASES.get(code, code or "—"))


def _list(items) -> str:
    return ", ".join(str(i) for i in items) if items else "—"


def _dice(values) -> str:
    return "+".join(str(v) for v in values or [])


def _minutes(seconds) -> str:
    seconds = max(0, int(round(seconds or 0)))
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


# Sentences that name their turn themselves; every other act is prefixed with «Turn N:» when it knows it.
NAME_THEIR_TURN = {"phase_started", "phase_closed", "phase_skipped", "movement_applied", "news", "regroup_applied"}
# Sentences that begin with a proper name keep their capital letter after the prefix.
BEGIN_WITH_A_NAME = {"storms_limited", "retreat_chosen", "province_transferred", "army_raised", "purchase",
                     "orders_ready", "orders_not_ready"}


def sentence(entry: AuditEntry, names: dict) -> str:
    """The entry as one sentence, naming the turn it happened in (when the entry knows it)."""
    text = _sentence(entry, names)
    turn = (entry.detail or {}).get("turn")
    if not turn or entry.action in NAME_THEIR_TURN:
        return text
    if entry.action not in BEGIN_WITH_A_NAME:
        text = text[:1].lower() + text[1:]
    return _("Turn %(turn)s: %(text)s") % {"turn": turn, "text": text}


def _sentence(entry: AuditEntry, names: dict) -> str:
    d = entry.detail or {}
    province = names.get("provinces", {})
    faction = names.get("factions", {})
    unit = names.get("units", {})

    def p(code):
        return province.get(code, code) if code else _("neutral")

    def f(code):
        return faction.get(code, code) if code else _("neutral")

    def u(code):
        return unit.get(code, code)

    a = entry.action
    if a == "draw":
        how = _("by hand") if d.get("manual") else _("by lot")
        return _("Draw made (%(how)s): %(order)s.") % {"how": how, "order": _list(f(c) for c in d.get("draw", []))}
    if a == "game_started":
        return _("The game started.")
    if a == "phase_started":
        return _("Turn %(turn)s: phase «%(phase)s» started.") % {"turn": d.get("turn"), "phase": _phase(d.get("phase"))}
    if a == "phase_closed":
        how = {"deadline": _("at the deadline"), "request": _("at the deadline"),
               "moderator": _("by a moderator"),
               "ready": _("because every faction was ready")}.get(d.get("how"), "")
        text = _("Turn %(turn)s: phase «%(phase)s» closed %(how)s.") % {
            "turn": d.get("turn"), "phase": _phase(d.get("phase")), "how": how}
        if d.get("implicit_holds"):
            text += " " + _("Units without an order hold: %(n)s.") % {"n": d["implicit_holds"]}
        return text
    if a == "phase_skipped":
        return _("Turn %(turn)s: phase «%(phase)s» skipped with its work unfinished: %(lost)s") % {
            "turn": d.get("turn"), "phase": _phase(d.get("phase")), "lost": " ".join(d.get("lost", []))}
    if a == "paused":
        return _("Phase «%(phase)s» paused with %(left)s left.") % {
            "phase": _phase(d.get("phase")), "left": _minutes(d.get("remaining"))}
    if a == "resumed":
        return _("Phase «%(phase)s» resumed with %(left)s left.") % {
            "phase": _phase(d.get("phase")), "left": _minutes(d.get("remaining"))}
    if a == "extended":
        return _("Phase «%(phase)s» extended by %(minutes)s min.") % {
            "phase": _phase(d.get("phase")), "minutes": f"{d.get('minutes', 0):g}"}
    if a == "orders_ready":
        return _("%(faction)s: orders ready.") % {"faction": f(d.get("faction"))}
    if a == "orders_not_ready":
        return _("%(faction)s: orders not ready after all.") % {"faction": f(d.get("faction"))}
    if a == "close_when_ready":
        if d.get("on"):
            return _("Strategy now closes as soon as every faction is ready.")
        return _("Strategy no longer closes early: it runs to its deadline.")
    if a == "shortened":
        if d.get("to_now"):
            return _("Phase «%(phase)s» shortened to now (by %(minutes)s min.).") % {
                "phase": _phase(d.get("phase")), "minutes": f"{d.get('taken_minutes', 0):g}"}
        return _("Phase «%(phase)s» shortened by %(minutes)s min.") % {
            "phase": _phase(d.get("phase")), "minutes": f"{d.get('minutes', 0):g}"}
    if a == "movement_applied":
        return _("Turn %(turn)s: movement applied; battles to fight: %(n)s.") % {
            "turn": d.get("turn"), "n": d.get("battles", 0)}
    if a == "dice_rolled":
        text = _("Battle %(n)s: the server rolled %(a)s for the attacker and %(d)s for the defender.") % {
            "n": d.get("battle"), "a": _dice(d.get("attacker")), "d": _dice(d.get("defender"))}
        if d.get("counters"):
            text += " " + _("Dice %(first)s–%(last)s of the turn on the dice record.") % {
                "first": d["counters"][0] + 1, "last": d["counters"][-1] + 1}  # numbered from 1 for people
        if d.get("replaces"):
            text += " " + _("Rolled again: dice %(first)s–%(last)s are discarded.") % {
                "first": d["replaces"][0] + 1, "last": d["replaces"][-1] + 1}
        return text
    if a == "battle_confirmed":
        dice = d.get("dice", {})
        outcome = labels.decision(d)
        totals = d.get("totals") or ["?", "?"]
        source = _("server dice") if dice.get("source") == "server" else _("dice by hand")
        return _("Battle %(n)s at %(province)s confirmed (%(source)s %(a)s : %(d)s, totals %(ta)s : %(td)s): "
                 "%(outcome)s.") % {"n": d.get("battle"), "province": p(d.get("province")), "source": source,
                                    "a": _dice(dice.get("attacker")), "d": _dice(dice.get("defender")),
                                    "ta": totals[0], "td": totals[1], "outcome": outcome}
    if a == "battle_undone":
        if d.get("province"):
            return _("Battle %(n)s at %(province)s undone.") % {"n": d.get("battle"), "province": p(d["province"])}
        return _("Battle %(n)s undone.") % {"n": d.get("battle")}
    if a == "modifier_added":
        side = _("attacker") if d.get("side") == "attacker" else _("defender")
        return _("Battle %(n)s: modifier %(value)+d for the %(side)s.") % {
            "n": d.get("battle"), "value": int(d.get("value") or 0), "side": side}
    if a == "modifier_removed":
        side = _("attacker") if d.get("side") == "attacker" else _("defender")
        return _("Battle %(n)s: modifier %(value)+d for the %(side)s taken back («%(was)s»).") % {
            "n": d.get("battle"), "value": int(d.get("value") or 0), "side": side, "was": d.get("was", "")}
    if a == "greek_fire":
        text = _("Battle %(n)s: Greek fire used.") if d.get("use") else _("Battle %(n)s: Greek fire not used.")
        return text % {"n": d.get("battle")}
    if a == "storms_limited":
        return _("%(province)s: at most %(n)s storms this turn.") % {"province": p(d.get("province")),
                                                                      "n": d.get("storms")}
    if a == "retreat_chosen":
        if d.get("to"):
            return _("%(unit)s retreats to %(province)s.") % {"unit": u(d.get("unit")), "province": p(d.get("to"))}
        return _("%(unit)s retreats where the rules say.") % {"unit": u(d.get("unit"))}
    if a == "news":
        return _("Turn %(turn)s: news of other modules written.") % {"turn": d.get("turn")}
    if a == "regroup_applied":
        return _("Turn %(turn)s: regroup applied; provinces changing hands: %(n)s, retreats: %(r)s.") % {
            "turn": d.get("turn"), "n": len(d.get("recoloured", [])), "r": d.get("retreats", 0)}
    if a == "province_transferred":
        return _("%(province)s handed from %(before)s to %(after)s.") % {
            "province": p(d.get("province")), "before": f(d.get("from")), "after": f(d.get("to"))}
    if a == "army_raised":
        return _("%(unit)s raised anew in %(province)s.") % {"unit": u(d.get("army")), "province": p(d.get("province"))}
    if a == "purchase":
        return _("%(unit)s: cards bought: %(n)s.") % {"unit": u(d.get("army")), "n": d.get("count")}
    if a == "order_changed":
        order = d.get("order") or {}
        kind = names.get("orders", {}).get(order.get("type"), order.get("type", ""))
        path = [p(c) for c in order.get("path", [])] + ([p(order["target"])] if order.get("target") else [])
        where = (": " + " → ".join(path)) if path else ""
        return _("A moderator wrote the order of %(unit)s: %(order)s.") % {"unit": u(d.get("unit")),
                                                                          "order": f"{kind}{where}"}
    if a == "battle_sent_to_table":
        return _("Battle %(n)s at %(province)s sent to the table «%(title)s».") % {
            "n": d.get("battle"), "province": p(d.get("province")), "title": d.get("title", "")}
    if a == "battle_table_cancelled":
        return _("Battle %(n)s at %(province)s: the table «%(title)s» cancelled, back to the autobattle.") % {
            "n": d.get("battle"), "province": p(d.get("province")), "title": d.get("title", "")}
    if a == "outside_outcome_entered":
        outcome = {"attacker": _("the attacker won"), "defender": _("the defender won"),
                   "tie": _("a tie")}.get(d.get("winner"), d.get("winner") or "")
        losses = d.get("losses") or {}
        return _("Battle %(n)s at %(province)s fought at the table: %(outcome)s; losses %(a)s : %(d)s.") % {
            "n": d.get("battle"), "province": p(d.get("province")), "outcome": outcome,
            "a": losses.get("attacker", "?"), "d": losses.get("defender", "?")}
    if a.startswith("table_"):
        return _table_sentence(a, d)
    if a == "orda_data_created":
        return _("«Орда»: data set «%(title)s» created.") % {"title": d.get("title", "")}
    if a == "orda_data_edited":
        return _("«Орда»: data set «%(title)s» edited.") % {"title": d.get("title", "")}
    if a == "dice_revealed":
        return _("Dice seed revealed (%(stream)s), fingerprint %(fp)s.") % {
            "stream": _stream(d.get("stream")), "fp": (d.get("fingerprint") or "")[:16]}
    if a == "dice_closed":
        if not d.get("contributions"):
            return _("Dice contributions closed (%(stream)s): no player added randomness.") % {
                "stream": _stream(d.get("stream"))}
        return _("Dice contributions closed (%(stream)s): %(n)s taken in, from %(seats)s.") % {
            "stream": _stream(d.get("stream")), "n": d.get("contributions"), "seats": ", ".join(d.get("seats") or [])}
    if a.startswith("admin_"):
        return _("Changed in the administration: %(object)s.") % {"object": d.get("object", "")}
    return _("Other change.")


def _stream(label) -> str:
    return _("the war") if label == "game" else _("table %(n)s") % {"n": str(label or "").removeprefix("table-")}


def _table_sentence(a: str, d: dict) -> str:
    """A table's acts (larp/tables): the table by its title, the step's own summary as the system wrote it."""
    title = d.get("title", "")
    summary = d.get("summary") or ""
    if a == "table_created":
        return _("Table «%(title)s» set up; dice fingerprint %(fp)s.") % {
            "title": title, "fp": (d.get("fingerprint") or "")[:16]}
    if a == "table_step":
        return (_("Table «%(title)s», step %(seq)s: %(summary)s") % {"title": title, "seq": d.get("seq"),
                                                                      "summary": summary}).strip()
    if a == "table_override":
        return (_("Table «%(title)s», step %(seq)s, moderator's ruling: %(summary)s") % {
            "title": title, "seq": d.get("seq"), "summary": summary}).strip()
    if a == "table_undo":
        return _("Table «%(title)s»: step %(seq)s undone.") % {"title": title, "seq": d.get("seq")}
    if a == "table_finished":
        return (_("Table «%(title)s» finished. %(summary)s") % {"title": title, "summary": summary}).strip()
    if a == "table_cancelled":
        return _("Table «%(title)s» cancelled.") % {"title": title}
    return _("Table «%(title)s»: other change.") % {"title": title}
