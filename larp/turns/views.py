"""The audit log and the clock. Thin: access, read, response.

The console home and its controls are the console turn app's (larp/battles/views.py).
"""
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from larp import streams
from larp.campaign.access import moderator_game
from larp.turns import clock, services
from larp.turns.audit_text import sentence
from larp.turns.models import AuditEntry
from larp.turns.selectors import names


@require_GET
@never_cache
def clock_view(request: HttpRequest, game_id: int) -> HttpResponse:
    """Polled every second by tablets and the projector: no session, no per-request heavy query. A poll that
    names the clock it has (If-None-Match) and finds it unchanged is answered 304, without a body."""
    payload = clock.payload(game_id)
    tag = clock.etag(payload)
    if request.headers.get("If-None-Match") == tag:
        response = HttpResponse(status=304)
    else:
        response = JsonResponse(payload)
    response["ETag"] = tag
    return response


@require_GET
def clock_stream(request: HttpRequest, game_id: int) -> HttpResponse:
    """The clock pushed (server-sent events): an event whenever what the tablet shows changes, a heartbeat
    every 15 s, and the end after CLOCK_STREAM_SECONDS (the tablet's EventSource reconnects). Like the clock
    itself: no session, the cached clock.

    Each open stream holds one of the web worker's threads, so a worker serves at most CLOCK_STREAM_SLOTS of
    them, the tables' streams included (`rungame` gives it that many threads more than it needs for pages);
    past that the answer is 204, which ends the tablet's EventSource, and that tablet polls the clock instead
    (static/js/tablet.js). larp.streams has what the streams share."""
    from django.conf import settings
    from django.http import Http404

    if not settings.CLOCK_STREAM:
        raise Http404("The clock is polled on this server.")
    return streams.respond(lambda: clock.stream(game_id, settings.CLOCK_STREAM_SECONDS,
                                                left=streams.gone(request)))


@login_required
def audit_log(request: HttpRequest, game_id: int) -> HttpResponse:
    game = moderator_game(request.user, game_id)
    game_names = names(game)
    entries = AuditEntry.objects.filter(game=game).select_related("user")[:500]
    return render(request, "turns/audit.html", {
        "game": game, "phase": services.current_phase(game), "entries": [(e, sentence(e, game_names)) for e in entries]})
