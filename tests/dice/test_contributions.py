"""Seeds no one picks alone (docs/dice.md): the server's 256-bit secret mixed with the players' contributions,
closed before the first roll; a seed set by hand marked everywhere; the check catches a contribution changed
after the close; the page lists every die; the documented ten lines of Python recompute the dice."""
import contextlib
import io
import re
from hashlib import sha256
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from larp.campaign.models import Game
from larp.campaign.services.members import add_moderator, create_player
from larp.dice import services as dice
from larp.dice.models import Contribution, Roll, Stream
from larp.rules.dice import die, mixed_seed
from larp.scenarios.loader import load_scenario
from larp.tables import services as tables
from larp.turns import services as turns

from tests.battles.test_console_flow import played  # noqa: F401  (the fixture)

from .test_pages import game_at_play, papers  # noqa: F401  (the fixture)

CHOSEN = "зерно задано вручную — кубики не случайны"
NORTH, SOUTH = "1f" * 32, "c4" * 32


@pytest.fixture
def fresh(db, client_for):
    """A game made without --seed, its moderator and the north and south players, signed in."""
    game = load_scenario("tiny", title="Игра без заданного зерна")
    mod, _ = add_moderator(game, "fresh-mod")
    north, _ = create_player(game.factions.get(code="north"), "fresh-north")
    south, _ = create_player(game.factions.get(code="south"), "fresh-south")
    return game, mod, client_for(north), client_for(south), client_for(mod)


def war(game):
    return Stream.objects.get(game=game, label="game")


def turn_dice(game, count=12):
    return [r.value for r in dice.roll(dice.turn_stream(game, 1), count, purpose="проба")]


def test_a_new_game_commits_a_256_bit_secret_and_waits_for_the_players(fresh):
    game, *_ = fresh
    stream = war(game)
    assert game.seed is None and stream.mixed and not stream.chosen and not stream.closed and stream.seed is None
    assert 200 < stream.secret.bit_length() <= 256  # not a small number anyone can count up to
    assert stream.fingerprint == sha256(str(stream.secret).encode()).hexdigest()


def test_the_tablets_contribute_and_everyone_sees_it_until_the_start_closes_the_set(fresh):
    game, mod_user, north, south, mod = fresh
    url = reverse("dice:contribute", args=[game.pk])
    status = north.get(url, {"stream": "game"}).json()
    assert status["open"] and status["may"] and status["mine"] == 0 and status["contributions"] == []
    assert north.post(url, {"stream": "game", "value": NORTH, "auto": "1"}).json()["mine"] == 1
    assert north.post(url, {"stream": "game", "value": "zz"}).status_code == 400
    assert mod.post(url, {"stream": "game", "value": NORTH}).status_code == 403  # a moderator is no seat
    assert mod.get(url, {"stream": "game"}).json()["may"] is False
    published = south.get(url, {"stream": "game"}).json()["contributions"]
    assert [(c["name"], c["value"], c["auto"]) for c in published] == [("Север", NORTH, True)]
    assert "Север" in south.get(reverse("dice:verify", args=[game.pk])).content.decode()
    turns.start_game(game, mod_user)
    stream = war(game)
    assert stream.closed and stream.seed == mixed_seed(stream.secret, [("north", NORTH)])
    refused = south.post(url, {"stream": "game", "value": SOUTH})
    assert refused.status_code == 409 and "закрыт" in refused.json()["error"]
    assert Contribution.objects.filter(stream=stream).count() == 1
    page = south.get(reverse("dice:verify", args=[game.pk])).content.decode()
    assert "в зерно вошло вкладов: 1" in page and CHOSEN not in page


def test_contributions_change_the_dice_of_the_same_secret(fresh, db):
    game, mod, *_ = fresh
    twin = load_scenario("tiny", title="Близнец")
    secret = war(game).secret
    Stream.objects.filter(pk=war(twin).pk).update(secret=secret, fingerprint=war(game).fingerprint)
    dice.contribute(war(game), "north", "Север", NORTH)
    dice.contribute(war(game), "south", "Юг", SOUTH)
    twin_mod, _ = add_moderator(twin, "twin-mod")
    turns.start_game(game, mod)
    turns.start_game(twin, twin_mod)
    assert war(game).seed == mixed_seed(secret, [("south", SOUTH), ("north", NORTH)])  # the order does not matter
    assert war(twin).seed == mixed_seed(secret, []) != war(game).seed
    assert turn_dice(game) != turn_dice(twin)


def test_the_documented_ten_lines_of_python_recompute_the_dice(fresh):
    game, mod, *_ = fresh
    dice.contribute(war(game), "north", "Север", NORTH)
    turns.start_game(game, mod)
    rolled = turn_dice(game, 10)
    stream = war(game)
    code = re.search(r"```python\n(.*?)```", (Path(__file__).parents[2] / "docs" / "dice.md").read_text(), re.S)[1]
    assert len(code.strip().splitlines()) <= 11
    code = (code.replace("secret = 123456789", f"secret = {stream.secret}")
            .replace('[("byzantium", "9f…"), ("venice", "04…")]', f'[("north", "{NORTH}")]')
            .replace('== "…"', f'== "{stream.fingerprint}"'))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {})  # noqa: S102 - the documentation's own lines
    assert out.getvalue().strip() == str(rolled)


@pytest.fixture
def closed_and_revealed(fresh):
    game, mod, *_ = fresh
    dice.contribute(war(game), "north", "Север", NORTH)
    dice.contribute(war(game), "south", "Юг", SOUTH)
    turns.start_game(game, mod)
    turn_dice(game)
    dice.reveal_game(game, mod)
    return game, mod


def test_verify_dice_agrees_with_untouched_contributions(closed_and_revealed, capsys):
    game, _mod = closed_and_revealed
    call_command("verify_dice", str(game.pk))
    out = capsys.readouterr().out
    assert "Война: всё сходится" in out and "случайность добавили: Север, Юг" in out and CHOSEN not in out


def test_a_contribution_changed_after_the_close_is_caught(closed_and_revealed, capsys):
    game, _mod = closed_and_revealed
    Contribution.objects.filter(stream=war(game), who="south").update(value="00" * 32)
    with pytest.raises(CommandError):
        call_command("verify_dice", str(game.pk))
    out = capsys.readouterr().out
    assert "вклады игроков не те, что были опубликованы при закрытии приёма" in out
    assert "пересчёт даёт" in out  # and the dice no longer recompute


def test_a_contribution_slipped_in_after_the_close_is_caught(closed_and_revealed, capsys):
    game, _mod = closed_and_revealed
    Contribution.objects.create(stream=war(game), who="east", name="Восток", value="ee" * 32)
    with pytest.raises(CommandError):
        call_command("verify_dice", str(game.pk))
    assert "Восток: вклад записан после закрытия приёма" in capsys.readouterr().out


def test_a_table_closes_its_contributions_at_its_first_roll(fresh):
    game, mod, north, south, _m = fresh
    table = tables.create_table(game, "orda", "Бой у моста", [("a", "Север", game.factions.get(code="north")),
                                                              ("b", "Юг", game.factions.get(code="south"))], mod)
    url = reverse("dice:contribute", args=[game.pk])
    label = table.dice.label
    assert north.post(url, {"stream": label, "value": NORTH}).status_code == 200
    assert Contribution.objects.get(stream=table.dice).who == "a"
    with tables.locked(table.pk) as t:
        tables.take_dice(t, 1, count=3, purpose="схватка", user=mod)
    stream = Stream.objects.get(pk=table.dice_id)
    assert stream.closed and stream.seed == mixed_seed(stream.secret, [("a", NORTH)])
    assert [r.value for r in Roll.objects.filter(stream=stream)] == [die(stream.seed, k) for k in range(3)]
    assert south.post(url, {"stream": label, "value": SOUTH}).status_code == 409


def test_a_seed_set_by_hand_is_marked_everywhere(db, client_for, capsys):
    call_command("load_scenario", "tiny", "--game", "Показ", "--seed", "28")
    game = Game.objects.get(title="Показ")
    stream = war(game)
    assert game.seed == 28 and stream.chosen and stream.seed == 28 and stream.closed
    with pytest.raises(Exception):
        dice.contribute(stream, "north", "Север", NORTH)
    mod, _ = add_moderator(game, "show-mod")
    c = client_for(mod)
    assert CHOSEN in c.get(reverse("battles:console", args=[game.pk])).content.decode()
    assert CHOSEN in c.get(reverse("dice:verify", args=[game.pk])).content.decode()
    call_command("verify_dice", str(game.pk))
    assert CHOSEN in capsys.readouterr().out


def test_a_chosen_games_protocols_say_so(game_at_play):  # noqa: F811
    game, _mod, _table, _player = game_at_play  # load_scenario(..., seed=SECRET)
    protocols, results, *_others = papers(game)
    assert CHOSEN in protocols and CHOSEN in results
    Stream.objects.filter(game=game, label="game").update(chosen=False)  # as a game made without --seed
    protocols, results, *_others = papers(game)
    assert CHOSEN not in protocols and CHOSEN not in results


def test_the_page_lists_every_die(game_at_play, client_for):  # noqa: F811
    game, mod, table, player = game_at_play
    body = client_for(mod).get(reverse("dice:verify", args=[game.pk])).content.decode()
    assert "Игра не началась." not in body and "Ход 1" in body  # the console's menu knows the phase
    rows = re.findall(r'<tr class="dice-(used|discarded)"', body)
    everything = Roll.objects.filter(stream__game=game)
    assert len(rows) == everything.count() > 10
    assert rows.count("discarded") == everything.filter(status=Roll.DISCARDED).count() > 0
    assert "переброшено: кубик упал со стола" in body and "не тот отряд" in body
    first = re.search(r'<tr class="dice-used" data-counter="0"[^>]*>\s*<td>[^<]*</td>\s*<td>(\d+)</td>', body)
    assert first and first[1] == "1"  # numbered from 1 for people
    # The table's dice are listed to its seat (Epirus) too; after the reveal the page carries all it needs to
    # recompute them in the browser.
    c = client_for(mod)
    c.post(reverse("dice:reveal", args=[game.pk]), {"stream": "game"})
    c.post(reverse("dice:reveal", args=[game.pk]), {"stream": f"table-{table.pk}"})
    seen = client_for(player).get(reverse("dice:verify", args=[game.pk])).content.decode()
    assert seen.count("data-dice-recompute") == 2 and f'data-dice-stream="table-{table.pk}"' in seen


def test_the_dice_page_and_the_widget_speak_english_too(fresh):
    game, _mod, north, *_ = fresh
    north.cookies["django_language"] = "en"
    page = north.get(reverse("dice:verify", args=[game.pk])).content.decode()
    assert "The players' randomness" in page and "The contributions are open until the game starts." in page
    tablet = north.get(reverse("tablet:faction", args=[game.pk, "north"])).content.decode()
    assert "Add your own randomness" in tablet and 'data-stream="game"' in tablet
    north.cookies["django_language"] = "ru"
    assert "Добавить свою случайность" in north.get(reverse("tablet:faction", args=[game.pk, "north"])).content.decode()
