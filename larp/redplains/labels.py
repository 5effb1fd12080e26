"""The words a Red Plains page or sheet shows for the engine's names (engine ids are never shown)."""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

TYPES = {"cavalry": _l("Mounted samurai"), "samurai_spears": _l("Foot samurai with spears"),
         "samurai_bows": _l("Foot samurai with bows"), "ashigaru_spears": _l("Ashigaru with spears"),
         "ashigaru_arquebus": _l("Ashigaru with arquebuses")}
TYPE_SHORT = {"cavalry": _l("cav."), "samurai_spears": _l("spears"), "samurai_bows": _l("bows"),
              "ashigaru_spears": _l("ash. sp."), "ashigaru_arquebus": _l("arqueb.")}
STAKES = {"low": _l("low stake"), "high": _l("high stake")}
SOURCES = {"hand": _l("by hand"), "server": _l("by the server")}
ORDERS = {"move": _l("Move"), "retreat": _l("Retreat"), "reform": _l("Reform"), "shoot": _l("Shooting"),
          "wait": _l("Wait"), "massed_shoot": _l("Massed shooting!"), "hold": _l("Hold the position!"),
          "decisive_attack": _l("Decisive attack!"), "regroup": _l("Regroup!"), "dragon": _l("Dragon move")}
KINDS = {"ordinary": _l("ordinary"), "special": _l("special")}
STATUSES = {"ready": _l("in order"), "fleeing": _l("fleeing"), "destroyed": _l("destroyed"),
            "dispersed": _l("dispersed"), "withdrawn": _l("withdrawn")}
FACINGS = {"N": _l("north"), "E": _l("east"), "S": _l("south"), "W": _l("west")}
DIRS = {"left": _l("left"), "right": _l("right")}
SIDE_WORDS = {"north": _l("north"), "south": _l("south")}
PHASES = {"deployment": _l("Deployment turn"), "command": _l("Command phase"), "execution": _l("Execution phase"),
          "ended": _l("The battle is over")}
OUTCOMES = {"total_defeat": _l("total defeat"), "defeat": _l("ordinary defeat"), "draw": _l("draw")}
CONDITIONS = {"W39.2": _l("every unit of a side fled or is out of the battle"),
              "W39.3": _l("the winner stopped the battle"),
              "W39.4": _l("defeat after a general retreat"),
              "W39.5": _l("three turns of lull"),
              "W39.6": _l("the late end of the battle"),
              "W39.7": _l("no draw after a general retreat")}
RESULTS = {"repelled": _l("the attack is repelled"), "pushed_back": _l("the defender is pushed back"),
           "routed": _l("the defender is routed"), "destroyed": _l("the defender is destroyed"),
           "routed_again": _l("the fleeing unit is routed again"), "retreats": _l("the loser retreats"),
           "none": _l("no effect"), "stopped": _l("the unit is stopped"), None: _l("no winner")}
REASONS = {
    "exposes_flank": _l("the unit would turn its flank or rear to an enemy's front"),
    "not_a_shooter": _l("the unit does not shoot"),
    "no_ammo": _l("no ammunition left"),
    "no_enemy_in_front": _l("no enemy in front of the unit"),
    "hold_with_move": _l("Hold cannot go with a move"),
    "wait_not_first": _l("Wait is only the first of two orders"),
    "too_many_orders": _l("at most two orders per unit"),
    "fleeing_unit_order": _l("a fleeing unit takes no orders"),
    "bad_cavalry_actions": _l("cavalry actions not allowed"),
    "forest_turn": _l("no reform in a forest"),
    "not_enough_special": _l("not enough special orders"),
    "not_enough_ordinary": _l("not enough ordinary orders"),
    "extra_order_misused": _l("an extra order given to a unit it is not for"),
    "size_out_of_range": _l("a unit has 4 to 16 figures"),
    "no_such_cell": _l("no such cell"),
    "outside_deployment_zone": _l("outside your deployment zone"),
    "cell_taken": _l("two units in one cell"),
    "mandatory_cell_empty": _l("the two central cells of the first line must be held"),
    "not_placed": _l("not placed yet"),
    "target_gone": _l("the target is gone"),
    "unit_gone": _l("the unit is gone"),
    "stopped_by_shooting": _l("stopped by shooting"),
    "cell_not_free": _l("the cell is not free"),
    "cell_contested": _l("two units went for one cell"),
    "attacked": _l("the unit was attacked"),
    "routed": _l("the unit was routed"),
    "malformed": _l("not possible"),
}
REFUSALS = {
    "not_deployment": _l("The deployment turn is over."),
    "already_confirmed": _l("Already confirmed: wait for the other side."),
    "nothing_to_confirm": _l("Nothing to confirm now."),
    "deployment_not_valid": _l("The deployment breaks the rules: see what is marked."),
    "no_roll_yet": _l("Make the command roll first."),
    "orders_not_valid": _l("The orders break the rules: see what is marked."),
    "not_command": _l("This is not your command phase."),
    "stake_after_roll": _l("The stake is chosen before the roll."),
    "bad_stake": _l("Choose the low or the high stake."),
    "no_reroll_left": _l("No re-roll left (each messenger gives one per battle)."),
    "bad_dice": _l("A die shows 1 to 6."),
    "not_execution": _l("The execution phase has not begun."),
    "dice_missing": _l("A roll still awaits dice."),
    "override_now": _l("Change units before the execution's dice or after the turn."),
    "no_such_unit": _l("No such unit."),
    "unknown_step": _l("Unknown action."),
    "table_closed": _l("The battle is over."),
    "no_roll_awaited": _l("No roll awaits dice."),
    "too_many_dice": _l("Too many dice: this roll takes %(needed)s."),
    "nothing_to_undo": _l("Nothing to undo."),
    "bad_orders": _l("Those orders cannot be given."),
    "bad_cells": _l("Place each unit in a cell of the field."),
}


def refusal(error) -> str:
    text = str(REFUSALS.get(error.code, REFUSALS["unknown_step"]))
    return text % error.params if error.params else text


def reason(code: str | None) -> str:
    return str(REASONS.get(code, _("against the rules")))


def unit_name(state: dict, uid: str | None) -> str:
    for u in state.get("units", []):
        if u["id"] == uid:
            return f"{TYPES.get(u['type'], '?')} {uid[1:]}"
    return _("a unit")


def order_text(state: dict, order: dict) -> str:
    text = str(ORDERS.get(order.get("type"), "?"))
    if order.get("target"):
        text += " → " + unit_name(state, order["target"])
    if order.get("dir"):
        text += " (" + str(DIRS[order["dir"]]) + ")"
    if order.get("face"):
        text += " (" + _("face %(dir)s") % {"dir": FACINGS[order["face"]]} + ")"
    return text


def event_text(state: dict, e: dict) -> str:
    """One event of the execution (W41.10) as a sentence."""
    name = lambda uid: unit_name(state, uid)  # noqa: E731
    t = e.get("type")
    if t in ("move", "retreat"):
        word = _("moves") if t == "move" else _("retreats")
        return _("%(unit)s %(word)s %(a)s → %(b)s.") % {"unit": name(e["unit"]), "word": word,
                                                       "a": e.get("from"), "b": e.get("to")}
    if t in ("turn", "auto_turn"):
        return _("%(unit)s turns to face %(dir)s.") % {"unit": name(e["unit"]), "dir": FACINGS.get(e.get("to"), "")}
    if t == "hold":
        return _("%(unit)s holds the position.") % {"unit": name(e["unit"])}
    if t == "occupy":
        return _("%(unit)s takes %(cell)s.") % {"unit": name(e["unit"]), "cell": e.get("cell")}
    if t == "flight":
        return _("%(unit)s flees: %(path)s, losses %(n)s.") % {"unit": name(e["unit"]),
                                                              "path": " → ".join(e.get("path") or []) or "—",
                                                              "n": e.get("losses", 0)}
    if t == "order_lost":
        return _("%(unit)s loses its order: %(why)s.") % {"unit": name(e["unit"]), "why": reason(e.get("reason"))}
    if t == "dispersed":
        return _("%(unit)s is dispersed.") % {"unit": name(e["unit"])}
    if t == "rally":
        return _("%(unit)s rallies.") % {"unit": name(e["unit"])}
    if t == "melee":
        parts = []
        for uid, u in (e.get("units") or {}).items():
            rolls = "; ".join(_("%(n)s dice at %(needs)s+: %(values)s → %(hits)s hits + %(gd)s guaranteed") % {
                "n": r["dice"], "needs": r["needs"], "values": " ".join(map(str, r["values"])) or "—",
                "hits": r["hits"], "gd": r["guaranteed"]} for r in u.get("rolls", []))
            parts.append(_("%(unit)s: %(rolls)s; armour %(armour)s, losses %(losses)s, %(before)s → %(after)s") % {
                "unit": name(uid), "rolls": rolls or "—", "armour": u.get("armour"), "losses": u.get("losses"),
                "before": u.get("figures_before"), "after": u.get("figures_after")})
        result = e.get("result") if e.get("kind") == "attack" else e.get("loser_result")
        return _("Melee. %(parts)s. Result: %(result)s.") % {"parts": ". ".join(parts),
                                                            "result": RESULTS.get(result, result)}
    if t == "shoot":
        parts = []
        for s in e.get("shots", []):
            parts.append(_("%(unit)s shoots %(n)s dice at %(needs)s+: %(values)s → %(losses)s losses") % {
                "unit": name(s["shooter"]), "n": s.get("figures_shooting"), "needs": s.get("needs"),
                "values": " ".join(map(str, s.get("values", []))) or "—", "losses": s.get("losses")})
        target = e.get("target") or {}
        return _("Shooting at %(unit)s. %(parts)s. Left: %(after)s.") % {
            "unit": name(e.get("at")), "parts": "; ".join(parts),
            "after": target.get("figures_after", "—")}
    if t == "check":
        return _("%(unit)s tests its nerve: %(effect)s.") % {"unit": name(e.get("unit")),
                                                            "effect": RESULTS.get(e.get("effect"), e.get("effect"))}
    return _("%(unit)s: %(what)s.") % {"unit": name(e.get("unit")), "what": t}


def end_sentence(table, result: dict) -> str:
    winner = result.get("winner")
    names = {s.key: s.name for s in table.sides.all()}
    cond = CONDITIONS.get(result.get("ended_by"), "")
    if winner:
        return _("The battle is over: %(side)s wins (%(cond)s).") % {"side": names.get(winner, winner), "cond": cond}
    return _("The battle is over: a draw (%(cond)s).") % {"cond": cond}
