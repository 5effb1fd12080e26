"""A real Celery worker (with embedded beat) against the test database and Redis."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def dies_with_the_tests() -> None:
    """Popen's preexec_fn: the child gets SIGTERM when the test run that started it dies (Linux), so a killed
    or crashed run leaves no worker, beat or rungame behind consuming the test Redis."""
    import ctypes
    import signal

    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def test_database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    parsed = urlparse(os.environ["DATABASE_URL"])
    return urlunparse(parsed._replace(path="/" + db["NAME"]))


class Worker:
    def __init__(self, tmp: Path, name: str, beat: bool = True):
        self.log = tmp / f"worker-{name}.log"
        env = dict(os.environ, DJANGO_SETTINGS_MODULE="larp.settings_test", DATABASE_URL=test_database_url(),
                   PYTHONUNBUFFERED="1")
        cmd = [sys.executable, "-m", "celery", "-A", "larp", "worker", "--pool", "solo", "--loglevel", "INFO",
               "--hostname", f"{name}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat"]
        if beat:
            cmd += ["-B", "--schedule", str(tmp / f"beat-{name}")]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=open(self.log, "w"), stderr=subprocess.STDOUT,
                                     preexec_fn=dies_with_the_tests)
        deadline = time.monotonic() + 120  # a loaded machine (parallel tests) can take a while to import Django
        while time.monotonic() < deadline:
            if "ready." in self.log.read_text(errors="replace"):
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"Celery worker did not start:\n{self.log.read_text(errors='replace')[-3000:]}")

    def stop(self, kill: bool = False) -> None:
        if self.proc.poll() is None:
            (self.proc.kill if kill else self.proc.terminate)()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def wait_until(predicate, timeout: float, step: float = 0.05) -> bool:
    """True as soon as `predicate()` is (a worker's effect arrived), polling every `step` s; else its last answer."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


def purge_queue() -> None:
    import redis

    redis.Redis.from_url(settings.CELERY_BROKER_URL).flushdb()
