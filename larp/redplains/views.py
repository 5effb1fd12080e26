"""Red Plains pages: the new battle, the table (moderator's console or a side's tablet), the projector, the acts,
the printed sheets. Views are thin: the seat (larp.tables.access), a form at the door, a service, a redirect."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from larp.campaign.access import is_moderator
from larp.campaign.models import Game
from larp.redplains import forms as f
from larp.redplains import calculator, labels, printing, selectors, services
from larp.redplains import situation as sit
from larp.tables.access import require_moderator_seat, seat

SYSTEM = "red-plains"


def _seat(request, game_id, table_id):
    s = seat(request.user, game_id, table_id, system=SYSTEM)
    if not services.playable(s.table):
        raise NotReady(s)
    return s


class NotReady(Exception):
    """A table of this system whose setup has no armies, or whose sides are not north and south."""

    def __init__(self, s):
        super().__init__("not ready")
        self.seat = s


def not_ready(view):
    """A table that cannot be played (made elsewhere without armies): say so, in the user's language."""
    def wrapped(request, game_id, table_id, *args, **kwargs):
        try:
            return view(request, game_id, table_id, *args, **kwargs)
        except NotReady:
            return render(request, "redplains/refused.html",
                          {"message": labels.REFUSALS["not_ready"], "back": reverse("tables:list", args=[game_id])},
                          status=409)
    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


def _back(game_id, table_id):
    return redirect(reverse("redplains:table", args=[game_id, table_id]))


def _refused(request, message: str, game_id: int, table_id: int | None = None) -> HttpResponse:
    back = reverse("redplains:table", args=[game_id, table_id]) if table_id else None
    return render(request, "redplains/refused.html", {"message": message, "back": back}, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def new(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if not is_moderator(request.user, game):
        raise PermissionDenied("Only the game's moderators may set up a battle.")
    form = f.NewTableForm(request.POST or None, game=game, initial=f.DEFAULT_ARMIES)
    if request.method == "POST":
        if not form.is_valid():
            return render(request, "redplains/new.html", _new_ctx(game, form), status=400)
        d = form.cleaned_data
        try:
            table = services.create(game, request.user, d["title"],
                                    [("north", d["north_name"], d["north_faction"]),
                                     ("south", d["south_name"], d["south_faction"])], form.setup())
        except ValidationError as error:
            form.add_error(None, error)
            return render(request, "redplains/new.html", _new_ctx(game, form), status=400)
        return redirect(reverse("redplains:table", args=[game.pk, table.pk]))
    return render(request, "redplains/new.html", _new_ctx(game, form))


CALCULATORS = {"melee": ("m", f.MeleeCalcForm, calculator.melee), "volley": ("v", f.VolleyCalcForm, calculator.volley),
               "command": ("c", f.CommandCalcForm, lambda form: calculator.command(form.cleaned_data["rerolls"]))}


@login_required
@require_GET
def calc(request: HttpRequest, game_id: int) -> HttpResponse:
    """W42.1: the melee, volley and command-roll calculators with exact odds (W41.7), usable without a board."""
    game = get_object_or_404(Game, pk=game_id)
    if not is_moderator(request.user, game):
        raise PermissionDenied("Only the game's moderators use the calculators.")
    which = request.GET.get("calc")
    forms = {name: cls(request.GET if name == which else None, prefix=prefix, initial=f.CALC_INITIAL[prefix])
             for name, (prefix, cls, _run) in CALCULATORS.items()}
    ctx = {"game": game, "forms": forms, "which": which, "result": None, "error": None}
    if which is None:
        return render(request, "redplains/calc.html", ctx)
    if which not in CALCULATORS:
        ctx["error"] = str(labels.REFUSALS["unknown_step"])
        return render(request, "redplains/calc.html", ctx, status=400)
    form = forms[which]
    if not form.is_valid():
        ctx["error"] = f.errors_text(form)
        return render(request, "redplains/calc.html", ctx, status=400)
    try:
        ctx["result"] = CALCULATORS[which][2](form)
    except calculator.CaseError:
        ctx["error"] = str(labels.REFUSALS["calc_impossible"])
        return render(request, "redplains/calc.html", ctx, status=400)
    return render(request, "redplains/calc.html", ctx)


def _new_ctx(game, form) -> dict:
    sides = [(side, form[f"{side}_name"], form[f"{side}_faction"], form[f"{side}_messengers"], form[f"{side}_shinobi"],
              form.army_rows(side), form.general_rows(side), form.banner_boxes(side)) for side in sit.SIDES]
    return {"game": game, "form": form, "sides": sides}


@login_required
@require_GET
@not_ready
def table(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    s = _seat(request, game_id, table_id)
    ctx = selectors.page(s.table, s)
    ctx.update({"table": s.table, "game": s.table.game, "seat": s})
    return render(request, "redplains/moderator.html" if s.moderator else "redplains/tablet.html", ctx)


@login_required
@require_GET
@not_ready
def projector(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    s = require_moderator_seat(request.user, game_id, table_id, system=SYSTEM)
    if not services.playable(s.table):
        raise NotReady(s)
    ctx = selectors.projector(s.table)
    ctx.update({"table": s.table, "game": s.table.game})
    return render(request, "redplains/projector.html", ctx)


def _side(request, s, form) -> str:
    """The side a post acts for: a player's own; the moderator's pick."""
    if not s.moderator:
        return s.side_key
    side = form.cleaned_data.get("side")
    if side not in sit.SIDES:
        raise ValidationError(str(labels.REFUSALS["unknown_step"]))
    return side


def _hand(s, values: list[int] | None) -> list[int] | None:
    """Dice typed in at the table are the moderator's to enter; players roll by the server."""
    if values is not None and not s.moderator:
        raise PermissionDenied("Players roll by the server; the moderator types in dice rolled at the table.")
    return values


@login_required
@require_POST
@not_ready
def act(request: HttpRequest, game_id: int, table_id: int, action: str) -> HttpResponse:
    s = _seat(request, game_id, table_id)
    t = s.table
    state = services.current(t)
    try:
        if action in ("deploy", "confirm", "stake", "roll", "orders", "stop", "scout", "leader", "shinobi"):
            if action == "deploy":
                side = s.side_key or request.POST.get("side")
                mine = [u["id"] for u in state["units"] if u["side"] == side]
                form = f.DeployForm(request.POST, units=mine, zone=sit.zone(side) if side in sit.SIDES else [])
            elif action == "stake":
                form = f.StakeForm(request.POST)
            elif action == "scout":
                form = f.ScoutForm(request.POST, cells=[c["id"] for c in sit.table_cells(t.setup, state)])
            elif action == "roll":
                form = f.RollForm(request.POST)
            elif action == "shinobi":
                side = s.side_key or request.POST.get("side")
                form = f.ShinobiForm(request.POST, targets=[u["id"] for u in sit.visible_enemies(t.setup, state, side)]
                                     if side in sit.SIDES else [])
            elif action == "orders":
                side = s.side_key or request.POST.get("side")
                if side not in sit.SIDES or state["phase"] not in (sit.COMMAND, sit.SIGNALS) or \
                        not state["command"][side]["result"]:
                    raise sit.StepRefused("no_roll_yet")
                form = f.OrdersForm(request.POST, pickers=selectors.order_pickers(t, state, side))
            elif action == "leader":
                side = s.side_key or request.POST.get("side")
                if side not in sit.SIDES or state["phase"] != sit.COMMAND:
                    raise sit.StepRefused("not_command")
                form = f.LeaderForm(request.POST, board=sit.leader_board(t.setup, state, side))
            else:
                form = f.SideForm(request.POST)
            if not form.is_valid():
                return _refused(request, f.errors_text(form), game_id, table_id)
            side = _side(request, s, form)
            if action == "deploy":
                services.deploy(t.pk, request.user, side, form.placed(), form.cleaned_data.get("infiltrate") or 0)
            elif action == "confirm":
                services.confirm(t.pk, request.user, side)
            elif action == "stop":
                services.stop(t.pk, request.user, side)
            elif action == "shinobi":
                d = form.cleaned_data
                hand = _hand(s, d.get("values") if d["task"] == "sabotage" and d.get("source") == "hand" else None)
                services.shinobi(t.pk, request.user, side, d["task"], d.get("unit") or None, hand=hand)
            elif action == "scout":
                services.scout(t.pk, request.user, side, form.cleaned_data["cells"])
            elif action == "stake":
                services.stake(t.pk, request.user, side, form.cleaned_data["stake"])
            elif action == "leader":
                services.move_leader(t.pk, request.user, side, form.cleaned_data["leader"], form.cleaned_data["unit"])
            elif action == "roll":
                hand = _hand(s, form.cleaned_data.get("values") if form.cleaned_data["source"] == "hand" else None)
                services.roll(t.pk, request.user, side, hand=hand)
            else:
                services.give_orders(t.pk, request.user, side, form.orders(),
                                     general_retreat=form.cleaned_data.get("general_retreat", False),
                                     banners=form.banners(), withdraw=form.withdraw())
        else:
            if not s.moderator:
                raise PermissionDenied("Only the game's moderators may do this.")
            if action == "dice":
                form = f.DiceForm(request.POST)
                if not form.is_valid():
                    return _refused(request, f.errors_text(form), game_id, table_id)
                hand = form.cleaned_data.get("values") if form.cleaned_data["source"] == "hand" else None
                services.execution_dice(t.pk, request.user, hand=hand)
            elif action == "execute":
                services.execute(t.pk, request.user)
            elif action == "undo":
                form = f.ReasonForm(request.POST)
                if not form.is_valid():
                    return _refused(request, f.errors_text(form), game_id, table_id)
                services.undo(t.pk, request.user, form.cleaned_data["reason"])
            elif action == "roster":
                form = f.RosterForm(request.POST)
                if not form.is_valid():
                    return _refused(request, f.errors_text(form), game_id, table_id)
                services.edit_roster(t.pk, request.user, form.payload())
            elif action == "plan":
                side = request.POST.get("side")
                form = f.PlanForm(request.POST, units=[u["id"] for u in state["units"] if u["side"] == side])
                if not form.is_valid():
                    return _refused(request, f.errors_text(form), game_id, table_id)
                d = form.cleaned_data
                services.cunning_plan(t.pk, request.user, _side(request, s, form), d.get("kind") or None,
                                      d.get("count") or 0, d["reason"], unit=d.get("unit") or None,
                                      note=d.get("next") or "")
            elif action == "traits":
                form = f.LeaderTraitsForm(request.POST, leaders=selectors.all_leaders(t, state))
                if not form.is_valid():
                    return _refused(request, f.errors_text(form), game_id, table_id)
                services.edit_roster(t.pk, request.user, {"leader": form.cleaned_data["leader"],
                                                          "traits": form.cleaned_data["traits"]})
            elif action == "extend":
                form = f.ExtendForm(request.POST, options=sit.addable(t.setup, state))
                if not form.is_valid():
                    return _refused(request, f.errors_text(form), game_id, table_id)
                services.extend_field(t.pk, request.user, form.positions(), form.cleaned_data["reason"])
            elif action == "override":
                form = f.OverrideForm(request.POST, cells=[c["id"] for c in sit.table_cells(t.setup, state)])
                if not form.is_valid():
                    return _refused(request, f.errors_text(form), game_id, table_id)
                services.override(t.pk, request.user, form.cleaned_data["unit"], form.changes(),
                                  form.cleaned_data["reason"])
            else:
                return HttpResponseBadRequest(str(labels.REFUSALS["unknown_step"]))
    except sit.StepRefused as error:
        return _refused(request, labels.refusal(error), game_id, table_id)
    except ValidationError as error:
        return _refused(request, " ".join(error.messages), game_id, table_id)
    return _back(game_id, table_id)


@login_required
@require_GET
@not_ready
def sheet(request: HttpRequest, game_id: int, table_id: int, doc: str) -> HttpResponse:
    """The printed documents (W42.3): protocol and unit cards for the table's seats; reference and order sheets."""
    s = _seat(request, game_id, table_id)
    if doc == "protocol" and not s.moderator and s.table.status != s.table.FINISHED:
        raise PermissionDenied("The protocol is printed by the moderator until the battle is over.")
    try:
        name, data = printing.render(s.table, doc, s)
    except KeyError:
        return _refused(request, str(labels.REFUSALS["unknown_step"]), game_id, table_id)
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response
