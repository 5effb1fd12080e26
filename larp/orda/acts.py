"""«Орда»'s acts at the table, declared once (larp.tables.acts). Who presses an act follows the state: the active
faction's player moves, declares, uses an ability and begins and ends its turn; the attacked faction's player
chooses the counter-measure; the attacker's rolls; the moderator may press any of them and alone places the
values, holds the roll-off and rules. The pages offer an act only where `open_when` says the seat may press it
now; the door refuses it by the same predicate, inside the table's row lock."""
from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.utils.translation import gettext as _

from larp.orda import forms, labels, selectors, services
from larp.orda import situation as sit
from larp.tables.acts import BOTH, MODERATOR, Act, Acts

SYSTEM = "orda"


def acts_for(seat, key: str) -> bool:
    """As larp.orda.access.acts_for, for the door's seat (a moderator; a player's side key)."""
    if seat.moderator:
        return True
    if not seat.side or not key:
        return False
    if seat.side == key:
        return True
    mine = seat.table.sides.filter(key=seat.side).values_list("faction_id", flat=True).first()
    return mine is not None and seat.table.sides.filter(key=key, faction_id=mine).exists()


def _faction(state, uid) -> str:
    return next((u["faction"] for u in state["case"]["units"] if u["id"] == uid), "")


def _not_yours():
    """Not this seat's act at all (another faction's move): refused as the seat check refuses it, 403."""
    raise PermissionDenied(_("It is not your side's move."))


def _over(state, seat=None):
    return labels.refusal("game_over") if state["phase"] == sit.OVER else True


def before_start(state, seat):
    if state["phase"] != sit.START or state.get("started", True):
        return _("Printed values are entered only before the first turn.")
    return True


def order_waits(state, seat):
    if before_start(state, seat) is not True or not sit.order_open(state):
        return _("The turn order is fixed before the first turn (O8).")
    return True


def deploy_open(state, seat):
    if state["phase"] != sit.START or state.get("started", True):
        return _("Units are placed only before the first turn (O5).")
    if seat.moderator or any(acts_for(seat, u["faction"]) for u in state["case"]["units"]):
        return True
    return _not_yours()


def turn_start_open(state, seat):
    if not acts_for(seat, state["case"]["game"]["active"]):
        return _not_yours()
    if state["phase"] != sit.START:
        return _over(state) if state["phase"] == sit.OVER else _("The turn has already begun.")
    if not state.get("started", True) and sit.order_open(state):
        return _("The turn order is not fixed yet: hold the roll-off or name the first faction (O8).")
    return True


def in_turn(state, seat):
    """The active faction's own acts in its battle phase, while no attack waits."""
    if not acts_for(seat, state["case"]["game"]["active"]):
        return _not_yours()
    if state["phase"] != sit.BATTLE:
        return _over(state) if state["phase"] == sit.OVER else _("Begin the turn first.")
    if state.get("pending"):
        return _("An attack is waiting for its counter-measure and dice.")
    return True


def counter_open(state, seat):
    p = state.get("pending")
    if not p or p.get("counter"):
        return _("No attack is waiting for a counter-measure.")
    return True if acts_for(seat, _faction(state, p["target"])) else _not_yours()


def attack_open(state, seat):
    """The attack's dice, once: after the roll no attack waits, and a second press is refused."""
    p = state.get("pending")
    if state["phase"] != sit.BATTLE or not p:
        return _("No attack is waiting for its dice.")
    if not p.get("counter"):
        return _("The target has not chosen its counter-measure yet.")
    return True if acts_for(seat, _faction(state, p["attacker"])) else _not_yours()


def _act(kind, payload):
    def service(p, d):
        body, hand = payload(p.form, d)
        services.act(p.table.pk, p.user, p.seat, kind, body, hand=hand)
    return service


def _cancel(p, d):
    from larp.tables import services as tables
    with tables.locked(p.table.pk) as t:
        tables.cancel(t, p.user, d["reason"])


def _form(cls):
    return lambda p: cls(p.data)


ACTS_LIST = [
    Act("values", who=MODERATOR, sided=False, open_when=before_start, form=_form(forms.ValuesForm),
        service=_act("values", lambda f, d: ({"data_set": d["data_set"]}, None))),
    Act("rolloff", who=MODERATOR, sided=False, open_when=order_waits, form=_form(forms.RolloffForm),
        service=_act("rolloff", lambda f, d: ({}, f.hand_dice()))),
    Act("override_first", who=MODERATOR, sided=False, open_when=order_waits, form=_form(forms.FirstForm),
        service=_act("override_first", lambda f, d: ({"first": d["first"], "reason": d["reason"]}, None))),
    Act("deploy", who=BOTH, sided=False, open_when=deploy_open, form=_form(forms.DeployForm),
        service=_act("deploy", lambda f, d: ({"unit": d["unit"], "hex": d.get("hex")}, None))),
    Act("turn_start", who=BOTH, sided=False, open_when=turn_start_open, form=_form(forms.TurnStartForm),
        service=_act("turn_start", lambda f, d: ({"choices": f.choices()}, None))),
    Act("turn_end", who=BOTH, sided=False, open_when=in_turn, service=_act("turn_end", lambda f, d: ({}, None))),
    Act("move", who=BOTH, sided=False, open_when=in_turn, form=_form(forms.MoveForm),
        service=_act("move", lambda f, d: ({"unit": d["unit"], "path": d["path"]}, f.hand_dice()))),
    Act("declare", who=BOTH, sided=False, open_when=in_turn, form=_form(forms.DeclareForm),
        service=_act("declare", lambda f, d: (f.payload(), None))),
    Act("counter", who=BOTH, sided=False, open_when=counter_open, form=_form(forms.CounterForm),
        service=_act("counter", lambda f, d: ({"counter": d["counter"], "retreat_to": d.get("retreat_to")}, None))),
    Act("attack", who=BOTH, sided=False, open_when=attack_open, form=_form(forms.RollForm),
        service=_act("attack", lambda f, d: ({"rerolls": f.rerolls()}, f.hand_dice()))),
    Act("ability", who=BOTH, sided=False, open_when=in_turn, form=_form(forms.AbilityForm),
        service=_act("ability", lambda f, d: (f.payload(), None))),
    Act("override_unit", who=MODERATOR, sided=False, open_when=_over, form=_form(forms.OverrideUnitForm),
        service=_act("override_unit", lambda f, d: ({"unit": d["unit"], "damage": d["damage"],
                                                     "reason": d["reason"]}, None))),
    Act("override_modifier", who=MODERATOR, sided=False, open_when=_over, form=_form(forms.OverrideModifierForm),
        service=_act("override_modifier", lambda f, d: ({"unit": d["unit"], "param": d["param"], "value": d["value"],
                                                         "source": d["source"], "reason": d["reason"]}, None))),
    Act("override_unmodify", who=MODERATOR, sided=False, open_when=_over, form=_form(forms.OverrideUnmodifyForm),
        service=_act("override_unmodify", lambda f, d: ({"index": d["index"], "reason": d["reason"]}, None))),
    Act("override_end", who=MODERATOR, sided=False, open_when=_over, form=_form(forms.OverrideEndForm),
        service=_act("override_end", lambda f, d: ({"winner": d["winner"], "reason": d["reason"]}, None))),
    Act("undo", who=MODERATOR, sided=False, closed_too=True, form=_form(forms.ReasonForm),
        service=lambda p, d: services.undo(p.table.pk, p.user, p.seat, d["reason"])),
    Act("cancel", who=MODERATOR, sided=False, form=_form(forms.ReasonForm), service=_cancel),
]


def page(request, s, *, refusal: str = "", status: int = 200, fresh: bool = False):
    """The table's page for this seat, the refusal (if any) among its errors. `fresh`: the seat's table was read
    in this request and nothing changed it since (a plain GET); else it is read again (after an act)."""
    if not fresh:
        s.table.refresh_from_db()
    with labels.speaking_for(s.table):
        state = services.current(s.table)
        ctx = selectors.table_context(s.table, state, s, selected=request.GET.get("unit"))
        ctx.update(game=s.table.game, table=s.table, errors=[refusal] if refusal else [],
                   log=selectors.log(s.table, state["case"], limit=selectors.LOG_SHOWN),
                   log_total=s.table.steps.count(), result=s.table.result, projector=False,
                   losses=[(labels.faction(k), v) for k, v in (s.table.result.get("losses") or {}).items()],
                   open=ACTS.open_for(state, s.table, s.moderator, s.side_key),
                   side_choices=[(k, labels.side(k)) for k in ("rus_china", "mongolia")])
        ctx["head"] = selectors.head(s.table, state, ctx, ctx["open"])
        response = render(request, "orda/table.html", ctx, status=status)
    if not s.moderator:                                 # rule numbers stay on the moderator's screens and paper
        response.content = labels.without_rule_codes(response.content.decode()).encode()
    return response


def _explain(error):
    if isinstance(error, sit.Refusal):
        return error.message
    return None


ACTS = Acts(system=SYSTEM, table_url="orda:table", page=page, state=services.current, acts=ACTS_LIST,
            explain=_explain, errors=lambda form: " ".join(str(m) for e in form.errors.values() for m in e)
            or _("Check the form."), unknown_404=True)

door = ACTS.view()
