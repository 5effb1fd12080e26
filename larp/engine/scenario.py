"""A case document from a scenario file's data (the YAML already loaded into a dict).

Pure data conversion, used by tests and benchmarks and available to the web
app: ids are the scenario's; army ids are "<faction>-<number>", fleet ids
"<faction>-f<number>"; a faction's start provinces are those it owns in the
scenario (R9 militia, R10 mountain country).
"""
from __future__ import annotations

from typing import Any


def army_id(faction: str, number: int) -> str:
    return f"{faction}-{number}"


def fleet_id(faction: str, number: int) -> str:
    return f"{faction}-f{number}"


def _commander(c: dict) -> dict:
    return {"name": c.get("name") or c.get("name_en") or c.get("name_ru") or "", "power": c["power"]}


def case_from_scenario(scenario: dict[str, Any]) -> dict[str, Any]:
    provinces = scenario["provinces"]
    factions = scenario["factions"]
    capitals = {f["capital"]: f["id"] for f in factions}
    case: dict[str, Any] = {
        "troop_types": [{"id": t["id"], "power": t["power"], "men": t["men"], "domain": t["domain"]}
                        for t in scenario.get("troop_types", [])],
        "factions": [],
        "relations": [dict(r) for r in scenario.get("relations", [])],
        "provinces": [{"id": p["id"], "domain": p["domain"], "owner": p.get("owner"),
                       "capital_of": capitals.get(p["id"]) if p["domain"] == "land" else None,
                       "fortress": bool(p.get("fortress", False)), "special": p.get("special"),
                       "garrison": list(p.get("garrison", []))} for p in provinces],
        "adjacency": [list(pair) for pair in scenario["adjacency"]],
        "armies": [], "fleets": [],
        "draw": [f["id"] for f in factions],
        "orders": [], "special_state": {}, "dice": [], "seed": None, "choices": {},
    }
    if scenario.get("rules"):
        case["rules"] = {k: v for k, v in scenario["rules"].items() if k != "phase_seconds"}
    for f in factions:
        case["factions"].append({
            "id": f["id"], "crusader": bool(f.get("crusader", False)), "capital": f.get("capital"),
            "specials": list(f.get("specials", [])),
            "start_provinces": [p["id"] for p in provinces if p.get("owner") == f["id"]],
        })
        for a in f.get("armies", []):
            case["armies"].append({"id": army_id(f["id"], a["number"]), "faction": f["id"], "number": a["number"],
                                   "province": a["province"], "troops": list(a["troops"]),
                                   "commanders": [_commander(c) for c in a.get("commanders", [])]})
        for a in f.get("fleets", []):
            case["fleets"].append({"id": fleet_id(f["id"], a["number"]), "faction": f["id"], "number": a["number"],
                                   "sea": a["sea"], "troops": list(a["troops"]),
                                   "commanders": [_commander(c) for c in a.get("commanders", [])]})
    return case
