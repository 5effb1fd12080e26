"""The command-line contract of the tactical engine (T37): determinism, seeded replay, dice accounting, refusals."""
import json

from tests.tactical.helpers import case, result, run


def test_the_same_case_gives_byte_identical_output():
    for name, mode in (("src-two-against-one-share", "melee"), ("own-exchange-archers", "shooting"),
                       ("t38-odds-melee-one-on-one", "odds"), ("own-general-talents", "army")):
        first, second = run(mode, case(name)), run(mode, case(name))
        assert first == second and first[0] == 0


def test_a_seeded_clash_replays_and_uses_the_documented_generator():
    data = case("src-large-shield-five-hits")
    data["dice"], data["seed"] = {}, 1234
    one, two = result("clash", data), result("clash", data)
    assert one == two
    from larp.tactical.engine.dice import seeded_die
    expected = [seeded_die(1234, k) for k in range(8)]          # the attacker's 8 strike dice come first
    dice = [d for g in one["units"]["a1"]["groups"] for d in g["dice"]]
    assert dice == expected


def test_entered_dice_first_then_the_seed():
    data = case("src-large-shield-five-hits")
    data["dice"] = {"a1": {"strike": [1, 1]}}
    data["seed"] = 7
    out = result("clash", data)
    dice = out["units"]["a1"]["groups"][0]["dice"]
    from larp.tactical.engine.dice import seeded_die
    assert dice[:2] == [1, 1] and dice[2:4] == [seeded_die(7, 2), seeded_die(7, 3)]


def test_dice_running_short_without_seed_names_the_unit_and_the_list():
    data = case("src-large-shield-five-hits")
    data["dice"]["a1"]["strike"] = [1, 2]
    code, out, err = run("clash", data)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "a1" in err and "strike" in err


def test_dice_left_over_name_the_count():
    data = case("src-spearmen-three-ranks-test")
    data["dice"] = [2, 5]
    code, _, err = run("test", data)
    assert code == 2 and "1 die not used" in err


def test_a_refused_clash_is_a_result_not_an_error():
    out = result("clash", case("t21-clash-on-flank-of-melee-refused"))
    assert out == {"refused": [{"rule": "T21.8", "reason": out["refused"][0]["reason"], "where": "b1"}]}


def test_output_is_json_with_russian_names_kept():
    code, out, _ = run("army", case("own-general-talents"))
    assert code == 0 and json.loads(out)["valid"] is True
