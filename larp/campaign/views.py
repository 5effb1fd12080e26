from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from larp.campaign.access import moderated_games
from larp.campaign.models import Membership


@login_required
def home(request: HttpRequest) -> HttpResponse:
    # Rehearsal copies (larp/rehearsal) are never listed as games: they have their own list, marked.
    memberships = Membership.objects.filter(user=request.user, game__rehearsal_of__isnull=True).select_related(
        "game", "faction")
    moderated = moderated_games(request.user)
    return render(
        request,
        "campaign/home.html",
        {"memberships": memberships, "moderated": moderated.filter(rehearsal_of__isnull=True),
         "rehearsals": moderated.filter(rehearsal_of__isnull=False).distinct()},
    )


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    return JsonResponse({"ok": True})
