"""The moderators' console for a turn: its home and controls, movement, battles, regroup, history. Thin: check,
service, render."""
import json
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from larp.battles import console as home, forms, hooks, replay, selectors, services
from larp.battles.models import DiceRoll, TurnResolution
from larp.campaign import labels
from larp.campaign.access import moderator_game
from larp.campaign.models import Faction, Game, Province
from larp.dice import selectors as dice_selectors
from larp.forces import services as forces_services
from larp.forces.models import Army, TroopType
from larp.maps import view as maps
from larp.orders import services as order_services
from larp.orders.forms import PaperOrderForm
from larp.orders.messages import refusal_text
from larp.turns import clock, forms as turn_forms, services as turn_services, situation
from larp.turns.audit_text import sentence
from larp.turns.models import AuditEntry, Phase, Snapshot, Turn
from larp.turns.selectors import names as names_of
from larp.turns.services import current_phase


# --- the console home: the one next thing to do, the clock's controls, the paper order --------------


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
    phase = current_phase(game)
    payload = clock.payload(game.pk)
    game_names = names_of(game)
    unit_code = (picks or {}).get("unit") or request.GET.get("unit", "")
    paper = home.paper_order(game, phase, unit_code, picks) if phase and unit_code else None
    context = {
        "paper_units": home.paper_order_units(phase, game_names) if phase else [],
        "paper": paper, "paper_unit": unit_code,
    }
    if request.htmx and request.GET.get("unit") is not None:
        return render(request, "battles/console.html#paper-order", {"game": game, "phase": phase, **context})
    return render(request, "battles/console.html", {**context,
        "game": game, "phase": phase, "settings": turn_services.turn_settings(game), "names": game_names,
        "clock": payload, "face": clock.clock_face(payload),
        "phase_names": json.dumps({k: str(v) for k, v in Phase.KINDS}, ensure_ascii=False),
        "step": home.next_step(game, phase),
        "dice_fingerprint": dice_selectors.game_fingerprint(game), "dice_chosen": dice_selectors.chosen(game),
        "unfinished": turn_services.unfinished_work(phase) if phase else [],
        "grid": home.filing_grid(phase) if phase else None,
        "orders": home.orders_table(phase, game_names) if phase else None,
        "audit": [(e, sentence(e, game_names)) for e in AuditEntry.objects.filter(game=game).select_related("user")[:30]],
    })


@login_required
def console(request: HttpRequest, game_id: int) -> HttpResponse:
    return console_page(request, moderator_game(request.user, game_id))


CONSOLE_ACTS = {
    "start": lambda game, user, data: turn_services.start_game(game, user),
    "pause": lambda game, user, data: turn_services.pause(game, user, data["reason"], phase_id=data["phase"],
                                                          on_clock=data["clock"]),
    "resume": lambda game, user, data: turn_services.resume(game, user, data["reason"], phase_id=data["phase"],
                                                            on_clock=data["clock"]),
    "extend": lambda game, user, data: turn_services.extend(game, user, data["minutes"], data["reason"],
                                                            phase_id=data["phase"], on_clock=data["clock"]),
    "shorten": lambda game, user, data: turn_services.shorten(game, user, data["minutes"], data["reason"],
                                                              phase_id=data["phase"], on_clock=data["clock"]),
    "end": lambda game, user, data: turn_services.end_now(game, user, data["reason"], phase_id=data["phase"],
                                                          skip=data["skip"], on_clock=data["clock"]),
    "next": lambda game, user, data: turn_services.next_phase(game, user, data["reason"], phase_id=data["phase"],
                                                              skip=data["skip"]),
    "draw": lambda game, user, data: turn_services.make_draw(game, user),
    "close_when_ready": lambda game, user, data: turn_services.set_close_when_ready(game, user, data["on"]),
    "draw_manual": lambda game, user, data: turn_services.enter_draw(game, user, data["order"]),
}


def _minutes(seconds) -> str:
    minutes = max(0, round((seconds or 0) / 60, 1))
    return f"{minutes:g}"


def _phase_text(phase) -> str:
    return _("turn %(turn)s, phase «%(phase)s»") % {"turn": phase.turn.number, "phase": phase.get_kind_display()}


def _draw_text(game: Game, order) -> str:
    factions = names_of(game).get("factions", {})
    return ", ".join(str(factions.get(code, code)) for code in order or [])


def _whole(x: float):
    """4.0 -> 4 (shown «4», not «4,0»); 5.9 stays (shown «5,9» in Russian)."""
    return int(x) if float(x).is_integer() else x


def _shortened_text(phase, data) -> str:
    if phase.state == Phase.RUNNING and phase.remaining() is not None and phase.remaining() <= 1:
        return _("Phase shortened to now: the deadline has come.")
    from django.utils.formats import number_format

    return _("Phase shortened by %(minutes)s min.: %(left)s min. left.") % {
        "minutes": number_format(_whole(data["minutes"])),
        "left": number_format(_whole(float(_minutes(phase.remaining()))))}


def _close_when_ready_text(game, ts) -> str:
    phase = current_phase(game)
    if phase is not None and phase.kind == Phase.STRATEGY and phase.closed_how == "ready":
        return _("Every faction was already ready: the Strategy phase is closed.")
    if ts.close_when_ready:
        return _("Strategy will close as soon as every faction marks its orders ready.")
    return _("Strategy runs to its deadline, whoever is ready.")


# What each act of the console did, in one sentence (never a bare «Done.»).
CONSOLE_DONE = {
    "start": lambda game, phase, data: _("The game started: %(phase)s, %(minutes)s min.") % {
        "phase": _phase_text(phase), "minutes": _minutes(phase.remaining())},
    "pause": lambda game, phase, data: _("Phase «%(phase)s» paused.") % {"phase": phase.get_kind_display()},
    "resume": lambda game, phase, data: _("Phase «%(phase)s» goes on: %(minutes)s min. left.") % {
        "phase": phase.get_kind_display(), "minutes": _minutes(phase.remaining())},
    "extend": lambda game, phase, data: _("Phase extended by %(minutes)s min.") % {"minutes": f"{data['minutes']:g}"},
    "shorten": lambda game, phase, data: _shortened_text(phase, data),
    "end": lambda game, phase, data: _("Phase «%(phase)s» ended.") % {"phase": phase.get_kind_display()},
    "next": lambda game, phase, data: _("Now: %(phase)s.") % {"phase": _phase_text(phase)},
    "close_when_ready": lambda game, ts, data: _close_when_ready_text(game, ts),
    "draw": lambda game, order, data: _("Draw made by lot: %(order)s.") % {"order": _draw_text(game, order)},
    "draw_manual": lambda game, order, data: _("Draw written: %(order)s.") % {"order": _draw_text(game, order)},
}


@login_required
@require_POST
def control(request: HttpRequest, game_id: int, action: str) -> HttpResponse:
    game = moderator_game(request.user, game_id)
    act = CONSOLE_ACTS.get(action)
    if act is None:
        raise Http404(action)
    form = turn_forms.FORMS[action](request.POST)
    if not form.is_valid():
        return refused(request, console_page, game, form_messages(form), 400)
    try:
        done = act(game, request.user, form.cleaned_data)
    except ValidationError as exc:
        return refused(request, console_page, game, exc.messages, status_of(exc))
    messages.success(request, CONSOLE_DONE[action](game, done, form.cleaned_data))
    return redirect("battles:console", game_id=game.pk)


# --- movement, battles, regroup ----------------------------------------------------------------------


def moderator_page(view):
    @login_required
    @wraps(view)
    def wrapper(request, game_id, *args, **kwargs):
        return view(request, moderator_game(request.user, game_id), *args, **kwargs)

    wrapper.page = view  # the page itself, for showing it again with a refusal
    return wrapper


def _context(game: Game, **extra) -> dict:
    ctx = {"game": game, "phase": current_phase(game)}
    ctx.update(extra)
    if "names" not in ctx:
        ctx["names"] = names_of(game)
    return ctx


def _result_or_message(request, game):
    try:
        return services.current_result(game)
    except ValidationError as exc:
        if current_phase(game) is not None:  # before the game the header says so: not twice on one page
            messages.info(request, " ".join(exc.messages))
        return None, None, None


def _step_shown(request, count: int) -> int | None:
    """The step asked for in the URL (?step=k, 0 = before the first move), kept within 0..count; None if absent."""
    raw = request.GET.get("step")
    if raw is None or raw == "":
        return None
    try:
        step = int(raw)
    except ValueError:
        raise BadRequest(_("The movement step must be a number.")) from None
    return max(0, min(step, count))


CONSOLE_LABEL_PX = 14  # province names on the console's movement map: legible at 1280 px


def _movement_stage(game: Game, turn, result: dict, names: dict, shown: int, drawing: dict | None = None) -> dict:
    """The steps, the one shown and the map after it: what the console and the projector both draw."""
    steps = selectors.movement_steps(result, names, selectors.filed_orders(turn))
    shown = max(0, min(shown, len(steps)))
    current = steps[shown - 1] if shown else None
    positions = selectors.positions_at(situation.start_positions(turn), result, steps, shown)
    return {"steps": steps, "shown": shown, "current": current,
            "map": maps.map_view(game, positions=positions, route=current["route"] if current else None,
                                  **(drawing or {"label_px": CONSOLE_LABEL_PX}))}


@moderator_page
def movement(request: HttpRequest, game: Game) -> HttpResponse:
    turn, resolution, result = _result_or_message(request, game)
    if not result:
        return render(request, "battles/movement.html", _context(game, turn=turn, result=None))
    names = names_of(game)
    count = len(selectors.movement_steps(result, names, selectors.filed_orders(turn)))
    shown = _step_shown(request, count)
    applied = resolution is not None and resolution.movement_applied_at is not None
    # Once applied, the page shows the final positions; stepping again is a replay, marked so.
    replay = applied and shown is not None and shown < count
    if shown is None and applied:
        shown = count
    elif shown is None:
        remembered = selectors.shown(game, turn.number)
        shown = remembered["step"] if remembered and remembered["view"] == "movement" else 0
    selectors.remember_shown(game, turn.number, "movement", shown)
    refused_orders = [{**r, "text": refusal_text(game.pk, r)} for r in result.get("refused", [])]
    held = [m for m in result.get("moves", []) if m["result"] == "held" and m.get("order") == "hold"]
    return render(request, "battles/movement.html", _context(
        game, names=names, turn=turn, result=result, refused=refused_orders, held=held, resolution=resolution,
        applied=applied, replay=replay, **_movement_stage(game, turn, result, names, shown)))


@moderator_page
def battles(request: HttpRequest, game: Game) -> HttpResponse:
    turn, resolution, result = _result_or_message(request, game)
    pending_roll = None
    if resolution is not None and result and result.get("awaiting"):
        pending_roll = services.pending_roll(resolution, result["awaiting"]["n"])
    awaiting = (result or {}).get("awaiting")
    if turn is not None:
        selectors.remember_shown(game, turn.number, "battles")
    modifiers = (resolution.choices.get("modifiers", []) if resolution else [])
    return render(request, "battles/battles.html", _context(
        game, turn=turn, result=result, resolution=resolution, pending_roll=pending_roll,
        queue=selectors.battle_queue(result or {}), dice_revealed=dice_selectors.war_revealed(game),
        # A battle being fought at a table (larp/bridge) holds the dice; what it adds to the page.
        held=hooks.hold(turn) if turn is not None else None,
        panels=hooks.panels(request, game, turn, result) if turn is not None and result else [],
        outside=selectors.outside_battles(resolution), decided=services.decided_count(resolution) if resolution else 0,
        # A modifier belongs to its own battle only (R9).
        modifiers=[{**m, "index": i} for i, m in enumerate(modifiers) if awaiting and m.get("battle") == awaiting["n"]]))


@moderator_page
def regroup(request: HttpRequest, game: Game) -> HttpResponse:
    turn, resolution, result = _result_or_message(request, game)
    return render(request, "battles/regroup.html", _context(
        game, turn=turn, result=result, resolution=resolution,
        destroyed_armies=Army.objects.filter(game=game, destroyed=True).select_related("faction"),
        armies=Army.objects.filter(game=game, destroyed=False).select_related("faction", "province"),
        troop_types=TroopType.objects.filter(game=game),
        factions=labels.by_name(Faction.objects.filter(game=game)),
        land=Province.objects.filter(game=game, domain=Province.LAND)))


def _act(request: HttpRequest, game: Game, form, act, page, success) -> HttpResponse:
    """Check the form, do the act, go back to the page; a refusal shows the page again with a 4xx status.

    Malformed input is a bad request (400); an act the turn's state refuses (a stale press, a battle not
    awaiting dice) a conflict (409); a repeat of an act already done changes nothing and says so.
    """
    if not form.is_valid():
        return refused(request, page.page, game, form_messages(form), 400)
    try:
        done = act(form.cleaned_data)
    except services.AlreadyDone as exc:
        messages.info(request, " ".join(exc.messages))
    except ValidationError as exc:
        return refused(request, page.page, game, exc.messages, status_of(exc))
    else:
        messages.success(request, success(game, form.cleaned_data, done) if callable(success) else success)
    return redirect(f"battles:{page.page.__name__}", game_id=game.pk)


def _retreats(game: Game) -> list[dict]:
    try:
        _turn, _resolution, result = services.current_result(game)
    except ValidationError:
        return []
    return (result or {}).get("retreats", [])


def _battle_done(game: Game, data: dict, done) -> str:
    """«Battle 2 (Serres): the attacker wins.» — what a confirmation did."""
    n = data["battle"]
    if done.get("already"):
        return _("Battle %(n)s had already been confirmed: nothing changed.") % {"n": n}
    fought = done["result"]["fought"][n - 1]
    game_names = names_of(game)
    return _("Battle %(n)s (%(province)s): %(outcome)s.") % {
        "n": n, "province": game_names["provinces"].get(fought["province"], fought["province"]),
        "outcome": labels.decision(fought)}


def _side(side: str) -> str:
    return _("attacker") if side == "attacker" else _("defender")


# What each act on the battles page did, in one sentence.
BATTLE_DONE = {
    "roll": lambda game, d, done: _("The server rolled the dice of battle %(n)s: %(a)s against %(d)s.") % {
        "n": d["battle"], "a": "+".join(map(str, done.attacker)), "d": "+".join(map(str, done.defender))},
    "confirm": _battle_done,
    "undo": lambda game, d, done: _("Battle %(n)s undone: it awaits its dice again.") % {"n": done},
    "modifier": lambda game, d, done: _("Battle %(n)s: modifier %(value)+d for the %(side)s recorded.") % {
        "n": d["battle"], "value": int(d["value"]), "side": _side(d["side"])},
    "remove_modifier": lambda game, d, done: _("Battle %(n)s: modifier taken back.") % {"n": d["battle"]},
    "greek_fire": lambda game, d, done: (_("Battle %(n)s: Greek fire is used.") if d["use"]
                                         else _("Battle %(n)s: Greek fire is not used.")) % {"n": d["battle"]},
    "storms": lambda game, d, done: _("%(province)s: at most %(n)s storms this turn.") % {
        "province": d["province"].name, "n": d["storms"]},
}

REGROUP_DONE = {
    "retreat": lambda game, d, done: _("Retreat recorded."),
    "news": lambda game, d, done: _("News of other modules saved."),
    "apply": lambda game, d, done: _("Regroup applied: the map shows the new owners."),
    "transfer": lambda game, d, done: _("%(province)s handed to %(faction)s.") % {
        "province": d["province"].name, "faction": d["faction"].name if d["faction"] else _("neutral")},
    "raise": lambda game, d, done: _("%(unit)s raised anew.") % {"unit": done},
    "purchase": lambda game, d, done: _("Cards added: %(n)s.") % {"n": d["count"]},
}

BATTLE_ACTS = {
    "roll": (forms.RollForm, lambda game, user, d: services.server_roll(game, user, d["battle"], d["replaces"],
                                                                                   d["reason"])),
    "confirm": (forms.ConfirmForm, lambda game, user, d: services.confirm_battle(
        game, user, d["battle"], d["attacker"], d["defender"], roll_id=d["roll"])),
    "undo": (forms.UndoForm, lambda game, user, d: services.undo_last_battle(game, user, d["reason"], d["battle"])),
    "modifier": (forms.ModifierForm, lambda game, user, d: services.add_modifier(
        game, user, d["battle"], d["side"], d["value"], d["reason"])),
    "remove_modifier": (forms.RemoveModifierForm, lambda game, user, d: services.remove_modifier(
        game, user, d["battle"], d["index"])),
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

    def act_then_tactics(data):
        done = act(game, request.user, data)
        services.battles_under_way(game, request.user)  # a battle fought: the turn is in Tactics now
        return done

    return _act(request, game, form, act_then_tactics, battles, BATTLE_DONE[action])


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
        "purchase": lambda: (forms.PurchaseForm(game, post), lambda d: forces_services.purchase(
            game, user, d["army"], d["troop_type"], d["count"], turn_number=services.turn_number(game))),
    }
    if action not in acts:
        raise Http404(action)
    form, act = acts[action]()
    return _act(request, game, form, act, regroup, REGROUP_DONE[action])


# How a refused paper order answers: unknown unit 404, too late 409, anything else the engine refuses 422.
ORDER_STATUS = {"forbidden": 403, "unknown_unit": 404, "late": 409, "closed": 409}


@moderator_page
@require_POST
def moderator_order(request: HttpRequest, game: Game) -> HttpResponse:
    """R14: a moderator writes an order for any unit at any time of the turn, with the legal-choice pickers."""
    form = PaperOrderForm(request.POST)
    if not form.is_valid():
        return refused(request, console_page, game, form_messages(form), 400)
    picks = form.picks()
    try:
        payload = order_services.payload_from_picks(game, picks)
        services.moderator_set_order(request.user, game, picks["unit"], payload, form.cleaned_data["reason"])
    except order_services.OrderRefused as exc:
        messages.error(request, exc.message)
        response = console_page(request, game, picks)
        response.status_code = ORDER_STATUS.get(exc.code, 422)
        return response
    messages.success(request, _("Order saved."))
    return redirect("battles:console", game_id=game.pk)


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
    names = names_of(game)
    return render(request, "battles/history_turn.html", _context(
        game, names=names, turn=turn, resolution=resolution, result=result, refused=refused,
        outside=selectors.outside_battles(resolution),
        steps=selectors.movement_steps(result or {}, names, selectors.filed_orders(turn)),
        orders=sorted(turn.orders.select_related("filed_by", "faction").prefetch_related("filed_by__memberships__faction")
                      .order_by("army__number", "fleet__number"), key=lambda o: labels.name_key(o.faction.name)),
        rolls=DiceRoll.objects.filter(resolution=resolution).select_related("by") if resolution else [],
        modifiers=_modifiers_by_battle(resolution, result), decisions=_turn_decisions(game, turn, names),
        snapshots=Snapshot.objects.filter(turn=turn).order_by("taken_at")))


# The moderators' acts on a turn's battles that History tells with their reasons (the audit has them all).
BATTLE_DECISIONS = ("battle_undone", "modifier_added", "modifier_removed", "greek_fire", "storms_limited",
                    "outside_outcome_entered", "retreat_chosen")


def _modifiers_by_battle(resolution, result: dict | None) -> dict[int, list[dict]]:
    """{battle number: the modifiers it was fought with, each with its side, value and written reason}
    (every fought battle has its entry, empty when it had none)."""
    by_battle: dict[int, list[dict]] = {f["n"]: [] for f in (result or {}).get("fought", [])}
    for m in ((resolution.choices or {}).get("modifiers", []) if resolution else []):
        by_battle.setdefault(m.get("battle"), []).append(m)
    return by_battle


def _turn_decisions(game: Game, turn: Turn, names: dict) -> list[tuple]:
    """The turn's undos, modifiers and other battle decisions, oldest first: (entry, its sentence)."""
    entries = AuditEntry.objects.filter(game=game, action__in=BATTLE_DECISIONS).select_related("user").order_by("at", "id")
    return [(e, sentence(e, names)) for e in entries if (e.detail or {}).get("turn") == turn.number]


@moderator_page
def history_turn_case(request: HttpRequest, game: Game, number: int, part: str) -> HttpResponse:
    """A past turn as the rules engine sees it, to re-check with `manage.py adjudicate turn CASE.json`:
    `case` is the JSON the engine takes (start state, orders, dice, choices), `result` what it gave."""
    if part not in ("case", "result"):
        raise Http404
    turn = get_object_or_404(Turn, game=game, number=number)
    resolution = get_object_or_404(TurnResolution, turn=turn)
    body = services.turn_case(turn, resolution) if part == "case" else resolution.result
    if not body:
        raise Http404
    response = HttpResponse(json.dumps(body, ensure_ascii=False, indent=1, sort_keys=True),
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="game-{game.pk}-turn-{number}-{part}.json"'
    return response


def _replay_context(game: Game, number: int, frame) -> dict:
    try:
        turn, frames = replay.turn_frames(game, number)
    except Turn.DoesNotExist:
        raise Http404 from None
    shown = frames[replay.clamp(frame, len(frames))]
    return {"turn": turn, "frames": frames, "frame": shown, "last": len(frames) - 1}


@moderator_page
def history_replay(request: HttpRequest, game: Game, number: int) -> HttpResponse:
    """A past turn replayed on the map, one frame a press: its start, each move, each battle, the map after
    regroup. The hall sees the same frame when the moderator puts the replay on the projector."""
    context = _replay_context(game, number, request.GET.get("frame"))
    hall = replay.in_hall(game)
    on_projector = bool(hall and hall["turn"] == number)
    if on_projector and hall["frame"] != context["frame"]["n"]:
        replay.show_in_hall(game, number, context["frame"]["n"])  # the projector follows the console's frame
    context.update(map=maps.map_view(game, **context["frame"]["map"], label_px=CONSOLE_LABEL_PX),
                   on_projector=on_projector)
    if request.htmx:
        return render(request, "battles/history_replay.html#replay", _context(game, **context))
    return render(request, "battles/history_replay.html", _context(game, **context))


@moderator_page
@require_POST
def history_replay_hall(request: HttpRequest, game: Game, number: int) -> HttpResponse:
    """Put this replay on the projector (at the frame shown), or give the projector back to the game."""
    context = _replay_context(game, number, request.POST.get("frame"))
    if request.POST.get("show") == "1":
        replay.show_in_hall(game, number, context["frame"]["n"])
        messages.success(request, _("The projector shows this replay. Stop it to give the hall the game back."))
    else:
        replay.stop_in_hall(game)
        messages.success(request, _("The projector shows the game as it stands again."))
    return redirect(f'{reverse("battles:history_replay", args=[game.pk, number])}?frame={context["frame"]["n"]}')


# The projector at 1920x1080 in full screen draws the default map about 1.7 px per map unit: province names of
# 19 symbol units are about 35 px high on screen (legible from 10 m), flags and ships twice the tablet's size
# (taller still), and the phase's board stands in an empty corner of the map, over 28 % of its width.
PROJECTOR_LABEL_PX = 18
PROJECTOR_FLAG_SIZE = 1.8
PROJECTOR_PANEL = 0.28
PROJECTOR_MAP = {"label_px": PROJECTOR_LABEL_PX, "flag_size": PROJECTOR_FLAG_SIZE, "panel_width": PROJECTOR_PANEL}


def _projector_stage(game: Game, phase, names: dict) -> dict:
    """What the hall sees, by phase, beside the map: Strategy — the orders filed per faction; Movement — the step
    the console shows; Tactics — the battles board; Regroup — the turn's results and who moves first next."""
    hall = replay.in_hall(game)
    if hall:
        try:
            turn, frames = replay.turn_frames(game, hall["turn"])
        except Turn.DoesNotExist:
            replay.stop_in_hall(game)
        else:
            frame = frames[replay.clamp(hall.get("frame"), len(frames))]
            return {"board": "replay", "frame": frame, "turn": turn, "last": len(frames) - 1,
                    "map": maps.map_view(game, **frame["map"], **PROJECTOR_MAP)}
    plain = {"map": maps.map_view(game, **PROJECTOR_MAP), "board": None}
    if phase is None:
        return plain
    if phase.kind == Phase.STRATEGY:
        return {**plain, "board": "strategy", "grid": home.filing_grid(phase)}
    try:
        turn, resolution, result = services.current_result(game)
    except ValidationError:
        return plain
    shown = selectors.shown(game, turn.number)
    if phase.kind == Phase.MOVEMENT and shown and shown["view"] == "movement":
        return {"mode": "movement", "board": "movement",
                **_movement_stage(game, turn, result, names, shown["step"], PROJECTOR_MAP)}
    if phase.kind == Phase.MOVEMENT and not (shown and shown["view"] == "battles"):
        return plain
    if phase.kind == Phase.REGROUP:
        return {**plain, "board": "results", "results": _turn_results(game, result, names)}
    awaiting = result.get("awaiting")
    return {"mode": "battle" if awaiting else None, "board": "battles", "battle": awaiting,
            "battles": _battle_board(result, names),
            "map": maps.map_view(game, route=[awaiting["province"]] if awaiting else None, **PROJECTOR_MAP)}


def _hall_side(names: dict, side: dict | None) -> dict:
    faction = (side or {}).get("faction")
    return {"name": names["factions"].get(faction, "") if faction else _("neutral garrison"),
            "colour": names["colours"].get(faction, maps.NEUTRAL_COLOUR) if faction else maps.NEUTRAL_COLOUR}


def _battle_board(result: dict, names: dict) -> list[dict]:
    """Each battle of the turn for the hall: where, who against whom, the odds while it is fought, and the
    result once confirmed, in the engine's words (labels.decision)."""
    rows = []
    stacks = {b["province"]: b.get("stack") or [] for b in result.get("battles") or []}
    for q in selectors.battle_queue(result):
        fought = q["fought"][-1] if q["fought"] else None
        # Who is in the province before its battle is fought: every faction of the stack, in its order.
        involved = []
        for force in stacks.get(q["province"], []):
            side = _hall_side(names, force)
            if force.get("units") or force.get("garrison"):
                involved += [side] if side not in involved else []
        shown = q["awaiting"] or fought or {}
        odds = (q["awaiting"] or {}).get("odds")
        rows.append({"n": q["n"], "state": q["state"], "place": names["provinces"].get(q["province"], q["province"]),
                     "attacker": _hall_side(names, shown.get("attacker")) if shown else None,
                     "defender": _hall_side(names, shown.get("defender")) if shown else None,
                     "involved": involved,
                     "odds": labels.odds_text(odds["attacker_wins"]) if odds and odds.get("attacker_wins") else "",
                     "totals": f'{fought["attacker"].get("total")} : {fought["defender"].get("total")}'
                     if fought and not fought.get("outside") and fought["attacker"].get("total") is not None else "",
                     "results": [labels.decision(f) for f in q["fought"]]})
    return rows


def _turn_results(game: Game, result: dict, names: dict) -> dict:
    """The turn's results for the hall: provinces changing hands, units destroyed, who moves first next turn."""
    from larp.turns.services import turn_settings

    draw = turn_settings(game).draw or []
    destroyed = (result.get("destroyed") or {})
    return {"recoloured": [{"place": names["provinces"].get(r["province"], r["province"]),
                            "from": _hall_side(names, {"faction": r.get("from")}) if r.get("from") else None,
                            "to": _hall_side(names, {"faction": r.get("to")})} for r in result.get("recoloured") or []],
            "destroyed": [names["units"].get(u, u) for u in (destroyed.get("armies") or []) + (destroyed.get("fleets") or [])],
            "first": _hall_side(names, {"faction": draw[0]}) if draw else None}


@moderator_page
@never_cache
def projector_version(request: HttpRequest, game: Game) -> JsonResponse:
    """Polled by the projector about twice a second: a token that changes whenever its picture would."""
    return JsonResponse({"v": selectors.hall_version(game)})


@moderator_page
def projector(request: HttpRequest, game: Game) -> HttpResponse:
    """Full-screen map, phase, turn and clock for the hall's projector: readable from 10 m, updates itself.

    While the moderators step the movement or fight a battle, the projector shows the same step or battle.
    """
    import json

    from larp.turns import clock
    from larp.turns.models import Phase

    payload = clock.payload(game.pk)
    phase = current_phase(game)
    names = names_of(game)
    context = {"game": game, "clock": payload, "face": clock.clock_face(payload),
               "phase": phase, "own_faction": None, "names": names,
               "phase_names": json.dumps({k: str(v) for k, v in Phase.KINDS}, ensure_ascii=False),
               "draw": names, "version": selectors.hall_version(game), **_projector_stage(game, phase, names),
               "dice_fingerprint": dice_selectors.game_fingerprint(game), "dice_chosen": dice_selectors.chosen(game)}
    if request.htmx:
        return render(request, "battles/projector.html#stage", context)
    return render(request, "battles/projector.html", context)
