"""The console's worker warning, refreshed every few seconds (templates/turns/partials/worker_status.html)."""
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from larp.campaign.access import require_moderator
from larp.campaign.models import Game
from larp.turns.templatetags.worker_status import worker_status


@require_GET
@never_cache
@login_required
def worker_status_view(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    require_moderator(request.user, game)
    return render(request, "turns/partials/worker_status.html", worker_status(game))
