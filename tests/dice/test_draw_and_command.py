"""The draw is recomputed from the game's seed (each redraw numbered, never the seed in the log), a draw by
hand is said to be one, and the command names the game by id or title."""
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from larp.campaign.models import AuditEntry
from larp.dice import selectors, services as dice, verify
from larp.turns import services as turns


def draw_line(game):
    return next(line for line in selectors.check(game) if line.name == "Жеребьёвка")


def test_each_draw_by_lot_is_numbered_and_recomputed(tiny_game, moderator):
    first = turns.make_draw(tiny_game, moderator)
    second = turns.make_draw(tiny_game, moderator)  # a redraw before the start: draw number 1
    entries = list(AuditEntry.objects.filter(game=tiny_game, action="draw").order_by("pk"))
    assert [e.detail.get("no") for e in entries] == [0, 1]
    assert all("seed" not in e.detail for e in entries)
    codes = sorted(first)
    assert first == verify.seeded_draw(tiny_game.seed, codes)
    assert second == verify.seeded_draw(verify.draw_seed(tiny_game.seed, 1), codes)
    dice.reveal_game(tiny_game, moderator)
    line = draw_line(tiny_game)
    assert line.ok and line.text() == "Жеребьёвка: всё сходится. Внимание: зерно задано вручную — кубики не случайны."  # seed=1204
    entries[1].detail = {**entries[1].detail, "draw": list(reversed(second))}
    entries[1].save()
    assert draw_line(tiny_game).problems[0].startswith("жеребьёвка 2: в записи ")


def test_a_draw_by_hand_is_said_to_be_one(tiny_game, moderator):
    codes = sorted(tiny_game.factions.values_list("code", flat=True))
    turns.enter_draw(tiny_game, moderator, codes)
    dice.reveal_game(tiny_game, moderator)
    assert draw_line(tiny_game).text() == ("Жеребьёвка: всё сходится (жеребьёвок вручную, не по зерну: 1). "
                                           "Внимание: зерно задано вручную — кубики не случайны.")  # seed=1204


def test_the_command_finds_the_game_by_id_or_title_and_refuses_an_unknown_one(tiny_game, moderator, capsys):
    turns.start_game(tiny_game, moderator)
    call_command("verify_dice", tiny_game.title)
    out = capsys.readouterr().out
    assert "Война: зерно ещё не раскрыто; отпечаток " + selectors.game_fingerprint(tiny_game) in out
    assert str(tiny_game.seed) not in out
    with pytest.raises(CommandError):
        call_command("verify_dice", "Нет такой игры")
    dice.reveal_game(tiny_game, moderator)
    call_command("verify_dice", str(tiny_game.pk))
    out = capsys.readouterr().out
    assert "Война: всё сходится (проверено кубиков сервера: 0)" in out and "Жеребьёвка: всё сходится" in out
