"""A whole game to a file and back: a game stopped mid-turn, with a table half played, continues where it stopped.

The original is deleted before the import (another laptop's empty database is the same case: new keys, the
accounts created from the file), and once more restored beside another game to show the keys are remapped.
"""
import io
import json

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from larp.campaign.models import Game
from larp.dice import selectors as dice_selectors
from larp.dice import services as dice_services
from larp.gamefile import graph, services
from larp.orders.services import file_order
from larp.redplains import services as redplains
from larp.redplains import situation as sit
from larp.scenarios.loader import load_scenario
from larp.tables.models import Step, Table
from larp.tablet import services as tablet
from larp.tablet import tokens
from larp.turns import services as turns
from larp.turns.models import Phase

ARMIES = {"north": [{"type": "cavalry", "figures": 16}, {"type": "cavalry", "figures": 16}],
          "south": [{"type": "ashigaru_spears", "figures": 4}, {"type": "ashigaru_spears", "figures": 4}]}
PLACES = {"north": {"n1": "A11", "n2": "B11"}, "south": {"s1": "C11", "s2": "D11"}}


def reachable_from_game() -> set[str]:
    """Every model with a chain of foreign keys to campaign.Game, found here independently of graph.py."""
    found = {"campaign.game"}
    grew = True
    while grew:
        grew = False
        for model in apps.get_models():
            label = model._meta.label_lower
            if label not in found and any(
                    f.is_relation and f.concrete and f.related_model._meta.label_lower in found
                    for f in model._meta.get_fields() if getattr(f, "related_model", None)):
                found.add(label)
                grew = True
    return found


def delete(game):
    """A game with tables: the tables first (a table's dice stream is protected while the table exists)."""
    Table.objects.filter(game=game).delete()
    Game.objects.filter(pk=game.pk).delete()


def counts(game) -> dict[str, int]:
    return {gm.label: graph.rows(gm, game).count() for gm in graph.game_models()}


@pytest.fixture
def mid_turn(tiny_game, moderator, player, other_player, frozen):
    """Turn 1's Strategy running (an order filed), a Red Plains table deployed and its first turn rolled,
    a join code printed."""
    game = tiny_game
    turns.start_game(game, moderator)
    file_order(player, game, "north-1", {"type": "march", "path": ["northfield"]})
    table = redplains.create(game, moderator, "Битва на Красной равнине",
                             [("north", "Клан Журавля", game.factions.get(code="north")),
                              ("south", "Клан Скорпиона", game.factions.get(code="south"))],
                             sit.make_setup(ARMIES, messengers={"north": 1, "south": 0}), seed=4242)
    for side in sit.SIDES:
        redplains.deploy(table.pk, moderator, side, PLACES[side])
        redplains.confirm(table.pk, moderator, side)
    redplains.stake(table.pk, player, "north", "low")
    redplains.roll(table.pk, player, "north")
    code = tablet.issue_code(moderator, game, player)
    return game, table, code


def test_every_model_reachable_from_a_game_is_carried():
    assert reachable_from_game() == {gm.label for gm in graph.game_models()}


def test_a_game_stopped_mid_turn_continues_after_export_delete_and_import(mid_turn, moderator, player,
                                                                          other_player, tmp_path, frozen):
    game, table, code = mid_turn
    before = counts(game)
    phase = game.turns.get(number=1).phases.get(kind=Phase.STRATEGY)
    deadline, steps = phase.deadline, list(Step.objects.filter(table=table).values_list("seq", "kind", "payload"))
    path = tmp_path / "game.json.gz"
    call_command("export_game", game.title, "-o", str(path), stdout=io.StringIO())
    link = tablet.link(code)
    title = game.title
    delete(game)
    get_user_model().objects.filter(username__in=["north-player", "south-player"]).delete()

    out = io.StringIO()
    call_command("import_game", str(path), stdout=out)
    restored = Game.objects.get(title=title)
    assert counts(restored) == {**before, "campaign.auditentry": before["campaign.auditentry"] + 1}  # + the import
    assert restored.audit_entries.filter(action="game_imported").exists()
    for label in ("dice.roll", "tables.step", "orders.order", "tablet.jointoken", "turns.phase", "campaign.membership"):
        assert before[label] > 0, label   # the test's game has what it claims to carry
    # the accounts came back with their passwords; the same SECRET_KEY: the printed code still signs in
    assert get_user_model().objects.get(username="north-player").check_password("north-password-1")
    assert tablet.redeem(link).game_id == restored.pk
    # the clock: the same deadline, and it closes the Strategy phase when it passes
    phase = restored.turns.get(number=1).phases.get(kind=Phase.STRATEGY)
    assert phase.deadline == deadline and phase.state == Phase.RUNNING
    assert turns.turn_settings(restored).current_phase_id == phase.pk
    frozen.advance(3600)
    assert turns.close_due(restored.pk) == 1
    # the table: the same log under its new key; the dice stream's label follows the table's new key
    new_table = Table.objects.get(game=restored)
    assert list(Step.objects.filter(table=new_table).values_list("seq", "kind", "payload")) == steps
    assert new_table.dice.label == f"table-{new_table.pk}"
    # the next act at the table
    redplains.roll(new_table.pk, moderator, "south", hand=[3, 4])
    # and the dice verify, the table's once its seed is revealed
    dice_services.reveal(new_table.dice, moderator)
    dice_services.reveal_game(restored, moderator)
    lines = dice_selectors.check(restored)
    assert lines and all(line.revealed and line.ok for line in lines), [line.text() for line in lines]
    call_command("verify_dice", str(restored.pk), stdout=io.StringIO())


def test_import_beside_other_games_remaps_keys_and_reissues_codes_under_another_key(mid_turn, tmp_path, settings):
    game, table, code = mid_turn
    load_scenario("tiny", title="Another game", seed=5)     # other rows: the file's keys are taken here
    data = json.loads(services.dumps(services.export_game(game)))
    with pytest.raises(services.GameFileError, match="уже есть|already exists"):
        services.restore(data)
    with pytest.raises(services.GameFileError, match="одной игре|one game only"):
        services.restore(json.loads(services.dumps(services.export_game(game))), title="Copy")
    settings.SECRET_KEY = "another-laptop-" + "y" * 40
    delete(game)
    restored = services.restore(data, title="Copy")
    assert restored.game.pk != game.pk and restored.codes_reissued == 1
    assert any("void" in n or "недействительн" in n for n in restored.notes)
    new_code = restored.game.join_tokens.get(revoked_at__isnull=True)
    assert new_code.key != code.key
    assert tokens.unsign(tablet.link(new_code)) == new_code.key


@pytest.mark.parametrize("raw, words", [
    (b"\x89PNG\r\n\x1a\n\x00\x00", "JSON"),
    (b'{"format": "something-else"}', "larp-game"),
    (b'{"format": "larp-game", "version": 99}', "99"),
])
def test_a_file_that_is_not_a_game_file_is_refused_in_one_line(tmp_path, db, raw, words):
    path = tmp_path / "bad.json"
    path.write_bytes(raw)
    with pytest.raises(CommandError, match=words):
        call_command("import_game", str(path), stdout=io.StringIO())


def test_the_texts_that_name_a_key_follow_the_new_keys(tiny_game, moderator, player):
    """An Orda table names its data set, a spy report its army: both by primary key, both rewritten."""
    from django.utils import translation

    from larp.orda import services as orda
    from larp.orda.models import DataSet
    from tests.orda_table.data import complete_data

    game = tiny_game
    turns.start_game(game, moderator)
    load_scenario("tiny", title="Taking the low keys", seed=9)    # the restored rows get other keys
    data = orda.create_dataset(game, "Тестовый набор", moderator, complete_data())
    with translation.override("ru"):
        orda.create(game, moderator, title="Бой у брода", data=data, mode="border", order=["rus", "north_mongolia"],
                    factions={"rus": game.factions.get(code="north"), "north_mongolia": game.factions.get(code="south")})
    army = game.armies.get(faction__code="north", number=1)
    tablet.grant_spy_report(moderator, game, game.factions.get(code="south"), f"army:{army.pk}")
    raw = services.dumps(services.export_game(game))
    delete(game)
    get_user_model().objects.filter(username="north-player").delete()

    restored = services.restore(services.loads(raw)).game
    table = Table.objects.get(game=restored)
    new_set = DataSet.objects.get(game=restored)
    assert new_set.pk != data.pk and table.origin["data_set"] == new_set.pk
    assert table.dice.label == f"table-{table.pk}"
    assert all(ref.startswith(f"table-{table.pk}:") for ref in table.dice.rolls.values_list("ref", flat=True))
    new_army = restored.armies.get(faction__code="north", number=1)
    assert restored.spy_reports.get().stack == f"army:{new_army.pk}" and new_army.pk != army.pk
    assert tablet.resolve_stack(restored, restored.spy_reports.get().stack) == new_army


@pytest.mark.parametrize("damage", [
    lambda d: d["objects"].__setitem__(0, "not a row"),
    lambda d: d["objects"][1]["fields"].__setitem__("at", "yesterday"),
    lambda d: d["objects"][2]["fields"].pop("game"),
    lambda d: d["users"].__setitem__(0, {"pk": 1}),
    lambda d: d["migrations"].__setitem__("campaign", "0001"),
    lambda d: d["objects"].append({"model": "campaign.game", "pk": 77, "fields": {}}),
])
def test_a_damaged_game_file_is_refused_whole(tiny_game, moderator, damage):
    turns.start_game(tiny_game, moderator)
    data = json.loads(services.dumps(services.export_game(tiny_game)))
    data["objects"].sort(key=lambda r: r["model"] != "campaign.game")
    damage(data)
    before = Game.objects.count()
    with pytest.raises(services.GameFileError):
        services.restore(services.loads(services.dumps(data)), title="Damaged")
    assert Game.objects.count() == before
