"""The console's «Репетиция» page (moderators only): start a rehearsal copy, watch it, read its report, delete
it. Views are thin: the work is in services.py, the reading in selectors.py."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from larp.campaign.access import moderator_game
from larp.rehearsal import selectors, services
from larp.rehearsal.forms import StartForm


def _page(request, game, form=None, status=200):
    context = {"game": game, "form": form or StartForm()}
    if game.is_rehearsal:
        context.update(run=selectors.run_of(game), bots=selectors.bots_of(game))
    else:
        context.update(copies=selectors.copies_of(game), running=services.running_copy(game))
    return render(request, "rehearsal/page.html", context, status=status)


@login_required
@require_GET
def page(request: HttpRequest, game_id: int) -> HttpResponse:
    return _page(request, moderator_game(request.user, game_id))


@login_required
@require_POST
def start(request: HttpRequest, game_id: int) -> HttpResponse:
    game = moderator_game(request.user, game_id)
    form = StartForm(request.POST)
    if not form.is_valid():
        return _page(request, game, form, status=422)
    d = form.cleaned_data
    try:
        copy = services.start(game, request.user, turns=d["turns"], tablets=d["tablets"], tables=d["tables"],
                              fast=d["fast"], seed=d["seed"], url=request.build_absolute_uri("/"))
    except services.AlreadyRunning as exc:  # a double press, or a second moderator: that one is shown
        messages.info(request, str(exc))
        return redirect("rehearsal:page", exc.copy.pk)
    except services.RehearsalError as exc:
        messages.error(request, str(exc))
        return _page(request, game, form, status=409)
    return redirect("rehearsal:page", copy.pk)


@login_required
@require_GET
def progress(request: HttpRequest, game_id: int) -> HttpResponse:
    """The run's part of the page, polled by htmx while it runs (it stops polling once done)."""
    game = moderator_game(request.user, game_id)
    if not game.is_rehearsal:
        return redirect("rehearsal:page", game.pk)
    return render(request, "rehearsal/partials/run.html", {"game": game, "run": selectors.run_of(game),
                                                           "bots": selectors.bots_of(game)})


@login_required
@require_POST
def delete(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game = moderator_game(request.user, game_id)
    except Http404:  # deleted already (a double press, a second tab): nothing left to do
        messages.info(request, _("The rehearsal copy is deleted."))
        return redirect("home")
    if not game.is_rehearsal:
        messages.error(request, _("Only a rehearsal copy can be deleted here."))
        return redirect("rehearsal:page", game.pk)
    original = services.delete(game)
    messages.success(request, _("The rehearsal copy is deleted."))
    return redirect(reverse("rehearsal:page", args=[original]))
