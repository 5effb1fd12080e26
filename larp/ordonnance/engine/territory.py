"""One territory (C10-C11): rank the complete armies, ask who can still win, explain the decision."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cmp_to_key

from .army import Standing, counts_of, describe, key_of, mask_symbols, step
from .data import Rules
from .outcomes import Level
from .reach import Completion, Pool, best_completion, can_beat


@dataclass(frozen=True)
class Entry:
    player: str
    masks: tuple[int, ...]
    completed_at: int | None   # the play that laid the fourth card; None while incomplete


def ranking(rules: Rules, entries: list[Entry]) -> list[Entry]:
    """The complete armies, strongest first (C10: the greater key; equal keys, the earlier completion)."""
    complete = [e for e in entries if e.completed_at is not None]
    standings = {e.player: Standing(key_of(rules, counts_of(rules, e.masks)), e.completed_at) for e in complete}

    def order(a: Entry, b: Entry) -> int:
        return -1 if standings[a.player].beats(standings[b.player]) else 1

    return sorted(complete, key=cmp_to_key(order))


def winner_of(rules: Rules, entries: list[Entry], pool: Pool) -> str | None:
    """C11: the player for whom the territory is decided now, or None (a quick check: stops early)."""
    ranked = ranking(rules, entries)
    if not ranked:
        return None
    leader = ranked[0]
    target = key_of(rules, counts_of(rules, leader.masks))
    for other in entries:
        if other.completed_at is None and can_beat(rules, other.masks, pool, target):
            return None
    return leader.player


def completion_json(rules: Rules, found: Completion | None) -> dict | None:
    if found is None:
        return None
    return {**describe(rules, found.counts),
            "add": [{"symbols": mask_symbols(rules, m)} for m in found.added]}


def analyse(rules: Rules, entries: list[Entry], pool: Pool) -> dict:
    """The `territory` mode's result for these armies (in seating order) and this pool."""
    ranked = ranking(rules, entries)
    leader = ranked[0] if ranked else None
    leader_key = key_of(rules, counts_of(rules, leader.masks)) if leader else None
    armies, best, hopeful = [], {}, []
    for e in entries:
        counts = counts_of(rules, e.masks)
        army: dict = {"player": e.player, "size": len(e.masks), "complete": e.completed_at is not None}
        if e.completed_at is not None:
            army["completed_at"] = e.completed_at
        army.update(describe(rules, counts))
        if e.completed_at is not None:
            army["can_still_win"] = leader is e
        else:
            found = best_completion(rules, e.masks, pool)
            best[e.player] = found
            army["can_still_win"] = found is not None and (leader_key is None or found.key > leader_key)
            army["best_completion"] = completion_json(rules, found)
        if army["can_still_win"]:
            hopeful.append(e)
        armies.append(army)
    decided = leader is not None and hopeful == [leader]
    result: dict = {"decided": decided, "winner": leader.player if decided else None,
                    "leader": leader.player if leader else None,
                    "ranking": [e.player for e in ranked], "armies": armies}
    if decided:
        result["versus"] = [_versus(rules, leader_key, e, best.get(e.player)) for e in entries if e is not leader]
    return result


def _versus(rules: Rules, winner_key, other: Entry, found: Completion | None) -> dict:
    if other.completed_at is None:
        if found is None:
            return {"player": other.player, "level": Level.CANNOT_COMPLETE.value, "aspect": None}
        other_key = found.key
    else:
        other_key = key_of(rules, counts_of(rules, other.masks))
    level, aspect = step(winner_key, other_key)
    return {"player": other.player, "level": level.value, "aspect": aspect.value if aspect else None}
