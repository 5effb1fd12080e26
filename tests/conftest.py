"""Shared fixtures: games from the shipped scenarios and one user per role.

Every view is tested for the moderator, the faction's player, another
faction's player and a stranger (healthchecks' BaseTestCase, as fixtures).
"""
import os

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model

from larp.campaign.services.members import add_moderator, create_player
from larp.scenarios.loader import load_scenario
from tests import schedule
from tests.schedule import pytest_addoption, pytest_configure  # noqa: F401  (the order modules start in)


DATABASE_MARKERS = ("postgres", "sqlite")

# The live server's listen backlog as a night's server has it (gunicorn's is 2048), not Django's development
# server's ten: thirty tablets pressing at once on a busy run overflowed ten (the kernel counted the overflows),
# and a press then waited for a second SYN or came back reset, which the tests counted as a lost order.
from django.core.servers.basehttp import WSGIServer  # noqa: E402

WSGIServer.request_queue_size = 128

# The live server hands a request's socket to the app as gunicorn does (environ["gunicorn.socket"]), so that a
# stream sees its page leave (larp.streams.gone) as on a night: otherwise a tablet's clock stream went on reading
# the database in a server thread until its next heartbeat failed, up to 15 s into the next tests, and past the
# run's end (where, on PostgreSQL, it read a database without the tables and logged to a closed stderr).
from django.test.testcases import QuietWSGIRequestHandler  # noqa: E402

_environ_of = QuietWSGIRequestHandler.get_environ


def _environ_with_socket(handler):
    environ = _environ_of(handler)
    environ["gunicorn.socket"] = handler.connection
    return environ


QuietWSGIRequestHandler.get_environ = _environ_with_socket


def _database_vendor() -> str:
    return "sqlite" if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3") else "postgresql"


def pytest_report_header(config):
    vendor = _database_vendor()
    other = {"sqlite": "PostgreSQL", "postgresql": "SQLite"}[vendor]
    marker = {"sqlite": "postgres", "postgresql": "sqlite"}[vendor]
    return [f"database: {vendor}; Redis for tests and workers: {settings.TEST_REDIS_URL}",
            f"tests marked `{marker}` are {other}-only: deselected here, they run in the {other} pass"]


def pytest_collection_modifyitems(config, items):
    """Two rules of the suite, enforced where tests are collected, and the order modules start in:

    - a test that drives Chromium carries the `browser` marker (so `-m "not browser"` really leaves Chromium out);
    - a test marked `postgres("why")` runs only on PostgreSQL, one marked `sqlite("why")` only on SQLite: on the
      other database it is deselected, and said so in the summary, never skipped in silence (`.ci/run` runs
      `make test` on both).
    """
    unmarked = [i.nodeid for i in items if "browser" in getattr(i, "fixturenames", ()) and not i.get_closest_marker("browser")]
    if unmarked:
        raise pytest.UsageError("tests driving Chromium without the `browser` marker: " + ", ".join(unmarked))
    for item in items:
        for vendor in DATABASE_MARKERS:
            marker = item.get_closest_marker(vendor)
            if marker is not None and not (marker.args and str(marker.args[0]).strip()):
                raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.{vendor} needs its reason")
    other = {"sqlite": "postgres", "postgresql": "sqlite"}[_database_vendor()]
    elsewhere = [i for i in items if i.get_closest_marker(other)]
    if elsewhere:
        config.hook.pytest_deselected(items=elsewhere)
        items[:] = [i for i in items if not i.get_closest_marker(other)]
        config._larp_elsewhere = (other, [(i.nodeid, i.get_closest_marker(other).args[0]) for i in elsewhere])
    schedule.order(items, schedule.recorded())  # the longest modules start first (tests/schedule.py)


def pytest_terminal_summary(terminalreporter, config):
    vendor, left = getattr(config, "_larp_elsewhere", (None, None))
    if left:
        name = {"postgres": "PostgreSQL", "sqlite": "SQLite"}[vendor]
        terminalreporter.write_line(f"{len(left)} {name}-only test(s) deselected here (they run in the {name} pass):")
        for nodeid, why in left:
            terminalreporter.write_line(f"  {nodeid}: {why}")


@pytest.fixture(scope="session")
def playwright_driver():
    """The test process's Playwright driver (its node process), started by the first browser test it runs and
    stopped when the process ends: starting it for each module cost about half a CPU-second and 0.4 s, some forty
    times a run. Each module still launches its own Chromium (tests/browser/conftest.py: `browser`) and closes it
    at its end. Playwright's sync API keeps an event loop in this thread from then on; the tests' ORM calls are still plain
    sync code, hence Django's async allowance for the rest of the process."""
    from playwright.sync_api import sync_playwright

    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    driver = sync_playwright().start()
    try:
        yield driver
    finally:
        driver.stop()
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


@pytest.fixture
def tiny_game(db):
    return load_scenario("tiny", title="Tiny test game", seed=1204)


@pytest.fixture
def latin_game(db):
    return load_scenario("latin-east-1204", title="Latin East test game", seed=1204)


@pytest.fixture
def moderator(tiny_game):
    user, _ = add_moderator(tiny_game, "mod", password="mod-password-1")
    return user


@pytest.fixture
def player(tiny_game):
    user, _ = create_player(tiny_game.factions.get(code="north"), "north-player", password="north-password-1")
    return user


@pytest.fixture
def other_player(tiny_game):
    user, _ = create_player(tiny_game.factions.get(code="south"), "south-player", password="south-password-1")
    return user


@pytest.fixture
def stranger(db):
    return get_user_model().objects.create_user("stranger", password="stranger-password-1")


@pytest.fixture
def client_for(client):
    """client_for(user) -> a test client signed in as that user (None: anonymous)."""
    from django.test import Client

    def make(user):
        c = Client()
        if user is not None:
            c.force_login(user)
        return c

    return make


@pytest.fixture
def worker_factory(transactional_db, tmp_path):
    """worker_factory(name) starts a real Celery worker (with beat); all are stopped after the test."""
    from tests.workers import Worker, purge_queue

    purge_queue()
    started = []

    def start(name="w1", beat=True):
        w = Worker(tmp_path, name, beat=beat)
        started.append(w)
        return w

    yield start
    for w in started:
        w.stop()
    purge_queue()


@pytest.fixture
def fast_game(transactional_db):
    """The tiny scenario with a short Strategy phase (set per test through rules)."""
    def make(strategy_seconds=3, title="Fast game"):
        game = load_scenario("tiny", title=title, seed=7)
        game.rules = {**game.rules, "phase_seconds": {**game.rules.get("phase_seconds", {}),
                                                      "strategy": strategy_seconds}}
        game.save(update_fields=["rules"])
        return game

    return make


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Ids repeat between tests (rolled-back transactions): never let a cached clock leak across."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _default_language():
    """A request leaves its language active in the thread (LocaleMiddleware): each test starts in the default."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


class FrozenClock:
    """The server's clock held still, moved on only by `advance(seconds)` (django.utils.timezone.now)."""

    def __init__(self, monkeypatch):
        from django.utils import timezone

        self.now = timezone.now()
        monkeypatch.setattr(timezone, "now", lambda: self.now)

    def advance(self, seconds):
        from datetime import timedelta

        self.now += timedelta(seconds=seconds)


@pytest.fixture
def frozen(monkeypatch):
    return FrozenClock(monkeypatch)
