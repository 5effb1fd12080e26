"""Automatic backups: beat's task writes a game file of every running game and keeps the last BACKUP_KEEP;
SQLite runs in WAL mode."""
import pytest
from django.db import connection

from larp.gamefile import backups, services, tasks
from larp.scenarios.loader import load_scenario
from larp.turns import services as turns


@pytest.fixture
def backup_dir(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_KEEP = 3
    return settings.BACKUP_DIR


def test_the_task_backs_up_running_games_only_and_keeps_the_last_ones(tiny_game, moderator, backup_dir, frozen):
    idle = load_scenario("tiny", title="Not started", seed=3)
    assert tasks.back_up_running_games() == 0
    turns.start_game(tiny_game, moderator)
    for _ in range(5):
        frozen.advance(300)
        assert tasks.back_up_running_games() == 1
    kept = backups.backups(tiny_game.pk)
    assert len(kept) == 3 and sorted(p.name for p in backup_dir.iterdir()) == sorted(b.name for b in kept)
    assert kept[0].at == frozen.now and kept[0].size > 1000
    assert backups.backups(idle.pk) == []
    data = services.read(kept[0].path)
    assert data["game"]["id"] == tiny_game.pk and data["counts"]["turns.phase"] == 1


def test_a_backup_is_named_only_from_its_own_folder(tiny_game, backup_dir):
    made = backups.back_up(tiny_game.pk)
    assert backups.find(tiny_game.pk, made.name) == made
    assert backups.find(tiny_game.pk, "../" + made.name) is None
    assert backups.find(tiny_game.pk + 1, made.name) is None


def test_sqlite_runs_in_wal_mode(db):
    if connection.vendor != "sqlite":
        pytest.skip("WAL is SQLite's")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"


@pytest.mark.django_db(transaction=True)
def test_an_export_takes_no_write_lock_on_sqlite(monkeypatch):
    """The backup reads a snapshot (a deferred transaction): the game's writers never wait for it.
    (On PostgreSQL the same export runs in a repeatable read transaction.)"""
    seen = []
    real = services.graph.rows

    def spy(gm, game):
        seen.append(getattr(connection, "transaction_mode", "postgresql"))
        return real(gm, game)

    game = load_scenario("tiny", title="Snapshot", seed=2)
    monkeypatch.setattr(services.graph, "rows", spy)
    assert services.export_game(game)["counts"]["campaign.province"] == game.provinces.count()
    if connection.vendor == "sqlite":
        assert set(seen) == {"DEFERRED"} and connection.transaction_mode == "IMMEDIATE"


def test_beat_runs_the_backups_every_n_minutes():
    import larp.settings as base

    entry = base.CELERY_BEAT_SCHEDULE["back-up-running-games"]
    assert entry["task"] == "larp.gamefile.tasks.back_up_running_games"
    assert entry["schedule"] == base.BACKUP_EVERY_MINUTES * 60
