"""C11's reachability: the strongest army an incomplete army can still become from the pool.

The pool is the multiset of cards that can still come, as {card mask: copies}, or None when
the roster is unknown (then any card may come, any number of times, and the best completion
adds full cards: by C10's monotonicity nothing does better).

With a known pool the search enumerates the multisets of 4 - n cards drawn from it, after
dropping every card type that at least 4 - n pool cards strictly contain: such a superset can
always replace it without weakening the army (C10), so the best completion never needs it
(docs/ordonnance.md, "Performance"). At most 31 types remain, usually far fewer. A branch is
left once even full cards for every card still to come would not beat the best completion found
(C10's monotonicity again): the same answer, in about half the time.
"""
from __future__ import annotations

from dataclasses import dataclass

from .army import Counts, Key, counts_of, key_of
from .data import Rules

Pool = dict[int, int] | None


@dataclass(frozen=True)
class Completion:
    key: Key
    counts: Counts
    added: tuple[int, ...]   # the card masks added, strongest kinds first


def full_card(rules: Rules) -> int:
    return (1 << rules.kinds) - 1


def _candidates(pool: dict[int, int], need: int) -> list[tuple[int, int]]:
    """(mask, usable copies) of the types worth trying, strongest-looking first."""
    kept = []
    for mask, copies in pool.items():
        if copies <= 0:
            continue
        supersets = sum(c for other, c in pool.items() if other != mask and other & mask == mask)
        if supersets < need:
            kept.append((mask, min(copies, need)))
    kept.sort(key=lambda item: (bin(item[0]).count("1"), item[0]), reverse=True)
    return kept


def _add(counts: Counts, mask: int, times: int) -> Counts:
    if not times:  # the search's "none of this type" branch, half of its calls
        return counts
    return tuple(c + times * (mask >> i & 1) for i, c in enumerate(counts))


def best_completion(rules: Rules, masks: tuple[int, ...], pool: Pool,
                    beat: Key | None = None) -> Completion | None:
    """The strongest completion of the cards `masks` to a full army from `pool`, or None if the pool
    cannot complete it. With `beat`, the search may stop at the first completion whose key is greater
    (enough for C11's question "can anyone still beat the leader?")."""
    counts = counts_of(rules, masks)
    need = rules.cards_per_army - len(masks)
    if need <= 0:
        return Completion(key_of(rules, counts), counts, ())
    full = full_card(rules)
    ceiling = _add(counts, full, need)
    if pool is None:
        return Completion(key_of(rules, ceiling), ceiling, (full,) * need)
    if sum(pool.values()) < need:
        return None
    types = _candidates(pool, need)
    best: list = [None]

    def search(index: int, left: int, current: Counts, added: tuple[int, ...]) -> bool:
        if left == 0:
            key = key_of(rules, current)
            if best[0] is None or key > best[0].key:
                best[0] = Completion(key, current, added)
                return beat is not None and key > beat
            return False
        if index == len(types):
            return False
        if best[0] is not None and key_of(rules, _add(current, full, left)) <= best[0].key:
            return False  # C10: full cards are the most these could add, and even they do not beat the best found
        mask, copies = types[index]
        for take in range(min(copies, left), -1, -1):
            if search(index + 1, left - take, _add(current, mask, take), added + (mask,) * take):
                return True
        return False

    search(0, need, counts, ())
    return best[0]


def can_beat(rules: Rules, masks: tuple[int, ...], pool: Pool, target: Key) -> bool:
    """Whether some completion of `masks` from `pool` has a key greater than `target` (C11 (c):
    the incomplete army would complete later, so an equal key loses)."""
    need = rules.cards_per_army - len(masks)
    ceiling = key_of(rules, _add(counts_of(rules, masks), full_card(rules), need))
    if ceiling <= target:
        return False
    found = best_completion(rules, masks, pool, beat=target)
    return found is not None and found.key > target
