"""The check over plain data (larp/dice/verify.py): what it says for a clean record and for each tampering."""
from larp.dice import verify
from larp.rules.dice import die

SEED = 9_876_543_210_123


def stream(n=8, seed=SEED, **changes):
    rolls = [verify.RollRecord(k, die(seed, k), where=f"шаг {k // 2 + 1}") for k in range(n)]
    return verify.StreamRecord("«Брод» (Орда)", verify.fingerprint(SEED), seed, n, rolls)


def test_a_clean_table_matches():
    line = verify.check_table(stream())
    assert line.ok and line.text().startswith("«Брод» (Орда): всё сходится")


def test_before_the_reveal_only_the_fingerprint():
    s = stream()
    hidden = verify.StreamRecord(s.name, s.fingerprint, None, s.next_counter, ())
    line = verify.check_table(hidden)
    assert not line.ok and not line.revealed and verify.fingerprint(SEED) in line.text()
    assert str(SEED) not in line.text()


def test_a_tampered_roll_is_named():
    s = stream()
    rolls = list(s.rolls)
    rolls[5] = verify.RollRecord(5, rolls[5].value % 6 + 1, where="шаг 3")
    line = verify.check_table(verify.StreamRecord(s.name, s.fingerprint, SEED, 8, rolls))
    assert line.problems == [f"шаг 3, счётчик 5: в записи {rolls[5].value}, пересчёт даёт {die(SEED, 5)}"]
    assert "не сходится" in line.text()


def test_a_deleted_roll_is_named():
    s = stream()
    rolls = [r for r in s.rolls if r.counter != 2]
    line = verify.check_table(verify.StreamRecord(s.name, s.fingerprint, SEED, 8, rolls))
    assert line.problems == [f"счётчик 2: нет в записи (пересчёт даёт {die(SEED, 2)})"]


def test_a_reused_counter_and_one_beyond_the_end_are_named():
    s = stream()
    rolls = [*s.rolls, verify.RollRecord(3, die(SEED, 3), where="шаг 9"), verify.RollRecord(8, die(SEED, 8),
                                                                                              where="шаг 9")]
    line = verify.check_table(verify.StreamRecord(s.name, s.fingerprint, SEED, 8, rolls))
    assert "шаг 9, счётчик 3: номер использован дважды" in line.problems
    assert "шаг 9, счётчик 8: дальше последнего номера потока (7)" in line.problems


def test_a_wrong_seed_fails_the_fingerprint_and_names_the_rolls():
    s = stream()
    line = verify.check_table(verify.StreamRecord(s.name, s.fingerprint, SEED + 1, 8, s.rolls))
    assert line.problems[0] == "раскрытое зерно не даёт объявленного отпечатка"
    differ = [k for k in range(8) if die(SEED + 1, k) != die(SEED, k)]
    assert differ and line.problems[1:] == [
        f"шаг {k // 2 + 1}, счётчик {k}: в записи {die(SEED, k)}, пересчёт даёт {die(SEED + 1, k)}" for k in differ]


def test_hand_dice_are_not_recomputed_but_counted():
    s = stream()
    rolls = [*s.rolls, verify.RollRecord(None, 6, source=verify.HAND, where="шаг 5")]
    line = verify.check_table(verify.StreamRecord(s.name, s.fingerprint, SEED, 8, rolls))
    assert line.ok and "кубиков вручную: 1" in line.text()


def test_a_long_list_of_problems_is_cut_with_a_count():
    line = verify.check_table(verify.StreamRecord("x", verify.fingerprint(SEED), SEED, 40, ()))
    assert len(line.problems) == 40 and "и ещё расхождений: 28" in line.text()


def test_draws_by_lot_are_recomputed_and_by_hand_are_said():
    codes = ["east", "north", "south"]
    war = verify.WarRecord(verify.fingerprint(SEED), SEED, draws=[
        verify.DrawRecord(0, codes, verify.seeded_draw(SEED, codes)),
        verify.DrawRecord(None, codes, ["south", "east", "north"], manual=True),
        verify.DrawRecord(1, codes, verify.seeded_draw(verify.draw_seed(SEED, 1), codes))])
    line = verify.check_draws(war)
    assert line.ok and "жеребьёвок вручную, не по зерну: 1" in line.text()
    bad = verify.WarRecord(war.fingerprint, SEED, draws=[verify.DrawRecord(0, codes, list(reversed(
        verify.seeded_draw(SEED, codes))))])
    assert verify.check_draws(bad).problems[0].startswith("жеребьёвка 1: в записи")
