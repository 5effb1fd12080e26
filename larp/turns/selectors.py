"""Reads of the turn cycle for pages and other apps; writes are in turns.services."""
from __future__ import annotations

from larp.campaign.models import Game
from larp.turns.models import Phase, TurnSettings

DEFAULT_PHASE_SECONDS = {Phase.STRATEGY: 300, Phase.MOVEMENT: 600, Phase.TACTICS: 600, Phase.REGROUP: 600}


def phase_seconds(game: Game, kind: str) -> int:
    """How long a phase of this kind lasts in this game (the scenario's rules may tune it)."""
    return int((game.rules or {}).get("phase_seconds", {}).get(kind, DEFAULT_PHASE_SECONDS[kind]))


def current_phase(game: Game) -> Phase | None:
    """The phase running (or paused) now, with its turn; None before the game starts."""
    ts = TurnSettings.objects.filter(game=game).select_related("current_phase__turn").first()
    return ts.current_phase if ts else None
