"""The tables of R8-R11 and the defaults of the default scenario.

The defaults here are the `rules:` block of larp/scenarios/latin-east-1204.yaml
(which reproduces the original's numbers); a case's optional `rules` key
overrides any of them, key by key.
"""
from __future__ import annotations

from typing import Any

from .errors import CaseError
from .limits import (
    BONUS, CHARGES, LOSS_POINTS, MEN_RULE, STORMS_PER_TURN, TABLE_BOUND, bounded,
)
from .model import LossRow, Rules, Special, SpecialKind, TroopDomain, TroopType

DEFAULT_TROOP_TYPES: tuple[TroopType, ...] = (
    TroopType("detachment", 2, 1000, TroopDomain.LAND),
    TroopType("small", 4, 3000, TroopDomain.LAND),
    TroopType("medium", 10, 7000, TroopDomain.LAND),
    TroopType("large", 16, 12000, TroopDomain.LAND),
    TroopType("huge", 24, 20000, TroopDomain.LAND),
    TroopType("squadron", 4, 1500, TroopDomain.NAVAL),
    TroopType("flotilla", 10, 4000, TroopDomain.NAVAL),
    TroopType("armada", 16, 8000, TroopDomain.NAVAL),
)

_WINNER = (0, 2, 4, 6, 8, 10, 12, 14)   # 2*(band-1)

DEFAULT_SPECIALS: dict[str, Special] = {
    s.id: s for s in (
        Special("constantinople", SpecialKind.CITY_DEFENCE, 15, province="constantinople"),
        Special("thessalonica", SpecialKind.CITY_DEFENCE, 10, province="thessalonica"),
        Special("acrocorinth", SpecialKind.CITY_DEFENCE, 10, province="corinth"),
        Special("meander_miracle", SpecialKind.FIRST_BATTLE_DEFENDING, 20, against="rum"),
        Special("mountain_country", SpecialKind.ON_START_PROVINCES, 5),
        Special("victory_march", SpecialKind.ATTACKING_UNTIL_DEFEAT, 5),
        Special("greek_fire_land", SpecialKind.CHARGES_AT_FORTRESS, 8, charges=2),
        Special("christian_mercenaries", SpecialKind.EVERY_LAND_BATTLE, 2),
        Special("chivalry", SpecialKind.EVERY_LAND_BATTLE, 3),
        Special("best_mercenaries", SpecialKind.EVERY_LAND_BATTLE, 6),
        Special("bulgarian_hordes", SpecialKind.EVERY_LAND_BATTLE, -3),
    )
}

DEFAULT_RULES = Rules(
    army_max_men=60000,
    two_dice_above_men=20000,
    storms_per_turn=4,
    defence_field=1,
    defence_fortress=5,
    defence_capital=8,
    militia=3,
    band_upper_bounds=(10, 20, 30, 40, 50, 60, 70),
    loss_tie=(2, 4, 6, 8, 10, 12, 14, 16),
    loss_rows=(
        LossRow(1, 8, _WINNER, (2, 4, 6, 8, 10, 12, 14, 16)),
        LossRow(9, 16, _WINNER, (4, 6, 8, 10, 12, 14, 16, 18)),
        LossRow(17, 24, _WINNER, (6, 8, 10, 12, 14, 16, 18, 20)),
        LossRow(25, 30, _WINNER, (8, 10, 12, 14, 16, 18, 20, 22)),
        LossRow(31, 36, _WINNER, (10, 12, 14, 16, 18, 20, 22, 24)),
    ),
    specials=DEFAULT_SPECIALS,
)


# --- R11 ---------------------------------------------------------------------

def strength_band(rules: Rules, weaker_total: int) -> int:
    """R11: the band of the weaker side's total (totals <= 0 are band 1)."""
    if weaker_total <= 0:
        return 1
    for i, bound in enumerate(rules.band_upper_bounds):
        if weaker_total <= bound:
            return i + 1
    return len(rules.band_upper_bounds) + 1


def _by_band(values: tuple[int, ...], band: int) -> int:
    return values[min(band, len(values)) - 1]


def loss_points(rules: Rules, difference: int, band: int) -> tuple[int, int]:
    """R11: (winner's loss, loser's loss); on a tie both are the tie value.

    A difference beyond the last row uses the last row (the >36 ruling); a
    difference that falls in a gap of a tuned table uses the row below it.
    """
    if difference == 0:
        tie = _by_band(rules.loss_tie, band)
        return tie, tie
    chosen = None
    for row in rules.loss_rows:
        if row.low <= difference <= row.high:
            chosen = row
            break
        if row.low <= difference:
            chosen = row
    if chosen is None:
        chosen = rules.loss_rows[0]
    return _by_band(chosen.winner, band), _by_band(chosen.loser, band)


# --- parsing the optional `rules` block ---------------------------------------

def _int(value: Any, where: str, limits: tuple[int, int]) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CaseError(where, f"expected an integer, got {type(value).__name__}")
    return bounded(value, where, limits)


def _int_list(value: Any, where: str, limits: tuple[int, int], *, nonempty: bool = True) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise CaseError(where, f"expected a list of integers, got {type(value).__name__}")
    if nonempty and not value:
        raise CaseError(where, "must not be empty")
    return tuple(_int(v, f"{where}[{i}]", limits) for i, v in enumerate(value))


def _obj(value: Any, where: str) -> dict:
    if not isinstance(value, dict):
        raise CaseError(where, f"expected an object, got {type(value).__name__}")
    return value


def parse_rules(data: Any, where: str = "rules") -> Rules:
    """The case's `rules` block over the defaults; missing keys keep the default."""
    if data is None:
        return DEFAULT_RULES
    data = _obj(data, where)
    r = DEFAULT_RULES
    kw: dict[str, Any] = {
        "army_max_men": r.army_max_men,
        "two_dice_above_men": r.two_dice_above_men,
        "storms_per_turn": r.storms_per_turn,
        "defence_field": r.defence_field,
        "defence_fortress": r.defence_fortress,
        "defence_capital": r.defence_capital,
        "militia": r.militia,
        "band_upper_bounds": r.band_upper_bounds,
        "loss_tie": r.loss_tie,
        "loss_rows": r.loss_rows,
        "specials": dict(r.specials),
    }
    for key, limits in (("army_max_men", MEN_RULE), ("two_dice_above_men", MEN_RULE),
                        ("storms_per_turn", STORMS_PER_TURN), ("militia", BONUS)):
        if key in data:
            kw[key] = _int(data[key], f"{where}.{key}", limits)
    if kw["storms_per_turn"] < 0:
        raise CaseError(f"{where}.storms_per_turn", "must not be negative")
    if "defence" in data:
        defence = _obj(data["defence"], f"{where}.defence")
        for key in ("field", "fortress", "capital"):
            if key in defence:
                kw[f"defence_{key}"] = _int(defence[key], f"{where}.defence.{key}", BONUS)
    if "band_upper_bounds" in data:
        kw["band_upper_bounds"] = _int_list(data["band_upper_bounds"], f"{where}.band_upper_bounds",
                                            TABLE_BOUND, nonempty=False)
    if "losses" in data:
        losses = _obj(data["losses"], f"{where}.losses")
        if "tie" in losses:
            kw["loss_tie"] = _int_list(losses["tie"], f"{where}.losses.tie", LOSS_POINTS)
        if "rows" in losses:
            rows_where = f"{where}.losses.rows"
            if not isinstance(losses["rows"], list) or not losses["rows"]:
                raise CaseError(rows_where, "expected a non-empty list of rows")
            rows = []
            for i, row in enumerate(losses["rows"]):
                w = f"{rows_where}[{i}]"
                row = _obj(row, w)
                for key in ("difference", "winner", "loser"):
                    if key not in row:
                        raise CaseError(f"{w}.{key}", "missing")
                diff = _int_list(row["difference"], f"{w}.difference", TABLE_BOUND)
                if len(diff) != 2 or diff[0] > diff[1]:
                    raise CaseError(f"{w}.difference", "expected [low, high] with low <= high")
                rows.append(LossRow(diff[0], diff[1], _int_list(row["winner"], f"{w}.winner", LOSS_POINTS),
                                    _int_list(row["loser"], f"{w}.loser", LOSS_POINTS)))
            kw["loss_rows"] = tuple(sorted(rows, key=lambda row: row.low))
    if "specials" in data:
        specials = _obj(data["specials"], f"{where}.specials")
        for sid, spec in specials.items():
            w = f"{where}.specials.{sid}"
            spec = _obj(spec, w)
            base = kw["specials"].get(sid)
            kind_raw = spec.get("kind", base.kind if base else None)
            if kind_raw is None:
                raise CaseError(f"{w}.kind", "missing")
            try:
                kind = SpecialKind(kind_raw)
            except ValueError:
                raise CaseError(f"{w}.kind", f"unknown special kind {kind_raw!r}") from None
            bonus = _int(spec["bonus"], f"{w}.bonus", BONUS) if "bonus" in spec else (base.bonus if base else None)
            if bonus is None:
                raise CaseError(f"{w}.bonus", "missing")
            province = spec.get("province", base.province if base else None)
            against = spec.get("against", base.against if base else None)
            for key, value in (("province", province), ("against", against)):
                if value is not None and not isinstance(value, str):
                    raise CaseError(f"{w}.{key}", "expected a string id")
            charges = (_int(spec["charges"], f"{w}.charges", CHARGES) if "charges" in spec
                       else (base.charges if base else 0))
            kw["specials"][sid] = Special(sid, kind, bonus, province=province, against=against, charges=charges)
    return Rules(**kw)
