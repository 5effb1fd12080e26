"""Reading a case: every field checked, every problem an OrdonnanceCaseError naming the field.

A case is data from outside (a file, a form, a fuzzer). Besides the rules' own limits, sizes
are capped generously (LIMITS) so a hostile case is refused in one line instead of taking
the table's time.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .data import Rules, load_rules, with_overrides
from .errors import OrdonnanceCaseError, RulesDataError

MAX_ID = 64            # characters in a player or card id
MAX_DECK = 1_000       # cards in a roster (two mixed published decks are 112)
MAX_LOG = 10_000       # plays in a log, moves in one call
SEED = (-(2 ** 63), 2 ** 63 - 1)   # a signed 64-bit integer, as in the core


def fail(field: str, problem: str):
    raise OrdonnanceCaseError(field, problem)


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "an integer",
            float: "a number", type(None): "null"}.get(type(value), type(value).__name__)


def obj(value: Any, where: str, allowed: tuple[str, ...]) -> dict:
    if not isinstance(value, dict):
        fail(where, f"must be an object, got {_kind(value)}")
    for key in value:
        if key not in allowed:
            fail(f"{where}.{key}" if where != "case" else str(key), f"unknown field; expected {', '.join(allowed)}")
    return value


def required(mapping: dict, key: str, where: str) -> Any:
    if key not in mapping:
        fail(_join(where, key), "missing")
    return mapping[key]


def _join(where: str, key: str) -> str:
    return key if where == "case" else f"{where}.{key}"


def array(value: Any, where: str, low: int = 0, high: int = MAX_LOG) -> list:
    if not isinstance(value, list):
        fail(where, f"must be a list, got {_kind(value)}")
    if not low <= len(value) <= high:
        fail(where, f"must hold {low} to {high} entries, got {len(value)}")
    return value


def integer(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        fail(where, f"must be an integer, got {_kind(value)}")
    if not low <= value <= high:
        shown = str(value) if len(str(value)) <= 24 else f"an integer of {len(str(value))} digits"
        fail(where, f"must be from {low} to {high}, got {shown}")
    return value


def ident(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        fail(where, f"must be a non-empty string, got {_kind(value)}")
    if len(value) > MAX_ID:
        fail(where, f"must be at most {MAX_ID} characters")
    return value


def rules_of(case: dict) -> Rules:
    """The data, with the case's optional `rules` overrides (C15 points, C5 hand size, C4 roster)."""
    if "rules" not in case or case["rules"] is None:
        return load_rules()
    overrides = case["rules"]
    if not isinstance(overrides, dict):
        fail("rules", f"must be an object, got {_kind(overrides)}")
    try:
        return with_overrides(overrides)
    except RulesDataError as exc:
        fail("rules", str(exc))


def players(value: Any, rules: Rules, where: str = "players") -> tuple[str, ...]:
    found = array(value, where, rules.players_min, rules.players_max)
    seen: list[str] = []
    for i, pid in enumerate(found):
        ident(pid, f"{where}[{i}]")
        if pid in seen:
            fail(f"{where}[{i}]", f"player {pid!r} is listed twice (C1)")
        seen.append(pid)
    return tuple(seen)


def player(value: Any, where: str, seats: tuple[str, ...]) -> str:
    ident(value, where)
    if value not in seats:
        fail(where, f"unknown player {value!r}; the players are {', '.join(seats)}")
    return value


def territory(value: Any, where: str, rules: Rules) -> int:
    return integer(value, where, 1, rules.territories)


def symbols_mask(value: Any, where: str, rules: Rules) -> int:
    syms = array(value, where, 0, 64)
    if not rules.card_min_symbols <= len(syms) <= rules.card_max_symbols:
        fail(where, f"a card carries {rules.card_min_symbols} to {rules.card_max_symbols} symbols (C3), got {len(syms)}")
    mask = 0
    for i, sym in enumerate(syms):
        if not isinstance(sym, str) or sym not in rules.symbols:
            shown = repr(sym)[:40] if isinstance(sym, str) else _kind(sym)
            fail(f"{where}[{i}]", f"unknown symbol {shown}; one of {', '.join(rules.symbols)} (C2)")
        bit = 1 << rules.symbols.index(sym)
        if mask & bit:
            fail(f"{where}[{i}]", f"symbol {sym!r} repeated on one card (C3)")
        mask |= bit
    return mask


@dataclass(frozen=True)
class Deck:
    """A roster: its cards in the order given, with their ids where given."""
    ids: tuple[str | None, ...]
    masks: tuple[int, ...]

    def index(self) -> dict[str, int]:
        return {cid: i for i, cid in enumerate(self.ids) if cid is not None}

    def copies(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for mask in self.masks:
            out[mask] = out.get(mask, 0) + 1
        return out


def card(value: Any, where: str, rules: Rules, deck: Deck | None, index: dict[str, int] | None) -> tuple[int, str | None]:
    """(mask, id) of a card given as {"symbols": [...], "id"?} or, where a deck exists, as its id."""
    if isinstance(value, str):
        if deck is None or index is None:
            fail(where, "a card id needs a deck (the case's deck is unknown); give the card's symbols")
        if value not in index:
            fail(where, f"no card {value[:MAX_ID]!r} in the deck")
        return deck.masks[index[value]], value
    card_obj = obj(value, where, ("symbols", "id"))
    cid = ident(card_obj["id"], f"{where}.id") if "id" in card_obj and card_obj["id"] is not None else None
    return symbols_mask(required(card_obj, "symbols", where), f"{where}.symbols", rules), cid


def deck(case: dict, rules: Rules, need_ids: bool) -> Deck | None:
    """The case's `deck` (the roster, C4), the data's roster when the case has no `deck` key, or None."""
    if "deck" in case:
        value = case["deck"]
        if value is None:
            if need_ids:
                fail("deck", "required: this mode plays a virtual deck, which needs the roster (C4)")
            return None
        cards = array(value, "deck", 0, MAX_DECK)
        ids: list[str | None] = []
        masks: list[int] = []
        seen: set[str] = set()
        for i, entry in enumerate(cards):
            where = f"deck[{i}]"
            card_obj = obj(entry, where, ("symbols", "id"))
            cid = card_obj.get("id")
            if cid is None:
                if need_ids:
                    fail(f"{where}.id", "missing: every card of a virtual deck needs an id")
            else:
                ident(cid, f"{where}.id")
                if cid in seen:
                    fail(f"{where}.id", f"duplicate card id {cid!r}")
                seen.add(cid)
            ids.append(cid)
            masks.append(symbols_mask(required(card_obj, "symbols", where), f"{where}.symbols", rules))
        return Deck(tuple(ids), tuple(masks))
    if rules.deck_roster is None:
        if need_ids:
            fail("deck", "missing: this mode plays a virtual deck, which needs the roster (C4)")
        return None
    if need_ids:
        fail("deck", "missing: a virtual deck needs card ids; the scenario roster has none")
    masks = tuple(sum(1 << rules.symbols.index(s) for s in syms) for syms in rules.deck_roster)
    return Deck((None,) * len(masks), masks)
