"""One generator for every rule system: each engine's seeded fallback is larp.rules.dice for the same seed
and counter, so the dice record's check (larp/dice/verify.py) recomputes any system's server dice alike."""
from larp.dice import verify
from larp.engine import dice as military
from larp.orda.engine import dice as orda
from larp.ordonnance.engine import seeded as ordonnance
from larp.redplains.engine import dice as redplains
from larp.rules import dice
from larp.tactical.engine import dice as tactical

SEEDS = (0, 7, 1204, 2**40 + 3, 2**62 - 1)


def test_every_engines_seeded_fallback_is_the_one_generator():
    for seed in SEEDS:
        expected = [dice.die(seed, k) for k in range(24)]
        # The military module: a turn's seeded dice, the attacker's then the defender's, counted over the turn.
        source = military.DiceSource((), seed)
        got = []
        for count in (2, 1, 2, 1, 2, 2, 1, 1):
            roll, entered = source.next(count)
            assert entered is None
            got += [*roll.attacker, *roll.defender]
        assert got == expected[:len(got)]
        # Warlords: Battle of Red Plains: a roller whose entered dice are none draws the seed's dice in order.
        reds = redplains.Dice(None, seed)
        assert [reds.draw("u1" if k % 2 else "u2", "test") for k in range(24)] == expected
        # The tactical rules: the plain list, nothing entered.
        tac = tactical.Dice.plain(None, seed)
        assert [tac.take() for _ in range(24)] == expected
        # Orda: one die per roll.
        horde = orda.Dice(seed)
        assert [horde.roll("test") for _ in range(24)] == expected
        # Ordonnance: the lot and the deck's shuffle take the same draws (u % n).
        players = ["a", "b", "c"]
        assert ordonnance.lot(seed, players) == players[dice.draw(seed, 0) % 3]
        assert [ordonnance.draw(seed, k) % 6 + 1 for k in range(24)] == expected


def test_the_check_recomputes_with_the_same_generator():
    for seed in SEEDS:
        assert verify.turn_seed(seed, 3) == military.turn_seed(seed, 3)
        assert verify.fingerprint(seed) == __import__("larp.dice.models", fromlist=["x"]).fingerprint(seed)
        stream = verify.StreamRecord("t", verify.fingerprint(seed), seed, 24,
                                     [verify.RollRecord(k, dice.die(seed, k)) for k in range(24)])
        assert verify.check_stream(stream) == []
