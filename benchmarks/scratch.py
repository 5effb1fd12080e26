"""What a benchmark may use on a shared machine: only what it made itself, in this run.

Several developers' test runs and benchmarks share the machine's Redis and
PostgreSQL, so a benchmark never empties a Redis database and never drops a
database it did not create:

- Redis: the database of TEST_REDIS_URL, as the tests (default
  redis://127.0.0.1:6379/15). Everything the benchmark puts there (cache keys,
  its Celery queue) is named after the run (`Run.name`, unique per process), and
  only those keys are deleted at the end.
- SQL: DATABASE_URL names the server and the credentials. On PostgreSQL the
  benchmark creates a database with a name of its own (`larp_bench_<what>_<pid>_<random>`)
  and drops that one, and only it, at the end. On SQLite (DATABASE_URL unset, for
  the benchmarks that run on it) a new file under var/bench/, removed at the end.

    with Run("order_cost", needs_postgres=True) as run:
        run.database_url, run.redis_url, run.name
"""
from __future__ import annotations

import os
import secrets
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlparse

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TEST_REDIS_URL = "redis://127.0.0.1:6379/15"  # larp/settings_test.py's default
DEFAULT_POSTGRES_URL = "postgres://postgres:postgres@127.0.0.1:5432/postgres"


class NotHere(SystemExit):
    """A benchmark cannot run with this environment (one line, exit 2)."""

    def __init__(self, line: str):
        super().__init__(2)
        self.line = line


def redis_url() -> str:
    return os.environ.get("TEST_REDIS_URL") or DEFAULT_TEST_REDIS_URL


def is_postgres(url: str) -> bool:
    return urlparse(url).scheme in ("postgres", "postgresql", "pgsql")


def _is_local(host: str | None) -> bool:
    return host in (None, "", "127.0.0.1", "localhost", "::1")


class Run:
    """A benchmark run's own Redis keys and SQL database; a context manager that removes them at the end."""

    def __init__(self, what: str, *, needs_postgres: bool = False):
        self.what = what
        self.token = f"{os.getpid()}_{secrets.token_hex(3)}"
        self.name = f"bench-{what.replace('_', '-')}-{self.token.replace('_', '-')}"  # Redis keys, Celery queue
        self.redis_url = redis_url()
        given = os.environ.get("DATABASE_URL", "")
        if needs_postgres and given and not is_postgres(given):
            raise NotHere(f"{what}: needs PostgreSQL, DATABASE_URL is {given.split(':', 1)[0]}: "
                          f"unset it or point it at a PostgreSQL server")
        self.server_url = given if is_postgres(given) else (DEFAULT_POSTGRES_URL if needs_postgres else "")
        self.database_url = ""
        self._made_database = ""
        self._made_file: Path | None = None

    # --- Redis ---------------------------------------------------------------------------------

    def start_redis(self) -> None:
        """Start the machine's Redis when it is local and not running (scripts/services.sh)."""
        if _is_local(urlparse(self.redis_url).hostname):
            subprocess.run([str(ROOT / "scripts" / "services.sh"), "redis"], check=True)

    def forget_redis_keys(self) -> int:
        """Delete this run's keys (its cache prefix and Celery queue), nothing else; returns how many."""
        import redis

        try:
            client = redis.Redis.from_url(self.redis_url, socket_connect_timeout=2)
            # Cache keys start with the name; kombu's queue and binding keys contain it.
            keys = list(client.scan_iter(match=f"*{self.name}*", count=1000))
            return client.delete(*keys) if keys else 0
        except redis.RedisError:
            return 0

    # --- SQL -----------------------------------------------------------------------------------

    def create_database(self) -> str:
        """A new database of this run's own (PostgreSQL, or a SQLite file); returns its URL."""
        if not self.server_url:
            folder = ROOT / "var" / "bench"
            folder.mkdir(parents=True, exist_ok=True)
            self._made_file = folder / f"{self.name}.sqlite3"
            self.database_url = f"sqlite:///{self._made_file}"
            return self.database_url
        server = urlparse(self.server_url)
        if _is_local(server.hostname):
            subprocess.run([str(ROOT / "scripts" / "services.sh"), "postgres", "postgres"], check=True,
                           env={**os.environ, "DATABASE_URL": self.server_url})
        name = f"larp_bench_{self.what}_{self.token}".lower()
        with self._admin() as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        self._made_database = name
        self.database_url = server._replace(path=f"/{name}").geturl()
        return self.database_url

    def _admin(self):
        """A connection to the server's maintenance database (or the one DATABASE_URL names) for CREATE/DROP."""
        import psycopg

        server = urlparse(self.server_url)
        params = dict(host=server.hostname or "127.0.0.1", port=server.port or 5432,
                      user=unquote(server.username or "postgres"), password=unquote(server.password or ""),
                      autocommit=True, connect_timeout=10)
        try:
            return psycopg.connect(dbname="postgres", **params)
        except psycopg.OperationalError:
            return psycopg.connect(dbname=server.path.lstrip("/") or "postgres", **params)

    def drop_database(self) -> None:
        """Drop the database this run created (and nothing else)."""
        if self._made_file is not None:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{self._made_file}{suffix}").unlink(missing_ok=True)
            self._made_file = None
        if self._made_database:
            name, self._made_database = self._made_database, ""
            try:
                from django.db import connections

                connections.close_all()  # this process's own connection to it
            except Exception:  # noqa: BLE001 - Django not set up yet: no connection to close
                pass
            with self._admin() as conn:
                conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
                conn.execute(f'DROP DATABASE IF EXISTS "{name}"')

    def __enter__(self) -> "Run":
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.drop_database()
        finally:
            self.forget_redis_keys()


def run_main(main) -> int:
    """Call a benchmark's main(); a NotHere becomes its one line on stderr and exit 2."""
    import sys

    try:
        return main()
    except NotHere as exc:
        print(exc.line, file=sys.stderr)
        return 2
