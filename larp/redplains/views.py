"""Red Plains pages: the new battle, the calculators, the table (moderator's console or a side's tablet), the
projector, the printed sheets. The acts at the table are declared in larp/redplains/acts.py and go through the
tables' one door (larp.tables.acts)."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from larp.campaign.access import is_moderator
from larp.campaign.models import Game
from larp.redplains import forms as f
from larp.redplains import acts, calculator, labels, printing, selectors, services
from larp.redplains.acts import NotReady, not_ready
from larp.redplains import situation as sit
from larp.tables.access import require_moderator_seat, seat

SYSTEM = "red-plains"


def _seat(request, game_id, table_id):
    s = seat(request.user, game_id, table_id, system=SYSTEM)
    if not services.playable(s.table):
        raise NotReady()
    return s


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
    return acts.page(request, _seat(request, game_id, table_id), fresh=True)


@login_required
@require_GET
@not_ready
def projector(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    s = require_moderator_seat(request.user, game_id, table_id, system=SYSTEM)
    if not services.playable(s.table):
        raise NotReady()
    ctx = selectors.projector(s.table)
    ctx.update({"table": s.table, "game": s.table.game})
    return acts.for_players(render(request, "redplains/projector.html", ctx))


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
