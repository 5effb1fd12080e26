from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from larp.campaign.access import moderated_games
from larp.campaign.models import Membership


@login_required
def home(request: HttpRequest) -> HttpResponse:
    memberships = Membership.objects.filter(user=request.user).select_related("game", "faction")
    return render(
        request,
        "campaign/home.html",
        {"memberships": memberships, "moderated": moderated_games(request.user)},
    )


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    return JsonResponse({"ok": True})
