"""Properties of the Red Plains engine with units out of the battle (hypothesis).

Random turns in which some units are destroyed, dispersed or withdrawn: an order
or a banner for such a unit is malformed (exit 2 naming it); without them the turn
never moves, fights or revives it, never names it in an event, keeps every unit in
one place at most and creates no figure, and a seeded replay is byte-identical.
Random single contests (melee, volley and the odds over them) refuse exactly the
units that may not take part: out of the battle, or fleeing and attacking (W35.1).
"""
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .test_properties import DATA, TYPES, battles, run

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GONE = ("destroyed", "dispersed", "withdrawn")
SHOOTERS = sorted(t for t, tt in DATA.troop_types.items() if tt.shooter)


@st.composite
def battles_with_losses(draw):
    case = draw(battles())
    gone = {}
    for u in case["units"]:
        status = draw(st.sampled_from(GONE + ("stays",) * 3))
        if status == "stays":
            continue
        u.update(status=status, cell=None)
        u.pop("fleeing_since", None)
        if status == "destroyed":
            u["figures"] = 0
        gone[u["id"]] = status
    return case, gone


def _names(value, ids):
    if isinstance(value, str):
        return value in ids
    if isinstance(value, list):
        return any(_names(v, ids) for v in value)
    if isinstance(value, dict):
        return any(_names(v, ids) for v in value.values())
    return False


@SETTINGS
@given(battles_with_losses())
def test_a_unit_out_of_the_battle_never_acts_in_a_turn(drawn):
    case, gone = drawn
    ordered = [o for o in case["orders"] if o["unit"] in gone]
    raised = [b for b in case["banners"] if b["unit"] in gone]
    code, out, err = run("turn", case)
    if ordered or raised:
        assert code == 2 and out == "" and "is out of the battle" in err, err
        case = {**case, "orders": [o for o in case["orders"] if o["unit"] not in gone],
                "banners": [b for b in case["banners"] if b["unit"] not in gone]}
        code, out, err = run("turn", case)
    assert code == 0, err
    assert run("turn", case) == (code, out, err), "a seeded replay is byte-identical"
    result = json.loads(out)
    before = {u["id"]: u for u in case["units"]}
    assert set(result["units"]) == set(before), "every unit once"
    cells = [u["cell"] for u in result["units"].values() if u["cell"] is not None]
    assert len(cells) == len(set(cells)), "no two units in one cell"
    for uid, u in result["units"].items():
        assert 0 <= u["figures"] <= before[uid]["figures"], "no figure from nothing"
    for uid, status in gone.items():
        u = result["units"][uid]
        assert (u["status"], u["cell"], u["figures"]) == (status, None, before[uid]["figures"])
    for event in result.get("events", []):
        assert not _names(event, set(gone)), f"an event names a unit out of the battle: {event}"


def _unit(draw, uid, side, types=TYPES):
    return {"id": uid, "side": side, "type": draw(st.sampled_from(types)), "figures": draw(st.integers(1, 16)),
            "status": draw(st.sampled_from(("ready",) * 6 + ("fleeing",) + GONE))}


@st.composite
def contests(draw):
    mode = draw(st.sampled_from(["melee", "volley", "odds"]))
    kind = draw(st.sampled_from(["attack", "meeting", "volley"] if mode == "odds" else
                                ["volley"] if mode == "volley" else ["attack", "meeting"]))
    if kind == "volley":
        shooters = [_unit(draw, f"n{i}", "north", SHOOTERS) for i in range(draw(st.integers(1, 2)))]
        case = {"volley": {"target": _unit(draw, "s1", "south"), "shooters": shooters}}
        acting, passive = shooters, [case["volley"]["target"]]
    elif kind == "attack":
        sides = draw(st.lists(st.sampled_from(["front", "left", "right", "rear"]), min_size=1, max_size=2, unique=True))
        attackers = [{**_unit(draw, f"n{i}", "north"), "attacks": s} for i, s in enumerate(sides)]
        case = {"melee": {"kind": "attack", "defender": _unit(draw, "s1", "south"), "attackers": attackers}}
        acting, passive = attackers, [case["melee"]["defender"]]
    else:
        a, b = _unit(draw, "n1", "north"), _unit(draw, "s1", "south")
        case = {"melee": {"kind": "meeting", "a": a, "b": b, "same_cell": draw(st.booleans())}}
        acting, passive = [a, b], []
    case["seed"] = draw(st.integers(0, 2**32))
    return mode, case, acting, passive


@SETTINGS
@given(contests())
def test_a_contest_refuses_exactly_the_units_that_may_not_take_part(contest):
    mode, case, acting, passive = contest
    code, out, err = run(mode, case)
    assert run(mode, case) == (code, out, err), "the same case and seed give byte-identical output"
    shooting = "volley" in case
    barred = ([u for u in acting if u["status"] in GONE or (u["status"] == "fleeing" and not shooting)]
              + [u for u in passive if u["status"] in GONE])
    if barred:
        assert code == 2 and out == "" and err.count("\n") == 1
        assert any(u["id"] in err and u["status"] in err for u in barred), err
        return
    assert code == 0, err
    result = json.loads(out)
    if mode == "melee":
        for uid, line in result["units"].items():
            assert 0 <= line["figures_after"] <= line["figures_before"], "no figure from nothing"
    elif mode == "volley":
        assert 0 <= result["target"]["figures_after"] <= case["volley"]["target"]["figures"]
