"""«Ордонанс» pages: new contest, the table (moderator's or player's, by seat), the projector, the deck lists and
the printed documents. The acts at the table are declared in larp/ordonnance/acts.py and go through the tables'
one door (larp.tables.acts)."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from larp.campaign.access import moderator_game
from larp.sheets.renderers.ordonnance_protocol import OrdonnanceProtocolRenderer
from larp.sheets.renderers.ordonnance_rules_card import OrdonnanceRulesCardRenderer
from larp.sheets.renderers.ordonnance_score_sheet import OrdonnanceScoreSheetRenderer
from larp.tables.access import require_moderator_seat, seat

from . import acts, forms, selectors, services
from .models import DeckList

SYSTEM = "ordonnance"


def _problems(form) -> list[str]:
    return [str(m) for errors in form.errors.values() for m in errors]


def _table_url(game_id, table_id) -> str:
    return reverse("ordonnance:table", args=[game_id, table_id])


@login_required
@require_http_methods(["GET", "POST"])
def new(request: HttpRequest, game_id: int) -> HttpResponse:
    game = moderator_game(request.user, game_id)
    form = forms.NewTableForm(request.POST or None, game=game)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            d = form.cleaned_data
            try:
                table = services.create(game, request.user, title=d["title"], sides=d["sides"], mode=d["mode"],
                                        deck=d["deck"], territory_names=d["territory_names"], announce=d["announce"])
            except ValidationError as exc:
                form.add_error(None, exc)
                status = 400
            else:
                return redirect(_table_url(game.pk, table.pk))
        else:
            status = 400
    return render(request, "ordonnance/new.html", {"game": game, "form": form,
                                                   "decks": selectors.decks(game)}, status=status)


@login_required
@never_cache
@require_GET
def table_page(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    return acts.page(request, seat(request.user, game_id, table_id, system=SYSTEM))


@login_required
@never_cache
@require_GET
def projector(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    s = require_moderator_seat(request.user, game_id, table_id, system=SYSTEM)
    data = selectors.page(s.table, None, view=selectors.PUBLIC)
    return render(request, "ordonnance/projector.html", {"game": s.table.game, "table": s.table, "d": data})


def _pdf(result) -> HttpResponse:
    filename, mimetype, content = result
    response = HttpResponse(content, content_type=mimetype)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@login_required
@require_GET
def protocol_pdf(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    s = require_moderator_seat(request.user, game_id, table_id, system=SYSTEM)
    return _pdf(OrdonnanceProtocolRenderer(selectors.protocol(s.table)).generate())


@login_required
@require_GET
def score_sheet_pdf(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    s = require_moderator_seat(request.user, game_id, table_id, system=SYSTEM)
    return _pdf(OrdonnanceScoreSheetRenderer(selectors.protocol(s.table)).generate())


@login_required
@require_GET
def rules_card_pdf(request: HttpRequest, game_id: int) -> HttpResponse:
    game = moderator_game(request.user, game_id)
    return _pdf(OrdonnanceRulesCardRenderer(selectors.rules_card(game)).generate())


# -- deck lists ------------------------------------------------------------------------------------
@login_required
@require_http_methods(["GET", "POST"])
def decks(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game's deck lists («unknown» until one is entered), a new one, and the YAML import."""
    game = moderator_game(request.user, game_id)
    form = forms.DeckForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                deck = services.save_deck(game, request.user, form.cleaned_data["name"], form.cards(),
                                          made_for_tests=form.cleaned_data["made_for_tests"])
            except ValidationError as exc:
                form.add_error(None, exc)
                status = 400
            else:
                messages.success(request, _("Deck list saved: %(n)s cards.") % {"n": deck.size})
                return redirect("ordonnance:deck", game.pk, deck.pk)
        else:
            status = 400
    return render(request, "ordonnance/decks.html", {"game": game, "form": form, "decks": selectors.decks(game),
                                                     "import_form": forms.ImportForm()}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def deck(request: HttpRequest, game_id: int, deck_id: int) -> HttpResponse:
    game = moderator_game(request.user, game_id)
    item = get_object_or_404(DeckList, pk=deck_id, game=game)
    form = forms.DeckForm(request.POST or None, existing=item.cards,
                          initial={"name": item.name, "made_for_tests": item.made_for_tests})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.save_deck(game, request.user, form.cleaned_data["name"], form.cards(),
                                   made_for_tests=form.cleaned_data["made_for_tests"], note=item.note, deck=item)
            except ValidationError as exc:
                form.add_error(None, exc)
                status = 400
            else:
                messages.success(request, _("Deck list saved: %(n)s cards.") % {"n": item.size})
                return redirect("ordonnance:deck", game.pk, item.pk)
        else:
            status = 400
    return render(request, "ordonnance/deck.html", {"game": game, "deck": item, "form": form,
                                                    "rows": selectors.deck_rows(item)}, status=status)


@login_required
@require_POST
def deck_import(request: HttpRequest, game_id: int) -> HttpResponse:
    game = moderator_game(request.user, game_id)
    form = forms.ImportForm(request.POST, request.FILES)
    problems = None
    if form.is_valid():
        try:
            item = services.import_yaml(game, request.user, form.cleaned_data["yaml"])
        except ValidationError as exc:
            problems = exc.messages
        else:
            messages.success(request, _("Deck list imported: %(n)s cards.") % {"n": item.size})
            return redirect("ordonnance:deck", game.pk, item.pk)
    for problem in problems or _problems(form):
        messages.error(request, problem)
    return render(request, "ordonnance/decks.html", {"game": game, "form": forms.DeckForm(),
                                                     "decks": selectors.decks(game), "import_form": form}, status=400)


@login_required
@require_GET
def deck_export(request: HttpRequest, game_id: int, deck_id: int) -> HttpResponse:
    game = moderator_game(request.user, game_id)
    item = get_object_or_404(DeckList, pk=deck_id, game=game)
    response = HttpResponse(services.export_yaml(item), content_type="application/yaml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ordonnance-deck-{item.pk}.yaml"'
    return response


@login_required
@require_POST
def deck_delete(request: HttpRequest, game_id: int, deck_id: int) -> HttpResponse:
    game = moderator_game(request.user, game_id)
    item = get_object_or_404(DeckList, pk=deck_id, game=game)
    services.delete_deck(item, request.user)
    messages.success(request, _("Deck list deleted."))
    return redirect("ordonnance:decks", game.pk)
