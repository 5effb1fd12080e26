"""Parse and validate a case document (docs/adjudication.md) into the model.

Every problem raises `CaseError(field, problem)` naming the field the way a
reader finds it in the JSON: `orders[3].path[1]`, `armies[0].troops[2]`.
Unknown keys are ignored (case files may carry comments); unknown ids,
wrong types and two orders for one unit are errors.
"""
from __future__ import annotations

from typing import Any

from .errors import CaseError
from .limits import (
    BATTLE_NUMBER, BONUS, CARD_MEN, CARD_POWER, CHARGES, SEED, STACK_POWER, UNIT_NUMBER, bounded,
)
from .model import (
    BattleSideSpec, BattleSpec, Case, Choices, Commander, Decided, DiceRoll, Domain, Faction,
    Modifier, Order, OrderType, Outcome, Province, RelationKind, Role, Situation, TroopDomain,
    TroopType, Army,
)
from .rules import DEFAULT_TROOP_TYPES, parse_rules

_MISSING = object()


_TYPE_NAMES = {bool: "boolean", int: "integer", float: "number", str: "string", list: "list",
               dict: "object", type(None): "null"}


def _type_name(value: Any) -> str:
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _get(obj: dict, key: str, where: str, kind: type | tuple, *, default: Any = _MISSING,
         nullable: bool = False) -> Any:
    """obj[key] checked against `kind`; `default` when absent (required when no default)."""
    if key not in obj:
        if default is _MISSING:
            raise CaseError(f"{where}.{key}" if where else key, "missing")
        return default
    value = obj[key]
    return _check(value, f"{where}.{key}" if where else key, kind, nullable=nullable)


def _check(value: Any, where: str, kind: type | tuple, *, nullable: bool = False) -> Any:
    if type(value) is kind:     # the common case, checked first: parsing is on the turn's hot path
        return value
    if value is None and nullable:
        return None
    kinds = kind if isinstance(kind, tuple) else (kind,)
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    if not ok:
        wanted = " or ".join(_TYPE_NAMES.get(k, k.__name__) for k in kinds)
        raise CaseError(where, f"expected {wanted}{' or null' if nullable else ''}, got {_type_name(value)}")
    return value


def _obj(value: Any, where: str) -> dict:
    return _check(value, where, dict)


def _str_list(value: Any, where: str) -> list[str]:
    _check(value, where, list)
    for i, item in enumerate(value):
        _check(item, f"{where}[{i}]", str)
    return value


def _list_of_objects(data: dict, key: str, *, required: bool = False) -> list[dict]:
    items = _get(data, key, "", list, default=_MISSING if required else [], nullable=not required)
    if items is None:
        return []
    for i, item in enumerate(items):
        _obj(item, f"{key}[{i}]")
    return items


class _Ids:
    """Id registry of one namespace, with the error message for an unknown id."""

    def __init__(self, what: str):
        self.what = what
        self.ids: dict[str, Any] = {}

    def add(self, key: str, value: Any, where: str) -> None:
        if key in self.ids:
            raise CaseError(where, f"duplicate {self.what} id {key!r}")
        self.ids[key] = value

    def need(self, key: str, where: str) -> Any:
        if key not in self.ids:
            raise CaseError(where, f"unknown {self.what} {key!r}")
        return self.ids[key]


def _parse_troop_types(data: dict) -> dict[str, TroopType]:
    if data.get("troop_types") is None:
        return {t.id: t for t in DEFAULT_TROOP_TYPES}
    types = _Ids("troop type")
    for i, raw in enumerate(_list_of_objects(data, "troop_types")):
        w = f"troop_types[{i}]"
        tid = _get(raw, "id", w, str)
        domain_raw = _get(raw, "domain", w, str, default="land")
        try:
            domain = TroopDomain(domain_raw)
        except ValueError:
            raise CaseError(f"{w}.domain", f"expected 'land' or 'naval', got {domain_raw!r}") from None
        power = _get(raw, "power", w, int)
        if power < 1:
            raise CaseError(f"{w}.power", f"a card has at least 1 power, got {power}")
        bounded(power, f"{w}.power", CARD_POWER)
        men = _get(raw, "men", w, int, default=0)
        if men < 0:
            raise CaseError(f"{w}.men", f"must not be negative, got {men}")
        bounded(men, f"{w}.men", CARD_MEN)
        types.add(tid, TroopType(tid, power, men, domain), f"{w}.id")
    return types.ids


def _parse_commanders(raw: dict, where: str) -> tuple[Commander, ...]:
    items = _get(raw, "commanders", where, list, default=[], nullable=True) or []
    out = []
    for i, c in enumerate(items):
        w = f"{where}.commanders[{i}]"
        _obj(c, w)
        name = _get(c, "name", w, str, default="")
        if not name:
            name = _get(c, "name_en", w, str, default="") or _get(c, "name_ru", w, str, default="")
        out.append(Commander(name, bounded(_get(c, "power", w, int), f"{w}.power", BONUS)))
    return tuple(out)


def _parse_troops(raw: dict, key: str, where: str, types: dict[str, TroopType],
                  domain: TroopDomain) -> tuple[str, ...]:
    troops = _str_list(_get(raw, key, where, list, default=[], nullable=True) or [], f"{where}.{key}")
    for i, tid in enumerate(troops):
        w = f"{where}.{key}[{i}]"
        if tid not in types:
            raise CaseError(w, f"unknown troop type {tid!r}")
        if types[tid].domain != domain:
            raise CaseError(w, f"{tid!r} is a {types[tid].domain} troop type; "
                               f"{'fleets' if domain == TroopDomain.NAVAL else 'armies and garrisons'} "
                               f"take {domain} troops")
    if troops:
        # Bounds what re-making can produce (R11): at most this many cards of the smallest power.
        bounded(sum(types[t].power for t in troops), f"{where}.{key}", STACK_POWER)
    return tuple(troops)


def parse_situation(data: Any) -> Situation:
    """A case document's situation (everything but orders, dice and choices), validated."""
    data = _obj(data, "case")
    rules = parse_rules(data.get("rules"))
    types = _parse_troop_types(data)
    province_list = _list_of_objects(data, "provinces", required=True)
    provinces = _Ids("province")
    for i, raw in enumerate(province_list):
        provinces.add(_get(raw, "id", f"provinces[{i}]", str), None, f"provinces[{i}].id")
    factions = _parse_factions(data, rules)
    _parse_provinces(province_list, provinces, factions, rules, types)
    prov: dict[str, Province] = provinces.ids
    land_adj, coast, sea_adj = _parse_adjacency(data, provinces)
    armies, fleets = _parse_units(data, provinces, factions, types)
    alliances, passages = _parse_relations(data, factions)
    return Situation(
        troop_types=types, factions=factions.ids, alliances=frozenset(alliances),
        passages=frozenset(passages), provinces=prov,
        land_adj={p: tuple(v) for p, v in land_adj.items()},
        coast={p: tuple(v) for p, v in coast.items()},
        sea_adj={p: tuple(v) for p, v in sea_adj.items()},
        armies=armies, fleets=fleets, draw=_parse_draw(data, factions),
        special_state=_parse_special_state(data), rules=rules,
    )


def _parse_factions(data: dict, rules) -> _Ids:
    factions = _Ids("faction")
    faction_raw = _list_of_objects(data, "factions", required=True)
    for i, raw in enumerate(faction_raw):
        w = f"factions[{i}]"
        factions.add(_get(raw, "id", w, str), None, f"{w}.id")
    for i, raw in enumerate(faction_raw):
        w = f"factions[{i}]"
        fid = raw["id"]
        specials = tuple(_str_list(_get(raw, "specials", w, list, default=[]), f"{w}.specials"))
        for j, sid in enumerate(specials):
            if sid not in rules.specials:
                raise CaseError(f"{w}.specials[{j}]", f"unknown special {sid!r}")
        # Capital and start provinces are membership data: a small case may name
        # provinces it does not otherwise describe.
        capital = _get(raw, "capital", w, str, default=None, nullable=True)
        start = frozenset(_str_list(_get(raw, "start_provinces", w, list, default=[]), f"{w}.start_provinces"))
        factions.ids[fid] = Faction(fid, _get(raw, "crusader", w, bool, default=False), capital, specials, start)
    return factions


def _parse_provinces(province_list: list, provinces: _Ids, factions: _Ids, rules, types) -> None:
    """Fill the province ids registered beforehand with their data."""
    for i, raw in enumerate(province_list):
        w = f"provinces[{i}]"
        pid = raw["id"]
        domain_raw = _get(raw, "domain", w, str, default="land")
        try:
            domain = Domain(domain_raw)
        except ValueError:
            raise CaseError(f"{w}.domain", f"expected 'land' or 'sea', got {domain_raw!r}") from None
        owner = _get(raw, "owner", w, str, default=None, nullable=True)
        if owner is not None:
            factions.need(owner, f"{w}.owner")
        capital_of = _get(raw, "capital_of", w, str, default=None, nullable=True)
        if capital_of is not None:
            factions.need(capital_of, f"{w}.capital_of")
        special = _get(raw, "special", w, str, default=None, nullable=True)
        if special is not None and special not in rules.specials:
            raise CaseError(f"{w}.special", f"unknown special {special!r}")
        garrison = _parse_troops(raw, "garrison", w, types, TroopDomain.LAND)
        if domain == Domain.SEA and (owner or capital_of or garrison):
            raise CaseError(w, "a sea zone has no owner, capital or garrison")
        provinces.ids[pid] = Province(pid, domain, owner, capital_of,
                                      _get(raw, "fortress", w, bool, default=False), special, garrison)


def _parse_adjacency(data: dict, provinces: _Ids) -> tuple[dict, dict, dict]:
    """(land borders, coasts, sea borders): each place -> its neighbours, in the case's order."""
    land_adj: dict[str, list[str]] = {p: [] for p in provinces.ids}
    coast: dict[str, list[str]] = {p: [] for p in provinces.ids}
    sea_adj: dict[str, list[str]] = {p: [] for p in provinces.ids}
    seen_pairs: set[tuple[str, str]] = set()
    adjacency = _get(data, "adjacency", "", list, default=[], nullable=True) or []
    for i, pair in enumerate(adjacency):
        w = f"adjacency[{i}]"
        _str_list(pair, w)
        if len(pair) != 2:
            raise CaseError(w, f"expected a pair of ids, got {len(pair)} items")
        a, b = (provinces.need(pair[k], f"{w}[{k}]") for k in (0, 1))
        if a.id == b.id:
            raise CaseError(w, f"{a.id!r} cannot border itself")
        if (a.id, b.id) in seen_pairs:
            continue
        seen_pairs.add((a.id, b.id))
        seen_pairs.add((b.id, a.id))
        if a.domain == Domain.LAND and b.domain == Domain.LAND:
            table = land_adj
        elif a.domain == Domain.SEA and b.domain == Domain.SEA:
            table = sea_adj
        else:
            table = coast
        table[a.id].append(b.id)
        table[b.id].append(a.id)
    return land_adj, coast, sea_adj


def _parse_units(data: dict, provinces: _Ids, factions: _Ids, types) -> tuple[dict[str, Army], dict[str, Army]]:
    """(armies, fleets) by id; an id is unique over both."""
    units = _Ids("unit")
    armies: dict[str, Army] = {}
    fleets: dict[str, Army] = {}
    for key, is_fleet, place_key, place_domain, troop_domain, target in (
            ("armies", False, "province", Domain.LAND, TroopDomain.LAND, armies),
            ("fleets", True, "sea", Domain.SEA, TroopDomain.NAVAL, fleets)):
        for i, raw in enumerate(_list_of_objects(data, key)):
            w = f"{key}[{i}]"
            uid = _get(raw, "id", w, str)
            faction = factions.need(_get(raw, "faction", w, str), f"{w}.faction")
            place = _get(raw, place_key, w, str, default=None, nullable=True)
            if place is not None:
                p = provinces.need(place, f"{w}.{place_key}")
                if p.domain != place_domain:
                    raise CaseError(f"{w}.{place_key}", f"{place!r} is not a {place_domain} "
                                                        f"{'province' if place_domain == Domain.LAND else 'zone'}")
            unit = Army(uid, faction.id, bounded(_get(raw, "number", w, int), f"{w}.number", UNIT_NUMBER), place,
                        _parse_troops(raw, "troops", w, types, troop_domain),
                        _parse_commanders(raw, w), is_fleet)
            units.add(uid, unit, f"{w}.id")
            target[uid] = unit
    return armies, fleets


def _parse_relations(data: dict, factions: _Ids) -> tuple[set[frozenset[str]], set[tuple[str, str]]]:
    """(alliances as pairs, passages as (granter, grantee))."""
    alliances: set[frozenset[str]] = set()
    passages: set[tuple[str, str]] = set()
    for i, raw in enumerate(_list_of_objects(data, "relations")):
        w = f"relations[{i}]"
        kind_raw = _get(raw, "kind", w, str)
        try:
            kind = RelationKind(kind_raw)
        except ValueError:
            raise CaseError(f"{w}.kind", f"expected 'alliance' or 'passage', got {kind_raw!r}") from None
        if kind == RelationKind.ALLIANCE:
            pair = _str_list(_get(raw, "factions", w, list), f"{w}.factions")
            if len(pair) != 2 or pair[0] == pair[1]:
                raise CaseError(f"{w}.factions", "expected two different factions")
            for k in (0, 1):
                factions.need(pair[k], f"{w}.factions[{k}]")
            alliances.add(frozenset(pair))
        else:
            granter = factions.need(_get(raw, "from", w, str), f"{w}.from").id
            grantee = factions.need(_get(raw, "to", w, str), f"{w}.to").id
            if granter == grantee:
                raise CaseError(w, "a faction cannot grant passage to itself")
            passages.add((granter, grantee))
    return alliances, passages


def _parse_draw(data: dict, factions: _Ids) -> tuple[str, ...]:
    draw_raw = _str_list(_get(data, "draw", "", list, default=[], nullable=True) or [], "draw")
    draw: list[str] = []
    for i, fid in enumerate(draw_raw):
        factions.need(fid, f"draw[{i}]")
        if fid in draw:
            raise CaseError(f"draw[{i}]", f"faction {fid!r} drawn twice")
        draw.append(fid)
    # Ruling: factions the draw leaves out act after it, in the order the case lists them.
    drawn = set(draw)
    draw.extend(fid for fid in factions.ids if fid not in drawn)
    return tuple(draw)


def _parse_special_state(data: dict) -> dict[str, dict]:
    state = _get(data, "special_state", "", dict, default={}, nullable=True) or {}
    special_state: dict[str, dict] = {}
    for sid, entry in state.items():
        w = f"special_state.{sid}"
        _obj(entry, w)
        for key, value in entry.items():
            if key in ("used", "lost"):
                _check(value, f"{w}.{key}", bool)
            elif key == "charges":
                bounded(_check(value, f"{w}.{key}", int), f"{w}.{key}", CHARGES)
        special_state[sid] = dict(entry)
    return special_state


def _need_province(sit: Situation, pid: Any, where: str) -> str:
    _check(pid, where, str)
    if pid not in sit.provinces:
        raise CaseError(where, f"unknown province {pid!r}")
    return pid


def parse_order(sit: Situation, raw: Any, index: int = -1) -> Order:
    """One order object; ids must exist (unknown ids are malformed), legality is R5's business."""
    w = f"orders[{index}]" if index >= 0 else "order"
    _obj(raw, w)
    unit = _get(raw, "unit", w, str)
    if sit.unit(unit) is None:
        raise CaseError(f"{w}.unit", f"unknown unit {unit!r}")
    type_raw = _get(raw, "type", w, str)
    try:
        otype = OrderType(type_raw)
    except ValueError:
        raise CaseError(f"{w}.type", f"unknown order type {type_raw!r} "
                                     f"(one of {', '.join(t.value for t in OrderType)})") from None
    if otype in (OrderType.MARCH, OrderType.ATTACK):
        path = _str_list(_get(raw, "path", w, list), f"{w}.path")
        for i, p in enumerate(path):
            _need_province(sit, p, f"{w}.path[{i}]")
        return Order(unit, otype, path=tuple(path), index=index)
    if otype in (OrderType.SEA_ATTACK, OrderType.LANDING):
        fleet = _get(raw, "fleet", w, str)
        if fleet not in sit.fleets:
            raise CaseError(f"{w}.fleet", f"unknown fleet {fleet!r}")
        sea = raw.get("sea")
        sea = [sea] if isinstance(sea, str) else _str_list(_get(raw, "sea", w, list), f"{w}.sea")
        for i, s in enumerate(sea):
            _need_province(sit, s, f"{w}.sea[{i}]")
        target = _need_province(sit, _get(raw, "target", w, str), f"{w}.target")
        return Order(unit, otype, fleet=fleet, sea=tuple(sea), target=target, index=index)
    if otype in (OrderType.FLEET_MOVE, OrderType.FLEET_ATTACK):
        if "sea" not in raw:
            raise CaseError(f"{w}.sea", "missing")
        sea, where = raw["sea"], f"{w}.sea"
        if isinstance(sea, list) and len(sea) == 1:
            sea, where = sea[0], f"{w}.sea[0]"
        sea = _need_province(sit, sea, where)
        target_faction = None
        if otype == OrderType.FLEET_ATTACK:
            target_faction = _get(raw, "target_faction", w, str)
            if target_faction not in sit.factions:
                raise CaseError(f"{w}.target_faction", f"unknown faction {target_faction!r}")
        return Order(unit, otype, sea=(sea,), target_faction=target_faction, index=index)
    return Order(unit, otype, index=index)


def _parse_modifier(raw: Any, w: str, *, with_battle: bool) -> Modifier:
    _obj(raw, w)
    side_raw = _get(raw, "side", w, str)
    try:
        side = Role(side_raw)
    except ValueError:
        raise CaseError(f"{w}.side", f"expected 'attacker' or 'defender', got {side_raw!r}") from None
    battle = None
    if with_battle:
        battle = _get(raw, "battle", w, int)
        if battle < 1:
            raise CaseError(f"{w}.battle", "battle numbers start at 1")
        bounded(battle, f"{w}.battle", BATTLE_NUMBER)
    value = bounded(_get(raw, "value", w, int), f"{w}.value", BONUS)
    return Modifier(side, value, _get(raw, "reason", w, str, default=""), battle)


def _parse_roll(raw: Any, w: str) -> DiceRoll:
    _obj(raw, w)
    sides = []
    for key in ("attacker", "defender"):
        values = _get(raw, key, w, list)
        if not 1 <= len(values) <= 2:
            raise CaseError(f"{w}.{key}", f"expected one or two dice (R8), got {len(values)}")
        for i, v in enumerate(values):
            _check(v, f"{w}.{key}[{i}]", int)
            if not 1 <= v <= 6:
                raise CaseError(f"{w}.{key}[{i}]", f"a die shows 1 to 6, got {v}")
        sides.append(tuple(values))
    return DiceRoll(sides[0], sides[1])


_WINNERS = {"attacker": Outcome.ATTACKER_WON, "defender": Outcome.DEFENDER_WON, "tie": Outcome.TIE}


def _parse_outcome(sit: Situation, raw: Any, w: str) -> Decided:
    """One battle decided elsewhere: {"battle", "province"?, "winner", "losses": {"attacker", "defender"}}."""
    _obj(raw, w)
    battle = _get(raw, "battle", w, int)
    bounded(battle, f"{w}.battle", BATTLE_NUMBER)
    province = _get(raw, "province", w, str, default=None, nullable=True)
    if province is not None:
        _need_province(sit, province, f"{w}.province")
    winner = _get(raw, "winner", w, str)
    if winner not in _WINNERS:
        raise CaseError(f"{w}.winner", f"expected 'attacker', 'defender' or 'tie', got {winner!r}")
    losses = _get(raw, "losses", w, dict)
    points = []
    for role in ("attacker", "defender"):
        value = _get(losses, role, f"{w}.losses", int)
        points.append(bounded(value, f"{w}.losses.{role}", STACK_POWER))
    return Decided(battle, province, _WINNERS[winner], points[0], points[1])


def _parse_choices(sit: Situation, data: dict) -> Choices:
    raw = _get(data, "choices", "", dict, default={}, nullable=True) or {}
    greek = _get(raw, "greek_fire", "choices", list, default=[])
    for i, n in enumerate(greek):
        _check(n, f"choices.greek_fire[{i}]", int)
    storms = _get(raw, "storms", "choices", dict, default={})
    for pid, n in storms.items():
        _need_province(sit, pid, f"choices.storms.{pid}")
        _check(n, f"choices.storms.{pid}", int)
        if n < 0:
            raise CaseError(f"choices.storms.{pid}", "must not be negative")
    retreats = _get(raw, "retreats", "choices", dict, default={})
    for uid, dest in retreats.items():
        if sit.unit(uid) is None:
            raise CaseError(f"choices.retreats.{uid}", f"unknown unit {uid!r}")
        _need_province(sit, dest, f"choices.retreats.{uid}")
    mods = _get(raw, "modifiers", "choices", list, default=[])
    outcomes: dict[int, Decided] = {}
    for i, item in enumerate(_get(raw, "outcomes", "choices", list, default=[])):
        decided = _parse_outcome(sit, item, f"choices.outcomes[{i}]")
        if decided.battle in outcomes:
            raise CaseError(f"choices.outcomes[{i}].battle", f"battle {decided.battle} is decided twice")
        outcomes[decided.battle] = decided
    return Choices(
        greek_fire=frozenset(greek), storms=dict(storms), retreats=dict(retreats),
        modifiers=tuple(_parse_modifier(m, f"choices.modifiers[{i}]", with_battle=True)
                        for i, m in enumerate(mods)),
        outcomes=outcomes,
    )


def _parse_battle_side(sit: Situation, raw: Any, w: str, domain: Domain, province: str,
                       defender: bool) -> BattleSideSpec:
    _obj(raw, w)
    faction = _get(raw, "faction", w, str, nullable=True)
    if faction is not None and faction not in sit.factions:
        raise CaseError(f"{w}.faction", f"unknown faction {faction!r}")
    units: list[str] = []
    pool = sit.fleets if domain == Domain.SEA else sit.armies
    for key in ("armies", "fleets", "units"):
        if key not in raw:
            continue
        for i, uid in enumerate(_str_list(raw[key], f"{w}.{key}")):
            u = pool.get(uid)
            if u is None:
                what = "fleet" if domain == Domain.SEA else "army"
                raise CaseError(f"{w}.{key}[{i}]", f"unknown {what} {uid!r}"
                                + (f" (a {domain} battle)" if sit.unit(uid) else ""))
            if u.faction != faction:
                raise CaseError(f"{w}.{key}[{i}]", f"{uid!r} belongs to {u.faction!r}, not {faction!r}")
            if uid not in units:
                units.append(uid)
    garrison = _get(raw, "garrison", w, bool, default=False) if defender else False
    owner = sit.provinces[province].owner
    walls_default = garrison or (faction is not None and faction == owner)
    holds_walls = _get(raw, "holds_walls", w, bool, default=walls_default) if defender else False
    return BattleSideSpec(faction, tuple(units), garrison, holds_walls)


def _parse_battle(sit: Situation, raw: Any) -> BattleSpec:
    w = "battle"
    _obj(raw, w)
    province = _need_province(sit, _get(raw, "province", w, str), "battle.province")
    p = sit.provinces[province]
    domain_raw = _get(raw, "domain", w, str, default=p.domain.value)
    try:
        domain = Domain(domain_raw)
    except ValueError:
        raise CaseError("battle.domain", f"expected 'land' or 'sea', got {domain_raw!r}") from None
    attacker = _parse_battle_side(sit, _get(raw, "attacker", w, dict), "battle.attacker", domain, province, False)
    defender = _parse_battle_side(sit, _get(raw, "defender", w, dict), "battle.defender", domain, province, True)
    storm_default = domain == Domain.LAND and p.walled and defender.holds_walls
    storm = _get(raw, "storm", w, bool, default=storm_default)
    gf = _get(raw, "greek_fire", w, dict, default={}, nullable=True) or {}
    mods = _get(raw, "modifiers", w, list, default=[], nullable=True) or []
    return BattleSpec(
        province=province, domain=domain, storm=storm, attacker=attacker, defender=defender,
        greek_fire_attacker=_get(gf, "attacker", "battle.greek_fire", bool, default=False),
        greek_fire_defender=_get(gf, "defender", "battle.greek_fire", bool, default=False),
        modifiers=tuple(_parse_modifier(m, f"battle.modifiers[{i}]", with_battle=False)
                        for i, m in enumerate(mods)),
    )


def parse_case(data: Any) -> Case:
    """The whole case document -> Case (raises CaseError)."""
    sit = parse_situation(data)
    orders: list[Order] = []
    first_order: dict[str, int] = {}
    for i, raw in enumerate(_get(data, "orders", "", list, default=[], nullable=True) or []):
        order = parse_order(sit, raw, i)
        if order.unit in first_order:
            raise CaseError(f"orders[{i}].unit",
                            f"second order for {order.unit!r} (first at orders[{first_order[order.unit]}])")
        first_order[order.unit] = i
        orders.append(order)

    dice_raw = data.get("dice")
    dice: tuple[DiceRoll, ...] = ()
    battle_dice = None
    if isinstance(dice_raw, list):
        dice = tuple(_parse_roll(r, f"dice[{i}]") for i, r in enumerate(dice_raw))
        battle_dice = dice[0] if dice else None
    elif isinstance(dice_raw, dict):
        battle_dice = _parse_roll(dice_raw, "dice")
        dice = (battle_dice,)
    elif dice_raw is not None:
        raise CaseError("dice", f"expected a list (turn) or an object (battle), got {_type_name(dice_raw)}")

    seed = _get(data, "seed", "", int, default=None, nullable=True)
    if seed is not None:
        bounded(seed, "seed", SEED)
    battle = _parse_battle(sit, data["battle"]) if data.get("battle") is not None else None
    return Case(situation=sit, orders=tuple(orders), dice=dice, battle_dice=battle_dice, seed=seed,
                choices=_parse_choices(sit, data), battle=battle)
