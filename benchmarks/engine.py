#!/usr/bin/env python
"""Benchmarks of the rules engine against its targets (no Django needed).

    .venv/bin/python benchmarks/engine.py

(a) a full turn of the default scenario, every army and fleet ordered
    (attacks where possible, so many battles and storms; seeded dice):
    median of parse + turn over 60 runs <= 20 ms;
(b) a synthetic map of 1,000 land provinces (plus sea zones), 60 factions,
    600 armies, all ordered: parse + turn <= 1 s and <= 100 MB peak
    (tracemalloc);
(c) exact odds of a two-dice battle: median <= 5 ms.
Prints `figure | measured | target | ratio | ok`; says MISSED for a target
that was not met, and then exits 1.
"""
from __future__ import annotations

import pathlib
import random
import statistics
import sys
import time
import tracemalloc

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from larp.engine import battle_odds, parse_case, run_turn  # noqa: E402
from larp.engine.cli import dumps  # noqa: E402
from larp.engine.scenario import case_from_scenario  # noqa: E402
from figures import print_targets, timed  # noqa: E402  (benchmarks/figures.py)


def plausible_orders(case: dict, rng: random.Random) -> list[dict]:
    """An order for every army and fleet: attack a neighbour if one is not friendly, else march or land."""
    sit = parse_case(case).situation
    orders = []
    for a in sit.armies.values():
        here = a.location
        enemies = [p for p in sit.land_adj[here] if not sit.is_friendly(a.faction, p)]
        friends = [p for p in sit.land_adj[here] if sit.is_friendly(a.faction, p)]
        if enemies and rng.random() < 0.85:
            orders.append({"unit": a.id, "type": "attack", "path": [rng.choice(enemies)]})
            continue
        two_step = [(f, p) for f in friends for p in sit.land_adj[f]
                    if p != here and not sit.is_friendly(a.faction, p)]
        if two_step:
            orders.append({"unit": a.id, "type": "attack", "path": list(rng.choice(two_step))})
        elif friends:
            orders.append({"unit": a.id, "type": "march", "path": [rng.choice(friends)]})
        else:
            orders.append({"unit": a.id, "type": "hold"})
    for f in sit.fleets.values():
        zones = [f.location, *sit.sea_adj[f.location]]
        targets = [(z, g.faction) for z in zones for g in sit.fleets.values()
                   if g.location == z and sit.hostile(f.faction, g.faction)]
        if targets:
            zone, faction = rng.choice(targets)
            orders.append({"unit": f.id, "type": "fleet_attack", "sea": zone, "target_faction": faction})
        elif sit.sea_adj[f.location]:
            orders.append({"unit": f.id, "type": "fleet_move", "sea": rng.choice(sit.sea_adj[f.location])})
    return orders


def default_scenario_case() -> dict:
    data = yaml.safe_load((ROOT / "larp/scenarios/latin-east-1204.yaml").read_text(encoding="utf-8"))
    case = case_from_scenario(data)
    case["orders"] = plausible_orders(case, random.Random(1204))
    case["seed"] = 1204
    return case


def synthetic_case(provinces: int = 1000, factions: int = 60, armies: int = 600, seed: int = 7) -> dict:
    """A 40 x 25 grid of land provinces (8-neighbour borders), sea zones along two coasts,
    factions owning blocks, neutral fortresses here and there, every unit ordered."""
    rng = random.Random(seed)
    width = 40
    height = provinces // width
    ids = [f"p{r:02d}x{c:02d}" for r in range(height) for c in range(width)]
    block_w, block_h = 4, 4          # 10 x 7 blocks: 60 factions of 16 provinces, the rest neutral
    faction_ids = [f"f{i:02d}" for i in range(factions)]
    owner = {}
    for i, pid in enumerate(ids):
        r, c = divmod(i, width)
        block = (r // block_h) * (width // block_w) + c // block_w
        # 60 factions, roughly 16 provinces each: blocks beyond 60 stay neutral
        owner[pid] = faction_ids[block % factions] if block < factions else None
    case_provinces = []
    capitals = {}
    for pid in ids:
        o = owner[pid]
        capital = o is not None and o not in capitals
        if capital:
            capitals[o] = pid
        fortress = capital or rng.random() < 0.12
        garrison = (["small"] if capital else ["detachment"]) if fortress else []
        case_provinces.append({"id": pid, "domain": "land", "owner": o, "capital_of": o if capital else None,
                               "fortress": fortress, "special": None, "garrison": garrison})
    seas = [f"s{k:02d}" for k in range(2 * (width // 4))]
    for s in seas:
        case_provinces.append({"id": s, "domain": "sea", "owner": None, "capital_of": None, "fortress": False,
                               "special": None, "garrison": []})
    adjacency = []
    for i, pid in enumerate(ids):
        r, c = divmod(i, width)
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < height and 0 <= cc < width and (dr, dc) in ((0, 1), (1, 0)) or (
                    0 <= rr < height and 0 <= cc < width and rng.random() < 0.3):
                adjacency.append([pid, ids[rr * width + cc]])
    half = len(seas) // 2
    for k in range(half):
        adjacency += [[seas[k], ids[c]] for c in range(4 * k, 4 * k + 4)]
        adjacency += [[seas[half + k], ids[(height - 1) * width + c]] for c in range(4 * k, 4 * k + 4)]
        if k:
            adjacency += [[seas[k - 1], seas[k]], [seas[half + k - 1], seas[half + k]]]
    case_factions, case_armies, case_fleets = [], [], []
    per_faction = armies // factions
    owned = {f: [p for p in ids if owner[p] == f] for f in faction_ids}
    troop_menu = [["medium"], ["medium", "small"], ["large"], ["large", "small"], ["huge"], ["medium", "medium"]]
    for f in faction_ids:
        case_factions.append({"id": f, "crusader": rng.random() < 0.3, "capital": capitals.get(f),
                              "specials": [rng.choice(["chivalry", "best_mercenaries", "christian_mercenaries",
                                                       "mountain_country", "victory_march"])],
                              "start_provinces": owned[f]})
        for n in range(1, per_faction + 1):
            case_armies.append({"id": f"{f}-{n}", "faction": f, "number": n,
                                "province": rng.choice(owned[f]), "troops": rng.choice(troop_menu),
                                "commanders": [{"name": f"{f} general {n}", "power": rng.randint(0, 5)}]})
    for k, s in enumerate(seas):
        f = faction_ids[(k * 7) % factions]
        case_fleets.append({"id": f"{f}-f{k}", "faction": f, "number": 100 + k, "sea": s,
                            "troops": ["flotilla"], "commanders": []})
    relations = []
    for i in range(0, factions - 1, 6):
        relations.append({"kind": "alliance", "factions": [faction_ids[i], faction_ids[i + 1]]})
        relations.append({"kind": "passage", "from": faction_ids[i + 2], "to": faction_ids[i + 3]})
    draw = faction_ids[:]
    rng.shuffle(draw)
    case = {"factions": case_factions, "relations": relations, "provinces": case_provinces,
            "adjacency": adjacency, "armies": case_armies, "fleets": case_fleets, "draw": draw,
            "special_state": {}, "dice": [], "seed": seed, "choices": {}}
    case["orders"] = plausible_orders(case, rng)
    return case


def main() -> int:
    rows = []

    case_a = default_scenario_case()
    result = run_turn(case_a)
    assert "state" in result
    runs = timed(lambda: run_turn(parse_case(case_a)), 60)
    med = statistics.median(runs) * 1000
    rows.append(("(a) default scenario full turn, median of 60 (ms)", med, 20.0))
    info_a = (f"    {len(case_a['orders'])} orders, {len(result['battles'])} battle provinces, "
              f"{len(result['fought'])} autobattles, {len(result['retreats'])} retreats, "
              f"{len(result['recoloured'])} recoloured; JSON {len(dumps(result))} bytes")

    case_b = synthetic_case()
    tracemalloc.start()
    t = time.perf_counter()
    result_b = run_turn(parse_case(case_b))
    elapsed = time.perf_counter() - t
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    median_b = statistics.median(timed(lambda: run_turn(parse_case(case_b)), 4) + [elapsed])
    rows.append(("(b) 1,000 provinces / 60 factions / 600 armies, turn (s)", median_b, 1.0))
    rows.append(("(b) same, peak memory (MB, tracemalloc)", peak / 1e6, 100.0))
    info_b = (f"    {sum(1 for p in case_b['provinces'] if p['domain'] == 'land')} land provinces, "
              f"{len(case_b['factions'])} factions, {len(case_b['armies'])} armies, {len(case_b['fleets'])} fleets, "
              f"{len(case_b['orders'])} orders, {len(result_b['fought'])} autobattles")

    case_c = {
        "factions": [{"id": "a", "capital": None, "specials": ["chivalry"], "start_provinces": []},
                     {"id": "b", "capital": None, "specials": ["best_mercenaries"], "start_provinces": []}],
        "provinces": [{"id": "p", "domain": "land", "owner": "b", "fortress": True, "garrison": ["medium"]}],
        "armies": [{"id": "a-1", "faction": "a", "number": 1, "province": "p", "troops": ["huge", "large"],
                    "commanders": [{"name": "x", "power": 4}]},
                   {"id": "b-1", "faction": "b", "number": 1, "province": "p", "troops": ["huge"],
                    "commanders": [{"name": "y", "power": 3}]}],
        "battle": {"province": "p", "domain": "land", "storm": True,
                   "attacker": {"faction": "a", "armies": ["a-1"]},
                   "defender": {"faction": "b", "armies": ["b-1"], "garrison": True, "holds_walls": True}},
    }
    parsed_c = parse_case(case_c)
    assert battle_odds(parsed_c)["dice_count"] == 2
    runs = timed(lambda: battle_odds(parsed_c), 200)
    rows.append(("(c) odds of a two-dice battle, median of 200 (ms)", statistics.median(runs) * 1000, 5.0))

    missed = print_targets(rows)
    print(info_a)
    print(info_b)
    if missed:
        print("MISSED: " + "; ".join(missed))
    else:
        print("all targets met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
