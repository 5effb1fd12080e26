"""Properties of the tactical engine's combat modes on random legal states (hypothesis).

Random but well-formed clashes, melees and volleys, with seeded dice: the result
never has more figures than the case (nothing comes from nothing, T22), lists
every unit once with ranks that fit its front (no unit in two places, T22.2), lets
no fleeing unit strike (T17.1) and no destroyed unit test or stand in ranks (T22.4),
and the same case with the same seed gives byte-identical output.
"""
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from larp.tactical.engine.data import default_rules

from .helpers import run

RULES = default_rules()
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

PROFILES = [
    {"id": "sword", "category": "swordsmen", "specialty": None, "melee": 3, "steadiness": 3, "weapon": None,
     "armour": "light_armour", "shield": "shield"},
    {"id": "spear", "category": "line_infantry", "specialty": 3, "melee": 2, "steadiness": 3,
     "weapon": "infantry_spear", "armour": None, "shield": "large_shield"},
    {"id": "pike", "category": "line_infantry", "specialty": 4, "melee": 2, "steadiness": 4,
     "weapon": "infantry_pike", "armour": None, "shield": None},
    {"id": "halberd", "category": "line_infantry", "specialty": 2, "melee": 2, "steadiness": 2,
     "weapon": "halberd", "armour": "heavy_armour", "shield": None},
    {"id": "bow", "category": "shooters", "specialty": 3, "melee": 2, "steadiness": 3, "weapon": "bow",
     "armour": None, "shield": None},
    {"id": "lancer", "category": "lancers", "specialty": 3, "melee": 2, "steadiness": 3, "weapon": "cavalry_lance",
     "armour": "light_armour", "shield": "shield"},
    {"id": "rider", "category": "riders", "specialty": None, "melee": 3, "steadiness": 2, "weapon": None,
     "armour": None, "shield": None},
]
FOOT = [p["id"] for p in PROFILES if p["id"] not in ("lancer", "rider")]
MOUNTED = ["lancer", "rider"]
FORMATIONS = ["very_dense", "dense", "open"]


def _profiles():
    return [{"name": p["id"], "javelin": False, "horse_armour": None, **p} for p in PROFILES]


@st.composite
def units(draw, uid, side, role=None):
    """A unit laid out in ranks of its formation's front; `role` "clash" or "shoot" picks a weapon that can."""
    mounted = draw(st.booleans()) and role != "shoot"
    pool = {"clash": ["lancer"] if mounted else ["spear", "pike", "halberd"], "shoot": ["bow"]}.get(
        role, MOUNTED if mounted else FOOT)
    formation = draw(st.sampled_from(FORMATIONS[1:] if role == "shoot" else FORMATIONS))
    width = RULES["formations"][formation]["front"]["mounted" if mounted else "foot"]
    bases = draw(st.integers(1, 2))
    n_ranks = draw(st.integers(1, 3 * bases))
    ranks = []
    for r in range(n_ranks):
        groups = []
        left = width if r < n_ranks - 1 else draw(st.integers(1, width))
        while left:
            count = draw(st.integers(1, left))
            groups.append({"profile": draw(st.sampled_from(pool)), "count": count,
                           "disordered": draw(st.integers(0, count))})
            left -= count
        ranks.append(groups)
    return {"id": uid, "side": side, "formation": formation, "special": None, "bases": bases, "ranks": ranks,
            "general": None, "in_melee": False, "fleeing": draw(st.integers(0, 11)) == 0}


@st.composite
def combats(draw):
    kind = draw(st.sampled_from(["melee", "clash", "shooting"]))
    role = {"clash": "clash", "shooting": "shoot"}.get(kind)
    listed = ([draw(units("a0", "a", role))] + [draw(units("a1", "a")) for _ in range(draw(st.integers(0, 1)))]
              + [draw(units(f"b{i}", "b")) for i in range(draw(st.integers(1, 2)))])
    case = {"profiles": _profiles(), "units": listed, "seed": draw(st.integers(0, 2**32)), "dice": {},
            "conditions": {"rain": draw(st.booleans()), "sun_in_face": draw(st.sampled_from([[], ["a"], ["b"]]))}}
    if kind == "melee":
        order = draw(st.permutations([u["id"] for u in listed]))
        case["melee"] = {"units": list(order), "attacked_from": {}}
    elif kind == "clash":
        case["clash"] = {"attacker": "a0", "defender": "b0",
                         "attacked_from": draw(st.sampled_from(["front", "flank", "rear"])),
                         "counter": draw(st.booleans())}
    else:
        case["shooting"] = {"exchange": False, "volleys": [{"shooter": "a0", "target": "b0",
                                                             "distance_cm": draw(st.integers(0, 12)), "cover": False,
                                                             "defensive": False, "target_line_first_rank": None}]}
    return kind, case


def _figures(unit):
    return sum(g["count"] for rank in unit["ranks"] for g in rank)


@SETTINGS
@given(combats())
def test_a_random_combat_keeps_every_invariant(combat):
    kind, case = combat
    code, out, err = run(kind, case)
    assert code == 0, err
    assert run(kind, case) == (code, out, err), "the same case and seed give byte-identical output"
    result = json.loads(out)
    before = {u["id"]: u for u in case["units"]}
    fleeing = {uid for uid, u in before.items() if u["fleeing"]}
    acting = {"melee": set(before), "clash": {"a0"}, "shooting": {"a0"}}[kind]
    if fleeing & acting:
        assert any(r["rule"] == "T17.1" for r in result.get("refused", [])), "a fleeing unit never acts (T17.1)"
    if "refused" in result:
        assert result["refused"] and "units" not in result
        return
    if kind == "melee":
        assert sorted(result["units"]) == sorted(before), "every unit of the melee once"
    for uid, entry in result["units"].items():
        assert uid in before
        start = _figures(before[uid])
        mounted = before[uid]["ranks"][0][0]["profile"] in MOUNTED
        after = entry["after"]
        width = RULES["formations"][after["formation"]]["front"]["mounted" if mounted else "foot"]
        in_ranks = sum(g["count"] for rank in after["ranks"] for g in rank)
        assert after["figures"] == in_ranks <= start, "no figure from nothing"
        assert after["figures"] == start - entry.get("killed", 0) or after["destroyed"]
        assert all(sum(g["count"] for g in rank) <= width for rank in after["ranks"]), "ranks fit the front"
        assert all(g["profile"] in {p["id"] for p in PROFILES} for rank in after["ranks"] for g in rank)
        assert 0 <= after["disordered"] <= after["figures"]
        if after["destroyed"]:
            assert after["figures"] == 0 and after["ranks"] == []
            assert entry.get("test") is None or entry["test"]["result"] == "destroyed"
        if uid in fleeing:
            assert entry.get("strikers", 0) == 0, "a fleeing unit strikes no blow"
