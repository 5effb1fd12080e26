"""The players' tablet pages. Views are thin: access check, selector or service, render.

Full page and fragment come from one template: with HTMX the view renders
`page.html#fragment` (Django's template partials).
"""
from __future__ import annotations

import json
import secrets

import segno
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.cache import add_never_cache_headers
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from larp.arrival import arrived_at
from larp.campaign.access import (faction_role, is_moderator, player_faction, require_faction, require_member,
                                  require_moderator)
from larp.campaign.models import Faction, Game, MapPicture, Membership
from larp.campaign import labels
from larp.campaign.people import person
from larp.orders.services import OrderRefused
from larp.maps import view as maps
from larp.tablet import board_pass, rendered, selectors, services, tokens
from larp.tablet.forms import AddPlayerForm, OrderPicksForm, SpyReportForm
from larp.tablet.middleware import SESSION_KEY as JOIN_SESSION_KEY
from larp.tablet.models import JoinToken
from larp.tablet.throttle import mark_join_code_sign_in
from larp.turns import clock, services as turn_services
from larp.turns.models import Phase

REFUSAL_STATUS = {"forbidden": 403, "unknown_unit": 404, "late": 409, "closed": 409}


# --- sign-in by join code -----------------------------------------------------------------


@require_GET
@never_cache
def join(request: HttpRequest, token: str) -> HttpResponse:
    """A scanned join code signs this device in as the player, then opens their faction page."""
    try:
        joined = services.redeem(token)
    except tokens.TokenProblem as problem:
        return render(request, "tablet/join_refused.html", {"problem": problem.kind}, status=403)
    mark_join_code_sign_in(request)  # no password was checked: the throttle's counts stay
    login(request, joined.user, backend="django.contrib.auth.backends.ModelBackend")
    request.session[JOIN_SESSION_KEY] = joined.pk  # revoking this code signs the tablet out (middleware)
    faction = player_faction(joined.user, joined.game)
    if faction is None:
        return redirect("home")
    return redirect("tablet:faction", game_id=joined.game_id, faction=faction.code)


# --- the faction page ---------------------------------------------------------------------


def _faction(request: HttpRequest, game_id: int, faction: str) -> Faction:
    obj = get_object_or_404(Faction.objects.select_related("game"), game_id=game_id, code=faction)
    require_faction(request.user, obj)  # R13: the faction's players and the moderators only
    return obj


def _clock_context(game_id: int) -> dict:
    payload = clock.payload(game_id)  # first: a passed deadline is closed before the rest of the page is read
    return {"clock": payload, "face": clock.clock_face(payload),
            "phase_names": json.dumps({k: str(v) for k, v in Phase.KINDS}, ensure_ascii=False)}


def _page_context(request, faction: Faction, role: str | None = None) -> dict:
    """The faction page's context; `role` when faction_role was asked already (whether a moderator looks)."""
    clock_context = _clock_context(faction.game_id)
    board = selectors.faction_board(request.user, faction)
    moderator = role == Membership.MODERATOR if role is not None else is_moderator(request.user, faction.game_id)
    return {**board, **clock_context, **selectors.readiness(faction, board["phase"]),
            **_map_context(faction.game, faction), "is_moderator": moderator,
            "form_key": secrets.token_urlsafe(16), "turn_result": selectors.faction_turn_result(faction)}


def board_variant(role: str | None, payload: dict) -> str:
    """What a kept board is kept by besides its faction and state: a moderator's or a player's, orders open."""
    return f"{'m' if role == Membership.MODERATOR else 'p'}{int(selectors.clock_open(payload))}"


def draw_board(request, faction: Faction, role: str | None, extra: dict) -> str:
    """The board fragment a phase change makes every tablet fetch (larp.tablet.rendered keeps it per state)."""
    return render_to_string("tablet/faction.html#board", {**_page_context(request, faction, role), **extra},
                            request=request)


@login_required
@never_cache
def faction_page(request: HttpRequest, game_id: int, faction: str) -> HttpResponse:
    faction = get_object_or_404(Faction.objects.select_related("game"), game_id=game_id, code=faction)
    role = faction_role(request.user, faction)  # R13, and whether a moderator looks, in one query
    if role is None:
        raise PermissionDenied("This faction's stacks and orders are secret.")
    board_pass.grant(request, faction.game_id, faction.code, role)  # its next boards: larp.fastlane
    if request.htmx:
        # The board a phase change makes every tablet fetch: rendered once per faction and state.
        # First: a passed deadline is closed before the board is read. Fresh: the board kept for this clock.
        payload = clock.payload(faction.game_id, fresh=True)
        html = rendered.board(request, faction.game_id, faction.code, board_variant(role, payload),
                              lambda extra: draw_board(request, faction, role, extra))
        return HttpResponse(html)
    return render(request, "tablet/faction.html", _page_context(request, faction, role))


@login_required
@require_POST
def file_order(request: HttpRequest, game_id: int, faction: str, unit: str) -> HttpResponse:
    """File one unit's order from the form (R5). HTMX gets the unit's card back; a plain POST a redirect."""
    faction = _faction(request, game_id, faction)
    before = selectors.Cards(request.user, faction)
    if before.one(unit) is None:
        raise Http404("No such army or fleet of this faction.")
    form = OrderPicksForm(request.POST)
    status, saved, error, dropped, picks = 200, None, None, None, None
    if not form.is_valid():
        error, status = form.error_text(), 400
    else:
        picks = form.picks()
        boarded = before.carried  # read before the order: whether it boards or leaves a fleet
        try:
            order = services.file_from_form(request.user, faction.game, unit, picks, key=form.cleaned_data["key"],
                                            arrived_at=arrived_at(request))
        except OrderRefused as exc:
            error, status = exc.message, REFUSAL_STATUS.get(exc.code, 422)
        else:
            saved, dropped = order.filed_at, getattr(order, "dropped_fleet_order", None)
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, _("Order saved %(time)s") % {"time": _local_time(saved)})
        return redirect(reverse("tablet:faction", args=[faction.game_id, faction.code]) + f"#unit-{unit}")
    cards = selectors.Cards(request.user, faction) if saved else before  # read again after the order
    entry = cards.one(unit, selected=picks if error else None)
    context = {"unit": entry, "saved_at": saved, "error": error, "faction": faction, "game": faction.game}
    response = render(request, "tablet/faction.html#unit", context, status=status)
    if saved:
        # The board's count of filed orders changes with this one.
        summary = render(request, "tablet/faction.html#summary", {**cards.summary(), "oob": True})
        response.content += summary.content
    if saved and entry is not None and entry["kind"] == "army":
        # An army's order may board a fleet or leave one (R5): refresh the fleets' cards out of band.
        for code in cards.codes("fleet"):
            note = _("Its own order was withdrawn: the fleet carries an army this turn (R5).") \
                if code == dropped else None
            extra = render(request, "tablet/faction.html#unit",
                           {"unit": cards.one(code), "oob": True, "faction": faction, "game": faction.game,
                            "note": note, "withdrawn": code == dropped})
            response.content += extra.content
        if cards.carried.keys() != boarded.keys():
            # A fleet was boarded or left: the other armies' sea orders may (no longer) board it (R5).
            for code in cards.codes("army"):
                if code != unit:
                    extra = render(request, "tablet/faction.html#unit",
                                   {"unit": cards.one(code), "oob": True, "faction": faction, "game": faction.game})
                    response.content += extra.content
    return response


@login_required
@require_POST
def orders_ready(request: HttpRequest, game_id: int, faction: str) -> HttpResponse:
    """«Приказы готовы» (or taking it back): the faction's orders are final for this Strategy phase."""
    faction = _faction(request, game_id, faction)
    ready = request.POST.get("ready") == "1"
    try:
        phase = turn_services.mark_ready(request.user, faction, ready)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        if phase.state == Phase.CLOSED:
            messages.success(request, _("Every faction is ready: the Strategy phase is closed."))
        elif ready:
            messages.success(request, _("Your orders are marked ready. You can still change them until the phase "
                                        "closes."))
        else:
            messages.success(request, _("Your orders are no longer marked ready."))
    return redirect("tablet:faction", game_id=faction.game_id, faction=faction.code)


def _local_time(value) -> str:
    from django.utils import timezone
    from django.utils.dateformat import time_format

    return time_format(timezone.localtime(value), "H:i:s")


# --- the strategic map ------------------------------------------------------------------------


def _map_context(game: Game, focus: Faction | None) -> dict:
    """The map's data and the address of its SVG, named by a version that changes whenever the picture does.
    One drawing serves every faction (drawn once per state: at a phase change eleven factions' tablets ask at
    once); a faction's picture differs only by its corner and its own flags marked."""
    def compute():
        data = maps.map_view(game, foci=True)
        return {"data": data, "version": maps.map_version(data, get_language(), "")}

    found = rendered.map_context(game, "", compute)
    code = focus.code if focus else ""
    data = {key: value for key, value in found["data"].items() if key != "foci"}
    data["focus"] = found["data"]["foci"].get(code, "") if code else ""
    version = maps.focus_version(found["version"], code, data["focus"])
    query = urlencode({"f": code, "v": version})
    return {"map": data, "map_version": version, "map_shared_version": found["version"],
            "map_src": reverse("tablet:map_svg", args=[game.pk]) + "?" + query,
            "map_url": reverse("tablet:map", args=[game.pk]) + "?" + urlencode({"f": code})}


def _map_focus(request: HttpRequest, game: Game) -> Faction | None:
    """Whose corner the map opens on: the faction asked for (positions are public, R13), else the player's own."""
    membership = require_member(request.user, game)
    asked = request.GET.get("f", "")
    if asked:
        found = Faction.objects.filter(game=game, code=asked).first()
        if found is not None:
            return found
    return membership.faction if membership and membership.role == Membership.PLAYER else None


@login_required
@never_cache
def map_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """Every army's position and flag, for everyone in the game; no stack contents (R13)."""
    game = get_object_or_404(Game, pk=game_id)
    own = _map_focus(request, game)
    context = {"game": game, "own_faction": own, **_map_context(game, own),
               "is_moderator": is_moderator(request.user, game.pk)}
    if request.htmx:
        return render(request, "tablet/map.html#map_lazy", context)
    from larp.turns.services import current_phase

    # The clock on the map page too: a phase change refreshes the map here as on the faction page.
    context.update(_clock_context(game.pk), phase=current_phase(game))
    return render(request, "tablet/map.html", context)


@login_required
@require_GET
def map_svg(request: HttpRequest, game_id: int) -> HttpResponse:
    """The map's SVG alone. Asked for by its current version, it is cached by the tablet for good: the next
    page or phase change that shows the same map costs nothing; a changed map has a new address."""
    membership = require_member(request.user, game_id)  # positions are for everyone in the game (R13)
    board_pass.grant(request, game_id)  # its next kept SVGs: larp.fastlane
    asked = request.GET.get("v", "")
    # The SVG of a version never changes: rendered once for all. Kept under the focus it was rendered for, so a
    # focus named in the address that finds one is a faction of this game: no need to look it up.
    focus = request.GET.get("f", "") or (membership.faction.code if membership and membership.faction_id
                                         and membership.role == Membership.PLAYER else "")
    kept = rendered.svg(game_id, focus, asked)
    if kept is None:
        game = get_object_or_404(Game, pk=game_id)
        own = _map_focus(request, game)
        focus = own.code if own else ""
        context = {"game": game, "own_faction": own, **_map_context(game, own)}
        if asked != context["map_version"]:
            response = render(request, "tablet/map.html#map_svg", context)
            add_never_cache_headers(response)
            return response

        def shared() -> str:  # the drawing every faction's picture is made from: no corner, no flag its own
            marked = {**context["map"], "focus": rendered.FOCUS_MARK}
            return render_to_string("tablet/map.html#map_svg", {**context, "own_faction": None, "map": marked},
                                    request)

        kept = rendered.keep_svg(game.pk, focus, asked, lambda: rendered.faction_svg(
            game.pk, context["map_shared_version"], shared, focus, context["map"]["focus"]))
    response = rendered.gzipped(request, kept)  # as rendered: the page puts it in place itself
    response["Cache-Control"] = "private, max-age=31536000, immutable"
    return response


@login_required
@require_GET
def map_picture(request: HttpRequest, game_id: int, key: str) -> HttpResponse:
    """The picture the game's map is drawn on (its scenario's): named by its bytes, so kept by the tablet for good."""
    game = get_object_or_404(Game, pk=game_id)
    require_member(request.user, game)
    picture = MapPicture.objects.filter(game=game, key=key).first()
    if picture is None:
        raise Http404("No such map picture.")
    response = HttpResponse(bytes(picture.body), content_type=picture.content_type)
    response["Cache-Control"] = "private, max-age=31536000, immutable"
    response["Content-Security-Policy"] = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
    response["X-Content-Type-Options"] = "nosniff"
    return response


# --- moderators: players and join codes --------------------------------------------------------


def _join_url(request: HttpRequest, token: JoinToken) -> str:
    path = reverse("tablet:join", args=[services.link(token)])
    base = tokens.base_url()
    return base + path if base else request.build_absolute_uri(path)


def _qr(url: str) -> str:
    return mark_safe(segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff",
                                                           title=_("Join code")))


@login_required
@never_cache
def players_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    require_moderator(request.user, game)
    return _players_response(request, game)


def _players_response(request: HttpRequest, game: Game, status: int = 200) -> HttpResponse:
    groups = selectors.players(game)
    for group in groups:
        for p in group["players"]:
            if p["token"] is not None:
                p["url"] = _join_url(request, p["token"])
                p["qr"] = _qr(p["url"])
    host = request.get_host().split(":")[0]
    return render(request, "tablet/players.html", {
        "game": game, "groups": groups, "factions": labels.by_name(game.factions.all()),
        "local_only": not tokens.base_url() and host in ("localhost", "127.0.0.1", "::1"),
    }, status=status)


def _back_to_players(game_id: int):
    return redirect("tablet:players", game_id=game_id)


@login_required
@require_POST
def issue_code(request: HttpRequest, game_id: int, user_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    require_moderator(request.user, game)
    member = get_object_or_404(Membership, game=game, user_id=user_id, role=Membership.PLAYER)
    services.issue_code(request.user, game, member.user)
    messages.success(request, _("New join code for %(user)s; the old one no longer works.")
                     % {"user": person(member.user)})
    return _back_to_players(game.pk)


@login_required
@require_POST
def issue_missing(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    require_moderator(request.user, game)
    count = services.issue_missing_codes(request.user, game)
    messages.success(request, _("Join codes issued: %(count)s.") % {"count": count})
    return _back_to_players(game.pk)


@login_required
@require_POST
def revoke_code(request: HttpRequest, game_id: int, token_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    require_moderator(request.user, game)
    token = get_object_or_404(JoinToken, game=game, pk=token_id)
    services.revoke_code(request.user, token)
    messages.success(request, _("The join code of %(user)s is revoked.") % {"user": person(token.user)})
    return _back_to_players(game.pk)


@login_required
@require_POST
def add_player(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    require_moderator(request.user, game)
    form = AddPlayerForm(game, request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(form.error_text())
        faction = form.cleaned_data["faction"]
        user, _token = services.add_player(request.user, faction, form.cleaned_data["username"],
                                          form.cleaned_data["name"])
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return _players_response(request, game, status=400)
    messages.success(request, _("Player %(user)s added to %(faction)s; the join code is below.")
                     % {"user": person(user), "faction": faction.name})
    return _back_to_players(game.pk)


# --- moderators: spy reports (R13) ---------------------------------------------------------------


# --- past turns, replayed on the map (the players' version: what the hall saw, R13) ------------------------


@login_required
def history_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """The turns this game has finished, each to replay on the map."""
    from larp.battles import replay

    game = get_object_or_404(Game, pk=game_id)
    require_member(request.user, game)
    own = _map_focus(request, game)
    return render(request, "tablet/history.html", {"game": game, "own_faction": own,
                                                   "turns": replay.finished_turns(game)})


@login_required
def replay_page(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    """A finished turn frame by frame: its start, each move, each battle's result, the map after regroup.

    Only turns whose regroup is applied: a turn being played is told by the hall's projector as it happens.
    """
    from larp.battles import replay
    from larp.turns.models import Turn

    game = get_object_or_404(Game, pk=game_id)
    require_member(request.user, game)
    if not replay.finished_turns(game).filter(number=number).exists():
        raise Http404
    try:
        turn, frames = replay.turn_frames(game, number, moderators=False)
    except Turn.DoesNotExist:
        raise Http404 from None
    frame = frames[replay.clamp(request.GET.get("frame"), len(frames))]
    own = _map_focus(request, game)
    context = {"game": game, "own_faction": own, "turn": turn, "frames": frames, "frame": frame,
               "last": len(frames) - 1, "map": maps.map_view(game, focus=own, **frame["map"])}
    if request.htmx:
        return render(request, "tablet/replay.html#replay", context)
    return render(request, "tablet/replay.html", context)


@login_required
def spy_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    require_moderator(request.user, game)
    status = 200
    if request.method == "POST":
        form = SpyReportForm(game, request.POST)
        try:
            if not form.is_valid():
                raise ValidationError(form.error_text())
            to = form.cleaned_data["to_faction"]
            services.grant_spy_report(request.user, game, to, form.cleaned_data["stack"])
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
            status = 400
        else:
            messages.success(request, _("Spy report granted to %(faction)s.") % {"faction": to.name})
            return redirect("tablet:spy", game_id=game.pk)
    from larp.tablet.models import SpyReport

    reports = SpyReport.objects.filter(game=game).select_related("to_faction", "granted_by")[:100]
    return render(request, "tablet/spy.html", {
        "game": game, "factions": labels.by_name(game.factions.all()), "targets": selectors.spy_targets(game),
        "reports": reports}, status=status)
