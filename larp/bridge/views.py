"""The battles page's panel for a battle at a table, and the three acts on it. Thin: check, service, go back."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from larp.battles import services as console
from larp.battles.models import TurnResolution
from larp.bridge import forms, services
from larp.bridge.models import TableBattle
from larp.campaign.access import moderator_game
from larp.tables import registry
from larp.battles.views import battles as battles_page
from larp.battles.views import form_messages, refused, status_of


def panel(request: HttpRequest, game, turn, result) -> str:
    """larp.battles.hooks: what the battles page shows with the battle awaiting its dice."""
    awaiting = (result or {}).get("awaiting")
    if awaiting is None:
        return ""
    resolution = TurnResolution.objects.filter(turn=turn).first()
    tb = services.active(turn)
    refused = services.refusals(game, awaiting) if tb is None else {}
    context = {"game": game, "a": awaiting, "tb": tb, "refused": refused,
               "systems": [(code, label, refused.get(code)) for code, label in services.systems(game)]}
    if tb is None:
        # What a system's own data lacks for a battle of the war (Orda's printed values), said before sending.
        offered = {code for code, _label, why in context["systems"] if not why}
        context["readiness"] = [r for r in registry.readiness(game) if r["system"] in offered and not r["ok"]]
        context["unready"] = {r["system"] for r in context["readiness"]}
    if tb is not None:
        context.update(state=services.state_of(tb, resolution), suggested=services.suggestion(tb),
                       table_url=registry.table_url(tb.table.system, game.pk, tb.table_id),
                       system_name=services.SYSTEM_NAMES.get(tb.table.system), sides=_sides(tb))
    elif awaiting.get("domain") == "sea" or not context["systems"]:
        return ""
    return render_to_string("bridge/panel.html", context, request=request)


def _sides(tb: TableBattle) -> dict:
    """Per role: the side's name at the table, its power going in, and its count in the table's result."""
    losses = (tb.table.result or {}).get("losses") or {}
    names = {s.key: s.name for s in tb.table.sides.all()}
    return {role: {"name": names.get(key, key), "power": tb.power.get(role), "counted": losses.get(key)}
            for role, key in tb.sides.items()}


ACTS = {
    "send": (forms.SendForm, lambda game, user, d: services.send_to_table(
        game, user, d["battle"], d["system"], d["reason"]),
        lambda tb: _("Battle %(n)s is fought at the table «%(title)s».") % {"n": tb.battle_no,
                                                                           "title": tb.table.title}),
    "cancel": (forms.CancelForm, lambda game, user, d: services.cancel(game, user, d["table_battle"], d["reason"]),
               lambda tb: _("The table is cancelled: battle %(n)s awaits its dice again.") % {"n": tb.battle_no}),
    "confirm": (forms.ConfirmForm, lambda game, user, d: services.confirm_result(
        game, user, d["table_battle"], d["winner"], d["attacker_losses"], d["defender_losses"], d["reason"]),
        lambda result: _("The table's result is in the turn; the battles go on.")),
}


@login_required
@require_POST
def act(request: HttpRequest, game_id: int, action: str) -> HttpResponse:
    game = moderator_game(request.user, game_id)
    if action not in ACTS:
        raise Http404(action)
    make_form, do, said = ACTS[action]
    form = make_form(request.POST)
    # A refusal shows the battles page again with a 4xx status (as the console's own acts do).
    if not form.is_valid():
        return refused(request, battles_page.page, game, form_messages(form), 400)
    try:
        done = do(game, request.user, form.cleaned_data)
    except console.AlreadyDone as exc:
        messages.info(request, " ".join(exc.messages))
    except ValidationError as exc:
        return refused(request, battles_page.page, game, exc.messages, status_of(exc))
    else:
        messages.success(request, said(done))
    return redirect("battles:battles", game_id=game.pk)
