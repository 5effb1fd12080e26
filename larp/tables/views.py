"""The game's tables: the list (console and tablets), the version pages follow, and the way to a table's page."""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET

from larp.campaign.access import is_moderator, require_member
from larp.campaign.models import Game
from larp.tables import registry, version_pass
from larp.tables.access import seat, visible_tables
from larp.tables.models import SYSTEM_CHOICES


@login_required
@require_GET
def table_list(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    require_member(request.user, game)
    moderator = is_moderator(request.user, game)
    tables = [(t, registry.table_url(t.system, game.pk, t.pk)) for t in visible_tables(request.user, game)]
    systems = [(code, label, registry.new_url(code, game.pk)) for code, label in SYSTEM_CHOICES] if moderator else []
    return render(request, "tables/list.html", {"game": game, "tables": tables, "systems": systems,
                                                "moderator": moderator,
                                                "readiness": registry.readiness(game) if moderator else []})


@login_required
@require_GET
def open_table(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    s = seat(request.user, game_id, table_id)
    url = registry.table_url(s.table.system, game_id, table_id)
    if url is None:
        raise Http404("This rule system's pages are not installed.")
    return redirect(url)


@login_required
@require_GET
def version(request: HttpRequest, game_id: int, table_id: int) -> JsonResponse:
    """What a table's pages poll (about once a second) to know when to refresh. This is the full check; the
    session's next polls are answered by larp.fastlane without it for a few seconds (larp.tables.version_pass)."""
    s = seat(request.user, game_id, table_id, light=True)
    version_pass.grant(request, s.table)
    return JsonResponse({"version": s.table.version, "status": s.table.status})


@login_required
@require_GET
def stream(request: HttpRequest, game_id: int, table_id: int) -> HttpResponse:
    """The version pushed (server-sent events; larp.tables.version_pass.stream), for pages that name it
    (`data-table-stream-url`). The full check, as for the version, then the pass: the session's next streams
    open in the fast lane. 404 when streams are off (the page polls), 204 when the web worker has no stream slot
    free (larp.streams)."""
    if not (settings.CLOCK_STREAM and settings.TABLE_STREAM):
        raise Http404("A table's version is polled on this server.")
    s = seat(request.user, game_id, table_id, light=True)
    version_pass.grant(request, s.table)
    return version_pass.streamed(request, game_id, table_id)
