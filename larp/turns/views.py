"""The audit log and the clock. Thin: access, read, response.

The console home and its controls are the console turn app's (larp/battles/views.py).
"""
import threading

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

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
    them (`rungame` gives it that many threads more than it needs for pages); past that the answer is 204,
    which ends the tablet's EventSource, and that tablet polls the clock instead (static/js/tablet.js)."""
    from django.conf import settings
    from django.http import Http404, StreamingHttpResponse

    if not settings.CLOCK_STREAM:
        raise Http404("The clock is polled on this server.")
    slots = _stream_slots()
    if not slots.acquire(blocking=False):
        return HttpResponse(status=204)
    response = StreamingHttpResponse(_Held(clock.stream(game_id, settings.CLOCK_STREAM_SECONDS), slots.release),
                                     content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["Content-Encoding"] = "identity"  # not gzipped: each event must leave at once
    response["X-Accel-Buffering"] = "no"
    return response


_slots = None
_slots_lock = threading.Lock()


def _stream_slots() -> threading.BoundedSemaphore:
    global _slots
    from django.conf import settings

    with _slots_lock:
        if _slots is None or _slots.size != settings.CLOCK_STREAM_SLOTS:
            _slots = threading.BoundedSemaphore(settings.CLOCK_STREAM_SLOTS)
            _slots.size = settings.CLOCK_STREAM_SLOTS
        return _slots


class _Held:
    """A stream that gives its slot back when the server closes it (ended, or the tablet went away), even if
    it never started."""

    def __init__(self, events, release):
        self.events, self.release, self.closed = events, release, False

    def __iter__(self):
        return self

    def __next__(self):
        return next(self.events)

    def close(self):
        if not self.closed:
            self.closed = True
            try:
                self.events.close()
            finally:
                self.release()


@login_required
def audit_log(request: HttpRequest, game_id: int) -> HttpResponse:
    game = moderator_game(request.user, game_id)
    game_names = names(game)
    entries = AuditEntry.objects.filter(game=game).select_related("user")[:500]
    return render(request, "turns/audit.html", {
        "game": game, "phase": services.current_phase(game), "entries": [(e, sentence(e, game_names)) for e in entries]})
