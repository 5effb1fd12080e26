"""The moderators' console for a turn: movement, battles, regroup, history. Thin: check, service, render."""
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from larp.battles import forms, selectors, services
from larp.battles.models import DiceRoll, TurnResolution
from larp.campaign.access import moderator_game
from larp.campaign.models import Faction, Game, Province
from larp.forces.models import Army, TroopType
from larp.orders.messages import refusal_text
from larp.turns.models import Snapshot, Turn
from larp.turns.services import current_phase
from larp.turns.views import form_messages, refused, status_of


def moderator_page(view):
    @login_required
    @wraps(view)
    def wrapper(request, game_id, *args, **kwargs):
        return view(request, moderator_game(request.user, game_id), *args, **kwargs)

    wrapper.page = view  # the page itself, for showing it again with a refusal
    return wrapper


def _context(game: Game, **extra) -> dict:
    ctx = {"game": game, "phase": current_phase(game), "names": selectors.names(game)}
    ctx.update(extra)
    return ctx


def _result_or_message(request, game):
    try:
        return services.current_result(game)
    except ValidationError as exc:
        messages.info(request, " ".join(exc.messages))
        return None, None, None


@moderator_page
def movement(request: HttpRequest, game: Game) -> HttpResponse:
    turn, resolution, result = _result_or_message(request, game)
    refused_orders = [{**r, "text": refusal_text(game.pk, r)} for r in (result or {}).get("refused", [])]
    moves = (result or {}).get("moves", [])
    move_groups = [{"holds": False, "moves": [m for m in moves if m["result"] != "held"]},
                   {"holds": True, "moves": [m for m in moves if m["result"] == "held"]}]
    return render(request, "battles/movement.html", _context(game, turn=turn, result=result, refused=refused_orders,
                                                             move_groups=move_groups, resolution=resolution))


@moderator_page
def battles(request: HttpRequest, game: Game) -> HttpResponse:
    turn, resolution, result = _result_or_message(request, game)
    pending_roll = None
    if resolution is not None and result and result.get("awaiting"):
        pending_roll = services.pending_roll(resolution, result["awaiting"]["n"])
    return render(request, "battles/battles.html", _context(
        game, turn=turn, result=result, resolution=resolution, pending_roll=pending_roll,
        modifiers=(resolution.choices.get("modifiers", []) if resolution else [])))


@moderator_page
def regroup(request: HttpRequest, game: Game) -> HttpResponse:
    turn, resolution, result = _result_or_message(request, game)
    return render(request, "battles/regroup.html", _context(
        game, turn=turn, result=result, resolution=resolution,
        destroyed_armies=Army.objects.filter(game=game, destroyed=True).select_related("faction"),
        armies=Army.objects.filter(game=game, destroyed=False).select_related("faction", "province"),
        troop_types=TroopType.objects.filter(game=game),
        factions=Faction.objects.filter(game=game),
        land=Province.objects.filter(game=game, domain=Province.LAND)))


def _act(request: HttpRequest, game: Game, form, act, page, success=None) -> HttpResponse:
    """Check the form, do the act, go back to the page; a refusal shows the page again with a 4xx status.

    Malformed input is a bad request (400); an act the turn's state refuses (a stale press, a battle not
    awaiting dice) a conflict (409); a repeat of an act already done changes nothing and says so.
    """
    if not form.is_valid():
        return refused(request, page.page, game, form_messages(form), 400)
    try:
        act(form.cleaned_data)
    except services.AlreadyDone as exc:
        messages.info(request, " ".join(exc.messages))
    except ValidationError as exc:
        return refused(request, page.page, game, exc.messages, status_of(exc))
    else:
        messages.success(request, success or _("Done."))
    return redirect(f"battles:{page.page.__name__}", game_id=game.pk)


def _retreats(game: Game) -> list[dict]:
    try:
        _turn, _resolution, result = services.current_result(game)
    except ValidationError:
        return []
    return (result or {}).get("retreats", [])


BATTLE_ACTS = {
    "roll": (forms.RollForm, lambda game, user, d: services.server_roll(game, user, d["battle"], d["replaces"])),
    "confirm": (forms.ConfirmForm, lambda game, user, d: services.confirm_battle(
        game, user, d["battle"], d["attacker"], d["defender"], roll_id=d["roll"])),
    "undo": (forms.UndoForm, lambda game, user, d: services.undo_last_battle(game, user, d["reason"], d["battle"])),
    "modifier": (forms.ModifierForm, lambda game, user, d: services.add_modifier(
        game, user, d["battle"], d["side"], d["value"], d["reason"])),
    "greek_fire": (forms.GreekFireForm, lambda game, user, d: services.set_greek_fire(game, user, d["battle"],
                                                                                       d["use"])),
    "storms": (lambda game, data: forms.StormsForm(game, data), lambda game, user, d: services.set_storms(
        game, user, d["province"].code, d["storms"], d["reason"])),
}


@moderator_page
@require_POST
def battle_action(request: HttpRequest, game: Game, action: str) -> HttpResponse:
    if action not in BATTLE_ACTS:
        raise Http404(action)
    make_form, act = BATTLE_ACTS[action]
    form = make_form(game, request.POST) if action == "storms" else make_form(request.POST)
    return _act(request, game, form, lambda d: act(game, request.user, d), battles)


@moderator_page
@require_POST
def movement_action(request: HttpRequest, game: Game) -> HttpResponse:
    return _act(request, game, forms.ApplyForm(request.POST),
                lambda d: services.apply_movement(game, request.user, d["turn"]), movement,
                _("Armies and fleets now stand where movement took them."))


@moderator_page
@require_POST
def regroup_action(request: HttpRequest, game: Game, action: str) -> HttpResponse:
    user, post = request.user, request.POST
    acts = {
        "retreat": lambda: (forms.RetreatForm(game, _retreats(game), post),
                            lambda d: services.set_retreat(game, user, d["unit"], d["province"], d["reason"])),
        "news": lambda: (forms.NewsForm(post), lambda d: services.set_news(game, user, d["news"])),
        "apply": lambda: (forms.ApplyForm(post), lambda d: services.apply_regroup(game, user, d["turn"])),
        "transfer": lambda: (forms.TransferForm(game, post), lambda d: services.transfer_province(
            game, user, d["province"].code, d["faction"].code if d["faction"] else None, d["reason"])),
        "raise": lambda: (forms.RaiseForm(game, post), lambda d: services.raise_army(
            game, user, d["army"], d["province"].code if d["province"] else None)),
        "purchase": lambda: (forms.PurchaseForm(game, post), lambda d: services.purchase(
            game, user, d["army"], d["troop_type"], d["count"])),
    }
    if action not in acts:
        raise Http404(action)
    form, act = acts[action]()
    return _act(request, game, form, act, regroup)


@moderator_page
def history(request: HttpRequest, game: Game) -> HttpResponse:
    turns = Turn.objects.filter(game=game).order_by("-number")
    return render(request, "battles/history.html", _context(game, turns=turns))


@moderator_page
def history_turn(request: HttpRequest, game: Game, number: int) -> HttpResponse:
    turn = get_object_or_404(Turn, game=game, number=number)
    resolution = TurnResolution.objects.filter(turn=turn).first()
    result = resolution.result if resolution else None
    refused = [{**r, "text": refusal_text(game.pk, r)} for r in (result or {}).get("refused", [])]
    return render(request, "battles/history_turn.html", _context(
        game, turn=turn, resolution=resolution, result=result, refused=refused,
        orders=turn.orders.select_related("filed_by").order_by("faction__code", "army__number", "fleet__number"),
        rolls=DiceRoll.objects.filter(resolution=resolution).select_related("by") if resolution else [],
        snapshots=Snapshot.objects.filter(turn=turn).order_by("taken_at")))


@moderator_page
def projector(request: HttpRequest, game: Game) -> HttpResponse:
    """Full-screen map, phase, turn and clock for the hall's projector: readable from 10 m, updates itself."""
    import json

    from larp.tablet import selectors as tablet
    from larp.turns import clock
    from larp.turns.models import Phase

    payload = clock.payload(game.pk)
    context = {"game": game, "map": tablet.map_view(game), "clock": payload, "face": tablet.clock_face(payload),
               "phase": current_phase(game), "own_faction": None,
               "phase_names": json.dumps({k: str(v) for k, v in Phase.KINDS}, ensure_ascii=False),
               "draw": selectors.names(game)}
    if request.htmx:
        return render(request, "battles/projector.html#stage", context)
    return render(request, "battles/projector.html", context)
