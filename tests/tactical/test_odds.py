"""Exact odds (T38 "odds"): reduced fractions that sum to 1 and agree with the seeded engine's frequencies."""
from fractions import Fraction

import pytest

from tests.tactical.helpers import case, result

ODDS_OF = [("src-large-shield-five-hits", "clash"), ("own-cavalry-charge-through", "clash"),
           ("t19-pikes-strike-charging-cavalry", "clash"), ("src-two-against-one-share", "melee"),
           ("t12-general-strikes-first-with-talent", "melee"), ("src-light-armour-three-and-four", "melee"),
           ("own-exchange-archers", "shooting"), ("t20-crossbow-line-fire-ignores-shields", "shooting")]


def odds_of(name: str, kind: str) -> dict:
    data = case(name)
    data["of"] = kind
    return result("odds", data)


@pytest.mark.parametrize("name, kind", ODDS_OF)
def test_every_distribution_sums_to_one(name, kind):
    out = odds_of(name, kind)
    assert sum(Fraction(v["fraction"]) for v in out["loser"].values()) == 1
    for uid, unit in out["units"].items():
        dist = {int(k): Fraction(v) for k, v in unit["killed"]["distribution"].items()}
        assert sum(dist.values()) == 1, uid
        assert all(p > 0 for p in dist.values()) and min(dist) >= 0, uid
        assert unit["killed"]["expected"] == round(float(sum(k * p for k, p in dist.items())), 4)
        flees, destroyed = Fraction(unit["flees"]["fraction"]), Fraction(unit["destroyed"]["fraction"])
        assert 0 <= flees and 0 <= destroyed and flees + destroyed <= 1
        for text in [unit["flees"]["fraction"], *unit["killed"]["distribution"].values()]:
            assert str(Fraction(text)) == text, "reduced"


def test_fractions_are_reduced_and_values_rounded():
    out = odds_of("src-large-shield-five-hits", "clash")
    assert out["loser"]["b"] == {"fraction": "255/256", "value": 0.9961}


@pytest.mark.parametrize("name, kind", [("src-two-against-one-share", "melee"), ("own-cavalry-charge-through", "clash"),
                                        ("own-exchange-archers", "shooting")])
def test_odds_agree_with_the_seeded_engine(name, kind):
    """The seeded engine, run 1200 times, lands within 5 standard deviations of every exact probability."""
    odds = odds_of(name, kind)
    runs = 1200
    losers, flees = {}, {}
    for seed in range(runs):
        data = case(name)
        data["dice"], data["seed"] = {}, seed
        out = result(kind, data)
        losers[out["loser"] or "none"] = losers.get(out["loser"] or "none", 0) + 1
        for uid, unit in out["units"].items():
            if unit["test"] and unit["test"]["result"] == "flees":
                flees[uid] = flees.get(uid, 0) + 1
    for side, p in odds["loser"].items():
        assert abs(losers.get(side, 0) / runs - p["value"]) <= 5 * (p["value"] * (1 - p["value"]) / runs) ** 0.5 + 1e-9
    for uid, unit in odds["units"].items():
        p = unit["flees"]["value"]
        assert abs(flees.get(uid, 0) / runs - p) <= 5 * (p * (1 - p) / runs) ** 0.5 + 1e-9, uid


def test_odds_ignore_the_dice_of_the_case():
    data = case("src-large-shield-five-hits")
    data["of"] = "clash"
    bare = dict(data, dice={})
    assert result("odds", data) == result("odds", bare)


def test_a_refused_situation_has_no_odds():
    data = case("t18-swordsmen-cannot-clash")
    data["of"] = "clash"
    assert result("odds", data)["refused"][0]["rule"] == "T18.1"


def mixed_melee() -> dict:
    """Ranks of different armour on both sides: who missed decides who is hit (T22.1), so misses are tracked."""
    def prof(pid, armour, steadiness=3, category="swordsmen", melee=3):
        return {"id": pid, "category": category, "specialty": None, "melee": melee, "steadiness": steadiness,
                "weapon": None, "armour": armour, "shield": None, "horse_armour": None}
    return {"profiles": [prof("bare", None), prof("light", "light_armour", 4), prof("heavy", "heavy_armour", 2)],
            "units": [{"id": "a1", "side": "a", "formation": "open",
                       "ranks": [[{"profile": "bare", "count": 3}], [{"profile": "heavy", "count": 3}]]},
                      {"id": "b1", "side": "b", "formation": "open",
                       "ranks": [[{"profile": "light", "count": 2}, {"profile": "bare", "count": 1}],
                                 [{"profile": "heavy", "count": 3}]]}],
            "melee": {"units": ["a1", "b1"], "attacked_from": {"a1": "rear"}}}


def test_odds_of_mixed_units_agree_with_the_seeded_engine():
    data = mixed_melee()
    odds = result("odds", dict(data, of="melee"))
    runs = 1500
    killed, fates = {"a1": {}, "b1": {}}, {"a1": {"flees": 0, "destroyed": 0}, "b1": {"flees": 0, "destroyed": 0}}
    for seed in range(runs):
        out = result("melee", dict(data, dice={}, seed=seed))
        for uid, unit in out["units"].items():
            killed[uid][str(unit["killed"])] = killed[uid].get(str(unit["killed"]), 0) + 1
            if unit["test"] and unit["test"]["result"] in fates[uid]:
                fates[uid][unit["test"]["result"]] += 1
            elif unit["after"]["destroyed"]:
                fates[uid]["destroyed"] += 1
    for uid, unit in odds["units"].items():
        for k, text in unit["killed"]["distribution"].items():
            p = float(Fraction(text))
            assert abs(killed[uid].get(k, 0) / runs - p) <= 5 * (p * (1 - p) / runs) ** 0.5 + 1e-9, (uid, k)
        for fate in ("flees", "destroyed"):
            p = unit[fate]["value"]
            assert abs(fates[uid][fate] / runs - p) <= 5 * (p * (1 - p) / runs) ** 0.5 + 1e-9, (uid, fate)
    assert odds["units"]["a1"]["destroyed"]["value"] > 0      # attacked in the rear: a failed test destroys


def test_too_many_outcomes_is_one_clear_line():
    """Twenty-five units a side in one melee: refused in about a second with one line, not computed for minutes."""
    from tests.tactical.helpers import run
    profile = {"id": "s", "category": "swordsmen", "specialty": None, "melee": 3, "steadiness": 3, "weapon": None}
    units = [{"id": f"{side}{i}", "side": side, "formation": "open",
              "ranks": [[{"profile": "s", "count": 3}]] * 3} for side in "ab" for i in range(25)]
    code, out, err = run("odds", {"of": "melee", "profiles": [profile], "units": units,
                                  "melee": {"units": [u["id"] for u in units]}})
    assert code == 2 and "outcomes" in err and err.count("\n") == 1


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

ARMOUR = st.sampled_from([None, "light_armour", "heavy_armour"])


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from(["melee", "clash"]), a_n=st.integers(1, 9), b_n=st.integers(1, 9),
       a_armour=ARMOUR, b_armour=ARMOUR, shield=st.sampled_from([None, "shield", "large_shield"]),
       value=st.integers(0, 6), rear=st.booleans(), general=st.booleans())
def test_random_fights_have_odds_that_sum_to_one(kind, a_n, b_n, a_armour, b_armour, shield, value, rear, general):
    def prof(pid, armour, spec, steadiness):
        return {"id": pid, "category": "line_infantry", "specialty": spec, "melee": min(value, 4) or 1,
                "steadiness": steadiness, "weapon": "infantry_spear", "armour": armour,
                "shield": None if shield == "large_shield" and armour == "heavy_armour" else shield}

    def ranks(n, front_pid, back_pid):
        out, left = [], n
        while left:
            out.append([{"profile": front_pid if not out else back_pid, "count": min(3, left)}])
            left -= min(3, left)
        return out
    data = {"of": kind, "profiles": [prof("p", a_armour, value, 3), prof("q", b_armour, 3, 2)],
            "units": [{"id": "a1", "side": "a", "formation": "open", "ranks": ranks(a_n, "p", "q"),
                       "general": {"profile": "p", "talents": {"steadiness": 1}} if general else None},
                      {"id": "b1", "side": "b", "formation": "open", "ranks": ranks(b_n, "q", "p")}],
            "melee": {"units": ["a1", "b1"], "attacked_from": {"b1": "rear"} if rear else {}},
            "clash": {"attacker": "a1", "defender": "b1", "counter": not rear,
                      "attacked_from": "rear" if rear else "front"}}
    out = result("odds", data)
    assert sum(Fraction(v["fraction"]) for v in out["loser"].values()) == 1
    for unit in out["units"].values():
        assert sum(Fraction(v) for v in unit["killed"]["distribution"].values()) == 1
        assert Fraction(unit["flees"]["fraction"]) + Fraction(unit["destroyed"]["fraction"]) <= 1
        if rear:
            assert unit["flees"]["fraction"] == "0" or unit is out["units"]["a1"]
