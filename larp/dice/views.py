"""The dice check page (any member of the game) and the moderators' reveal (docs/dice.md)."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from larp.campaign.access import is_moderator, player_faction, require_member, require_moderator
from larp.campaign.models import Game
from larp.dice import selectors, services
from larp.dice.forms import RevealForm
from larp.dice.models import Stream


@login_required
@require_GET
def verify(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    require_member(request.user, game)
    moderator = is_moderator(request.user, game)
    return render(request, "dice/verify.html", {"game": game, "moderator": moderator,
                                                "faction": None if moderator else player_faction(request.user, game),
                                                **selectors.page(game)})


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
