"""The pages of a «Тактические правила» table (T39, T40): the table, the map, the projector, «new table» and the
prints. Every act pressed at the table is declared in `larp/tactical/acts.py` and served by the tables' door."""
from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from larp.campaign.access import is_moderator
from larp.campaign.models import Game
from larp.tables.access import Seat, require_moderator_seat, seat
from larp.tactical import forms as f
from larp.tactical import rosters
from larp.tactical import selectors as sel
from larp.tactical import services
from larp.tactical import situation as sit
from larp.tactical.acts import ACTS, hand_of, own_corps, playable, unit_choices
from larp.tactical.labels import END_REASONS, terrain_label

SYSTEM = "tactical"


def _seat(request, game_id, table_id) -> Seat:
    return seat(request.user, game_id, table_id, system=SYSTEM)


def _mod(request, game_id, table_id) -> Seat:
    return require_moderator_seat(request.user, game_id, table_id, system=SYSTEM)


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
            lst = view["doc"]["army_list"]
            pressed = _pressed(request, side.key)
            view["unit_form"] = f.UnitForm(request.POST if pressed == "unit" else None, army_list=lst,
                                           prefix=f"u-{side.key}")
            by_id = {u["id"]: u for u in view["doc"]["units"]}
            for u in view["units"]:
                again = pressed == "edit-unit" and request.POST.get("item") == u["id"]
                u["edit_form"] = f.UnitEditForm(request.POST if again else None, army_list=lst, item=u["id"],
                                                initial=None if again else rosters.unit_data(by_id[u["id"]]))
                u["editing"] = again
            view["pressed"], view["refusal"] = pressed, getattr(request, "tr_refusal", "") if pressed else ""
            mine = list(rosters.visible(request.user, s.table.game))
            view["rosters"] = mine
            view["save_form"] = f.SaveRosterForm(request.POST if pressed == "save" else None, prefix=f"s-{side.key}")
            view["load_form"] = f.LoadRosterForm(rosters=mine)
            view["import_form"] = f.ImportArmyForm(prefix=f"i-{side.key}")
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
    units = unit_choices(state)
    if s.moderator:
        ctx["action_form"] = f.ActionForm(units=units, initial={"server_rest": False})
        ctx["override_form"] = f.OverrideForm(units=units)
        # T29: when every unit of one side has fled or been destroyed, the end is offered as the engine's state says
        routed = sit.routed(state)
        standing = [x.key for x in sides if x.key not in routed]
        ctx["end_form"] = f.EndForm(sides=sides, initial={"winner": standing[0] if len(standing) == 1 else "",
                                                          "ended_by": "rout"} if routed else None)
        ctx["conditions_form"] = f.ConditionsForm(sides=sides, initial=_conditions_initial(state))
        ctx["routed"] = [side.name for side in sides if side.key in routed]
        ctx["turn_form"] = f.TurnForm(sides=sides)
        ctx["owing"] = [{"id": u["id"], "name": u.get("name") or _("unit")} for u in sit.owing_t16(state)]
        ctx["mercenaries"] = [{"id": u["id"], "name": u.get("name") or _("unit"),
                               "general": (u.get("general") or {}).get("name") or ""}
                              for u in sit.mercenaries_due(state)]
    else:
        own = [u for u in units if u["side"] == s.side_key]
        ctx["odds_form"] = f.ActionForm(units=units)
        ctx["own_units"] = own
    ctx["open"] = ACTS.open_any(state, s.table, s.moderator, s.side_key)
    if s.moderator:
        ctx["head"] = sel.frame_head(s.table, state, sides, ctx["open"])
    ctx["conditions"] = _conditions_words(state, sides)
    ctx["turn"] = _turn_words(state, sides)
    if not s.moderator and s.table.is_open and state.get("phase") == "battle" \
            and (state.get("turn") or {}).get("side") == s.side_key:
        ctx["your_move"] = True   # the battle's turn is run by the moderator: the side that moves is told so
    if state.get("result"):
        ctx["result"] = {"winner": next((x.name for x in sides if x.key == state["result"].get("winner")), None),
                         "ended_by": END_REASONS.get(state["result"].get("ended_by"), ""),
                         "losses": [(x.name, state["result"]["losses"].get(x.key, {})) for x in sides]}
    return ctx


def _pressed(request, side: str) -> str:
    """The builder's act refused on this side just now (the page re-rendered at the door): its form comes back
    filled with what was typed in."""
    match = getattr(request, "resolver_match", None)
    if request.method != "POST" or match is None or match.kwargs.get("side") != side:
        return ""
    return match.kwargs.get("op") or ""


@login_required
@require_GET
def export_army(request: HttpRequest, game_id: int, table_id: int, side: str) -> HttpResponse:
    """The side's army at this table as a file (JSON, docs/tactical-rules.md)."""
    s = _seat(request, game_id, table_id)
    if not s.may_act_for(side) or not s.table.sides.filter(key=side).exists():
        raise PermissionDenied("Not your side.")
    state = sel.state_of(s.table)
    doc = services.army_of(s.table, state, side)
    name = s.table.sides.get(key=side).name
    return _army_file(rosters.document(doc, f"{s.table.title} — {name}"), f"army-{s.table.pk}-{side}")


@login_required
@require_GET
def export_roster(request: HttpRequest, game_id: int, table_id: int, roster_id: int) -> HttpResponse:
    """A saved army of the user's as a file."""
    s = _seat(request, game_id, table_id)
    roster = get_object_or_404(rosters.visible(request.user, s.table.game), pk=roster_id)
    return _army_file(roster.army, f"army-{roster.pk}")


def _army_file(doc: dict, stem: str) -> HttpResponse:
    response = HttpResponse(json.dumps(doc, ensure_ascii=False, indent=2), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{stem}.json"'
    return response


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
    return render_table(request, _seat(request, game_id, table_id))


def render_table(request: HttpRequest, s: Seat, status: int = 200) -> HttpResponse:
    s = Seat(type(s.table).objects.select_related("game", "dice").get(pk=s.table.pk), s.moderator, s.side)
    ctx = _context(request, s)
    if s.moderator and request.GET.get("kind"):
        ctx.update(_preview(request, s, ctx["state"]))
    elif not s.moderator and request.GET.get("kind"):
        ctx.update(_player_preview(request, s, ctx["state"]))
    template = "tactical/moderator.html" if s.moderator else "tactical/tablet.html"
    return render(request, template, ctx, status=status)


def _preview(request, s: Seat, state: dict) -> dict:
    form = f.ActionForm(request.GET, units=unit_choices(state))
    if not form.is_valid():
        return {"action_form": form}
    kind = form.engine_kind()
    payload = form.payload(state)
    odds = services.preview(state, kind, payload)
    refused = [r for r in (odds or {}).get("refused", [])]
    from larp.tactical.labels import refusal_text
    return {"action_form": form,
            "odds": sel.odds_view(state, odds, {x.key: x.name for x in s.table.sides.all()}),
            "odds_refused": [refusal_text(state, r) for r in refused], "previewed": kind != "test"}


def _player_preview(request, s: Seat, state: dict) -> dict:
    form = f.ActionForm(request.GET, units=unit_choices(state))
    if not form.is_valid() or form.cleaned_data["kind"] not in ("clash", "volley", "exchange", "melee"):
        return {"odds_form": form}
    own = {u["id"] for u in sit.live_units(state) if u["side"] == s.side_key}
    first = form.cleaned_data.get("attacker") or (form.cleaned_data.get("melee_units") or [None])[0]
    if first not in own:
        return {"odds_form": form, "odds_refused": [_("Choose one of your own units first.")]}
    odds = services.preview(state, form.engine_kind(), form.payload(state))
    from larp.tactical.labels import refusal_text
    return {"odds_form": form, "odds": sel.odds_view(state, odds, {x.key: x.name for x in s.table.sides.all()}),
            "odds_refused": [refusal_text(state, r, codes=False) for r in (odds or {}).get("refused", [])]}


# ------------------------------------------------------------------------------------------------ the battle
@login_required
@require_GET
def projector(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    s = _mod(request, game_id, table_id)
    state = sel.state_of(s.table)
    return render(request, "tactical/projector.html", {
        "table": s.table, "game": s.table.game, "board": sel.board(s, state), "log": sel.log(s, state)[:6],
        "fingerprint": s.table.dice.fingerprint, "conditions": _conditions_words(state, list(s.table.sides.all())),
        "phase": state["phase"], "head": sel.frame_head(s.table, state, list(s.table.sides.all()), set())})


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


def render_map(request, s: Seat, status: int = 200) -> HttpResponse:
    state = sel.state_of(s.table)
    sides = list(s.table.sides.all())
    m = sit.strategic(state)
    ctx = {"game": s.table.game, "table": s.table, "seat": s, "phase": state["phase"], "moderator": s.moderator,
           "map": sel.strategic_view(s, state), "fingerprint": s.table.dice.fingerprint,
           "log": [x for x in sel.log(s, state) if x["kind"] in MAP_LOG_KINDS],
           "open": ACTS.open_any(state, s.table, s.moderator, s.side_key),
           # A button that acts for one side (the moderator's «roll the marches of …», «end the move of …») is
           # drawn only when that act is open for that very side.
           "open_by_side": {key: ACTS.open_for(state, s.table, s.moderator, key) for key in
                            (ACTS.sides(s.table) if s.moderator else [s.side_key])}}
    if s.moderator:
        ctx.update(cell_form=f.CellForm(), weather_form=f.WeatherForm(initial={"weather": m["weather"],
                                                                               "flood": m["flood"]}),
                   corps_form=f.CorpsForm(sides=sides), march_form=f.MarchForm(corps=m["corps"]),
                   offer_form=f.OfferForm(sides=sides), first_form=f.FirstMoveForm(sides=sides),
                   rule_form=f.CorpsRuleForm(corps=m["corps"]))
    else:
        mine = s.side_key
        hand = hand_of(m, mine)
        marched = set((m["move"] or {}).get("marched") or [])
        fresh = [c for c in own_corps(m, mine) if not c["tired"] and c["id"] not in marched]
        ctx.update(target_form=f.TargetForm(corps=fresh, hand=hand, prefix="t"),
                   lay_form=f.LayForm(cards=[c for c in hand or [] if sit.CARD_KIND[c] == "terrain"], prefix="l"),
                   play_form=f.PlayForm(cards=playable(hand), prefix="p"), playable=bool(playable(hand)))
    return render(request, "tactical/manoeuvre.html", ctx, status=status)


@login_required
@require_GET
def manoeuvre(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    return render_map(request, _seat(request, game_id, table_id))


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
