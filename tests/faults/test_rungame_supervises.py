"""`manage.py rungame` as on game night (gunicorn, a Celery worker, beat): the worker is SIGKILLed holding the
deadline task. The web server keeps serving, rungame restarts the worker, and the deadline that passed while
no worker ran is closed within seconds of its return, exactly once."""
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
from django.conf import settings
from django.test import Client

from larp.campaign.services.members import add_moderator
from larp.turns import services
from larp.turns.models import AuditEntry, Phase, Snapshot
from tests.faults.conftest import _free_port
from tests import workers
from tests.workers import ROOT, purge_queue, wait_until

pytestmark = pytest.mark.worker


def _children(pid: int) -> dict[int, str]:
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                if ppid == pid:
                    with open(f"/proc/{entry}/cmdline", "rb") as f:
                        found[int(entry)] = f.read().replace(b"\0", b" ").decode(errors="replace")
            except (OSError, ValueError, IndexError):
                pass
    return found


PAGE_TIMEOUT = 20  # a page's first render on a machine the parallel suite keeps busy (the health polls keep 2 s)


def _get(url: str, cookie: str = "", timeout: float = 2) -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, ""
    except OSError:
        return 0, ""


class Rungame:
    def __init__(self, tmp_path, **extra_env):
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tmp_path / "rungame.log"
        env = dict(os.environ, DJANGO_SETTINGS_MODULE="larp.settings_test", DATABASE_URL=workers.test_database_url(),
                   CELERY_BROKER_URL=settings.CELERY_BROKER_URL, PYTHONUNBUFFERED="1",
                   CELERY_BROKER_URL_TEST=settings.CELERY_BROKER_URL, **extra_env)
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "rungame", "--port", str(self.port), "--web-workers", "1"],
            cwd=ROOT, env=env, stdout=open(self.log, "w"), stderr=subprocess.STDOUT, start_new_session=True,
            preexec_fn=workers.dies_with_the_tests)

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def worker_pid(self) -> int | None:
        for pid, cmdline in _children(self.proc.pid).items():
            if "celery" in cmdline and " worker" in cmdline:
                return pid
        return None

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                pass
        try:  # anything left of this test's own process group (e.g. the killed worker's pool processes)
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.fixture
def rungame(transactional_db, tmp_path):
    purge_queue()
    started = Rungame(tmp_path)
    yield started
    started.stop()
    purge_queue()


def test_worker_sigkilled_under_rungame_is_restarted_and_the_missed_deadline_closes_at_once(fast_game, rungame):
    game = fast_game(2)
    mod, _ = add_moderator(game, "mod")
    moderator = Client()
    moderator.force_login(mod)
    cookie = f"{settings.SESSION_COOKIE_NAME}={moderator.cookies[settings.SESSION_COOKIE_NAME].value}"

    assert wait_until(lambda: _get(rungame.base + "/healthz")[0] == 200, 40), rungame.text()[-3000:]
    assert wait_until(lambda: " ready." in rungame.text(), 40), rungame.text()[-3000:]
    status, page = _get(f"{rungame.base}/g/{game.pk}/console/", cookie, PAGE_TIMEOUT)
    assert status == 200 and "Фоновые задачи не работают" not in page  # the worker's heartbeat is fresh

    phase = services.start_game(game, mod)
    assert wait_until(lambda: "close_phase_at_deadline" in rungame.text(), 5), rungame.text()[-3000:]
    doomed = rungame.worker_pid()
    assert doomed is not None

    # The web server is polled all along: it must never fail.
    failures, polls, polling = [], [], threading.Event()
    polling.set()

    def poll():
        while polling.is_set():
            code = _get(rungame.base + "/healthz")[0]
            polls.append(code)
            if code != 200:
                failures.append(code)
            time.sleep(0.1)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    try:
        os.kill(doomed, signal.SIGKILL)
        killed_at = time.time()
        assert wait_until(lambda: "worker stopped (exit -9); restarting in 1 s." in rungame.text(), 5), \
            rungame.text()[-3000:]
        assert wait_until(lambda: "worker restarted" in rungame.text(), 5), rungame.text()[-3000:]
        restarted_at = time.time()
        assert wait_until(lambda: rungame.text().count(" ready.") >= 2, 20), rungame.text()[-3000:]
        ready_at = time.time()
        assert phase.deadline.timestamp() < ready_at  # the deadline passed while no worker ran
        assert _get(f"{rungame.base}/g/{game.pk}/console/", cookie, PAGE_TIMEOUT)[0] == 200

        assert wait_until(lambda: Phase.objects.get(pk=phase.pk).state == Phase.CLOSED, 15), rungame.text()[-3000:]
        closed = Phase.objects.get(pk=phase.pk)
        time.sleep(2.5)  # beat's next rounds must not close it again
    finally:
        polling.clear()
        poller.join(5)

    assert closed.closed_how == "deadline"  # by the worker, not by a request
    after_return = closed.closed_at.timestamp() - ready_at
    print(f"\nworker down {ready_at - killed_at:.1f} s (restarted after {restarted_at - killed_at:.1f} s); "
          f"deadline closed {after_return:+.2f} s after it was ready "
          f"({(closed.closed_at - closed.deadline).total_seconds():.2f} s late); "
          f"web: {len(polls)} polls, {len(failures)} failed")
    assert after_return < 2, "not closed as soon as the worker came back"
    assert AuditEntry.objects.filter(game=game, action="phase_closed").count() == 1
    assert Snapshot.objects.filter(turn=phase.turn, phase="strategy").count() == 1
    assert polls and not failures, f"the web server failed {len(failures)} of {len(polls)} polls"
    assert rungame.proc.poll() is None and rungame.worker_pid() not in (None, doomed)

    # The access log keeps the pages and leaves out the polls tablets send by the thousand (larp/gunicorn_log.py).
    assert _get(f"{rungame.base}/g/{game.pk}/clock", timeout=PAGE_TIMEOUT)[0] == 200
    assert _get(f"{rungame.base}/g/{game.pk}/console/", cookie, PAGE_TIMEOUT)[0] == 200
    assert wait_until(lambda: f'"GET /g/{game.pk}/console/ HTTP/1.1" 200' in rungame.text(), 5), rungame.text()[-3000:]
    assert '"GET /healthz HTTP/1.1" 200' in rungame.text()
    assert f"GET /g/{game.pk}/clock" not in rungame.text()
