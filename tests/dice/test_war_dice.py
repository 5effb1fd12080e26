"""The war's server dice on the record: committed, counted, discarded with reasons, revealed and verified."""
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from larp.battles import services as console
from larp.battles.models import DiceRoll
from larp.dice import selectors, services as dice
from larp.dice.models import Roll, Stream, fingerprint
from larp.engine.dice import roll as engine_roll, turn_seed
from larp.rules.dice import die
from larp.turns.models import AuditEntry

from tests.battles.test_console_flow import played  # noqa: F401  (the fixture)


def fight(game, mod, *, reroll_first=False, hand_battle=None):
    """Every battle of the turn: server dice (the first re-rolled once with a reason), one battle by hand."""
    for _ in range(40):
        _turn, _res, result = console.current_result(game)
        awaiting = result.get("awaiting")
        if awaiting is None:
            return
        n = awaiting["n"]
        if n == hand_battle:
            count = awaiting["dice_count"]
            console.confirm_battle(game, mod, n, [3] * count["attacker"], [4] * count["defender"])
            continue
        rolled = console.server_roll(game, mod, n)
        if reroll_first and n == 1:
            rolled = console.server_roll(game, mod, n, replaces=rolled.pk, reason="кубик упал со стола")
        console.confirm_battle(game, mod, n, None, None, roll_id=rolled.pk)
    raise AssertionError("battles never ended")


def war_line(game):
    return selectors.check(game)[0]


@pytest.fixture
def fought(played):  # noqa: F811
    game, mod = played
    fight(game, mod, reroll_first=True, hand_battle=2)
    return game, mod


def test_every_server_die_of_the_war_is_on_the_record_with_its_counter(fought):
    game, mod = fought
    stream = Stream.objects.get(game=game, label="turn-1")
    assert stream.seed == turn_seed(game.seed, 1)
    server = list(Roll.objects.filter(stream=stream, source="server").order_by("counter"))
    assert [r.counter for r in server] == list(range(stream.next_counter)) and stream.next_counter >= 8
    assert all(r.value == die(turn_seed(game.seed, 1), r.counter) for r in server)
    # The first battle's first roll was re-rolled: discarded with the moderator's reason, its counters not reused.
    discarded = [r for r in server if r.status == Roll.DISCARDED]
    assert discarded and all("кубик упал со стола" in r.reason for r in discarded)
    assert {r.ref for r in discarded} == {"turn-1:battle-1"}
    # The hand battle's dice are stored as such, without counters.
    hand = list(Roll.objects.filter(stream=stream, source="hand"))
    assert [r.value for r in hand][:1] == [3] and all(r.counter is None for r in hand)
    assert {r.ref for r in hand} == {"turn-1:battle-2"}
    # Each server battle's roll names its counters; the second roll of battle 1 follows the first.
    rolls = list(DiceRoll.objects.filter(resolution__turn__game=game, battle_no=1).order_by("id"))
    assert rolls[1].counter == rolls[0].counters[1] + 1


def test_the_turn_replays_from_the_counters(fought):
    game, _mod = fought
    rolls = list(DiceRoll.objects.filter(resolution__turn__game=game, source="server"))
    assert rolls, "the fixture fought no battle with server dice"
    for roll in rolls:
        expected = engine_roll(turn_seed(game.seed, 1), roll.counter, len(roll.attacker))
        assert (roll.attacker, roll.defender) == (list(expected.attacker), list(expected.defender))


def test_a_re_roll_needs_a_reason(played):  # noqa: F811
    game, mod = played
    first = console.server_roll(game, mod, 1)
    with pytest.raises(console.ConsoleError):
        console.server_roll(game, mod, 1, replaces=first.pk)
    assert Roll.objects.filter(stream__game=game, source="server").count() == len(first.attacker) * 2


def test_undone_battle_dice_stay_discarded_with_the_reason(played):  # noqa: F811
    game, mod = played
    rolled = console.server_roll(game, mod, 1)
    console.confirm_battle(game, mod, 1, None, None, roll_id=rolled.pk)
    console.undo_last_battle(game, mod, "не тот бой")
    gone = Roll.objects.filter(stream__game=game, ref="turn-1:battle-1")
    assert gone.count() == 2 * len(rolled.attacker)
    assert all(r.status == Roll.DISCARDED and "не тот бой" in r.reason for r in gone)


def test_before_the_reveal_only_the_fingerprint_is_known(fought):
    game, _mod = fought
    lines = selectors.check(game)
    assert not lines[0].revealed and lines[0].fingerprint == fingerprint(game.seed)
    assert str(game.seed) not in " ".join(line.text() for line in lines)


def test_revealed_and_verified(fought, capsys):
    game, mod = fought
    dice.reveal_game(game, mod)
    line = war_line(game)
    assert line.ok, line.problems
    assert "всё сходится" in line.text()
    assert AuditEntry.objects.filter(game=game, action="dice_revealed").count() == 1
    call_command("verify_dice", str(game.pk))
    out = capsys.readouterr().out
    assert "Война: всё сходится" in out and "Жеребьёвка" in out
    call_command("verify_dice", game.title)
    assert "всё сходится" in capsys.readouterr().out


def test_after_the_reveal_the_server_rolls_no_more(fought):
    game, mod = fought
    dice.reveal_game(game, mod)
    with pytest.raises(dice.Revealed):
        dice.roll(dice.turn_stream(game, 1), 2)


def _problems(game):
    line = war_line(game)
    assert not line.ok
    return " | ".join(line.problems)


def test_a_tampered_stored_roll_is_named(fought):
    game, mod = fought
    dice.reveal_game(game, mod)
    roll = Roll.objects.filter(stream__label="turn-1", source="server", status="used").order_by("counter").last()
    true_value, battle = roll.value, roll.ref.rsplit("-", 1)[1]
    roll.value = true_value % 6 + 1
    roll.save()
    assert (f"ход 1, сражение {battle}, счётчик {roll.counter}: в записи {roll.value}, пересчёт даёт {true_value}"
            in _problems(game))


def test_a_tampered_battle_is_named(fought):
    game, mod = fought
    dice.reveal_game(game, mod)
    resolution = game.turns.get(number=1).resolution
    true_value = resolution.dice[0]["attacker"][0]
    resolution.dice[0]["attacker"][0] = true_value % 6 + 1
    resolution.save()
    first = DiceRoll.objects.filter(resolution=resolution, battle_no=1).order_by("id").last().counter
    assert (f"ход 1, сражение 1, счётчик {first}: в сражении засчитано {true_value % 6 + 1}, пересчёт даёт "
            f"{true_value}") in _problems(game)


def test_a_deleted_roll_is_named(fought):
    game, mod = fought
    dice.reveal_game(game, mod)
    Roll.objects.filter(stream__label="turn-1", counter=3).delete()
    text = _problems(game)
    assert "ход 1, счётчик 3: нет в записи" in text


def test_a_wrong_seed_is_named(fought, capsys):
    game, mod = fought
    dice.reveal_game(game, mod)
    Stream.objects.filter(game=game, label="game").update(secret=game.seed + 1, seed=game.seed + 1)  # the revealed secret
    text = _problems(game)
    wrong, right = turn_seed(game.seed + 1, 1), turn_seed(game.seed, 1)
    k = next(k for k in range(20) if die(wrong, k) != die(right, k))
    roll = Roll.objects.get(stream__label="turn-1", counter=k)
    battle = roll.ref.rsplit("-", 1)[1]
    assert text.startswith("раскрытое зерно не даёт объявленного отпечатка")
    assert f"ход 1, сражение {battle}, счётчик {k}: в записи {roll.value}, пересчёт даёт {die(wrong, k)}" in text
    with pytest.raises(CommandError):
        call_command("verify_dice", str(game.pk))
    assert "не сходится" in capsys.readouterr().out


def test_after_the_reveal_the_console_asks_for_dice_by_hand(played, client_for):  # noqa: F811
    from django.urls import reverse

    game, mod = played
    dice.reveal_game(game, mod)
    c = client_for(mod)
    page = c.get(reverse("battles:battles", args=[game.pk])).content.decode()
    assert "сервер больше не бросает кубики" in page and "Бросить на сервере" not in page
    response = c.post(reverse("battles:battle_action", args=[game.pk, "roll"]), {"battle": 1})
    assert response.status_code == 409 and "Зерно кубиков уже раскрыто" in response.content.decode()
    assert not Roll.objects.filter(stream__game=game, source="server").exists()


def test_the_log_says_which_dice_a_re_roll_discarded_and_why(played):  # noqa: F811
    from larp.turns.audit_text import sentence
    from larp.turns.selectors import names

    game, mod = played
    first = console.server_roll(game, mod, 1)
    again = console.server_roll(game, mod, 1, replaces=first.pk, reason="кубик упал")
    entry = AuditEntry.objects.filter(game=game, action="dice_rolled").order_by("-pk").first()
    assert entry.reason == "кубик упал"
    text = sentence(entry, names(game))
    assert f"Кубики хода № {again.counters[0] + 1}–{again.counters[1] + 1} в записи бросков." in text
    assert f"Переброс: кубики № {first.counters[0] + 1}–{first.counters[1] + 1} отброшены." in text


def test_a_hand_battle_whose_dice_differ_from_the_record_is_named(fought):
    game, mod = fought
    dice.reveal_game(game, mod)
    roll = Roll.objects.filter(stream__label="turn-1", source="hand", ref="turn-1:battle-2").order_by("pk").first()
    Roll.objects.filter(pk=roll.pk).update(value=1)
    assert "ход 1, сражение 2: в сражении засчитаны кубики вручную 3 4, а в записи — 1 4" in _problems(game)
