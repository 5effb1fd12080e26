"""The pages of a «Тактические правила» table (T39, T40): thin views, forms at the door, services for every write."""
from __future__ import annotations

import json
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from larp.campaign.access import is_moderator
from larp.campaign.models import Game
from larp.tables.access import Seat, require_moderator_seat, seat
from larp.tactical import forms as f
from larp.tactical import selectors as sel
from larp.tactical import services
from larp.tactical import situation as sit
from larp.tactical.labels import (ACTIONS, END_REASONS, TEST_KINDS, card_name, cell_name, corps_name, march_summary,
                                  path_words, terrain_label, unit_label)

SYSTEM = "tactical"


def _seat(request, game_id, table_id) -> Seat:
    return seat(request.user, game_id, table_id, system=SYSTEM)


def _mod(request, game_id, table_id) -> Seat:
    return require_moderator_seat(request.user, game_id, table_id, system=SYSTEM)


def _back(s: Seat) -> HttpResponse:
    return redirect(reverse("tactical:table", args=[s.table.game_id, s.table.pk]))


def _text(errors) -> str:
    """A refusal's reasons as one line: a service's ValidationError, a form's errors, or a text."""
    if isinstance(errors, ValidationError):
        return "; ".join(errors.messages)
    if hasattr(errors, "values"):
        return "; ".join(str(e) for errs in errors.values() for e in errs)
    return str(errors)


def _bad(request, s: Seat | None, errors) -> HttpResponse:
    """Hostile or wrong input: 400 with the reasons in the user's language; nothing was saved."""
    text = _text(errors)
    if request.headers.get("X-Requested-With") == "fetch" or s is None:
        return HttpResponseBadRequest(text, content_type="text/plain; charset=utf-8")
    messages.error(request, text)
    return _render_table(request, s, status=400)


def _unit_choices(state: dict) -> list[dict]:
    return [{"id": u["id"], "side": u["side"], "label": u.get("name") or _("unit")} for u in sit.live_units(state)]


@login_required
@require_http_methods(["GET", "POST"])
def new(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if not is_moderator(request.user, game):
        raise PermissionDenied("Only the game's moderators may do this.")
    factions = list(game.factions.order_by("pk"))
    form = f.NewTableForm(request.POST or None, factions=factions)
    if request.method == "POST":
        if not form.is_valid():
            return render(request, "tactical/new.html", {"game": game, "form": form}, status=400)
        d = form.cleaned_data
        a, b = form.factions[d["side_a"]], form.factions[d["side_b"]]
        table = services.create(game, d["title"], [(a.code, a.name, a), (b.code, b.name, b)], request.user,
                                points_limit=d["points_limit"], army_lists={a.code: d["list_a"], b.code: d["list_b"]})
        return redirect(reverse("tactical:table", args=[game.pk, table.pk]))
    return render(request, "tactical/new.html", {"game": game, "form": form})


def _context(request, s: Seat) -> dict:
    state = sel.state_of(s.table)
    sides = list(s.table.sides.all())
    ctx = {"game": s.table.game, "table": s.table, "seat": s, "state": state, "phase": state["phase"],
           "board": sel.board(s, state), "log": sel.log(s, state), "sides": sides,
           "fingerprint": s.table.dice.fingerprint, "moderator": s.moderator}
    if state["phase"] == "setup":
        armies = []
        for side in sel.sides_for(s):
            view = sel.army_view(s.table, state, side)
            view["unit_form"] = f.UnitForm(army_list=view["doc"]["army_list"], prefix=f"u-{side.key}")
            view["general_form"] = f.GeneralForm(army_list=view["doc"]["army_list"], units=view["doc"]["units"],
                                                 prefix=f"g-{side.key}")
            view["list_form"] = f.ArmyListForm(initial={"army_list": view["doc"]["army_list"]})
            view["entries_json"] = json.dumps(view["entries"], ensure_ascii=False)
            view["suggestion"] = sel.suggested_view(state, side)
            if view["suggestion"]:
                view.update(valid=view["suggestion"]["valid"], status=view["suggestion"]["status"])
            armies.append(view)
        ctx["armies"] = armies
        suggested = [u for side in sides for u in sit.suggested(state, side.key)]
        if s.moderator and suggested:
            ctx["edit_form"] = f.EditUnitForm(units=[{"id": u["id"], "label": u.get("name") or _("unit")}
                                                     for u in suggested])
        ctx["others"] = [(side, sel.army_status(state, side)) for side in sides
                         if not s.moderator and side.key != s.side_key]
    units = _unit_choices(state)
    if s.moderator:
        ctx["action_form"] = f.ActionForm(units=units, initial={"server_rest": False})
        ctx["override_form"] = f.OverrideForm(units=units)
        ctx["end_form"] = f.EndForm(sides=sides)
        ctx["conditions_form"] = f.ConditionsForm(sides=sides, initial=_conditions_initial(state))
        ctx["routed"] = [side.name for side in sides if side.key in sit.routed(state)]
        ctx["turn_form"] = f.TurnForm(sides=sides)
    else:
        own = [u for u in units if u["side"] == s.side_key]
        ctx["odds_form"] = f.ActionForm(units=units)
        ctx["own_units"] = own
    ctx["conditions"] = _conditions_words(state, sides)
    ctx["turn"] = _turn_words(state, sides)
    if state.get("result"):
        ctx["result"] = {"winner": next((x.name for x in sides if x.key == state["result"].get("winner")), None),
                         "ended_by": END_REASONS.get(state["result"].get("ended_by"), ""),
                         "losses": [(x.name, state["result"]["losses"].get(x.key, {})) for x in sides]}
    return ctx


def _turn_words(state: dict, sides) -> dict | None:
    from larp.tactical.labels import TURN_STEPS
    turn = state.get("turn")
    if not turn:
        return None
    return {"number": turn["number"], "side": next((x.name for x in sides if x.key == turn["side"]), ""),
            "step": TURN_STEPS[turn["step"]], "steps": [(str(t), i == turn["step"]) for i, t in enumerate(TURN_STEPS)]}


def _conditions_initial(state: dict) -> dict:
    c = state.get("conditions") or {}
    wind = c.get("wind") or {}
    return {"rain": c.get("rain"), "fog": c.get("fog"), "sun_in_face": (c.get("sun_in_face") or [""])[0],
            "wind": wind.get("strength", ""), "wind_in_face": (wind.get("in_face") or [""])[0],
            "terrain": sit.pieces(state.get("terrain")), "fortified": sit.fortified(state.get("terrain")) or ""}


def _conditions_words(state: dict, sides) -> list[str]:
    from larp.tactical.labels import name
    c = state.get("conditions") or {}
    names = {x.key: x.name for x in sides}
    out = []
    if c.get("rain"):
        out.append(name("weather_effects", "rain"))
    if c.get("fog"):
        out.append(name("weather_effects", "fog"))
    for k in c.get("sun_in_face") or []:
        out.append(_("%(weather)s in the face of %(side)s") % {"weather": name("weather_effects", "sun"),
                                                                 "side": names.get(k, "")})
    wind = c.get("wind")
    if wind:
        out.append(_("%(weather)s in the face of %(side)s") % {
            "weather": name("weather_effects", f"{wind['strength']}_wind"),
            "side": ", ".join(names.get(k, "") for k in wind.get("in_face", []))})
    out += [terrain_label(t, names) for t in state.get("terrain") or []]
    return out


@login_required
@require_GET
def table_page(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    return _render_table(request, _seat(request, game_id, table_id))


def _render_table(request: HttpRequest, s: Seat, status: int = 200) -> HttpResponse:
    s = Seat(type(s.table).objects.select_related("game", "dice").get(pk=s.table.pk), s.moderator, s.side)
    ctx = _context(request, s)
    if s.moderator and request.GET.get("kind"):
        ctx.update(_preview(request, s, ctx["state"]))
    elif not s.moderator and request.GET.get("kind"):
        ctx.update(_player_preview(request, s, ctx["state"]))
    template = "tactical/moderator.html" if s.moderator else "tactical/tablet.html"
    return render(request, template, ctx, status=status)


def _preview(request, s: Seat, state: dict) -> dict:
    form = f.ActionForm(request.GET, units=_unit_choices(state))
    if not form.is_valid():
        return {"action_form": form}
    kind = form.engine_kind()
    payload = form.payload(state)
    odds = services.preview(state, kind, payload)
    refused = [r for r in (odds or {}).get("refused", [])]
    from larp.tactical.labels import refusal_text
    return {"action_form": form,
            "odds": sel.odds_view(state, odds, {x.key: x.name for x in s.table.sides.all()}),
            "odds_refused": [refusal_text(state, r) for r in refused], "previewed": True}


def _player_preview(request, s: Seat, state: dict) -> dict:
    form = f.ActionForm(request.GET, units=_unit_choices(state))
    if not form.is_valid() or form.cleaned_data["kind"] not in ("clash", "volley", "exchange", "melee"):
        return {"odds_form": form}
    own = {u["id"] for u in sit.live_units(state) if u["side"] == s.side_key}
    first = form.cleaned_data.get("attacker") or (form.cleaned_data.get("melee_units") or [None])[0]
    if first not in own:
        return {"odds_form": form, "odds_refused": [_("Choose one of your own units first.")]}
    odds = services.preview(state, form.engine_kind(), form.payload(state))
    from larp.tactical.labels import refusal_text
    return {"odds_form": form, "odds": sel.odds_view(state, odds, {x.key: x.name for x in s.table.sides.all()}),
            "odds_refused": [refusal_text(state, r) for r in (odds or {}).get("refused", [])]}


# ------------------------------------------------------------------------------------------------ army builder
@login_required
@require_POST
def army(request: HttpRequest, game_id: int, table_id: int, side: str, op: str) -> HttpResponse:
    s = _seat(request, game_id, table_id)
    if not s.may_act_for(side):
        raise PermissionDenied("Not your side.")
    if not s.table.sides.filter(key=side).exists():
        raise PermissionDenied("No such side.")
    state = sel.state_of(s.table)
    if state["phase"] != "setup":
        return _bad(request, s, ValidationError(_("The battle has already started.")))
    doc = services.army_of(s.table, state, side)
    general_dice = None
    try:
        if op == "list":
            form = f.ArmyListForm(request.POST)
            if not form.is_valid():
                return _bad(request, s, form.errors)
            chosen = form.cleaned_data["army_list"]

            def change(d):
                d.update(army_list=chosen, units=[], generals=[])
            summary = _("Army list chosen")
        elif op == "unit":
            form = f.UnitForm(request.POST, army_list=doc["army_list"], prefix=f"u-{side}")
            if not form.is_valid():
                return _bad(request, s, form.errors)
            new_unit = form.unit(f"u{uuid.uuid4().hex[:6]}")

            def change(d):
                d["units"].append(new_unit)
            summary = _("Unit «%(name)s» added, %(n)s figures") % {"name": new_unit["name"], "n": new_unit["count"]}
        elif op == "general":
            form = f.GeneralForm(request.POST, army_list=doc["army_list"], units=doc["units"], prefix=f"g-{side}")
            if not form.is_valid():
                return _bad(request, s, form.errors)
            gen = form.general(f"g{uuid.uuid4().hex[:6]}")
            dice = form.cleaned_data["dice"]

            def change(d):
                d["generals"].append(gen)
            general_dice = {"general": gen["id"], "hand": dice or None}
            summary = _("General %(name)s appointed") % {"name": gen["name"]}
        elif op in ("remove-unit", "remove-general"):
            form = f.RemoveForm(request.POST)
            if not form.is_valid():
                return _bad(request, s, form.errors)
            item = form.cleaned_data["item"]
            key = "units" if op == "remove-unit" else "generals"
            if not any(x["id"] == item for x in doc[key]):
                return _bad(request, s, ValidationError(_("No such unit or general.")))

            def change(d):
                d[key] = [x for x in d[key] if x["id"] != item]
                if key == "units":
                    for g in d["generals"]:
                        if g.get("unit") == item:
                            g["unit"] = None
            summary = _("Unit removed from the army") if key == "units" else _("General removed from the army")
        else:
            return HttpResponseBadRequest(_("Unknown action."), content_type="text/plain; charset=utf-8")
        services.save_army(s.table.pk, request.user, side, change, summary,
                           general_dice=general_dice)
    except ValidationError as error:
        return _bad(request, s, error)
    return _back(s)


@login_required
@require_POST
def approve(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    s = _mod(request, game_id, table_id)
    form = f.ApproveForm(request.POST)
    if not form.is_valid() or not s.table.sides.filter(key=form.cleaned_data["side"]).exists():
        return _bad(request, s, ValidationError(_("No such side.")))
    try:
        services.approve(s.table.pk, request.user, form.cleaned_data["side"], form.cleaned_data["approve"])
    except ValidationError as error:
        return _bad(request, s, error)
    return _back(s)


@login_required
@require_POST
def start(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    s = _mod(request, game_id, table_id)
    try:
        services.start(s.table.pk, request.user)
    except ValidationError as error:
        return _bad(request, s, error)
    return _back(s)


@login_required
@require_POST
def conditions(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    s = _mod(request, game_id, table_id)
    form = f.ConditionsForm(request.POST, sides=list(s.table.sides.all()))
    if not form.is_valid():
        return _bad(request, s, form.errors)
    try:
        services.set_conditions(s.table.pk, request.user, form.conditions(), form.terrain_on_table(),
                                _("Weather and terrain set"))
    except ValidationError as error:
        return _bad(request, s, error)
    return _back(s)


# ------------------------------------------------------------------------------------------------ the battle
@login_required
@require_http_methods(["GET", "POST"])
def act(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    s = _mod(request, game_id, table_id)
    if request.method == "GET":       # «Show the odds» from a page a refused «Resolve» left at this address
        query = request.GET.urlencode()
        return redirect(reverse("tactical:table", args=[game_id, table_id]) + (f"?{query}" if query else ""))
    state = sel.state_of(s.table)
    form = f.ActionForm(request.POST, units=_unit_choices(state))
    if not form.is_valid():
        return _bad(request, s, form.errors)
    kind = form.engine_kind()
    payload = form.payload(state)
    names = {x.key: x.name for x in s.table.sides.all()}

    def summary(st: dict, outcome: dict) -> str:
        d = form.cleaned_data
        label = str(ACTIONS.get(d["kind"], ""))
        if d["kind"] == "test":
            label = str(TEST_KINDS.get(d["test_kind"], label))
        who = ", ".join(unit_label(st, u) for u in sit.involved(kind, payload))
        loser = outcome.get("loser")
        tail = (" — " + _("lost: %(side)s") % {"side": names.get(loser, "")}) if loser else ""
        return f"{label}: {who}{tail}" if who else f"{label}{tail}"
    try:
        services.act(s.table.pk, request.user, kind, payload, hand=form.cleaned_data["hand_dice"],
                     server_rest=form.cleaned_data["server_rest"], summary=summary)
    except ValidationError as error:
        return _bad(request, s, error)
    return _back(s)


@login_required
@require_POST
def override(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    s = _mod(request, game_id, table_id)
    state = sel.state_of(s.table)
    form = f.OverrideForm(request.POST, units=[{"id": u["id"], "side": u["side"], "label": u.get("name") or ""}
                                               for u in state["units"]])
    if not form.is_valid():
        return _bad(request, s, form.errors)
    try:
        changes = form.changes()
        uid = form.cleaned_data["unit"]
        summary = (_("The suggested army corrected: %(unit)s") if state["phase"] == "setup" else
                   _("Moderator's ruling on %(unit)s")) % {"unit": unit_label(state, uid)}
        services.override(s.table.pk, request.user, uid, changes, form.cleaned_data["reason"], summary)
    except ValidationError as error:
        return _bad(request, s, error)
    return _back(s)


@login_required
@require_POST
def undo(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    s = _mod(request, game_id, table_id)
    form = f.ReasonForm(request.POST)
    if not form.is_valid():
        return _bad(request, s, form.errors)
    try:
        services.undo(s.table.pk, request.user, form.cleaned_data["reason"])
    except ValidationError as error:
        return _bad(request, s, error)
    return _back(s)


@login_required
@require_POST
def end(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    s = _mod(request, game_id, table_id)
    sides = list(s.table.sides.all())
    form = f.EndForm(request.POST, sides=sides)
    if not form.is_valid():
        return _bad(request, s, form.errors)
    winner = form.cleaned_data["winner"] or None
    name = next((x.name for x in sides if x.key == winner), None)
    summary = (_("The battle is over: %(side)s won") % {"side": name}) if name else _("The battle is over: a draw")
    try:
        services.end(s.table.pk, request.user, winner, form.cleaned_data["ended_by"], summary)
    except ValidationError as error:
        return _bad(request, s, error)
    return _back(s)


@login_required
@require_GET
def projector(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    s = _mod(request, game_id, table_id)
    state = sel.state_of(s.table)
    return render(request, "tactical/projector.html", {
        "table": s.table, "game": s.table.game, "board": sel.board(s, state), "log": sel.log(s, state)[:6],
        "fingerprint": s.table.dice.fingerprint, "conditions": _conditions_words(state, list(s.table.sides.all())),
        "phase": state["phase"]})


# ------------------------------------------------------------------------------------------------ printing
@login_required
@require_GET
def print_roster(request: HttpRequest, game_id: int, table_id: int, side: str, what: str) -> HttpResponse:
    from larp.sheets.renderers.tactical_sheets import CardsRenderer, RosterRenderer
    from larp.tactical import printing
    s = _seat(request, game_id, table_id)
    if not s.may_act_for(side):
        raise PermissionDenied("Not your side.")
    found = next((x for x in s.table.sides.all() if x.key == side), None)
    if found is None:
        raise PermissionDenied("No such side.")
    if what not in ("roster", "cards"):
        raise Http404("No such document.")
    data = printing.roster(s.table, sel.state_of(s.table), found)
    renderer = RosterRenderer if what == "roster" else CardsRenderer
    filename, mimetype, content = renderer(data).generate()
    response = HttpResponse(content, content_type=mimetype)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@login_required
@require_GET
def print_record(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    from larp.sheets.renderers.tactical_sheets import RecordRenderer
    from larp.tactical import printing
    s = _seat(request, game_id, table_id)
    state = sel.state_of(s.table)
    if not s.moderator and state["phase"] == "setup":
        raise PermissionDenied("The record is printed once the battle starts.")
    filename, mimetype, content = RecordRenderer(printing.record(s, state)).generate()
    response = HttpResponse(content, content_type=mimetype)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


# ------------------------------------------------------------------------------------------------ manoeuvring
MAP_LOG_KINDS = set(sit.MANOEUVRE_KINDS) | {"setup", "override"}


def _own_corps(m: dict, side: str) -> list[dict]:
    return [c for c in m["corps"] if c["side"] == side]


def _hand(m: dict, side: str) -> list[str] | None:
    """The side's hand when hands are dealt (None: the cards are on a physical table, nothing is checked)."""
    return list(m["hands"].get(side) or []) if m["hands"] else None


def _playable(hand: list[str] | None) -> list[str]:
    return [c for c in hand or [] if sit.CARD_KIND[c] != "terrain" and c not in sit.MARCH_CARDS.values()]


def _render_map(request, s: Seat, status: int = 200) -> HttpResponse:
    state = sel.state_of(s.table)
    sides = list(s.table.sides.all())
    m = sit.strategic(state)
    ctx = {"game": s.table.game, "table": s.table, "seat": s, "phase": state["phase"], "moderator": s.moderator,
           "map": sel.strategic_view(s, state), "fingerprint": s.table.dice.fingerprint,
           "log": [x for x in sel.log(s, state) if x["kind"] in MAP_LOG_KINDS]}
    if s.moderator:
        ctx.update(cell_form=f.CellForm(), weather_form=f.WeatherForm(initial={"weather": m["weather"],
                                                                               "flood": m["flood"]}),
                   corps_form=f.CorpsForm(sides=sides), march_form=f.MarchForm(corps=m["corps"]),
                   offer_form=f.OfferForm(sides=sides), first_form=f.FirstMoveForm(sides=sides),
                   rule_form=f.CorpsRuleForm(corps=m["corps"]))
    else:
        mine = s.side_key
        hand = _hand(m, mine)
        marched = set((m["move"] or {}).get("marched") or [])
        fresh = [c for c in _own_corps(m, mine) if not c["tired"] and c["id"] not in marched]
        ctx.update(target_form=f.TargetForm(corps=fresh, hand=hand, prefix="t"),
                   lay_form=f.LayForm(cards=[c for c in hand or [] if sit.CARD_KIND[c] == "terrain"], prefix="l"),
                   play_form=f.PlayForm(cards=_playable(hand), prefix="p"), playable=bool(_playable(hand)))
    return render(request, "tactical/manoeuvre.html", ctx, status=status)


def _map_back(s: Seat) -> HttpResponse:
    return redirect(reverse("tactical:manoeuvre", args=[s.table.game_id, s.table.pk]))


def _map_bad(request, s: Seat, errors) -> HttpResponse:
    messages.error(request, _text(errors))
    return _render_map(request, s, status=400)


def _clean(form) -> dict:
    """The form's data, or its errors raised as the refusal the manoeuvring's acts answer (400, nothing saved)."""
    if not form.is_valid():
        raise ValidationError(_text(form.errors))
    return form.cleaned_data


@login_required
@require_GET
def manoeuvre(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    return _render_map(request, _seat(request, game_id, table_id))


def _first_summary(names: dict):
    def summary(first: str, rolls: list) -> str:
        if not rolls:
            return _("%(side)s moves first (rolled at the table)") % {"side": names.get(first, "")}
        return _("%(side)s moves first: the roll %(a)s against %(b)s") % {
            "side": names.get(first, ""), "a": max(rolls[-1]), "b": min(rolls[-1])}
    return summary


@login_required
@require_POST
def manoeuvre_act(request: HttpRequest, game_id: int, table_id: int, op: str) -> HttpResponse:
    """The moderator's acts on the map: lay cards, weather, corps, marches with dice by hand or by the server, the
    night halt, an offer for a side, the field, the deal, the first move, a ruling on a corps, undo."""
    s = _mod(request, game_id, table_id)
    state = sel.state_of(s.table)
    sides = list(s.table.sides.all())
    names = {x.key: x.name for x in sides}
    m = sit.strategic(state)
    try:
        if op == "cell":
            form = f.CellForm(request.POST)
            _clean(form)
            r, c = form.cleaned_data["cell"]
            card, path = form.cleaned_data["card"], form.cleaned_data["path"]

            def change(mp):
                mp["grid"][r][c] = card
                mp["paths"] = [p for p in mp["paths"] if p != [r, c]] + ([[r, c]] if path else [])
            services.edit_map(s.table.pk, request.user, change, _("Card laid on %(cell)s: %(card)s") % {
                "cell": cell_name([r, c]), "card": card_name(card) if card != "clear" else _("clear ground")})
        elif op == "weather":
            form = f.WeatherForm(request.POST)
            _clean(form)
            weather, flood = form.cleaned_data["weather"], form.cleaned_data["flood"]

            def change(mp):
                mp["weather"], mp["flood"] = list(weather), bool(flood)
            services.edit_map(s.table.pk, request.user, change, _("Weather on the map set"))
        elif op == "corps":
            form = f.CorpsForm(request.POST, sides=sides)
            _clean(form)
            d = form.cleaned_data
            corps = {"id": f"c{uuid.uuid4().hex[:6]}", "name": d["name"].strip(), "side": d["side"],
                     "cell": d["cell"], "tired": False, "mounted": bool(d["mounted"])}

            def change(mp):
                mp["corps"].append(corps)
            services.edit_map(s.table.pk, request.user, change, _("Corps %(name)s placed") % {"name": corps["name"]},
                              side=corps["side"])
        elif op == "march":
            form = f.MarchForm(request.POST, corps=m["corps"])
            _clean(form)
            services.march(s.table.pk, request.user, form.plan(), hand=form.cleaned_data["hand_dice"],
                           server_rest=form.cleaned_data["server_rest"], summary=march_summary)
        elif op == "halt":
            services.night_halt(s.table.pk, request.user, _("Night halt: fatigue markers removed"))
        elif op == "offer":
            form = f.OfferForm(request.POST, sides=sides)
            _clean(form)
            side = form.cleaned_data["side"]
            services.offer_battle(s.table.pk, request.user, side, _("%(side)s offers battle") % {"side": names[side]})
        elif op == "field":
            form = f.FieldForm(request.POST)
            _clean(form)
            services.choose_field(s.table.pk, request.user, form.cleaned_data["index"],
                                  _("The battlefield chosen: its terrain and weather set for the battle"))
        elif op == "deal":
            services.deal(s.table.pk, request.user, _("The operational cards dealt: %(n)s to each side") % {
                "n": sit.HAND_SIZE})
        elif op == "first":
            form = f.FirstMoveForm(request.POST, sides=sides)
            _clean(form)
            services.first_move(s.table.pk, request.user, form.cleaned_data["side"] or None, _first_summary(names))
        elif op == "rule":
            form = f.CorpsRuleForm(request.POST, corps=m["corps"])
            _clean(form)
            d = form.cleaned_data
            services.rule_corps(s.table.pk, request.user, d["corps"], d["cell"], d["tired"], d["reason"],
                                _("Moderator's ruling on the corps %(name)s") % {
                                    "name": corps_name(state, d["corps"])})
        elif op == "undo":
            form = f.ReasonForm(request.POST)
            _clean(form)
            services.undo(s.table.pk, request.user, form.cleaned_data["reason"])
        else:
            return HttpResponseBadRequest(_("Unknown action."), content_type="text/plain; charset=utf-8")
    except ValidationError as error:
        return _map_bad(request, s, error)
    return _map_back(s)


@login_required
@require_POST
def manoeuvre_side(request: HttpRequest, game_id: int, table_id: int, side: str, op: str) -> HttpResponse:
    """A side's acts in the manoeuvring (T40): by its player on a tablet, or by the moderator for it. Marks march
    targets and rolls them, ends the move, declares the night halt, offers, answers an offer, chooses the field,
    lays a terrain card and plays a card from the hand. The services enforce the order of the rules."""
    s = _seat(request, game_id, table_id)
    if not s.may_act_for(side):
        raise PermissionDenied("Not your side.")
    found = next((x for x in s.table.sides.all() if x.key == side), None)
    if found is None:
        raise PermissionDenied("No such side.")
    state = sel.state_of(s.table)
    m = sit.strategic(state)
    who = {"side": found.name}
    pk, user = s.table.pk, request.user
    try:
        if op == "target":
            form = f.TargetForm(request.POST, corps=_own_corps(m, side), hand=_hand(m, side), prefix="t")
            _clean(form)
            services.mark_target(pk, user, side, form.cleaned_data["corps"], form.plan(), seat=s, summary=lambda p: _(
                "%(side)s marks the target of %(corps)s: %(path)s, cost %(cost)s") % {
                **who, "corps": corps_name(state, p["corps"]), "path": path_words(p["steps"]), "cost": p["cost"]})
        elif op == "untarget":
            form = f.CorpsPickForm(request.POST, corps=_own_corps(m, side))
            _clean(form)
            services.mark_target(pk, user, side, form.cleaned_data["corps"], None, seat=s, summary=lambda p: _(
                "%(side)s takes the target of %(corps)s off") % {**who, "corps": corps_name(state, p["corps"])})
        elif op == "roll":
            services.roll_marches(pk, user, side, march_summary)
        elif op == "pass":
            services.end_move(pk, user, side, _("%(side)s ends the move") % who)
        elif op == "halt":
            services.night_halt(pk, user, _("%(side)s declares the night halt") % who, side=side)
        elif op == "offer":
            services.offer_battle(pk, user, side, _("%(side)s offers battle") % who, seat=s)
        elif op == "answer":
            form = f.AnswerForm(request.POST)
            _clean(form)
            accept = form.cleaned_data["answer"] == "accept"
            services.answer_offer(pk, user, side, accept, (_("%(side)s accepts battle") if accept else
                                                           _("%(side)s refuses battle")) % who)
        elif op == "field":
            form = f.FieldForm(request.POST)
            _clean(form)
            services.choose_field(pk, user, form.cleaned_data["index"],
                                  _("The battlefield chosen: its terrain and weather set for the battle"), seat=s)
        elif op == "lay":
            hand = _hand(m, side) or []
            form = f.LayForm(request.POST, cards=[c for c in hand if sit.CARD_KIND[c] == "terrain"], prefix="l")
            _clean(form)
            card, cell = form.cleaned_data["card"], form.cleaned_data["cell"]
            services.lay_card(pk, user, side, card, cell, _("%(side)s lays the card «%(card)s» on %(cell)s") % {
                **who, "card": card_name(card), "cell": cell_name(cell)})
        elif op == "play":
            form = f.PlayForm(request.POST, cards=_playable(_hand(m, side)), prefix="p")
            _clean(form)
            card, cell = form.cleaned_data["card"], form.cleaned_data["cell"]
            services.play_card(pk, user, side, card, cell, _("%(side)s plays the card «%(card)s»") % {
                **who, "card": card_name(card)} + (f" ({cell_name(cell)})" if cell else ""))
        else:
            return HttpResponseBadRequest(_("Unknown action."), content_type="text/plain; charset=utf-8")
    except ValidationError as error:
        return _map_bad(request, s, error)
    return _map_back(s)


@login_required
@require_GET
def print_sheet(request: HttpRequest, game_id: int, table_id: int, what: str) -> HttpResponse:
    """The quick-reference sheet, the blank army list form, the operational cards (anyone at the table) and the
    battlefield sheet (the moderator's: it shows both sides' corps' field)."""
    from larp.sheets.renderers.tactical_sheets import (BattlefieldRenderer, BlankListRenderer, CardsDeckRenderer,
                                                       ReferenceRenderer)
    from larp.tactical import printing
    s = _seat(request, game_id, table_id)
    if what == "cards":
        filename, mimetype, content = CardsDeckRenderer({**printing.operational_cards(),
                                                         "game": s.table.game.title}).generate()
    elif what == "battlefield":
        if not s.moderator:
            raise PermissionDenied("The map before the battle is the moderator's.")
        filename, mimetype, content = BattlefieldRenderer(printing.battlefield(s.table, sel.state_of(s.table))).generate()
    elif what == "reference":
        data = {**printing.reference(), "game": s.table.game.title}
        filename, mimetype, content = ReferenceRenderer(data).generate()
    elif what == "army-list":
        data = {"game": s.table.game.title, "table": s.table.title,
                "limit": s.table.setup.get("points_limit") or sit.DEFAULT_LIMIT}
        filename, mimetype, content = BlankListRenderer(data).generate()
    else:
        raise Http404("No such document.")
    response = HttpResponse(content, content_type=mimetype)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@login_required
@require_POST
def turn(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    from larp.tactical.labels import TURN_STEPS
    s = _mod(request, game_id, table_id)
    sides = list(s.table.sides.all())
    form = f.TurnForm(request.POST, sides=sides)
    if not form.is_valid():
        return _bad(request, s, form.errors)
    names = {x.key: x.name for x in sides}

    def summary(t: dict) -> str:
        return _("Turn %(n)s, %(side)s: %(step)s") % {"n": t["number"], "side": names.get(t["side"], ""),
                                                      "step": TURN_STEPS[t["step"]]}
    try:
        services.advance_turn(s.table.pk, request.user, form.cleaned_data["first"] or None, summary)
    except ValidationError as error:
        return _bad(request, s, error)
    return _back(s)
