"""Moderator controls, the console home, the audit log and the clock. Thin: access, form, service, response."""
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from larp.campaign.access import moderator_game
from larp.campaign.models import Game
from larp.dice import selectors as dice_selectors
from larp.turns import clock, console as selectors, forms, services
from larp.turns.audit_text import sentence
from larp.turns.models import AuditEntry, Phase
from larp.turns.selectors import names


@require_GET
@never_cache
def clock_view(request: HttpRequest, game_id: int) -> JsonResponse:
    """Polled every second by tablets and the projector: no session, no per-request heavy query."""
    return JsonResponse(clock.payload(game_id))


def form_messages(form) -> list[str]:
    """A refused form's messages, one per problem, in the user's language."""
    return [str(m) for errors in form.errors.values() for m in errors]


def refused(request: HttpRequest, page, game: Game, problems: list[str], status: int) -> HttpResponse:
    """The page the act was pressed on, shown again with what went wrong and a 4xx status; nothing changed."""
    for problem in problems:
        messages.error(request, problem)
    response = page(request, game)
    response.status_code = status
    return response


def status_of(exc: ValidationError) -> int:
    """A refusal by the state of the game is a conflict (409); a refusal of what was typed is a bad request."""
    return 400 if getattr(exc, "code", None) == "invalid" else 409


def console_page(request: HttpRequest, game: Game, picks: dict | None = None) -> HttpResponse:
    phase = services.current_phase(game)
    payload = clock.payload(game.pk)
    game_names = names(game)
    unit_code = (picks or {}).get("unit") or request.GET.get("unit", "")
    paper = selectors.paper_order(game, phase, unit_code, picks) if phase and unit_code else None
    context = {
        "paper_units": selectors.paper_order_units(phase, game_names) if phase else [],
        "paper": paper, "paper_unit": unit_code,
    }
    if request.htmx and request.GET.get("unit") is not None:
        return render(request, "turns/console.html#paper-order", {"game": game, "phase": phase, **context})
    return render(request, "turns/console.html", {**context,
        "game": game, "phase": phase, "settings": services.turn_settings(game), "names": game_names,
        "clock": payload, "face": clock.clock_face(payload),
        "phase_names": json.dumps({k: str(v) for k, v in Phase.KINDS}, ensure_ascii=False),
        "step": selectors.next_step(game, phase),
        "dice_fingerprint": dice_selectors.game_fingerprint(game),
        "unfinished": services.unfinished_work(phase) if phase else [],
        "grid": selectors.filing_grid(phase) if phase else None,
        "orders": selectors.orders_table(phase, game_names) if phase else None,
        "audit": [(e, sentence(e, game_names)) for e in AuditEntry.objects.filter(game=game).select_related("user")[:30]],
    })


@login_required
def console(request: HttpRequest, game_id: int) -> HttpResponse:
    return console_page(request, moderator_game(request.user, game_id))


ACTIONS = {
    "start": lambda game, user, data: services.start_game(game, user),
    "pause": lambda game, user, data: services.pause(game, user, data["reason"], phase_id=data["phase"]),
    "resume": lambda game, user, data: services.resume(game, user, data["reason"], phase_id=data["phase"]),
    "extend": lambda game, user, data: services.extend(game, user, data["minutes"], data["reason"],
                                                       phase_id=data["phase"]),
    "end": lambda game, user, data: services.end_now(game, user, data["reason"], phase_id=data["phase"],
                                                     skip=data["skip"]),
    "next": lambda game, user, data: services.next_phase(game, user, data["reason"], phase_id=data["phase"],
                                                         skip=data["skip"]),
    "draw": lambda game, user, data: services.make_draw(game, user),
    "draw_manual": lambda game, user, data: services.enter_draw(game, user, data["order"]),
}


def _minutes(seconds) -> str:
    minutes = max(0, round((seconds or 0) / 60, 1))
    return f"{minutes:g}"


def _phase_text(phase) -> str:
    return _("turn %(turn)s, phase «%(phase)s»") % {"turn": phase.turn.number, "phase": phase.get_kind_display()}


def _draw_text(game: Game, order) -> str:
    factions = names(game).get("factions", {})
    return ", ".join(str(factions.get(code, code)) for code in order or [])


# What each act did, in one sentence (never a bare «Done.»).
DONE = {
    "start": lambda game, phase, data: _("The game started: %(phase)s, %(minutes)s min.") % {
        "phase": _phase_text(phase), "minutes": _minutes(phase.remaining())},
    "pause": lambda game, phase, data: _("Phase «%(phase)s» paused.") % {"phase": phase.get_kind_display()},
    "resume": lambda game, phase, data: _("Phase «%(phase)s» goes on: %(minutes)s min. left.") % {
        "phase": phase.get_kind_display(), "minutes": _minutes(phase.remaining())},
    "extend": lambda game, phase, data: _("Phase extended by %(minutes)s min.") % {"minutes": f"{data['minutes']:g}"},
    "end": lambda game, phase, data: _("Phase «%(phase)s» ended.") % {"phase": phase.get_kind_display()},
    "next": lambda game, phase, data: _("Now: %(phase)s.") % {"phase": _phase_text(phase)},
    "draw": lambda game, order, data: _("Draw made by lot: %(order)s.") % {"order": _draw_text(game, order)},
    "draw_manual": lambda game, order, data: _("Draw written: %(order)s.") % {"order": _draw_text(game, order)},
}


@login_required
@require_POST
def control(request: HttpRequest, game_id: int, action: str) -> HttpResponse:
    game = moderator_game(request.user, game_id)
    act = ACTIONS.get(action)
    if act is None:
        raise Http404(action)
    form = forms.FORMS[action](request.POST)
    if not form.is_valid():
        return refused(request, console_page, game, form_messages(form), 400)
    try:
        done = act(game, request.user, form.cleaned_data)
    except ValidationError as exc:
        return refused(request, console_page, game, exc.messages, status_of(exc))
    messages.success(request, DONE[action](game, done, form.cleaned_data))
    return redirect("turns:console", game_id=game.pk)


@login_required
def audit_log(request: HttpRequest, game_id: int) -> HttpResponse:
    game = moderator_game(request.user, game_id)
    game_names = names(game)
    entries = AuditEntry.objects.filter(game=game).select_related("user")[:500]
    return render(request, "turns/audit.html", {
        "game": game, "phase": services.current_phase(game), "entries": [(e, sentence(e, game_names)) for e in entries]})
