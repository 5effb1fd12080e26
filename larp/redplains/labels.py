"""The words a Red Plains page or sheet shows for the engine's names (engine ids are never shown)."""
from __future__ import annotations

import re

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from larp import ru

TYPES = {"cavalry": gettext_lazy("Mounted samurai"), "samurai_spears": gettext_lazy("Foot samurai with spears"),
         "samurai_bows": gettext_lazy("Foot samurai with bows"), "ashigaru_spears": gettext_lazy("Ashigaru with spears"),
         "ashigaru_arquebus": gettext_lazy("Ashigaru with arquebuses")}
TYPE_SHORT = {"cavalry": gettext_lazy("cav."), "samurai_spears": gettext_lazy("spears"), "samurai_bows": gettext_lazy("bows"),
              "ashigaru_spears": gettext_lazy("ash. sp."), "ashigaru_arquebus": gettext_lazy("arqueb.")}
STAKES = {"low": gettext_lazy("low stake"), "high": gettext_lazy("high stake")}
SOURCES = {"hand": gettext_lazy("by hand"), "server": gettext_lazy("by the server")}
ORDERS = {"move": gettext_lazy("Moving"), "retreat": gettext_lazy("Retreat"), "reform": gettext_lazy("Reform"), "shoot": gettext_lazy("Shooting (order)"),
          "wait": gettext_lazy("Wait"), "massed_shoot": gettext_lazy("Massed shooting!"), "hold": gettext_lazy("Hold the position!"),
          "decisive_attack": gettext_lazy("Decisive attack!"), "regroup": gettext_lazy("Regroup!"), "dragon": gettext_lazy("Dragon move")}
BANNERS = {"phoenix": gettext_lazy("Phoenix banner"), "tiger": gettext_lazy("Tiger banner"),
           "crab": gettext_lazy("Crab banner"), "dragon": gettext_lazy("Dragon banner")}
KINDS = {"ordinary": gettext_lazy("ordinary (kind of order)"), "special": gettext_lazy("special (kind of order)")}
STATUSES = {"ready": gettext_lazy("in order"), "fleeing": gettext_lazy("fleeing"), "destroyed": gettext_lazy("destroyed (unit)"),
            "dispersed": gettext_lazy("dispersed"), "withdrawn": gettext_lazy("withdrawn")}
FACINGS = {"N": gettext_lazy("north"), "E": gettext_lazy("east"), "S": gettext_lazy("south"), "W": gettext_lazy("west")}
DIRS = {"left": gettext_lazy("to the left"), "right": gettext_lazy("to the right")}
# W21.1: a cavalry order's actions; W16.3: a cavalry Decisive attack's first action
ACTIONS = {"move": gettext_lazy("moving (cavalry action)"), "retreat": gettext_lazy("retreat (cavalry action)"),
           "reform_left": gettext_lazy("reform to the left"), "reform_right": gettext_lazy("reform to the right")}
# W16.5: an ordinary order given instead of a special one, in the special order's timing or the ordinary one's
TIMINGS = {"ordinary": gettext_lazy("instead of a special order, in the ordinary timing"),
           "special": gettext_lazy("instead of a special order, in the special timing")}
# The sections of the order picker (W42.2) and the word each order carries after its name
PICKER_SECTIONS = {
    "ordinary": gettext_lazy("Ordinary orders"),
    "special": gettext_lazy("Special orders"),
    "special+ordinary": gettext_lazy("An ordinary order instead of a special one, in the ordinary timing (W16.5)"),
    "special+special": gettext_lazy("An ordinary order instead of a special one, in the special timing: it acts "
                                    "earlier and may expose the flank (W16.5)"),
    "dragon": gettext_lazy("The Dragon banner (W12.4): raised in the unit, its move is the unit's first order "
                           "and costs none"),
}
PICKER_SECTIONS_SHORT = {"ordinary": KINDS["ordinary"], "special": KINDS["special"],
                         "special+ordinary": TIMINGS["ordinary"], "special+special": TIMINGS["special"],
                         "dragon": BANNERS["dragon"]}
ONLY_ACTION = gettext_lazy("no second action")
LEADER_KINDS = {"general": gettext_lazy("general (Red Plains leader)"),
                "commander": gettext_lazy("commander (Red Plains leader)")}
SIDE_WORDS = {"north": gettext_lazy("north"), "south": gettext_lazy("south")}
PHASES = {"deployment": gettext_lazy("Deployment turn"), "plan_change": gettext_lazy("Plan-change phase"),
          "signals": gettext_lazy("Plan-change phase"), "command": gettext_lazy("Command phase"), "execution": gettext_lazy("Execution phase"),
          "ended": gettext_lazy("The battle is over")}
OUTCOMES = {"total_defeat": gettext_lazy("total defeat"), "defeat": gettext_lazy("ordinary defeat"), "draw": gettext_lazy("a draw")}
CONDITIONS = {"W39.2": gettext_lazy("every unit of a side fled or is out of the battle"),
              "W39.3": gettext_lazy("the winner stopped the battle"),
              "W39.4": gettext_lazy("defeat after a general retreat"),
              "W39.5": gettext_lazy("three turns of lull"),
              "W39.6": gettext_lazy("the late end of the battle"),
              "W39.7": gettext_lazy("no draw after a general retreat")}
RESULTS = {"repelled": gettext_lazy("the attack is repelled"), "pushed_back": gettext_lazy("the defender is pushed back"),
           "routed": gettext_lazy("the defender is routed"), "destroyed": gettext_lazy("the defender is destroyed"),
           "routed_again": gettext_lazy("the fleeing unit is routed again"), "retreats": gettext_lazy("the loser retreats"),
           "none": gettext_lazy("no effect"), "stopped": gettext_lazy("the unit is stopped"), None: gettext_lazy("no winner")}
REASONS = {
    "exposes_flank": gettext_lazy("the unit would turn its flank or rear to an enemy's front"),
    "not_a_shooter": gettext_lazy("the unit does not shoot"),
    "no_ammo": gettext_lazy("no ammunition left"),
    "no_enemy_in_front": gettext_lazy("no enemy in front of the unit"),
    "hold_with_move": gettext_lazy("Hold cannot go with a move"),
    "wait_not_first": gettext_lazy("Wait is only the first of two orders"),
    "too_many_orders": gettext_lazy("at most two orders per unit"),
    "fleeing_unit_order": gettext_lazy("a fleeing unit takes no orders"),
    "bad_cavalry_actions": gettext_lazy("cavalry actions not allowed"),
    "forest_turn": gettext_lazy("no reform in a forest"),
    "not_enough_special": gettext_lazy("not enough special orders"),
    "not_enough_ordinary": gettext_lazy("not enough ordinary orders"),
    "extra_order_misused": gettext_lazy("an extra order given to a unit it is not for"),
    "size_out_of_range": gettext_lazy("a unit has 4 to 16 figures"),
    "no_such_cell": gettext_lazy("no such cell"),
    "outside_deployment_zone": gettext_lazy("outside your deployment zone"),
    "cell_taken": gettext_lazy("two units in one cell"),
    "mandatory_cell_empty": gettext_lazy("the two central cells of the first line must be held"),
    "not_placed": gettext_lazy("not placed yet"),
    "target_gone": gettext_lazy("the target is gone"),
    "unit_gone": gettext_lazy("the unit is gone"),
    "stopped_by_shooting": gettext_lazy("stopped by shooting"),
    "cell_not_free": gettext_lazy("the cell is not free"),
    "cell_contested": gettext_lazy("two units went for one cell"),
    "attacked": gettext_lazy("the unit was attacked"),
    "routed": gettext_lazy("the unit was routed"),
    "malformed": gettext_lazy("not possible"),
    "banner_not_owned": gettext_lazy("the army has no such banner"),
    "banner_used_up": gettext_lazy("the banner has been raised already"),
    "banner_in_minor_clan": gettext_lazy("no banner in a minor clan's unit"),
    "phoenix_needs_fleeing": gettext_lazy("the Phoenix banner is raised only in a fleeing unit"),
    "banner_on_fleeing_unit": gettext_lazy("only the Phoenix banner is raised in a fleeing unit"),
    "crab_in_ashigaru": gettext_lazy("the Crab banner is not raised in ashigaru"),
    "one_banner_per_unit": gettext_lazy("one banner per unit"),
    "withdraw_not_allowed": gettext_lazy("only a unit of fewer than 4 figures is withdrawn to the rear"),
    "general_retreat_too_early": gettext_lazy("a general retreat is signalled from turn 2"),
    "dragon_not_first": gettext_lazy("the Dragon move is only the first of the unit's orders"),
    "dragon_too_far": gettext_lazy("the Dragon move goes no farther than its troop type allows"),
    "dragon_without_banner": gettext_lazy("the Dragon move needs the Dragon banner raised in the unit"),
    # why an order is lost during the execution (the engine's order_lost events): what happened, in words
    "swap_partner_gone": gettext_lazy("the unit it was to change places with has no such order any more"),
    "out_of_zone": gettext_lazy("the target is out of the unit's zone of fire"),
    "not_an_enemy": gettext_lazy("the target is not an enemy on the field"),
    "driven_back_by_shooting": gettext_lazy("driven back by shooting"),
    "attacked_twice": gettext_lazy("the unit has attacked twice this turn already"),
    "shoots_instead": gettext_lazy("the unit shoots at its attacker instead"),
    "attacked_first": gettext_lazy("the unit was attacked before it could attack"),
    "thrown_back": gettext_lazy("the attack was thrown back"),
    "pushed_back": gettext_lazy("the unit was pushed back"),
    "no_superiority": gettext_lazy("neither side won the meeting attack"),
    "lost_meeting": gettext_lazy("the unit lost the meeting attack"),
    "destroyed": gettext_lazy("the unit is destroyed"),
    "fleeing": gettext_lazy("the unit flees"),
    "swap_failed": gettext_lazy("the two units could not change places"),
    "sabotage": gettext_lazy("a shinobi's sabotage cancelled it"),
    "terrain_count": gettext_lazy("more hills or forests than the rules allow"),
    "terrain_outside_zone": gettext_lazy("a hill or forest outside the deployment zone"),
    "terrain_touching": gettext_lazy("two hills or two forests touch"),
    "forest_on_bridge": gettext_lazy("a forest on a bridge"),
    "leader_in_minor_clan_unit": gettext_lazy("a leader in a minor clan's unit"),
}
# The table's steps as the log, the rulings and the protocol name them.
STEP_KINDS = {"deploy": gettext_lazy("deployment"), "confirm": gettext_lazy("confirmation"),
              "stake": gettext_lazy("stake"), "roll": gettext_lazy("command roll"),
              "scout": gettext_lazy("scouting"), "shinobi": gettext_lazy("shinobi task"),
              "orders": gettext_lazy("orders"), "leader": gettext_lazy("leader's move"),
              "stop": gettext_lazy("stopping the battle"), "plan": gettext_lazy("Cunning plan"),
              "dice": gettext_lazy("dice of the execution"), "execute": gettext_lazy("the turn applied"),
              "override": gettext_lazy("ruling on a unit"), "extend": gettext_lazy("cells added"),
              "roster": gettext_lazy("armies edited")}

# W6.2, W37.1, W38.1: the terrain the «new battle» page refuses, as the engine's deployment check would.
TERRAIN_REFUSALS = {
    "terrain_count": gettext_lazy("The defender places at most 2 hills and 2 forests (W6.2)."),
    "terrain_outside_zone": gettext_lazy("Hills and forests stand in the defending army's deployment zone (W6.2)."),
    "terrain_touching": gettext_lazy("Two hills, or two forests, may not touch, not even at a corner (W37.1, "
                                     "W38.1)."),
    "forest_on_bridge": gettext_lazy("A forest may not stand on either cell the bridge joins (W38.1)."),
    "malformed": gettext_lazy("The field has no such cell: type the labels written in the board's cells."),
}
REFUSALS = {
    "not_deployment": gettext_lazy("The deployment turn is over."),
    "already_confirmed": gettext_lazy("Already confirmed: wait for the other side."),
    "nothing_to_confirm": gettext_lazy("Nothing to confirm now."),
    "deployment_not_valid": gettext_lazy("The deployment breaks the rules: see what is marked."),
    "no_roll_yet": gettext_lazy("Make the command roll first."),
    "orders_not_valid": gettext_lazy("The orders break the rules: see what is marked."),
    "not_command": gettext_lazy("This is not your command phase."),
    "stake_after_roll": gettext_lazy("The stake is chosen before the roll."),
    "bad_stake": gettext_lazy("Choose the low or the high stake."),
    "no_reroll_left": gettext_lazy("No re-roll left (each messenger gives one per battle)."),
    "already_rolled": gettext_lazy("The command roll is already made; a messenger's re-roll has its own button."),
    "bad_dice": gettext_lazy("A die shows 1 to 6."),
    "not_execution": gettext_lazy("The execution phase has not begun."),
    "dice_missing": gettext_lazy("A roll still awaits dice."),
    "override_now": gettext_lazy("Change units before the execution's dice or after the turn."),
    "no_such_unit": gettext_lazy("No such army unit."),
    "unknown_step": gettext_lazy("Unknown action."),
    "table_closed": gettext_lazy("This battle is over."),
    "no_roll_awaited": gettext_lazy("No roll awaits dice."),
    "too_many_dice": gettext_lazy("Too many dice: this roll takes %(needed)s."),
    "nothing_to_undo": gettext_lazy("Nothing to undo."),
    "not_ready": gettext_lazy("This battle has no armies yet, or its sides are not north and south: "
                              "set it up again from the list of tables."),
    "bad_shinobi": gettext_lazy("No more shinobi can go in than the side has."),
    "no_scouting": gettext_lazy("No shinobi of this side can scout now."),
    "terrain_now": gettext_lazy("The terrain is set before either side confirms its deployment (on a table set up "
                                "placed, before the first stake)."),
    "bad_terrain": gettext_lazy("This terrain cannot be set: the defender's hills and forests in its zone, none "
                                "touching another of its kind, no forest on the bridge, a bridge only over the river."),
    "bad_scouting": gettext_lazy("Name distinct cells of the field, at most two for each shinobi that got through."),
    "roster_after_start": gettext_lazy("The armies are edited only before play."),
    "general_rides_there": gettext_lazy("A general rides in that unit."),
    "bad_roster": gettext_lazy("Choose the troop type, 4 to 16 figures, and for a new unit on the field a free cell of its side's zone."),
    "cannot_stop": gettext_lazy("This side may not stop the battle now (W39.3)."),
    "bad_orders": gettext_lazy("Those orders cannot be given."),
    "bad_cells": gettext_lazy("Place each unit in a cell of the field."),
    "bad_extra_cells": gettext_lazy("Pick new cells next to the field's edge (at most 12 at once)."),
    "extend_now": gettext_lazy("Cells are added before the execution's dice or after the turn."),
    "calc_impossible": gettext_lazy("The rules do not let these units fight so: change the units or their marks."),
    "bad_leader_move": gettext_lazy("A leader moves only to a unit of his side in a cell next to his own, "
                                    "diagonals included, and not into a minor clan's unit (W11.1)."),
    "leader_unit_gone": gettext_lazy("This leader's unit is out of the battle: he moves no more (W11.2)."),
    "no_shinobi": gettext_lazy("No shinobi of this side is left for a task: each that got through does one task "
                               "per battle, scouting included."),
    "bad_task": gettext_lazy("Choose the shinobi's task from the list."),
    "bad_target": gettext_lazy("Name an enemy unit on the field that your side can see."),
    "no_plan_change": gettext_lazy("Only a side whose shinobi gave signals changes its orders now."),
    "plan_now": gettext_lazy("The Cunning plan is granted in the command phase."),
    "bad_plan": gettext_lazy("Give the kind and number of the extra orders (1 to 5), or a unit of that side with the "
                             "order for next turn."),
    "bad_traits": gettext_lazy("Choose a leader of the battle and his traits, each value from −5 to +5."),
}


TASKS = {"sabotage": gettext_lazy("Sabotage"), "panic": gettext_lazy("Spreading panic"),
         "interception": gettext_lazy("Interception"), "signals": gettext_lazy("Signals")}
TASK_HINTS = {"sabotage": gettext_lazy("a d6: on 3+ cancels all the unit's orders if they are all ordinary, "
                                       "on 5+ even with a special one"),
              "panic": gettext_lazy("the unit's steadiness and impetus −1 this turn"),
              "interception": gettext_lazy("kills an enemy messenger: one re-roll fewer, or his last re-roll "
                                           "this turn is void"),
              "signals": gettext_lazy("learn the unit's orders this turn, then change yours")}
LEADER_TRAITS = {"brawler": gettext_lazy("a Brawler leader"), "charisma": gettext_lazy("a Charismatic leader")}
# W11.3: the leaders' traits (their values are the moderator's, W40) and the stats a modifier changes (W41.3)
TRAITS = {"brawler": gettext_lazy("Brawler"), "charisma": gettext_lazy("Charisma")}
STATS = {"steadiness": gettext_lazy("steadiness"), "impetus": gettext_lazy("impetus"), "armour": gettext_lazy("armour")}


def traits_text(traits: dict | None) -> str:
    """A leader's traits in words: «Charisma (steadiness +1, impetus +1), Brawler»."""
    out = []
    for trait in ("brawler", "charisma"):
        if trait not in (traits or {}):
            continue
        values = ", ".join(f"{STATS[k]} {v:+d}" for k, v in traits[trait].items() if k in STATS)
        out.append(f"{TRAITS[trait]} ({values})" if values else str(TRAITS[trait]))
    return ", ".join(out)


def plan_lines(plan: dict) -> list[str]:
    """W9.3: the Cunning plan's extra orders of the turn, by kind, as the command roll's extras are listed."""
    words = {"special": _("%(n)s special by the Cunning plan (the moderator's, W9.3)"),
             "ordinary": _("%(n)s ordinary by the Cunning plan (the moderator's, W9.3)")}
    return [words[k] % {"n": plan[k]} for k in ("special", "ordinary") if plan.get(k)]


def task_text(state: dict, side_name: str, t: dict) -> str:
    """One shinobi task as a sentence (W10): what the side's shinobi does, and what came of it when known."""
    unit = unit_name(state, t.get("unit"))
    if t["task"] == "sabotage":
        text = _("%(side)s: a shinobi sabotages %(unit)s, roll %(roll)s (%(source)s)") % {
            "side": side_name, "unit": unit, "roll": t.get("roll"), "source": SOURCES.get(t.get("source"), "")}
        outcome = {"cancelled": _("all its orders are cancelled"),
                   "nothing_to_cancel": _("the roll succeeds, but the unit has no orders to cancel"),
                   "failed": _("nothing is cancelled")}.get(t.get("outcome"))
        return f"{text}: {outcome}." if outcome else f"{text}."
    if t["task"] == "panic":
        return _("%(side)s: a shinobi spreads panic in %(unit)s (steadiness and impetus −1 this turn).") % {
            "side": side_name, "unit": unit}
    if t["task"] == "interception":
        effect = {"voided": _("the enemy's last re-roll this turn is void"),
                  "lost_one": _("the enemy loses one re-roll"),
                  "none": _("the enemy had no re-roll left")}.get(t.get("effect"), "")
        return _("%(side)s: a shinobi intercepts a messenger: %(effect)s.") % {"side": side_name, "effect": effect}
    return _("%(side)s: a shinobi gives signals about %(unit)s.") % {"side": side_name, "unit": unit}


def report_lines(state: dict, report: dict) -> list[str]:
    """W10.2: the shinobi's report of an enemy unit, line by line, in words."""
    lines = [_("Order %(slot)s: %(text)s (%(kind)s)") % {"slot": o["slot"], "text": order_text(state, o),
                                                        "kind": KINDS.get(o["kind"], "")}
             for o in report.get("orders", [])] or [_("No orders this turn.")]
    if report.get("general_retreat"):
        lines.append(_("The army is in general retreat."))
    if report.get("withdrawn"):
        lines.append(_("The unit is withdrawn to the rear."))
    lines += [_("Banner raised: %(banner)s") % {"banner": BANNERS.get(b, "")} for b in report.get("banners", [])]
    if report.get("plan_next"):
        lines.append(_("The Cunning plan's order for next turn: %(text)s") % {"text": report["plan_next"]})
    lines += [_("With it: %(leader)s") % {"leader": LEADER_TRAITS[x]} for x in report.get("leaders", [])
              if x in LEADER_TRAITS]
    if not report.get("leaders"):
        lines.append(_("No Brawler or Charismatic leader with it."))
    return lines


def refusal(error) -> str:
    text = str(REFUSALS.get(error.code, REFUSALS["unknown_step"]))
    return text % error.params if error.params else text


def reason(code: str | None, rule: str | None = None) -> str:
    """What was wrong, in words; a code with no words yet names its rule (the moderator's log), never a bare
    «against the rules»."""
    if code in REASONS:
        return str(REASONS[code])
    return _("against rule %(rule)s") % {"rule": rule} if rule else _("against the rules")


def unit_name(state: dict, uid: str | None) -> str:
    for u in state.get("units", []):
        if u["id"] == uid:
            return f"{TYPES.get(u['type'], '?')} {uid[1:]}"
    return _("an army unit")


def single_action(order: dict) -> str | None:
    """A cavalry order of one action given as the plain order (W21.1): which action it is."""
    otype = order.get("type")
    if otype == "reform":
        return f"reform_{order.get('dir')}" if order.get("dir") in DIRS else None
    return otype if otype in ("move", "retreat") else None


def order_head(order: dict, cavalry: bool = False) -> str:
    """The order's name; a cavalry order's first action (W21.1)."""
    actions = list(order.get("actions") or [])
    if not actions and cavalry and single_action(order):
        actions = [single_action(order)]
    if actions and actions[0] in ACTIONS:
        return capfirst(str(ACTIONS[actions[0]]))
    return str(ORDERS.get(order.get("type"), "?"))


def order_detail(state: dict, order: dict, cavalry: bool = False) -> str:
    """What the order names besides its name: cavalry's second action, the target, the direction, the face."""
    actions = order.get("actions") or []
    if len(actions) > 1 and actions[1] in ACTIONS:
        return _("then %(action)s") % {"action": ACTIONS[actions[1]]}
    if order.get("target"):
        text = "→ " + unit_name(state, order["target"])
        if order.get("first") in ACTIONS:                                     # W16.3
            text += ", " + _("first %(action)s") % {"action": ACTIONS[order["first"]]}
        return text
    if order.get("type") == "dragon":                                         # W12.4
        way = _("turning %(dir)s") % {"dir": DIRS[order["dir"]]} if order.get("dir") in DIRS else _("straight ahead")
        n = order.get("moves")
        if n:
            way += ", " + (_("up to one cell ahead") if n == 1 else _("up to %(n)s cells ahead") % {"n": n})
        return way
    if order.get("dir") in DIRS and not (cavalry and order.get("type") == "reform"):
        return str(DIRS[order["dir"]])
    if order.get("face") in FACINGS:
        return _("face %(dir)s") % {"dir": FACINGS[order["face"]]}
    return ""


def order_text(state: dict, order: dict) -> str:
    text = order_head(order)
    detail = order_detail(state, order)
    if detail.startswith("→"):
        text += " " + detail
    elif order.get("actions") or order.get("type") == "dragon":
        text += ", " + detail if detail else ""
    elif detail:
        text += " (" + detail + ")"
    if order.get("kind") == "special" and order.get("type") in ("move", "retreat", "reform", "shoot", "wait"):
        text += " — " + str(TIMINGS.get(order.get("timing") or "ordinary"))             # W16.5
    return text


@ru.agreeing
def event_text(state: dict, e: dict, hidden: frozenset | set = frozenset()) -> str:
    """One event of the execution (W41.10) as a sentence; a unit in `hidden` (unseen in a forest, W38.2) is told
    only as «a unit in a forest», without its name, dice or figures."""
    name = lambda uid: unit_name(state, uid)  # noqa: E731
    t = e.get("type")
    if t == "move":
        return _("%(unit)s move %(a)s → %(b)s.") % {"unit": name(e["unit"]), "a": e.get("from"), "b": e.get("to")}
    if t == "retreat":
        return _("%(unit)s retreat %(a)s → %(b)s.") % {"unit": name(e["unit"]), "a": e.get("from"),
                                                       "b": e.get("to")}
    if t in ("turn", "auto_turn"):
        return _("%(unit)s turns to face %(dir)s.") % {"unit": name(e["unit"]), "dir": FACINGS.get(e.get("to"), "")}
    if t == "hold":
        return _("%(unit)s holds the position.") % {"unit": name(e["unit"])}
    if t == "occupy":
        return _("%(unit)s takes %(cell)s.") % {"unit": name(e["unit"]), "cell": e.get("to")}
    if t == "flight":
        return _("%(unit)s flees: %(path)s, losses %(n)s.") % {"unit": name(e["unit"]),
                                                              "path": " → ".join(e.get("path") or []) or "—",
                                                              "n": e.get("losses", 0)}
    if t == "order_lost":
        return _("%(unit)s loses its order: %(why)s.") % {"unit": name(e["unit"]), "why": reason(e.get("reason"), e.get("rule"))}
    if t == "dispersed":
        return _("%(unit)s is dispersed.") % {"unit": name(e["unit"])}
    if t == "rally":
        return _("%(unit)s rallies.") % {"unit": name(e["unit"])}
    if t == "melee":
        parts = []
        for uid, u in (e.get("units") or {}).items():
            if uid in hidden:
                parts.append(_("A unit in a forest"))
                continue
            rolls = "; ".join(_("%(n)s dice at %(needs)s+: %(values)s → %(hits)s hits + %(gd)s guaranteed") % {
                "n": r["dice"], "needs": r["needs"], "values": " ".join(map(str, r["values"])) or "—",
                "hits": r["hits"], "gd": r["guaranteed"]} for r in u.get("rolls", []))
            text = _("%(unit)s: %(rolls)s; armour %(armour)s, losses %(losses)s, %(before)s → %(after)s") % {
                "unit": name(uid), "rolls": rolls or "—", "armour": u.get("armour"), "losses": u.get("losses"),
                "before": u.get("figures_before"), "after": u.get("figures_after")}
            stats = [f"{STATS[k]} {u[k]}" for k in ("steadiness", "impetus") if u.get(k) is not None]   # W28, W29
            parts.append(f"{text}; {', '.join(stats)}" if stats else text)
        if e.get("kind") == "attack" and e.get("defender_score") is not None and not hidden & set(e.get("units") or {}):
            parts.append(_("The defender's score: %(n)s") % {"n": e["defender_score"]})
        result = e.get("result") if e.get("kind") == "attack" else e.get("loser_result")
        return _("Melee. %(parts)s. Result: %(result)s.") % {"parts": ". ".join(parts),
                                                            "result": RESULTS.get(result, result)}
    if t == "shoot":
        parts = []
        for s in e.get("shots", []):
            if s["shooter"] in hidden:
                parts.append(_("A unit in a forest shoots: %(losses)s losses") % {"losses": s.get("losses")})
                continue
            parts.append(_("%(unit)s shoots %(n)s dice at %(needs)s+: %(values)s → %(losses)s losses") % {
                "unit": name(s["shooter"]), "n": s.get("figures_shooting"), "needs": s.get("needs"),
                "values": " ".join(map(str, s.get("values", []))) or "—", "losses": s.get("losses")})
        target = e.get("target") or {}
        if e.get("at") in hidden:
            return _("Shooting at a unit in a forest. %(parts)s.") % {"parts": "; ".join(parts)}
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


# Rule numbers stay on the moderator's screens and on paper; a player's tablet and the hall's projector read
# without them: «(W11.1)» goes, «(от мастера, W9.3)» keeps its words, «(W11.3: …)» keeps what follows.
_CODE = r"W\d+(?:\.\d+)*"
_ONLY_CODES = re.compile(rf"\s*\((?:{_CODE})(?:\s*(?:[,;]|–|-|—)\s*{_CODE})*\)")
_TRAILING_CODE = re.compile(rf"\s*[,;]\s*{_CODE}(?:\s*(?:[,;]|–|-)\s*{_CODE})*(?=\))")
_LEADING_CODE = re.compile(rf"\((?:{_CODE})(?:\s*[,;]\s*{_CODE})*\s*[:;,]\s*")


def without_rule_codes(text: str) -> str:
    """The text without the rules' numbers (W1–W42), for the players' and the hall's screens."""
    return _LEADING_CODE.sub("(", _TRAILING_CODE.sub("", _ONLY_CODES.sub("", text)))
