"""The migrations, checked once here: the rest of the suite builds its databases from the models directly
(`--no-migrations` in pytest.ini: a test process used to spend 2.6 s on SQLite and 3 s on PostgreSQL migrating
its database before its first test). So this module proves what that used to prove in passing: the models and
the migrations agree, and every migration applies to an empty database of the kind this pass runs on."""
import os
import subprocess
import sys
import uuid
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]


def _manage(database_url: str, *args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    """manage.py with the app's own settings: pytest-django's --no-migrations does not reach it."""
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "larp.settings"}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


def test_the_models_and_the_migrations_agree(tmp_path):
    done = _manage(f"sqlite:///{tmp_path / 'check.sqlite3'}", "makemigrations", "--check", "--dry-run")
    assert done.returncode == 0 and "No changes detected" in done.stdout, done.stdout[-2000:] + done.stderr[-2000:]


def test_every_migration_applies_to_an_empty_database(tmp_path):
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        url, drop = f"sqlite:///{tmp_path / 'migrated.sqlite3'}", None
    else:
        import psycopg

        name = f"larp_migrations_{uuid.uuid4().hex[:10]}"
        server = dict(host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432, user=db["USER"],
                      password=db["PASSWORD"])
        with psycopg.connect(dbname="postgres", autocommit=True, **server) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        url = f"postgres://{db['USER']}:{db['PASSWORD']}@{server['host']}:{server['port']}/{name}"

        def drop():
            with psycopg.connect(dbname="postgres", autocommit=True, **server) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    try:
        done = _manage(url, "migrate", "--noinput")
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        plan = _manage(url, "showmigrations", "--plan").stdout
        assert "[ ]" not in plan and plan.count("[X]") >= 48, plan[-2000:]
    finally:
        if drop is not None:
            drop()
