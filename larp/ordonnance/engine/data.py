"""The rules data: ordonnance.yaml (a copy of the specification's data), loaded and checked once.

Every number the engine uses comes from here (docs/ordonnance.md says which key each rule
reads). The file is validated on load: a wrong or missing value is a RulesDataError naming the
key, not a surprise deep inside a replay. A case may override a few keys (`rules` in the case,
see `with_overrides`), the way a scenario sets its own scoring or roster.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from .errors import RulesDataError
from .outcomes import COMBINATION_LEVELS, STEP_ORDER, Level

# libyaml's parser for our own data files (a tenth of the pure-Python parser's time; PyYAML's wheels have it).
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

DATA_FILE = "ordonnance.yaml"


@dataclass(frozen=True)
class Combination:
    id: str            # regiment, battalion, company
    level: Level       # the C10 step (and result field) it forms
    same_symbols: int  # cards of the army carrying the kind


@dataclass(frozen=True, eq=False)  # hashed by identity: a cheap cache key for key_of
class Rules:
    symbols: tuple[str, ...]             # ids by rank, weakest first (rank = index + 1), C2
    card_min_symbols: int                # C3
    card_max_symbols: int                # C3
    combinations: tuple[Combination, ...]  # strongest first (regiment, battalion, company), C9
    single_same_symbols: int             # C9
    territories: int                     # C6
    cards_per_army: int                  # C8, C9
    max_cards_per_player: int            # C8
    hand_size: int                       # C5
    players_min: int                     # C4
    players_max: int                     # C4
    numerals: tuple[str, ...]            # C12, one per territory
    points_by_place: tuple[int, ...]     # C15
    deck_roster: tuple[frozenset[str], ...] | None  # C4: each card its symbol ids; None = unknown

    @property
    def kinds(self) -> int:
        return len(self.symbols)

    def rank(self, symbol: str) -> int:
        return self.symbols.index(symbol) + 1


def _need(mapping: Any, key: str, where: str) -> Any:
    if not isinstance(mapping, dict) or key not in mapping:
        raise RulesDataError(f"{where}.{key}: missing")
    return mapping[key]


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesDataError(f"{where}: must be an integer from {low} to {high}, got {value!r}")
    return value


def _symbols(raw: Any) -> tuple[str, ...]:
    entries = _need(raw, "symbols", "data")
    if not isinstance(entries, list) or not entries:
        raise RulesDataError("symbols: must be a non-empty list")
    by_rank = {}
    for i, entry in enumerate(entries):
        sid = _need(entry, "id", f"symbols[{i}]")
        rank = _int(_need(entry, "rank", f"symbols[{i}]"), f"symbols[{i}].rank", 1, len(entries))
        if not isinstance(sid, str) or not sid:
            raise RulesDataError(f"symbols[{i}].id: must be a non-empty string")
        if rank in by_rank or sid in by_rank.values():
            raise RulesDataError(f"symbols[{i}]: rank {rank} or id {sid!r} given twice")
        by_rank[rank] = sid
    return tuple(by_rank[r] for r in range(1, len(entries) + 1))


def _combinations(raw: Any, cards_per_army: int) -> tuple[Combination, ...]:
    entries = _need(raw, "combinations", "data")
    if not isinstance(entries, list):
        raise RulesDataError("combinations: must be a list")
    combos = []
    for i, entry in enumerate(entries):
        cid = _need(entry, "id", f"combinations[{i}]")
        if cid not in COMBINATION_LEVELS:
            raise RulesDataError(f"combinations[{i}].id: must be one of {', '.join(COMBINATION_LEVELS)}")
        same = _int(_need(entry, "same_symbols", f"combinations[{i}]"), f"combinations[{i}].same_symbols",
                    2, cards_per_army)
        combos.append(Combination(cid, COMBINATION_LEVELS[cid], same))
    combos.sort(key=lambda c: STEP_ORDER.index(c.level))
    if [c.id for c in combos] != list(COMBINATION_LEVELS):
        raise RulesDataError("combinations: must name regiment, battalion and company once each")
    # C10's monotonicity (and so C11's proof) needs every count from 2 to a full army to form
    # exactly one combination, stronger as the count grows.
    if [c.same_symbols for c in combos] != list(range(cards_per_army, 1, -1)):
        raise RulesDataError(f"combinations.same_symbols: regiment, battalion, company must be "
                             f"{cards_per_army}, {cards_per_army - 1}, {cards_per_army - 2} (C9, C10)")
    return tuple(combos)


def _points(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= 4:
        raise RulesDataError(f"{where}: must be a list of one to four integers")
    points = tuple(_int(v, f"{where}[{i}]", 0, 1000) for i, v in enumerate(value))
    if list(points) != sorted(points, reverse=True):
        raise RulesDataError(f"{where}: must not grow from one place to the next (C15)")
    return points


def _roster(value: Any, symbols: tuple[str, ...], where: str) -> tuple[frozenset[str], ...] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise RulesDataError(f"{where}: must be a list of cards or null")
    cards = []
    for i, card in enumerate(value):
        syms = _need(card, "symbols", f"{where}[{i}]")
        if (not isinstance(syms, list) or not syms or len(set(map(str, syms))) != len(syms)
                or not all(isinstance(s, str) and s in symbols for s in syms)):
            raise RulesDataError(f"{where}[{i}].symbols: one to five distinct symbols of {', '.join(symbols)}")
        cards.append(frozenset(syms))
    return tuple(cards)


def build_rules(raw: Any) -> Rules:
    """Rules from the parsed YAML mapping; RulesDataError naming the first bad key."""
    if not isinstance(raw, dict):
        raise RulesDataError("data: must be a mapping")
    symbols = _symbols(raw)
    card = _need(raw, "card", "data")
    card_min = _int(_need(card, "min_symbols", "card"), "card.min_symbols", 1, 1)
    card_max = _int(_need(card, "max_symbols", "card"), "card.max_symbols", len(symbols), len(symbols))
    table = _need(raw, "table", "data")
    cards_per_army = _int(_need(table, "cards_per_army", "table"), "table.cards_per_army", 4, 4)
    territories = _int(_need(table, "territories", "table"), "table.territories", 1, 9)
    numbers = _need(table, "territory_numbers", "table")
    if numbers != list(range(1, territories + 1)):
        raise RulesDataError(f"table.territory_numbers: must be 1 to {territories}")
    max_cards = _int(_need(table, "max_cards_per_player", "table"), "table.max_cards_per_player",
                     territories * cards_per_army, territories * cards_per_army)
    for key in ("draw_per_turn", "lay_per_turn"):  # C7: the engine plays one draw and one lay a turn
        _int(_need(table, key, "table"), f"table.{key}", 1, 1)
    hand_size = _int(_need(table, "hand_size", "table"), "table.hand_size", 1, max_cards)
    players = _need(raw, "players", "data")
    players_min = _int(_need(players, "min", "players"), "players.min", 2, 4)
    players_max = _int(_need(players, "max", "players"), "players.max", players_min, 4)
    single = _int(_need(_need(raw, "single", "data"), "same_symbols", "single"), "single.same_symbols", 1, 1)
    steps = [_need(s, "level", "comparison_steps[]") for s in _need(raw, "comparison_steps", "data")]
    if steps != [level.value for level in STEP_ORDER]:
        raise RulesDataError(f"comparison_steps: must be {', '.join(l.value for l in STEP_ORDER)} (C10)")
    numerals = _need(_need(_need(raw, "markers", "data"), "victory", "markers"), "numerals", "markers.victory")
    if not isinstance(numerals, list) or len(numerals) != territories:
        raise RulesDataError(f"markers.victory.numerals: must be {territories} numerals, one per territory")
    scoring = _need(raw, "scoring", "data")
    return Rules(
        symbols=symbols, card_min_symbols=card_min, card_max_symbols=card_max,
        combinations=_combinations(raw, cards_per_army), single_same_symbols=single,
        territories=territories, cards_per_army=cards_per_army, max_cards_per_player=max_cards,
        hand_size=hand_size, players_min=players_min, players_max=players_max,
        numerals=tuple(str(n) for n in numerals),
        points_by_place=_points(_need(scoring, "points_by_place", "scoring"), "scoring.points_by_place"),
        deck_roster=_roster(raw.get("deck_roster"), symbols, "deck_roster"),
    )


@lru_cache(maxsize=1)
def _raw() -> dict:
    text = resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8")
    return yaml.load(text, Loader=_LOADER)  # noqa: S506 - a safe loader, our own file


@lru_cache(maxsize=1)
def load_rules() -> Rules:
    """The rules of the project's ordonnance.yaml (checked; cached: the data is frozen)."""
    return build_rules(_raw())


# A case's `rules` may override these keys of the data (key -> path in the YAML mapping).
OVERRIDABLE: dict[str, tuple[str, ...]] = {
    "points_by_place": ("scoring", "points_by_place"),
    "hand_size": ("table", "hand_size"),
    "deck_roster": ("deck_roster",),
}


def with_overrides(overrides: dict) -> Rules:
    """The data with a case's overrides applied key by key (RulesDataError on a bad value or key)."""
    raw = copy.deepcopy(_raw())
    for key, value in overrides.items():
        if key not in OVERRIDABLE:
            raise RulesDataError(f"rules.{key}: unknown key; one of {', '.join(OVERRIDABLE)} may be overridden")
        *parents, last = OVERRIDABLE[key]
        node = raw
        for part in parents:
            node = node[part]
        node[last] = value
    return build_rules(raw)
