"""Settings for the test run: the app's own settings with test-friendly defaults.

Environment variables still win (CI points DATABASE_URL at PostgreSQL).
"""
import os

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
os.environ.setdefault("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL_TEST", os.environ["TEST_REDIS_URL"])
CELERY_BROKER_TRANSPORT_OPTIONS = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "test-celerybeat-schedule")  # noqa: F405
CELERY_BEAT_SCHEDULE = {
    "close-due-phases": {"task": "larp.turns.tasks.close_due_phases", "schedule": 1.0},
}
# A worker process must see the test database, so SQLite's test database is a file.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    # One file per test run: several runs on one machine must not share it.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-db-{os.getpid()}.sqlite3")}  # noqa: F405
