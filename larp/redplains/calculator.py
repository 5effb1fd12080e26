"""The stand-alone calculators of W42.1: units typed into a form → an odds case (W41.7) → the engine's exact odds.

No table, no dice, nothing stored: the case is built here from the calculator's form (forms.MeleeCalcForm,
VolleyCalcForm, CommandCalcForm), the engine's `odds` mode gives the chances as exact fractions, and each comes
back as a line the page shows («7 из 36 (19 %)», larp.campaign.labels.odds_text). The dice groups (how many dice
needing what, re-roll rounds, guaranteed damage) are the engine's own plan of the contest, so the calculator and
the table can never disagree.
"""
from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from larp.campaign.labels import odds_text
from larp.redplains import labels
from larp.redplains.engine.data import load
from larp.redplains.engine.errors import CaseError
from larp.redplains.engine.melee import ranks
from larp.redplains.engine.modes import case_data, melee_plan, odds_mode, volley_parts
from larp.redplains.engine.odds import group_hits
from larp.redplains.engine.outcomes import ATTACK_RESULTS

__all__ = ["CaseError", "command", "melee", "volley"]

EFFECTS = {"none": gettext_lazy("no effect"),
           "stopped": gettext_lazy("stopped: loses its orders and does not move"),
           "retreats": gettext_lazy("loses its orders and retreats one cell")}


LONGEST = 10 ** 6          # a fraction with a longer denominator is read out as its percentage
ROLES = {"a": gettext_lazy("Attacker"), "c": gettext_lazy("Second attacker"), "b": gettext_lazy("Defender"),
         "t": gettext_lazy("Target"), "s1": gettext_lazy("Shooter"), "s2": gettext_lazy("Second shooter")}
MEETING_ROLES = {"a": gettext_lazy("Unit A"), "b": gettext_lazy("Unit B")}


def chance(p) -> str:
    """An exact chance (the engine's {"fraction": ...} or a Fraction) as the project says it: «7 из 36 (19 %)»;
    one whose fraction would run to many digits as «около 5,4 %»."""
    if not isinstance(p, Fraction):
        p = Fraction(str(p["fraction"]))
    if 0 < p < 1 and p.denominator > LONGEST:
        return _("about %(percent)s %%") % {"percent": f"{100 * float(p):.1f}".replace(".", ",")}
    return odds_text({"fraction": f"{p.numerator}/{p.denominator}"})


def decimal(value: float) -> str:
    return f"{value:.2f}".replace(".", ",")


def command(rerolls: int) -> dict:
    """W7–W8: both stakes' chance of success with the re-rolls left, and the orders each gives on average."""
    odds = odds_mode({"command": {"rerolls_left": rerolls}})
    rows = []
    for key, stake in load().stakes.items():
        o = odds[key]
        rows.append([str(labels.STAKES[key]), f"{stake.success_at}+", chance(o["success"]),
                     decimal(o["expected"]["special"]["value"]), decimal(o["expected"]["ordinary"]["value"])])
    return {"title": _("Command roll, re-rolls left: %(n)s") % {"n": rerolls},
            "sections": [{"head": [_("Stake"), _("Success at"), _("Chance of success"), _("Special orders on average"),
                                   _("Ordinary orders on average")], "rows": rows}]}


def _names(form, keys, roles=ROLES) -> dict[str, str]:
    """Each unit as the page shows it: its role, troop type, figures and ranks (W25)."""
    data = load()
    d = form.cleaned_data
    return {key: _("%(role)s: %(type)s, %(n)s figures, ranks %(ranks)s") % {
        "role": roles[key], "type": labels.TYPES[d[f"{key}_type"]], "n": d[f"{key}_figures"],
        "ranks": ranks(data, d[f"{key}_figures"])} for key in keys}


def melee(form) -> dict:
    """W25–W30: an attack (1–2 attackers) or a meeting engagement; the result's chances, each dice group's hits
    and the losses to expect."""
    d = form.cleaned_data
    if d["kind"] == "attack":
        attackers = ["a"] + (["c"] if form.present("c") else [])
        case = {"melee": {"kind": "attack", "defender": form.unit("b", "south"),
                          "attackers": [form.unit(k, "north") for k in attackers]}}
        keys = attackers + ["b"]
    else:
        case = {"melee": {"kind": "meeting", "a": form.unit("a", "north"), "b": form.unit("b", "south"),
                          "same_cell": bool(d.get("same_cell"))}}
        keys = ["a", "b"]
    odds = odds_mode(case)
    plan = melee_plan(case_data(case), case)
    roles = ROLES if d["kind"] == "attack" else MEETING_ROLES
    names = {k: str(roles[k]) for k in keys}
    sections = [{"caption": _("Army units in the calculation"),
                 "rows": [[text] for text in _names(form, keys, roles).values()]}]
    if d["kind"] == "attack":
        sections.append({"caption": _("Result of the attack"), "head": [_("Result"), _("Chance")],
                         "rows": [[str(labels.RESULTS[r]), chance(odds[r])] for r in ATTACK_RESULTS if r in odds]})
    else:
        winner = [[names[k] if k != "none" else _("no winner"), chance(p)] for k, p in odds["winner"].items()]
        routed = [[names[k], chance(p)] for k, p in odds["routed"].items()]
        sections.append({"caption": _("Winner of the meeting engagement"), "head": [_("Who"), _("Chance")],
                         "rows": winner})
        if routed:
            sections.append({"caption": _("Routed loser"), "head": [_("Who"), _("Chance")], "rows": routed})
    sections.append({"caption": _("Losses to expect"), "head": [_("Unit"), _("Figures on average")],
                     "rows": [[names[k], decimal(v)] for k, v in odds["expected_losses"].items()]})
    groups = []
    for g in plan.groups:
        if g.fixed_damage is not None:
            what = _("fixed damage %(n)s, no dice (W35.4)") % {"n": g.fixed_damage}
            hits = []
        else:
            what = _("%(n)s dice at %(needs)s+, re-roll rounds %(r)s, guaranteed damage %(gd)s") % {
                "n": g.dice, "needs": g.needs, "r": g.rerolls, "gd": g.guaranteed}
            hits = [[k, chance(p)] for k, p in enumerate(group_hits(g)) if p]
        groups.append({"caption": _("%(who)s against %(whom)s") % {"who": names[g.roller], "whom": names[g.against]},
                       "note": what, "head": [_("Hits"), _("Chance")], "rows": hits})
    return {"title": _("Melee"), "sections": sections + groups}


def volley(form) -> dict:
    """W31–W32: one or two shooters at one target in one priority; its losses and the test that follows."""
    shooters = ["s1"] + (["s2"] if form.present("s2") else [])
    case = {"volley": {"target": form.unit("t", "south"), "shooters": [form.unit(k, "north") for k in shooters]}}
    odds = odds_mode(case)
    _target, shots = volley_parts(case_data(case), case)
    names = {k: str(ROLES[k]) for k in ["t"] + shooters}
    sections = [{"caption": _("Army units in the calculation"),
                 "rows": [[text] for text in _names(form, ["t"] + shooters).values()]}]
    for shot in shots:
        sections.append({"caption": names[shot.shooter], "rows": [[
            _("%(n)s figures shoot at %(needs)s+, re-roll rounds %(r)s, guaranteed damage %(gd)s; the target's "
              "armour %(armour)s") % {"n": shot.figures_shooting, "needs": shot.needs, "r": shot.rerolls,
                                      "gd": shot.guaranteed, "armour": shot.armour}]]})
    sections.append({"caption": _("Losses of the target"), "head": [_("Figures lost"), _("Chance")],
                     "rows": [[k, chance(p)] for k, p in odds["losses"].items()]})
    sections.append({"caption": _("Effect of the shooting (W32)"), "head": [_("Effect"), _("Chance")],
                     "rows": [[str(EFFECTS[k]), chance(p)] for k, p in odds["effect"].items()]})
    sections.append({"caption": _("Losses to expect"), "head": [_("Unit"), _("Figures on average")],
                     "rows": [[names["t"], decimal(odds["expected_losses"])]]})
    return {"title": _("Volley"), "sections": sections}
