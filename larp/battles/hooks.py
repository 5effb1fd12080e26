"""What apps above the console add to a turn's battles, without the console importing them.

An app higher up (the bridge to the tables, larp/bridge) registers, in its AppConfig.ready:
- a **hold**: `hold(turn) -> str | None` — why the turn's battles may not be rolled, confirmed or undone
  now (a battle being fought at a table); the console refuses those acts with that sentence;
- a **panel**: `panel(request, game, turn, result) -> str` — HTML shown on the battles page with the
  battle awaiting its dice (e.g. «сыграть за столом»).
"""
from __future__ import annotations

_holds: list = []
_panels: list = []


def register_hold(check) -> None:
    if check not in _holds:
        _holds.append(check)


def register_panel(panel) -> None:
    if panel not in _panels:
        _panels.append(panel)


def hold(turn) -> str | None:
    """The first reason the turn's battles are held, or None."""
    for check in _holds:
        reason = check(turn)
        if reason:
            return reason
    return None


def panels(request, game, turn, result) -> list[str]:
    return [html for panel in _panels if (html := panel(request, game, turn, result))]
