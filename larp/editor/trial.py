"""Trying a scenario on the pure rules engine before it is a game: one generated turn, adjudicated.

Every army and fleet either holds or makes a one-step order the engine offers it (`legal_steps`), chosen by a
random generator seeded with the number the moderator gives, so the same number always gives the same turn.
The engine's result (the battles and who took which province) comes back as lines in the user's language and
as marks on the map.
"""
from __future__ import annotations

import random

from django.utils.translation import gettext as _

from larp.campaign import labels
from larp.engine.api import run_turn
from larp.engine.case import parse_case, parse_situation
from larp.engine.errors import CaseError
from larp.engine.orders import is_complete, legal_steps
from larp.engine.scenario import case_from_scenario
from larp.scenarios import validate

ARMY_CHOICES = ("attack", "march")
FLEET_CHOICES = ("fleet_move",)


def generated_orders(case: dict, seed: int) -> list[dict]:
    """One order per army and fleet: hold, or one legal step chosen by the seeded generator."""
    sit = parse_situation(case)
    rng = random.Random(seed)
    orders = []
    for kind, units, choices in (("army", case["armies"], ARMY_CHOICES), ("fleet", case["fleets"], FLEET_CHOICES)):
        for unit in sorted(units, key=lambda u: u["id"]):
            options = []
            for order_type in choices:
                for step in legal_steps(sit, unit["id"], order_type):
                    if is_complete(sit, unit["id"], order_type, [step]):
                        options.append((order_type, step))
            if options and rng.random() < 0.75:
                order_type, step = rng.choice(sorted(options))
                where = {"sea": step} if kind == "fleet" else {"path": [step]}
                orders.append({"unit": unit["id"], "type": order_type, **where})
            else:
                orders.append({"unit": unit["id"], "type": "hold"})
    return orders


def try_turn(data: dict, seed: int) -> dict:
    """{"seed", "lines": [...], "marks": {place: "moved"|"battle"}} or {"seed", "error"}."""
    if validate(data):
        return {"seed": seed, "error": _("Fix the problems listed first: the engine needs a whole scenario.")}
    names = {p["id"]: p.get("name_ru") or p["id"] for p in data["provinces"]}
    factions = {f["id"]: f.get("name_ru") or f["id"] for f in data["factions"]}
    case = case_from_scenario(data)
    case["seed"] = seed
    try:
        case["orders"] = generated_orders(case, seed)
        result = run_turn(parse_case(case))
    except CaseError as exc:
        return {"seed": seed, "error": _("The engine refused the turn: %(why)s") % {"why": exc}}
    lines, marks = [], {}
    unit_names = {u["id"]: (_("Army %(n)s of %(f)s") if k == "army" else _("Fleet %(n)s of %(f)s"))
                  % {"n": u["number"], "f": factions.get(u["faction"], u["faction"])}
                  for k, key in (("army", "armies"), ("fleet", "fleets")) for u in case[key]}
    for order in case["orders"]:
        if order["type"] == "hold":
            lines.append(_("%(unit)s holds.") % {"unit": unit_names[order["unit"]]})
        else:
            to = order["sea"] if "sea" in order else order["path"][-1]
            lines.append(_("%(unit)s: a move to «%(place)s».") % {"unit": unit_names[order["unit"]],
                                                           "place": names.get(to, to)})
            marks[to] = "moved"
    for battle in result.get("fought") or []:
        place = battle.get("province")
        outcome = battle.get("outcome", "")
        lines.append(_("Battle %(n)s%(at)s: %(outcome)s (%(a)s against %(d)s with the dice).") % {
            "n": battle.get("n"), "at": (" — «" + names.get(place, place) + "»") if place else "",
            "outcome": labels.outcome(outcome) if outcome else "—",
            "a": battle.get("attacker", {}).get("total", "—"), "d": battle.get("defender", {}).get("total", "—")})
        if place:
            marks[place] = "battle"
    for change in result.get("recoloured") or []:
        lines.append(_("«%(place)s» passes to %(faction)s.") % {"place": names.get(change["province"]),
                                                             "faction": factions.get(change["to"], _("nobody"))})
        marks[change["province"]] = "battle"
    if not result.get("fought"):
        lines.append(_("No battle this turn."))
    return {"seed": seed, "lines": lines, "marks": marks}

