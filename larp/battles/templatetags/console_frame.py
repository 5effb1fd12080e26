"""{% console_frame %}: the frame of every console page — a bar that stays at the top with the game, the turn
and phase, the live clock, the worker's state and the one next thing to do, over the pages grouped by what a
moderator does (the turn, the hall, the record), the current one marked.

It reads what the console home reads (larp.battles.console.next_step); pages pass nothing but `game` (and
`phase` when they have it), so every console page shows the same frame.
"""
from __future__ import annotations

import json

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from larp.battles import console
from larp.turns import clock
from larp.turns.models import Phase
from larp.turns.services import current_phase

register = template.Library()

# The turn's pages in the order of its phases (R3-R12): a later phase's page is shown as not yet open.
TURN_PAGES = (
    ("battles:console", None, lambda: _("Console")),
    ("battles:movement", Phase.MOVEMENT, lambda: _("Movement")),
    ("battles:battles", Phase.TACTICS, lambda: _("Battles")),
    ("battles:regroup", Phase.REGROUP, lambda: _("Regroup")),
)
HALL_PAGES = (
    ("battles:projector", lambda: _("Projector")),
    ("tables:list", lambda: _("Tables")),
    ("tablet:players", lambda: _("Players and join codes")),
)
RECORD_PAGES = (
    ("battles:history", lambda: _("History")),
    ("turns:audit", lambda: _("Audit log")),
    ("dice:verify", lambda: _("Checking the dice")),
    ("tablet:map", lambda: _("Map")),
    ("gamefile:page", lambda: _("Game files")),
    ("rehearsal:page", lambda: _("Rehearsal")),
)
PHASE_ORDER = [Phase.STRATEGY, Phase.MOVEMENT, Phase.TACTICS, Phase.REGROUP]
# Pages that belong to a group's entry without being its own address (History's turn and replay pages).
BELONGS = {"battles:history_turn": "battles:history", "battles:history_replay": "battles:history"}


def _current(request) -> str:
    match = getattr(request, "resolver_match", None)
    name = match.view_name if match else ""
    return BELONGS.get(name, name)


def turn_links(game, phase, here: str) -> list[dict]:
    """The turn's pages: the current phase's page highlighted, later phases' pages marked not yet open."""
    at = PHASE_ORDER.index(phase.kind) if phase is not None else -1
    links = []
    for name, kind, label in TURN_PAGES:
        state = ""
        if kind is not None:
            if phase is not None and kind == phase.kind:
                state = "now"
            elif PHASE_ORDER.index(kind) > at:
                state = "later"
        links.append({"url": reverse(name, args=[game.pk]), "label": label(), "here": name == here, "state": state})
    return links


def group(game, pages, here: str) -> list[dict]:
    return [{"url": reverse(name, args=[game.pk]), "label": label(), "here": name == here,
             "new_window": name == "battles:projector"} for name, label in pages]


@register.inclusion_tag("battles/partials/frame.html", takes_context=True)
def console_frame(context) -> dict:
    game = context["game"]
    phase = context.get("phase", None)
    if not isinstance(phase, Phase):
        phase = current_phase(game)
    here = _current(context.get("request"))
    payload = clock.payload(game.pk)
    return {"game": game, "phase": phase, "request": context.get("request"), "csrf_token": context.get("csrf_token"),
            "clock": payload, "face": clock.clock_face(payload),
            "phase_names": json.dumps({k: str(v) for k, v in Phase.KINDS}, ensure_ascii=False),
            "step": console.next_step(game, phase), "on_home": here == "battles:console",
            "turn_links": turn_links(game, phase, here), "hall_links": group(game, HALL_PAGES, here),
            "record_links": group(game, RECORD_PAGES, here)}
