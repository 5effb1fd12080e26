"""«Тактические правила»'s acts at the table, declared once (larp.tables.acts): the army builder, the moderator's
approval and start, the battle's actions (the dice), rulings, turns, the end, the undo, and the strategic
manoeuvring (the moderator's map acts and each side's moves). The pages offer an act only where `open_when` says
the seat may press it now; the door refuses it by the same predicate, inside the table's row lock.

The addresses are those the pages always posted to: `army/<side>/<op>/`, `manoeuvre/<op>/`,
`manoeuvre/<side>/<op>/` and one per battle act; `routed` turns them into the act's name (and the side named by
the address into the form's `side`)."""
from __future__ import annotations

import uuid
from dataclasses import replace

from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from larp.tables.access import require_moderator_seat
from larp.tables.access import seat as seat_of
from larp.tables.acts import BOTH, KEY_FIELD, MODERATOR, Act, Acts, Chair, Refused
from larp.tables.models import Press
from larp.tactical import forms as f
from larp.tactical import rosters
from larp.tactical import selectors as sel
from larp.tactical import services
from larp.tactical import situation as sit
from larp.tactical.labels import (ACTIONS, TEST_KINDS, card_name, cell_name, corps_name, march_summary, path_words,
                                  unit_label)

SYSTEM = "tactical"
MAP = "tactical:manoeuvre"


def text(errors) -> str:
    """A refusal's reasons as one line: a service's ValidationError, a form's errors, or a text."""
    if isinstance(errors, ValidationError):
        return "; ".join(errors.messages)
    if hasattr(errors, "values"):
        return "; ".join(str(e) for errs in errors.values() for e in errs)
    return str(errors)


def unit_choices(state: dict) -> list[dict]:
    return [{"id": u["id"], "side": u["side"], "label": u.get("name") or _("unit"), "fleeing": bool(u.get("fleeing")),
             "mercenary": bool((u.get("general") or {}).get("mercenary"))} for u in sit.live_units(state)]


def own_corps(m: dict, side: str) -> list[dict]:
    return [c for c in m["corps"] if c["side"] == side]


def hand_of(m: dict, side: str) -> list[str] | None:
    """The side's hand when hands are dealt (None: the cards are on a physical table, nothing is checked)."""
    return list(m["hands"].get(side) or []) if m["hands"] else None


def playable(hand: list[str] | None) -> list[str]:
    return [c for c in hand or [] if sit.CARD_KIND[c] != "terrain" and c not in sit.MARCH_CARDS.values()]


# ---- when an act is open ------------------------------------------------------------------------------------
def _in(*phases):
    def open_when(state, seat):
        if state.get("phase") in phases:
            return True
        return {"setup": _("The armies are still being built: start the battle first."),
                "battle": _("The battle has already started."),
                "ended": _("The battle is over.")}[state.get("phase", "setup")]
    return open_when


setup_open, battle_open, ruling_open = _in("setup"), _in("battle"), _in("setup", "battle")


def always(state, seat):
    return True


def _rules(check):
    """An act on the map open in the manoeuvring when the services' own check of the rules (`check(m, seat)`,
    raising their refusal) lets it through: the page and the door ask what the service would answer."""
    def open_when(state, seat):
        verdict = setup_open(state, seat)
        if verdict is not True:
            return verdict
        try:
            check(sit.strategic(state), seat)
        except ValidationError as error:
            return "; ".join(error.messages)
        return True
    return open_when


def _refuse(message):
    raise ValidationError(message)


def _targets(m, seat):
    services._may_march(m, seat.side)
    if not any(t["side"] == seat.side for t in m["targets"]):
        _refuse(_("Mark the targets of your corps first."))


def _pass(m, seat):
    if services._move_open(m)["side"] != seat.side:
        _refuse(_("It is not your move."))


def _halt(m, seat):
    mv = m["move"]
    if mv is None or not mv["night"]:
        _refuse(_("The night halt comes at night, after both sides' moves."))
    if seat.side in mv["halted"]:
        _refuse(_("You have declared the night halt."))
    services._move_open(m)


def _offers(m, seat):
    if seat.moderator:
        return
    mv = services._move_open(m)
    if mv["night"] or mv["side"] != seat.side:
        _refuse(_("Battle is offered at the end of your own move."))


def _answers(m, seat):
    if not sit.offer_open(m):
        _refuse(_("No offer of battle waits for an answer."))
    if seat.side == m["offer"]["by"]:
        _refuse(_("The side that offered battle does not answer it."))


def _lays(m, seat):
    if not m["hands"]:
        _refuse(_("No cards are dealt at this table."))
    layer = sit.next_layer(m)
    if layer is None:
        _refuse(_("All terrain cards are laid."))
    if layer != seat.side:
        _refuse(_("It is not your turn to lay a terrain card."))


def _plays(m, seat):
    if not m["hands"]:
        _refuse(_("No cards are dealt at this table."))


def deal_open(state, seat):
    verdict = setup_open(state, seat)
    return verdict if verdict is not True else (
        True if not sit.strategic(state)["hands"] else _("The cards are dealt already: undo the deal to deal again."))


def first_open(state, seat):
    verdict = setup_open(state, seat)
    return verdict if verdict is not True else (
        True if not sit.strategic(state)["move"] else _("The first move is decided already: undo it to roll again."))


def march_open(state, seat):
    verdict = setup_open(state, seat)
    return verdict if verdict is not True else (True if sit.strategic(state)["corps"] else _("No such corps."))


def override_open(state, seat):
    verdict = ruling_open(state, seat)
    if verdict is not True or state["phase"] != "setup":
        return verdict
    return True if any(sit.suggested(state, s) for s in {u["side"] for u in state["units"]}) else \
        _("This side has built its own army: it replaces these units at the start.")


# ---- the services -------------------------------------------------------------------------------------------
def _army(op):
    def service(p, d):
        side, form = p.side, p.form
        general_dice = None
        if op == "list":
            chosen = d["army_list"]

            def change(doc):
                doc.update(army_list=chosen, units=[], generals=[])
            summary = _("Army list chosen")
        elif op == "unit":
            new_unit = form.unit(f"u{uuid.uuid4().hex[:6]}")

            def change(doc):
                doc["units"].append(new_unit)
            summary = _("Unit «%(name)s» added, %(n)s figures") % {"name": new_unit["name"], "n": new_unit["count"]}
        elif op == "general":
            gen = form.general(f"g{uuid.uuid4().hex[:6]}")

            def change(doc):
                doc["generals"].append(gen)
            general_dice = {"general": gen["id"], "hand": d["dice"] or None}
            summary = _("General %(name)s appointed") % {"name": gen["name"]}
        elif op in ("edit-unit", "duplicate-unit"):
            item = form.item if op == "edit-unit" else d["item"]
            old = next((x for x in services.army_of(p.table, p.state, side)["units"] if x["id"] == item), None)
            if old is None:
                raise ValidationError(_("No such unit or general."))
            unit = form.unit(item) if op == "edit-unit" else {**old, "id": f"u{uuid.uuid4().hex[:6]}"}

            def change(doc):
                at = next(i for i, x in enumerate(doc["units"]) if x["id"] == item)
                if op == "edit-unit":
                    doc["units"][at] = unit
                else:
                    doc["units"].insert(at + 1, unit)
            summary = (_("Unit «%(name)s» changed") if op == "edit-unit" else
                       _("Unit «%(name)s» duplicated")) % {"name": unit["name"]}
        elif op in ("load", "import"):
            limit = services.army_of(p.table, p.state, side)["points_limit"]
            if op == "load":
                roster = rosters.visible(p.user, p.table.game).get(pk=d["roster"])
                data, title = roster.army, roster.name
            else:
                data = rosters.parse(d["file"].read(rosters.MAX_FILE + 1))
                title = str(data.get("name") or d["file"].name)[:80]
            loaded, general_dice = rosters.validate(data, limit)

            def change(doc):
                doc.clear()
                doc.update(loaded)
            summary = (_("Saved army «%(name)s» loaded") if op == "load" else
                       _("Army «%(name)s» imported from a file")) % {"name": title}
        else:
            item, key = d["item"], "units" if op == "remove-unit" else "generals"
            gone = next((x for x in services.army_of(p.table, p.state, side)[key] if x["id"] == item), None)
            if gone is None:
                raise ValidationError(_("No such unit or general."))

            def change(doc):
                doc[key] = [x for x in doc[key] if x["id"] != item]
                if key == "units":
                    for g in doc["generals"]:
                        if g.get("unit") == item:
                            g["unit"] = None
            summary = (_("Unit «%(name)s» removed from the army") if key == "units" else
                       _("General %(name)s removed from the army")) % {"name": gone.get("name") or ""}
        services.save_army(p.table.pk, p.user, side, change, summary, general_dice=general_dice)
    return service


def _doc(p):
    return services.army_of(p.table, p.state, p.side) if p.side else {"army_list": None, "units": []}


ARMY_FORMS = {
    "list": lambda p: f.ArmyListForm(p.data),
    "unit": lambda p: f.UnitForm(p.data, army_list=_doc(p)["army_list"], prefix=f"u-{p.side}"),
    "general": lambda p: f.GeneralForm(p.data, army_list=_doc(p)["army_list"], units=_doc(p)["units"],
                                       prefix=f"g-{p.side}"),
    "edit-unit": lambda p: f.UnitEditForm(p.data, army_list=_doc(p)["army_list"],
                                          item=(p.data.get("item") or "")[:20]),
    "duplicate-unit": lambda p: f.RemoveForm(p.data),
    "load": lambda p: f.LoadRosterForm(p.data, rosters=rosters.visible(p.user, p.table.game)),
    "import": lambda p: f.ImportArmyForm(p.data, p.request.FILES, prefix=f"i-{p.side}"),
    "remove-unit": lambda p: f.RemoveForm(p.data),
    "remove-general": lambda p: f.RemoveForm(p.data),
}


def _save_roster(p, d):
    rosters.save(p.user, p.table.game, d["name"], services.army_of(p.table, p.state, p.side))


def _forget_roster(p, d):
    rosters.forget(p.user, p.table.game, int(d["roster"]))


def _resolve(p, d):
    form, state = p.form, p.state
    kind, payload = form.engine_kind(), form.payload(state)
    names = {x.key: x.name for x in p.table.sides.all()}

    def summary(st: dict, outcome: dict) -> str:
        label = str(ACTIONS.get(d["kind"], ""))
        if d["kind"] == "test":
            label = str(TEST_KINDS.get(d["test_kind"], label))
        who = ", ".join(unit_label(st, u) for u in sit.involved(kind, payload))
        loser = outcome.get("loser")
        tail = (" — " + _("lost: %(side)s") % {"side": names.get(loser, "")}) if loser else ""
        return f"{label}: {who}{tail}" if who else f"{label}{tail}"
    services.act(p.table.pk, p.user, kind, payload, hand=d["hand_dice"], server_rest=d["server_rest"],
                 summary=summary)


def _override(p, d):
    changes, uid = p.form.changes(), d["unit"]
    summary = (_("The suggested army corrected: %(unit)s") if p.state["phase"] == "setup" else
               _("Moderator's ruling on %(unit)s")) % {"unit": unit_label(p.state, uid)}
    services.override(p.table.pk, p.user, uid, changes, d["reason"], summary)


def _end(p, d):
    sides = list(p.table.sides.all())
    winner = d["winner"] or None
    name = next((x.name for x in sides if x.key == winner), None)
    summary = (_("The battle is over: %(side)s won") % {"side": name}) if name else _("The battle is over: a draw")
    services.end(p.table.pk, p.user, winner, d["ended_by"], summary)


def _turn(p, d):
    from larp.tactical.labels import TURN_STEPS
    names = {x.key: x.name for x in p.table.sides.all()}

    def summary(t: dict) -> str:
        return _("Turn %(n)s, %(side)s: %(step)s") % {"n": t["number"], "side": names.get(t["side"], ""),
                                                      "step": TURN_STEPS[t["step"]]}
    services.advance_turn(p.table.pk, p.user, d["first"] or None, summary)


def _sides(p):
    return list(p.table.sides.all())


def _names(p):
    return {x.key: x.name for x in p.table.sides.all()}


def _cell(p, d):
    (r, c), card, path = d["cell"], d["card"], d["path"]

    def change(mp):
        mp["grid"][r][c] = card
        mp["paths"] = [x for x in mp["paths"] if x != [r, c]] + ([[r, c]] if path else [])
    services.edit_map(p.table.pk, p.user, change, _("Card laid on %(cell)s: %(card)s") % {
        "cell": cell_name([r, c]), "card": card_name(card) if card != "clear" else _("clear ground")})


def _weather(p, d):
    weather, flood = d["weather"], d["flood"]

    def change(mp):
        mp["weather"], mp["flood"] = list(weather), bool(flood)
    services.edit_map(p.table.pk, p.user, change, _("Weather on the map set"))


def _corps(p, d):
    corps = {"id": f"c{uuid.uuid4().hex[:6]}", "name": d["name"].strip(), "side": d["side"], "cell": d["cell"],
             "tired": False, "mounted": bool(d["mounted"])}

    def change(mp):
        mp["corps"].append(corps)
    services.edit_map(p.table.pk, p.user, change, _("Corps %(name)s placed") % {"name": corps["name"]},
                      side=corps["side"])


def _first_summary(names: dict):
    def summary(first: str, rolls: list) -> str:
        if not rolls:
            return _("%(side)s moves first (rolled at the table)") % {"side": names.get(first, "")}
        return _("%(side)s moves first: the roll %(a)s against %(b)s") % {
            "side": names.get(first, ""), "a": max(rolls[-1]), "b": min(rolls[-1])}
    return summary


def _who(p):
    return {"side": _names(p).get(p.side, "")}


def _target(p, d):
    state = p.state
    services.mark_target(p.table.pk, p.user, p.side, d["corps"], p.form.plan(), seat=p.seat, summary=lambda x: _(
        "%(side)s marks the target of %(corps)s: %(path)s, cost %(cost)s") % {
        **_who(p), "corps": corps_name(state, x["corps"]), "path": path_words(x["steps"]), "cost": x["cost"]})


def _untarget(p, d):
    state = p.state
    services.mark_target(p.table.pk, p.user, p.side, d["corps"], None, seat=p.seat, summary=lambda x: _(
        "%(side)s takes the target of %(corps)s off") % {**_who(p), "corps": corps_name(state, x["corps"])})


def _answer(p, d):
    accept = d["answer"] == "accept"
    services.answer_offer(p.table.pk, p.user, p.side, accept, (_("%(side)s accepts battle") if accept else
                                                               _("%(side)s refuses battle")) % _who(p))


def _lay(p, d):
    card, cell = d["card"], d["cell"]
    services.lay_card(p.table.pk, p.user, p.side, card, cell, _("%(side)s lays the card «%(card)s» on %(cell)s") % {
        **_who(p), "card": card_name(card), "cell": cell_name(cell)})


def _play(p, d):
    card, cell = d["card"], d["cell"]
    services.play_card(p.table.pk, p.user, p.side, card, cell, _("%(side)s plays the card «%(card)s»") % {
        **_who(p), "card": card_name(card)} + (f" ({cell_name(cell)})" if cell else ""))


def FIELD():
    return _("The battlefield chosen: its terrain and weather set for the battle")


def _m(p):
    return sit.strategic(p.state)


ACTS_LIST = [
    *[Act(f"army-{op}", who=BOTH, open_when=setup_open, form=form, service=_army(op))
      for op, form in ARMY_FORMS.items()],
    Act("army-save", who=BOTH, open_when=always, form=lambda p: f.SaveRosterForm(p.data, prefix=f"s-{p.side}"),
        service=_save_roster),
    Act("army-forget", who=BOTH, open_when=always,
        form=lambda p: f.LoadRosterForm(p.data, rosters=rosters.visible(p.user, p.table.game)),
        service=_forget_roster),
    Act("approve", who=MODERATOR, open_when=setup_open, form=lambda p: f.ApproveForm(p.data),
        service=lambda p, d: services.approve(p.table.pk, p.user, p.side, d["approve"])),
    Act("start", who=MODERATOR, sided=False, open_when=setup_open,
        service=lambda p, d: services.start(p.table.pk, p.user)),
    Act("conditions", who=MODERATOR, sided=False, open_when=ruling_open,
        form=lambda p: f.ConditionsForm(p.data, sides=_sides(p)),
        service=lambda p, d: services.set_conditions(p.table.pk, p.user, p.form.conditions(),
                                                     p.form.terrain_on_table(), _("Weather and terrain set"))),
    Act("act", who=MODERATOR, sided=False, open_when=battle_open,
        form=lambda p: f.ActionForm(p.data, units=unit_choices(p.state)), service=_resolve),
    Act("override", who=MODERATOR, sided=False, open_when=override_open, service=_override,
        form=lambda p: f.OverrideForm(p.data, units=[{"id": u["id"], "side": u["side"], "label": u.get("name") or ""}
                                                     for u in p.state["units"]])),
    Act("undo", who=MODERATOR, sided=False, closed_too=True, form=lambda p: f.ReasonForm(p.data),
        service=lambda p, d: services.undo(p.table.pk, p.user, d["reason"])),
    Act("turn", who=MODERATOR, sided=False, open_when=battle_open, form=lambda p: f.TurnForm(p.data, sides=_sides(p)),
        service=_turn),
    Act("end", who=MODERATOR, sided=False, open_when=battle_open, form=lambda p: f.EndForm(p.data, sides=_sides(p)),
        service=_end),
    # the moderator's acts on the map
    Act("map-cell", who=MODERATOR, sided=False, back=MAP, open_when=setup_open, form=lambda p: f.CellForm(p.data),
        service=_cell),
    Act("map-weather", who=MODERATOR, sided=False, back=MAP, open_when=setup_open,
        form=lambda p: f.WeatherForm(p.data), service=_weather),
    Act("map-corps", who=MODERATOR, sided=False, back=MAP, open_when=setup_open,
        form=lambda p: f.CorpsForm(p.data, sides=_sides(p)), service=_corps),
    Act("map-march", who=MODERATOR, sided=False, back=MAP, open_when=march_open,
        form=lambda p: f.MarchForm(p.data, corps=_m(p)["corps"]),
        service=lambda p, d: services.march(p.table.pk, p.user, p.form.plan(), hand=d["hand_dice"],
                                            server_rest=d["server_rest"], summary=march_summary)),
    Act("map-halt", who=MODERATOR, sided=False, back=MAP, open_when=setup_open,
        service=lambda p, d: services.night_halt(p.table.pk, p.user, _("Night halt: fatigue markers removed"))),
    Act("map-offer", who=MODERATOR, sided=False, back=MAP, open_when=setup_open,
        form=lambda p: f.OfferForm(p.data, sides=_sides(p)),
        service=lambda p, d: services.offer_battle(p.table.pk, p.user, d["side"], _("%(side)s offers battle") % {
            "side": _names(p)[d["side"]]})),
    Act("map-field", who=MODERATOR, sided=False, back=MAP, open_when=setup_open, form=lambda p: f.FieldForm(p.data),
        service=lambda p, d: services.choose_field(p.table.pk, p.user, d["index"], FIELD())),
    Act("map-deal", who=MODERATOR, sided=False, back=MAP, open_when=deal_open,
        service=lambda p, d: services.deal(p.table.pk, p.user, _(
            "The operational cards dealt: %(n)s to each side") % {"n": sit.HAND_SIZE})),
    Act("map-first", who=MODERATOR, sided=False, back=MAP, open_when=first_open,
        form=lambda p: f.FirstMoveForm(p.data, sides=_sides(p)),
        service=lambda p, d: services.first_move(p.table.pk, p.user, d["side"] or None, _first_summary(_names(p)))),
    Act("map-rule", who=MODERATOR, sided=False, back=MAP, open_when=setup_open,
        form=lambda p: f.CorpsRuleForm(p.data, corps=_m(p)["corps"]),
        service=lambda p, d: services.rule_corps(p.table.pk, p.user, d["corps"], d["cell"], d["tired"], d["reason"],
                                                 _("Moderator's ruling on the corps %(name)s") % {
                                                     "name": corps_name(p.state, d["corps"])})),
    Act("map-undo", who=MODERATOR, sided=False, back=MAP, closed_too=True, form=lambda p: f.ReasonForm(p.data),
        service=lambda p, d: services.undo(p.table.pk, p.user, d["reason"])),
    # a side's acts in the manoeuvring: its player on a tablet, or the moderator for it
    Act("move-target", who=BOTH, back=MAP, open_when=_rules(lambda m, c: services._may_march(m, c.side)), service=_target,
        form=lambda p: f.TargetForm(p.data, corps=own_corps(_m(p), p.side), hand=hand_of(_m(p), p.side), prefix="t")),
    Act("move-untarget", who=BOTH, back=MAP, open_when=_rules(lambda m, c: services._may_march(m, c.side)), service=_untarget,
        form=lambda p: f.CorpsPickForm(p.data, corps=own_corps(_m(p), p.side))),
    Act("move-roll", who=BOTH, back=MAP,
        open_when=_rules(_targets),
        service=lambda p, d: services.roll_marches(p.table.pk, p.user, p.side, march_summary)),
    Act("move-pass", who=BOTH, back=MAP, open_when=_rules(_pass),
        service=lambda p, d: services.end_move(p.table.pk, p.user, p.side, _("%(side)s ends the move") % _who(p))),
    Act("move-halt", who=BOTH, back=MAP, open_when=_rules(_halt),
        service=lambda p, d: services.night_halt(p.table.pk, p.user, _("%(side)s declares the night halt") % _who(p),
                                                 side=p.side)),
    Act("move-offer", who=BOTH, back=MAP, open_when=_rules(_offers),
        service=lambda p, d: services.offer_battle(p.table.pk, p.user, p.side, _("%(side)s offers battle") % _who(p),
                                                   seat=p.seat)),
    Act("move-answer", who=BOTH, back=MAP, open_when=_rules(_answers), form=lambda p: f.AnswerForm(p.data),
        service=_answer),
    Act("move-field", who=BOTH, back=MAP, open_when=setup_open, form=lambda p: f.FieldForm(p.data),
        service=lambda p, d: services.choose_field(p.table.pk, p.user, d["index"], FIELD(), seat=p.seat)),
    Act("move-lay", who=BOTH, back=MAP, open_when=_rules(_lays), service=_lay,
        form=lambda p: f.LayForm(p.data, cards=[c for c in hand_of(_m(p), p.side) or []
                                                if sit.CARD_KIND[c] == "terrain"], prefix="l")),
    Act("move-play", who=BOTH, back=MAP, open_when=_rules(_plays), service=_play,
        form=lambda p: f.PlayForm(p.data, cards=playable(hand_of(_m(p), p.side)), prefix="p")),
]


def _open_first(act: Act) -> Act:
    """The act whose form is read only once the act is open: a closed act says why, not what its form lacks."""
    if act.form is None:
        return act

    def form(p, read=act.form, open_when=act.open_when):
        key = (p.data.get(KEY_FIELD) or "").strip()[:64]
        if key and Press.objects.filter(table=p.table, key=key).exists():
            return read(p)                        # pressed already: the door answers «already done»
        verdict = open_when(p.state, Chair(p.table, p.seat.moderator, p.side))
        if verdict is not True:
            raise Refused(verdict or _("This cannot be done now."))
        return read(p)
    return replace(act, form=form)


ACTS_LIST = [_open_first(a) for a in ACTS_LIST]


def page(request, s, *, refusal: str = "", status: int = 200):
    """The page the act was pressed on (the battle's or the map's), with the refusal, if any."""
    from django.contrib import messages

    from larp.tactical import views
    if refusal and (request.headers.get("X-Requested-With") == "fetch"):
        return HttpResponseBadRequest(refusal, content_type="text/plain; charset=utf-8")
    if refusal:
        messages.error(request, refusal)
        request.tr_refusal = refusal
    name = getattr(request.resolver_match, "url_name", "") or ""
    if name.startswith("manoeuvre"):
        return views.render_map(request, s, status=status)
    return views.render_table(request, s, status=status)


ACTS = Acts(system=SYSTEM, table_url="tactical:table", page=page, state=sel.state_of, acts=ACTS_LIST,
            errors=lambda form: text(form.errors), unknown=gettext_lazy("Unknown action."))


def routed(door):
    """The pages' addresses to the door: the act's name from the address, the side it names into the form."""
    def view(request, game_id: int, table_id: int, action: str, op: str | None = None, side: str | None = None):
        if action == "act" and request.method == "GET" and request.user.is_authenticated:
            require_moderator_seat(request.user, game_id, table_id, system=SYSTEM)
            # «Show the odds» from a page a refused «Resolve» left here: the table's page with the same question
            query = request.GET.urlencode()
            return redirect(reverse("tactical:table", args=[game_id, table_id]) + (f"?{query}" if query else ""))
        if side is not None and request.user.is_authenticated and request.method == "POST":
            s = seat_of(request.user, game_id, table_id, system=SYSTEM)   # (anonymous: the door sends to sign in)
            if not s.may_act_for(side) or not s.table.sides.filter(key=side).exists():
                raise PermissionDenied("Not your side.")
            if request.POST.get("side") not in (None, "", side):
                raise PermissionDenied("The address and the form name different sides.")
            post = request.POST.copy()
            post["side"] = side
            request.POST = post
        return door(request, game_id, table_id, f"{action}-{op}" if op else action)
    return view


door = ACTS.view(wrap=routed)
