"""A battle of the war as another rule system's starting situation, and a table's result as power points.

Pure functions of plain data (no Django): the scenario's `rules.tables` block
says how (docs/bridge.md), so a game tunes the conversion without code.

The strategic battle, as `battle_of` in services.py builds it from the turn:

    {"province": {"id", "name", "fortress": bool, "capital": bool},
     "storm": bool,
     "attacker": {"faction": id-or-None, "name": str,
                  "stacks": [{"key": unit-id or "garrison", "name": str, "troops": [card ids],
                              "commanders": [{name, power}]}]},
     "defender": {...},
     "cards": {card id: its name}}

Names (`name`, `cards`) are only for the units the pages show; without them a unit is named by its ids.

`powers` maps each troop type to its power (R1).
"""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

SYSTEMS = ("red-plains", "tactical", "orda")
ROLES = ("attacker", "defender")

# Red Plains (W2.3, W6.1): each side's deployment cells, the mandatory central cells first, line by line.
_RP_QUARTERS = {"north": ("A", "B"), "south": ("C", "D")}
_RP_FACING = {"north": "S", "south": "N"}
# Tactical rules: the formations' front in figures (tactical-rules.yaml `formations`), for the bases a unit needs.
_TACTICAL_FRONT = {"very_dense": {"foot": 5, "mounted": 4}, "dense": {"foot": 4, "mounted": 3},
                   "open": {"foot": 3, "mounted": 2}, "loose": {"foot": 2, "mounted": 1}}
_TACTICAL_MOUNTED = {"riders", "lancers", "mounted_shooters"}
_TACTICAL_RANKS_PER_BASE = 3


def half_up(value: Decimal | float | int) -> int:
    """Rounded half up, as the ruling says (2.5 -> 3), never the banker's rounding."""
    return int(Decimal(str(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def unit_size(power: int, size: dict) -> int:
    """A card's size in the system: power x per_power, rounded half up, within [min, max]."""
    raw = half_up(Decimal(str(power)) * Decimal(str(size["per_power"])))
    return max(int(size["min"]), min(int(size["max"]), raw))


def side_power(side: dict, powers: dict[str, int]) -> int:
    """The side's troops' power going into the battle (commanders are never reduced, R11)."""
    return sum(powers[t] for stack in side["stacks"] for t in stack["troops"])


def _cards(side: dict) -> list[tuple[str, str]]:
    """(stack key, card) for every troop card of the side, in R11's order (armies by number, then the garrison)."""
    return [(stack["key"], card) for stack in side["stacks"] for card in stack["troops"]]


def _commanders(side: dict) -> list[dict]:
    """The side's commanders, the strongest first (he leads), then in stack order."""
    found = [c for stack in side["stacks"] for c in stack.get("commanders", [])]
    return sorted(found, key=lambda c: -int(c.get("power", 0)))


def _unit_names(battle: dict, role: str) -> list[str]:
    """What the pages call the side's units, one per troop card: the card and its stack («Среднее войско (Рум
    II)»), numbered where a stack has two cards of one kind («Среднее войско 2 (Фессалоники I)»)."""
    cards = battle.get("cards") or {}
    plain = [(cards.get(card, card), stack.get("name") or stack["key"])
             for stack in battle[role]["stacks"] for card in stack["troops"]]
    seen: dict[tuple[str, str], int] = {}
    out = []
    for card, stack in plain:
        seen[(card, stack)] = seen.get((card, stack), 0) + 1
        number = f" {seen[(card, stack)]}" if plain.count((card, stack)) > 1 else ""
        out.append(f"{card}{number} ({stack})")
    return out


def _walls(battle: dict) -> str | None:
    """'capital' or 'fortress' when the defender holds walls (the battle is a storm), else None."""
    if not battle.get("storm"):
        return None
    province = battle["province"]
    return "capital" if province.get("capital") else "fortress" if province.get("fortress") else None


def refusal(battle: dict, conversion: dict) -> str | None:
    """Why this battle cannot go to the system of `conversion`, or None: a storm (the defender holds walls) goes
    only to a system whose conversion gives the walls a form (`walls` not null).

    Red Plains is the case (its `walls: null`). Its rules are a field battle — hills, forests, a river and a
    bridge (W2, W36–W38) — with no walls, siege or fortification anywhere, and no measure the war's wall bonuses
    could be turned into: «оборона +8, Константинополь +15» are power points added to a battle total (R9, R10),
    while W's units fight with figures, impetus, steadiness and armour, and the only modifiers it takes from
    outside are a leader's traits (W11.3, W40). Carrying the walls as some impetus or armour would invent numbers
    the source does not have, and dropping them silently hands the storm to the attacker; so the storm is refused
    for Red Plains, with this reason on the send form, and is fought by the autobattle or at the tactical rules'
    table (the «Укрепления» card) or Orda's (the city's durability)."""
    if _walls(battle) and not conversion.get("walls"):
        return "storm_without_walls"
    return None


def starting_case(system: str, battle: dict, conversion: dict, powers: dict[str, int]) -> dict:
    """The system's engine case for the start of this battle, as its contract documents it."""
    if system not in SYSTEMS:
        raise ValueError(f"no conversion to {system!r}")
    return {"red-plains": _red_plains, "tactical": _tactical, "orda": _orda}[system](battle, conversion, powers)


def sides_of(conversion: dict) -> dict[str, str]:
    """The system's side keys for the war's attacker and defender."""
    return {role: conversion["sides"][role] for role in ROLES}


# --- Red Plains (docs/red-plains.md W3, W6, W11, W41.9) ---------------------------------------------

def _rp_cells(side: str) -> list[str]:
    west, east = _RP_QUARTERS[side]
    return [f"{q}{line}{col}" for line in (1, 2, 3) for col in range(1, 7) for q in (west, east)]


def _red_plains(battle: dict, conv: dict, powers: dict[str, int]) -> dict:
    keys = sides_of(conv)
    units, leaders = [], []
    for role in ROLES:
        key = keys[role]
        cells = _rp_cells(key)
        prefix = key[0]
        made = []
        for i, (stack, card) in enumerate(_cards(battle[role])):
            uid = f"{prefix}{i + 1}"
            made.append(uid)
            units.append({"id": uid, "side": key, "type": conv["units"][card],
                          "figures": unit_size(powers[card], conv["size"]),
                          "cell": cells[i] if i < len(cells) else None, "facing": _RP_FACING[key],
                          "_card": card, "_stack": stack})
        for j, commander in enumerate(_commanders(battle[role])[:len(made)]):
            kind = conv["leaders"]["first"] if j == 0 else conv["leaders"]["others"]
            leaders.append({"name": commander["name"], "kind": kind, "unit": made[j]})
    return {"turn": 0,
            "field": {"extra_cells": [], "river": False, "bridge": None, "hills": [], "forests": []},
            "defender": keys["defender"],
            "sides": {keys["attacker"]: {"general_retreat": None}, keys["defender"]: {"general_retreat": None}},
            "units": units, "leaders": leaders, "banners": [], "history": []}


# --- The tactical rules (docs/tactical-rules.md T9, T10, T12, T37.2) ----------------------------------

def _tactical(battle: dict, conv: dict, powers: dict[str, int]) -> dict:
    keys = sides_of(conv)
    profiles = {p["id"]: p for p in conv["profiles"]}
    used: list[str] = []
    units = []
    generals = 0
    for role in ROLES:
        key = keys[role]
        commanders = _commanders(battle[role])
        names = _unit_names(battle, role)
        for i, (stack, card) in enumerate(_cards(battle[role])):
            spec = conv["units"][card]
            profile = profiles[spec["profile"]]
            if profile["id"] not in used:
                used.append(profile["id"])
            figures = unit_size(powers[card], conv["size"])
            mounted = "mounted" if profile["category"] in _TACTICAL_MOUNTED else "foot"
            front = _TACTICAL_FRONT.get(spec["formation"], {"foot": 4, "mounted": 3})[mounted]
            ranks = -(-figures // front)
            bases = max(1, -(-ranks // _TACTICAL_RANKS_PER_BASE))
            general = None
            if i < len(commanders):
                generals += 1
                general = {"id": f"g{generals}", "name": commanders[i]["name"], "profile": profile["id"],
                           "deputy": False, "talents": {"steadiness": 0, "melee": 0, "specialty": 0},
                           "_kind": conv["leaders"]["first"] if i == 0 else conv["leaders"]["others"]}
            units.append({"id": f"{key}{i + 1}", "name": names[i], "side": key, "formation": spec["formation"],
                          "special": None,
                          "bases": bases, "figures": [{"profile": profile["id"], "count": figures, "disordered": 0}],
                          "general": general, "in_melee": False, "fleeing": False,
                          "_card": card, "_stack": stack})
    walls = _walls(battle)
    return {"source": f"battle of the war at {battle['province']['name']}",
            "profiles": [profiles[p] for p in used],
            "units": units,
            "conditions": {"sun_in_face": [], "wind": None, "rain": False, "fog": False},
            "terrain": ([{"piece": conv["walls"], "side": keys["defender"]}] if walls and conv.get("walls") else []),
            "modifiers": [], "seed": None}


# --- Orda (docs/orda.md O5, O20, O24) -------------------------------------------------------------

def _ring(centre: tuple[int, int], radius: int) -> list[tuple[int, int]]:
    """The hexes at `radius` from `centre` (axial), in a fixed order."""
    if radius == 0:
        return [centre]
    directions = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    q, r = centre[0] + directions[4][0] * radius, centre[1] + directions[4][1] * radius
    out = []
    for d in directions:
        for _ in range(radius):
            out.append((q, r))
            q, r = q + d[0], r + d[1]
    return out


def _on_board(h: tuple[int, int], radius: int) -> bool:
    q, r = h
    return max(abs(q), abs(r), abs(-q - r)) <= radius


def _orda(battle: dict, conv: dict, powers: dict[str, int]) -> dict:
    keys = sides_of(conv)
    radius = int(conv["board_radius"])
    capitals = {"attacker": (0, -radius), "defender": (0, radius)}
    walls = _walls(battle)
    cities = []
    for role in ROLES:
        kind, durability = "capital", None
        if role == "defender" and walls:
            kind, durability = conv["walls"][walls]["kind"], conv["walls"][walls]["durability"]
        cities.append({"id": f"{keys[role]}-cap", "kind": "capital", "faction": keys[role],
                       "hex": list(capitals[role]), "durability": durability if kind == "capital" else None,
                       "damage": 0, "destroyed": False})
        if kind == "city":
            # A fortress, not a capital: the defender's city stands between its capital and the enemy.
            cities.append({"id": f"{keys[role]}-city", "kind": "city", "faction": keys[role],
                           "hex": [0, radius - 2], "durability": durability, "damage": 0, "destroyed": False})
    taken = {tuple(c["hex"]) for c in cities}
    units = []
    for role in ROLES:
        key = keys[role]
        free = [h for d in range(1, 2 * radius + 1) for h in _ring(capitals[role], d)
                if _on_board(h, radius) and h not in taken]
        tokens = conv["units"][role]
        side_units = [(stack, card, tokens[card]) for stack, card in _cards(battle[role])]
        leader = conv.get("leaders", {}).get(role)
        if leader and _commanders(battle[role]):
            side_units.insert(0, ("commanders", None, leader))
        for i, (stack, card, token) in enumerate(side_units):
            h = free[i] if i < len(free) else None
            if h is not None:
                taken.add(h)
            health = unit_size(powers[card], conv["size"]) if card else int(conv["size"]["max"])
            units.append({"id": f"{key}-{i + 1}", "faction": key, "token": token,
                          "where": "board" if h is not None else "reserve", "hex": list(h) if h else None,
                          "stats": {"health": health}, "damage": 0, "effects": [], "revealed": False,
                          "drill": False, "_card": card, "_stack": stack})
    return {"note": f"battle of the war at {battle['province']['name']}",
            # Not the start of a new game: the table skips O4/O5's start-of-game checks (docs/orda.md, "Table").
            "war_battle": True,
            # The attacker (the Mongol side) wins by destroying every city the defender has here: its capital and,
            # behind a fortress, its city (O6's three cities are a whole board's; docs/bridge.md).
            "game": {"mode": "conquest", "players": 2, "order": [keys["attacker"], keys["defender"]],
                     "tour": 1, "active": keys["attacker"],
                     "cities_to_win": sum(1 for c in cities if c["faction"] == keys["defender"])},
            "factions": [{"id": keys["attacker"], "capital": f"{keys['attacker']}-cap"},
                         {"id": keys["defender"], "capital": f"{keys['defender']}-cap"}],
            "board": {"radius": radius}, "border": None, "cities": cities, "units": units,
            "traps": [], "summon_track": {keys["attacker"]: None, keys["defender"]: None},
            # The event deck starts empty: the table shuffles the 24 cards with server dice at its first turn.
            "event": {"current": None, "draw_pile": [], "discard": []},
            "modifiers": [], "activations": {}, "border_hold": None, "seed": None}


# --- back from the table -----------------------------------------------------------------------------

def suggested_outcome(result: dict, sides: dict[str, str], power: dict[str, int]) -> dict:
    """The table's result (docs/tables.md) as the war's outcome of the battle (choices.outcomes, less its number).

    `sides` maps attacker/defender to the table's side keys, `power` maps attacker/defender to the side's
    power going in. A side's loss is its power x the share of its figures (health, tokens) lost, rounded
    half up; the winner is the winning side's role, or a tie for a draw (R12).
    """
    role_of = {key: role for role, key in sides.items()}
    winner = result.get("winner")
    losses = {}
    for role in ROLES:
        counted = (result.get("losses") or {}).get(sides[role]) or {}
        start, lost = int(counted.get("start") or 0), int(counted.get("lost") or 0)
        share = Decimal(min(max(lost, 0), start)) / Decimal(start) if start > 0 else Decimal(0)
        losses[role] = half_up(Decimal(power[role]) * share)
    return {"winner": role_of.get(winner, "tie") if winner is not None else "tie", "losses": losses}
