"""Victory checks at the end of a turn (O6, O22)."""
from __future__ import annotations

from . import outcomes as O
from .case import State


def _leader_dead(state: State, faction: str) -> bool:
    leaders = [u for u in state.units if u.faction == faction and u.kind.cls == O.LEADER]
    return bool(leaders) and all(u.where == O.DEAD for u in leaders)


def _capital_destroyed(state: State, faction: str) -> bool:
    return state.capital(faction).destroyed


def _reasons(state: State, side: str) -> list:
    """The conditions `side` meets now, in the order of O22."""
    enemies = [f for f in state.order if state.side(f) != side]
    found = []
    if state.mode == O.SKIRMISH:
        if enemies and all(_leader_dead(state, f) and _capital_destroyed(state, f) for f in enemies):
            found.append(O.LEADERS_AND_CAPITALS)
    elif state.mode == O.BORDER and side == O.RUS_CHINA:
        tours = state.data.number("modes", "border", "rus_china_tours")
        if state.order[-1] == state.active and state.tour >= tours:
            found.append(O.TOURS_ELAPSED)
        if enemies and all(_capital_destroyed(state, f) for f in enemies):
            found.append(O.MONGOL_CAPITALS_DESTROYED)
    elif state.mode == O.CONQUEST:
        if side == O.MONGOLIA:
            need = state.cities_to_win or state.data.number("modes", "conquest", "cities_to_win")[state.players]
            gone = sum(1 for c in state.cities if c.destroyed and c.faction in state.order and c.side != side
                       and (c.kind == "city" or state.data.number("modes", "conquest", "capital_counts_as_city")))
            if gone >= need:
                found.append(O.CITIES_DESTROYED)
        elif not any(u.side != side and u.faction in state.order and u.where in (O.BOARD, O.INDICATOR, O.RESERVE)
                     for u in state.units):
            found.append(O.RESERVES_EXHAUSTED)
    return found


def check_victory(state: State) -> tuple[str | None, str | None]:
    """(winning side, reason) or (None, None); when both sides qualify, the side whose turn it is wins."""
    mine = state.side(state.active)
    other = O.MONGOLIA if mine == O.RUS_CHINA else O.RUS_CHINA
    for side in (mine, other):
        reasons = _reasons(state, side)
        if reasons:
            return side, reasons[0]
    return None, None
