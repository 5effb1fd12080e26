"""Settings for the test run: the app's own settings with test-friendly defaults.

Environment variables still win (CI points DATABASE_URL at PostgreSQL).
"""
import os
from urllib.parse import urlparse

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-" + "x" * 30)
os.environ.setdefault("LARP_PLAIN_STATIC", "1")  # no collectstatic manifest needed
os.environ.setdefault("CACHE_URL", "locmem")
# The hard deadline's tests (and the workers they start) close at the deadline itself; the grace's own
# tests (tests/clock) set ORDER_GRACE_SECONDS and ORDER_SETTLE_SECONDS.
os.environ.setdefault("ORDER_GRACE_SECONDS", "0")
os.environ.setdefault("ORDER_SETTLE_SECONDS", "0")

from larp.settings import *  # noqa: E402,F401,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast sign-ins in tests

# Tests share Redis with a running game, so they use their own Redis database
# and cache prefix; a real Celery worker started by the tests reads the same.
# Under pytest-xdist each test process (gw0, gw1, ...) takes its own database
# index, counting down from TEST_REDIS_URL's (default 15), and its own queue,
# so parallel workers never see each other's messages. A Celery worker started
# by a test inherits both variables and so lands on the same database.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
_worker_index = int(XDIST_WORKER[2:]) if XDIST_WORKER[2:].isdigit() else 0
_base = urlparse(os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15"))
_db = int(_base.path.lstrip("/") or 0) - _worker_index
if _db < 0:
    raise RuntimeError(f"TEST_REDIS_URL's database index leaves no Redis database for xdist worker {XDIST_WORKER}: "
                       "run fewer workers (-n) or start from a higher index")
TEST_REDIS_URL = _base._replace(path=f"/{_db}").geturl()
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL_TEST", TEST_REDIS_URL)
CELERY_TASK_DEFAULT_QUEUE = f"larp-tests-{XDIST_WORKER or 'main'}"
CELERY_BROKER_TRANSPORT_OPTIONS = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / f"test-celerybeat-schedule-{XDIST_WORKER or 'main'}")  # noqa: F405
CELERY_BEAT_SCHEDULE = {
    "close-due-phases": {"task": "larp.turns.tasks.close_due_phases", "schedule": 1.0},
}
# A worker process must see the test database, so SQLite's test database is a file.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    # One file per test run: several runs on one machine must not share it.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-db-{os.getpid()}.sqlite3")}  # noqa: F405
    # A test's commits need no disk flush: nothing must survive a crash of the machine running the suite.
    DATABASES["default"]["OPTIONS"] = {**DATABASES["default"].get("OPTIONS", {}),  # noqa: F405
                                       "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF;"}

# Sessions read through the cache (larp/sessions.py), as on a night with Redis: the live server and the tests
# are one process, so its locmem cache is the one every request and test reads; a sign-out or a revoked code
# deletes the cached copy with the row. (Without Redis, `larp.settings` reads sessions from the database only.)
SESSION_ENGINE = "larp.sessions"

# Table pages poll their version in the tests (a table's stream is tested where a test turns it on: TABLE_STREAM).
# The test server cannot see a page leave, so a table's stream outlived its test by up to CLOCK_STREAM_SECONDS,
# reading the table each tick, and on PostgreSQL such a read deadlocked with the next test's flush.
TABLE_STREAM = False

# Boards are not drawn by a thread after a phase change in the tests (larp.tablet.warm): a test's transaction is
# never committed, and a thread's own connection would read the database without it. tests/tablet/test_warm.py
# draws them where it asks, and runs `rungame` with them on.
BOARDS_DRAWN_AT_CHANGE = env_flag("BOARDS_DRAWN_AT_CHANGE", False)  # noqa: F405 - on for a server a test starts
