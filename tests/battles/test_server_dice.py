"""The server's dice are the engine's documented seeded dice (larp/engine/dice.py), per turn."""
from larp.battles import services as console
from larp.battles.models import DiceRoll
from larp.engine import run_turn
from larp.engine.dice import roll, seeded_die, turn_seed

from .test_console_flow import played  # noqa: F401  (the fixture)


def fight_with_server_dice(game, mod):
    rolled = []
    for _ in range(40):
        _turn, _res, result = console.current_result(game)
        awaiting = result.get("awaiting")
        if awaiting is None:
            return rolled
        dice = console.server_roll(game, mod, awaiting["n"])
        console.confirm_battle(game, mod, awaiting["n"], None, None, roll_id=dice.pk)
        rolled.append({"attacker": dice.attacker, "defender": dice.defender})
    raise AssertionError("battles never ended")


def test_a_turn_of_server_dice_is_adjudicate_turn_with_the_turn_seed(played):  # noqa: F811
    game, mod = played
    rolled = fight_with_server_dice(game, mod)
    assert len(rolled) >= 3
    turn, resolution, result = console.current_result(game)
    case = console.turn_case(turn, resolution)
    case["dice"], case["seed"] = [], turn_seed(game.seed, turn.number)
    replay = run_turn(case)
    assert [{"attacker": f["attacker"]["dice"], "defender": f["defender"]["dice"]} for f in replay["fought"]] == rolled
    assert replay["state"] == result["state"]


def test_a_re_roll_after_undo_gives_new_dice_from_the_next_die(played):  # noqa: F811
    game, mod = played
    first = console.server_roll(game, mod, 1)
    console.confirm_battle(game, mod, 1, None, None, roll_id=first.pk)
    console.undo_last_battle(game, mod, "wrong table")
    again = console.server_roll(game, mod, 1)
    seed = turn_seed(game.seed, game.turns.order_by("-number").first().number)
    k = len(first.attacker) + len(first.defender)
    expected = roll(seed, k, len(again.attacker))
    assert (again.attacker, again.defender) == (list(expected.attacker), list(expected.defender))
    assert DiceRoll.objects.filter(resolution__turn__game=game).count() == 2


def test_turn_seed_is_fixed_and_differs_between_turns():
    assert turn_seed(1204, 1) != turn_seed(1204, 2)
    assert 0 <= turn_seed(-5, 3) < 2 ** 63
    assert turn_seed(1204, 1) == int.from_bytes(__import__("hashlib").sha256(b"1204:turn:1").digest()[:8], "big") >> 1
    assert roll(7, 4, 2).defender == (seeded_die(7, 6), seeded_die(7, 7))
