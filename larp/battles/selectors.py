"""Reads of a turn's resolution for pages and printing."""
from __future__ import annotations

from larp.battles.models import TurnResolution
from larp.campaign.models import Game


def turn_result(game: Game, number: int) -> dict | None:
    """{"turn": n, "result": <engine run_turn output>, "news": str, "applied": bool} or None."""
    resolution = TurnResolution.objects.filter(turn__game=game, turn__number=number).select_related("turn").first()
    if resolution is None or not resolution.result:
        return None
    return {"turn": number, "result": resolution.result, "news": resolution.news,
            "applied": resolution.applied_at is not None}
