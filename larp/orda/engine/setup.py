"""Validating a game's setup before the first turn (O4, O5, O8, O13, O20): orda.setup."""
from __future__ import annotations

from collections import Counter

from . import outcomes as O
from .case import State
from .hexes import distance


def _problem(rule: str, code: str, severity: str, faction, reason: str) -> dict:
    return {"rule": rule, "code": code, "severity": severity, "faction": faction, "reason": reason}


def _global_checks(state: State) -> list:
    data, problems = state.data, []
    sides = Counter(state.side(f) for f in state.factions)
    if state.players == 2:
        ok = len(state.factions) == 2 and sides[O.RUS_CHINA] == 1 and sides[O.MONGOLIA] == 1
        wanted = "one faction of each side"
    else:
        ok = sorted(state.factions) == sorted(data.faction_side)
        wanted = "all four factions"
    if not ok:
        problems.append(_problem("O4", "factions_in_play", O.ERROR, None,
                                 f"{state.players} players need {wanted}; the case has {', '.join(state.factions)}"))
    for f in state.factions:
        if state.players == 2:
            colour = data.number("positions", "two_players", state.side(f))
        else:
            colour = data.number("factions", f, "capital_colour")
        cap = state.capital(f)
        if cap.colour != colour:
            problems.append(_problem("O4", "capital_colour", O.WARNING, f,
                                     f"{f} starts on the {cap.colour} capital; its place is the {colour} one"))
    order = state.order
    alternating = sorted(order) == sorted(state.factions) and len(order) % 2 == 0 and all(
        state.side(order[i]) != state.side(order[(i + 1) % len(order)]) for i in range(len(order)))
    if not alternating:
        problems.append(_problem("O8", "order_not_alternating", O.ERROR, None,
                                 "the order must name each faction in play once and alternate the sides: "
                                 "allies never move one right after the other"))
    return problems


def _faction_checks(state: State, f: str) -> list:
    data, problems = state.data, []
    mine = [u for u in state.units if u.faction == f]
    roster = {k.id: k.count for k in data.kinds[f].values()}
    have = Counter(u.kind.id for u in mine)
    if dict(have) != roster:
        diff = [f"{k}: {have.get(k, 0)} of {n}" for k, n in roster.items() if have.get(k, 0) != n]
        problems.append(_problem("O5", "roster", O.ERROR, f, f"{f}'s units must be its 12 tokens ({'; '.join(diff)})"))
    board = [u for u in mine if u.on_board]
    start = dict(data.number("modes", state.mode, "start"))
    classes = Counter(u.kind.cls for u in board)
    if any(classes.get(c, 0) != start.get(c, 0) for c in set(classes) | set(start)):
        want = ", ".join(f"{n} {c}" for c, n in start.items())
        got = ", ".join(f"{n} {c}" for c, n in sorted(classes.items())) or "none"
        problems.append(_problem("O5", "start_classes", O.ERROR, f,
                                 f"{state.mode} starts with {want} on the board; {f} has {got}"))
    cap = state.capital(f)
    occupied = state.occupant()
    free_at = sorted(distance(cap.hex, h) for h in state.board
                     if h != cap.hex and state.is_free(h, state.side(f), occupied))
    badly = []
    for u in board:
        if u.hex not in state.board:
            continue
        d = distance(cap.hex, u.hex)
        if d == 0 or (d >= 2 and free_at and free_at[0] < d):
            badly.append(u.id)
    if badly:
        problems.append(_problem("O5", "placement", O.ERROR, f,
                                 f"{', '.join(badly)}: starting units stand on the hexes nearest to the capital "
                                 f"(never on it), farther only when no nearer hex is free"))
    invalid = [u.id for u in board if u.hex not in state.board or state.enemy_city_at(u.hex, u.side) is not None]
    if invalid:
        problems.append(_problem("O13", "hex_invalid", O.ERROR, f,
                                 f"{', '.join(invalid)}: off the board or on a city or capital of the other side"))
    return problems


def setup_mode(state: State) -> dict:
    problems = _global_checks(state)
    for f in state.factions:
        problems += _faction_checks(state, f)
    reserve = {f: [u.id for u in state.units if u.faction == f and u.where == O.RESERVE] for f in state.factions}
    return {"valid": not any(p["severity"] == O.ERROR for p in problems), "problems": problems, "reserve": reserve}
