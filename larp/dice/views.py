"""The dice check page (any member of the game), the players' contributions to the seeds, and the moderators'
reveal (docs/dice.md)."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from larp.campaign.access import is_moderator, player_faction, require_member, require_moderator
from larp.campaign.models import Game
from larp.dice import registry, selectors, services
from larp.dice.forms import ContributeForm, RevealForm
from larp.dice.models import Stream


@login_required
@require_GET
def verify(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    require_member(request.user, game)
    moderator = is_moderator(request.user, game)
    return render(request, "dice/verify.html", {"game": game, "moderator": moderator,
                                                "faction": None if moderator else player_faction(request.user, game),
                                                **registry.context(game), **selectors.page(game, request.user)})


def _visible_stream(request: HttpRequest, game: Game, label: str) -> str:
    """The stream `label` if this member may see it (the war: everyone at the game; a table: its seats)."""
    if label != services.GAME and label not in registry.seats(request.user, game):
        raise Http404("No such dice stream.")
    return label


@login_required
def contribute(request: HttpRequest, game_id: int) -> JsonResponse:
    """GET: the widget's state for a stream; POST: a seat's randomness added to it (docs/dice.md)."""
    game = get_object_or_404(Game, pk=game_id)
    require_member(request.user, game)
    if request.method == "GET":
        label = _visible_stream(request, game, request.GET.get("stream", ""))
        return JsonResponse(selectors.contribution_status(request.user, game, label))
    if request.method != "POST":
        return JsonResponse({"error": "GET or POST"}, status=405)
    form = ContributeForm(request.POST)
    if not form.is_valid():
        return JsonResponse({"error": " ".join(m for ms in form.errors.values() for m in ms)}, status=400)
    label = _visible_stream(request, game, form.cleaned_data["stream"])
    where = selectors.seat(request.user, game, label)
    if where is None:
        return JsonResponse({"error": _("Only the players at these dice add randomness to them.")}, status=403)
    stream = Stream.objects.filter(game=game, label=label).first() or (
        services.game_stream(game) if label == services.GAME else None)
    if stream is None:
        raise Http404("No such dice stream.")
    try:
        services.contribute(stream, where[0], where[1], form.cleaned_data["value"], user=request.user,
                            auto=form.cleaned_data["auto"])
    except ValidationError as exc:
        return JsonResponse({"error": " ".join(exc.messages), **selectors.contribution_status(
            request.user, game, label)}, status=409)
    return JsonResponse(selectors.contribution_status(request.user, game, label))


@login_required
@require_POST
def reveal(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    require_moderator(request.user, game)
    form = RevealForm(request.POST)
    if not form.is_valid():
        return HttpResponse(" ".join(m for ms in form.errors.values() for m in ms), status=400)
    label = form.cleaned_data["stream"]
    if label == services.GAME:
        services.reveal_game(game, request.user)
        messages.success(request, _("The war's dice seed is revealed: everyone at the game can check the dice now."))
    else:
        stream = Stream.objects.filter(game=game, label=label).first()
        if stream is None or stream.label.startswith("turn-"):
            raise Http404("No such dice stream.")
        services.reveal(stream, request.user)
        messages.success(request, _("The table's dice seed is revealed: everyone at the game can check it now."))
    return redirect("dice:verify", game.pk)
