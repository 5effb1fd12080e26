"""The «Орда» table's pages: thin views over forms, services and selectors (docs/orda.md, "Table", O25). The acts
at the table are declared in larp/orda/acts.py and go through the tables' one door (larp.tables.acts)."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from larp.campaign.access import is_moderator
from larp.campaign.models import Game
from larp.orda import acts, dataset, forms, labels, selectors, services
from larp.orda.engine.data import load
from larp.orda.models import DataSet
from larp.tables.access import seat as seat_of

SYSTEM = "orda"


def _moderator_game(request: HttpRequest, game_id: int) -> Game:
    game = get_object_or_404(Game, pk=game_id)
    if not is_moderator(request.user, game):
        raise PermissionDenied(_("Only the game's moderators may do this."))
    return game


def _messages(exc: ValidationError) -> list[str]:
    return list(getattr(exc, "messages", [str(exc)]))


# ---------------------------------------------------------------- a new table

@login_required
@require_http_methods(["GET", "POST"])
def new(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _moderator_game(request, game_id)
    form = forms.NewTableForm(request.POST or None, game=game, initial={"title": _("Orda")})
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            table = services.create(game, request.user, title=form.cleaned_data["title"],
                                    data=form.cleaned_data["data"], mode=form.cleaned_data["mode"],
                                    order=form.order(), factions=form.factions(),
                                    players=form.cleaned_data["players"], rolloff=form.rolloff())
        except ValidationError as exc:
            errors = _messages(exc)
        else:
            return redirect("orda:table", game.pk, table.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "orda/new.html", {"game": game, "form": form, "errors": errors,
                                             "data_sets": DataSet.objects.filter(game=game)}, status=status)


# ---------------------------------------------------------------- the table

@login_required
@require_GET
def table(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    return acts.page(request, seat_of(request.user, game_id, table_id, system=SYSTEM), fresh=True)


@login_required
@require_GET
def projector(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    s = seat_of(request.user, game_id, table_id, system=SYSTEM)
    with labels.speaking_for(s.table):
        state = services.current(s.table)
        ctx = selectors.table_context(s.table, state, s)
        ctx.update(game=s.table.game, table=s.table, log=selectors.log(s.table, state["case"], limit=6),
                   result=s.table.result, projector=True,
                   losses=[(labels.faction(k), v) for k, v in (s.table.result.get("losses") or {}).items()])
        response = render(request, "orda/projector.html", ctx)
    response.content = labels.without_rule_codes(response.content.decode()).encode()   # the hall's screen
    return response


# ---------------------------------------------------------------- printing (O25)

@login_required
@require_GET
def print_doc(request: HttpRequest, game_id: int, table_id: int, doc: str) -> HttpResponse:
    from larp.orda import printing
    from larp.sheets.renderers import orda_sheets

    s = seat_of(request.user, game_id, table_id, system=SYSTEM)
    if doc not in ("protocol", "state", "factions"):
        raise Http404("No such document.")
    with labels.speaking_for(s.table):
        state = services.current(s.table)
        if doc == "protocol":
            renderer = orda_sheets.OrdaProtocol(printing.protocol(s.table, state,
                                                                  selectors.log(s.table, state["case"])))
        elif doc == "state":
            renderer = orda_sheets.OrdaState(printing.state_sheet(s.table, state))
        else:
            renderer = orda_sheets.OrdaFactions(printing.factions(s.table, state))
        name, mimetype, content = renderer.generate()
    response = HttpResponse(content, content_type=mimetype)
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


# ---------------------------------------------------------------- the data (O23)

@login_required
@require_http_methods(["GET", "POST"])
def data_list(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _moderator_game(request, game_id)
    new_form = forms.DataSetNewForm(request.POST if "create" in request.POST else None)
    import_form = forms.ImportForm(request.POST if "import" in request.POST else None,
                                   request.FILES if "import" in request.POST else None)
    status = 200
    if request.method == "POST":
        if "create" in request.POST and new_form.is_valid():
            ds = services.create_dataset(game, new_form.cleaned_data["title"], request.user)
            return redirect("orda:data_edit", game.pk, ds.pk)
        if "import" in request.POST and import_form.is_valid():
            data = import_form.cleaned_data["file"]
            ds = services.create_dataset(game, data["title"] or _("Imported data"), request.user, data)
            return redirect("orda:data_edit", game.pk, ds.pk)
        status = 400
    sets = [(ds, dataset.missing(ds.data, "conquest", list(load().faction_side), 4)) for ds in
            DataSet.objects.filter(game=game)]
    return render(request, "orda/data_list.html", {"game": game, "sets": sets, "new_form": new_form,
                                                   "import_form": import_form}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def data_edit(request: HttpRequest, game_id: int, data_id: int) -> HttpResponse:
    game = _moderator_game(request, game_id)
    ds = get_object_or_404(DataSet, pk=data_id, game=game)
    faction = request.GET.get("faction") or request.POST.get("faction") or "rus"
    if faction not in load().kinds:
        raise Http404("No such faction.")
    stats_form = forms.StatsForm(request.POST if "stats" in request.POST else None, faction=faction, data=ds.data)
    fields_form = forms.DataFieldsForm(request.POST if "fields" in request.POST else None, data=ds.data)
    status = 200
    if request.method == "POST":
        import copy
        form = stats_form if "stats" in request.POST else fields_form
        if form.is_valid():
            services.save_dataset(ds, form.apply(copy.deepcopy(ds.data)), request.user,
                                  what="stats:" + faction if form is stats_form else "fields")
            return redirect(reverse("orda:data_edit", args=[game.pk, ds.pk]) + f"?faction={faction}")
        status = 400
    return render(request, "orda/data_edit.html", {
        "game": game, "ds": ds, "faction": faction, "stats_form": stats_form, "fields_form": fields_form,
        "factions": [(f, labels.faction(f)) for f in ("rus", "china", "south_mongolia", "north_mongolia")],
        "params": [labels.param(p) for p in ("health", "attack", "defence", "speed", "summon", "range")],
        "missing": dataset.missing(ds.data, "conquest", list(load().faction_side), 4)}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def data_board(request: HttpRequest, game_id: int, data_id: int) -> HttpResponse:
    game = _moderator_game(request, game_id)
    ds = get_object_or_404(DataSet, pk=data_id, game=game)
    errors: list[str] = []
    brush = request.GET.get("brush") or request.POST.get("brush") or "board"
    if request.method == "POST":
        if "radius" in request.POST:
            form = forms.BoardDiscForm(request.POST)
            if form.is_valid():
                import copy

                from larp.orda.engine.hexes import disc
                data = copy.deepcopy(ds.data)
                data["board"] = sorted({tuple(h) for h in data["board"]} | set(disc(form.cleaned_data["radius"])))
                data["board"] = [list(h) for h in data["board"]]
                services.save_dataset(ds, data, request.user, what="board:disc")
                return redirect(reverse("orda:data_board", args=[game.pk, ds.pk]) + f"?brush={brush}")
        else:
            form = forms.BoardClickForm(request.POST)
            if form.is_valid():
                try:
                    services.paint(ds, form.cleaned_data["brush"], form.cleaned_data["hex"], request.user)
                except ValidationError as exc:
                    errors = _messages(exc)
                else:
                    return redirect(reverse("orda:data_board", args=[game.pk, ds.pk]) + f"?brush={brush}")
        errors = errors or [m for field in form.errors.values() for m in field]
    d = ds.data
    cities = [{"hex": h, "kind": "capital", "colour": c, "faction": "", "durability": None, "damage": 0}
              for c, h in d["capitals"].items() if h]
    cities += [{"hex": h, "kind": "city", "colour": c, "faction": "", "durability": None, "damage": 0}
               for c, hexes in d["cities"].items() for h in hexes]
    marks = {}
    for line, hexes in d["borders"].items():
        for h in hexes:
            marks[tuple(h)] = (marks.get(tuple(h), "") + " " + line).strip()
    hexes = d["board"] + _frame(d["board"])
    geometry = selectors.board(hexes, cities=[{**c, "fill": selectors.CAPITAL_COLOURS[c["colour"]]} for c in cities],
                               marks=marks)
    on_board = {tuple(h) for h in d["board"]}
    for cell in geometry["cells"]:
        cell["off"] = (cell["q"], cell["r"]) not in on_board
    names = dict(forms.BRUSHES)
    places = [(names[c], [h] if h else []) for c, h in d["capitals"].items()]
    places += [(names[c], hexes) for c, hexes in d["cities"].items()]
    places += [(names[f"{line}_line"], hexes) for line, hexes in d["borders"].items()]
    places = [(name, " ".join(f"{h[0]},{h[1]}" for h in hexes) or "—") for name, hexes in places]
    return render(request, "orda/data_board.html", {"game": game, "ds": ds, "board": geometry, "brush": brush,
                                                    "brushes": forms.BRUSHES, "errors": errors, "places": places,
                                                    "size": len(d["board"])},
                  status=400 if errors else 200)


def _frame(board: list) -> list:
    """The hexes around the board (and a small disc when it is empty), so new hexes can be clicked on."""
    from larp.orda.engine.hexes import disc, neighbours
    have = {tuple(h) for h in board}
    if not have:
        return [list(h) for h in sorted(disc(3))]
    ring = {n for h in have for n in neighbours(h)} - have
    return [list(h) for h in sorted(ring) if max(abs(h[0]), abs(h[1])) <= dataset.MAX_COORD]


@login_required
@require_GET
def data_print(request: HttpRequest, game_id: int, data_id: int, doc: str) -> HttpResponse:
    from larp.orda import printing
    from larp.sheets.renderers import orda_sheets

    game = _moderator_game(request, game_id)
    ds = get_object_or_404(DataSet, pk=data_id, game=game)
    if doc == "reference":
        renderer = orda_sheets.OrdaReference(printing.reference(ds))
    elif doc == "board":
        renderer = orda_sheets.OrdaBoard(printing.board(ds))
    else:
        raise Http404("No such document.")
    name, mimetype, content = renderer.generate()
    response = HttpResponse(content, content_type=mimetype)
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


@login_required
@require_GET
def data_export(request: HttpRequest, game_id: int, data_id: int) -> HttpResponse:
    game = _moderator_game(request, game_id)
    ds = get_object_or_404(DataSet, pk=data_id, game=game)
    response = HttpResponse(dataset.to_yaml(ds.data), content_type="application/x-yaml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="orda-data-{ds.pk}.yaml"'
    return response
