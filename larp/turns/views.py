"""Moderator controls, the audit log and the clock. Views are thin: access check, service, response."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from larp.campaign.access import require_moderator
from larp.campaign.models import Game
from larp.battles.selectors import names
from larp.orders.models import Order
from larp.turns import clock, services
from larp.turns.models import AuditEntry


@require_GET
@never_cache
def clock_view(request: HttpRequest, game_id: int) -> JsonResponse:
    """Polled every second by tablets and the projector: no session, no per-request heavy query."""
    return JsonResponse(clock.payload(game_id))


@login_required
def console(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    require_moderator(request.user, game)
    phase = services.current_phase(game)
    units = []
    if phase is not None:
        turn = phase.turn
        ordered = {o.payload.get("unit"): o for o in Order.objects.filter(turn=turn).select_related("filed_by")}
        for army in turn.start_state.get("armies", []):
            units.append({"code": army["id"], "faction": army["faction"], "order": ordered.get(army["id"])})
        for fleet in turn.start_state.get("fleets", []):
            units.append({"code": fleet["id"], "faction": fleet["faction"], "order": ordered.get(fleet["id"])})
    return render(request, "turns/console.html", {
        "game": game, "phase": phase, "units": units,
        "audit": AuditEntry.objects.filter(game=game).select_related("user")[:50],
        "settings": services.turn_settings(game),
        "names": names(game),
    })


ACTIONS = {
    "start": lambda game, user, post: services.start_game(game, user),
    "pause": lambda game, user, post: services.pause(game, user, post.get("reason", "")),
    "resume": lambda game, user, post: services.resume(game, user, post.get("reason", "")),
    "extend": lambda game, user, post: services.extend(game, user, post.get("minutes"), post.get("reason", "")),
    "end": lambda game, user, post: services.end_now(game, user, post.get("reason", "")),
    "next": lambda game, user, post: services.next_phase(game, user, post.get("reason", "")),
    "draw": lambda game, user, post: services.make_draw(game, user),
    "draw_manual": lambda game, user, post: services.enter_draw(
        game, user, [c.strip() for c in post.get("order", "").replace(",", " ").split() if c.strip()]),
}


@login_required
@require_POST
def control(request: HttpRequest, game_id: int, action: str) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    require_moderator(request.user, game)
    act = ACTIONS.get(action)
    if act is None:
        return HttpResponse(status=404)
    try:
        act(game, request.user, request.POST)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, _("Done."))
    return redirect("turns:console", game_id=game.pk)


@login_required
def audit_log(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    require_moderator(request.user, game)
    return render(request, "turns/audit.html", {
        "game": game, "entries": AuditEntry.objects.filter(game=game).select_related("user")[:500]})
