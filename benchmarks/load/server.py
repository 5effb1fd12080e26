"""The app under test, started the production way: `manage.py rungame` (gunicorn + Celery worker + beat).

Everything it uses is its own: a PostgreSQL database made for the run, a
Celery queue and cache prefix in the tests' Redis database (benchmarks/scratch.py),
a var/ folder (static files, beat schedule) and a free port on 127.0.0.1.
DEBUG is off and SECRET_KEY is set, as on a game night.
"""
from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def environment(db_url: str, redis_url: str, var_dir: Path, name: str) -> dict:
    """The app's environment: its database, Redis (its own queue and cache prefix, `name`) and var/ folder."""
    var_dir.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_", "CACHE_"))}
    env.update({
        "DJANGO_SETTINGS_MODULE": "larp.settings",
        "DATABASE_URL": db_url,
        "REDIS_URL": redis_url,
        "CELERY_BROKER_URL": redis_url,
        "CELERY_QUEUE": name,
        "CACHE_KEY_PREFIX": name,
        # verify.py counts the hard deadline itself (every "saved" before it, every press after it refused);
        # the grace after the deadline has its own test under load (tests/clock/test_grace.py).
        "ORDER_GRACE_SECONDS": "0", "ORDER_SETTLE_SECONDS": "0",
        "LARP_VAR_DIR": str(var_dir),
        "SECRET_KEY": "load-test-" + secrets.token_urlsafe(40),
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
        # The access log also says how long the server took (%(M)s ms), to tell server time from client time.
        "GUNICORN_CMD_ARGS": "--access-logformat 'ACCESS %(t)s \"%(r)s\" %(s)s %(M)s'",
    })
    return env


class App:
    """`manage.py rungame` in its own process group; stop() ends it (and only it)."""

    def __init__(self, env: dict, port: int, web_workers: int | None, log: Path):
        self.port, self.log = port, log
        self.base = f"http://127.0.0.1:{port}"
        self._log_file = open(log, "w")  # noqa: SIM115 - open for the app's whole life, closed in stop()
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "rungame", "--host", "127.0.0.1", "--port", str(port)]
            + (["--web-workers", str(web_workers)] if web_workers else []),  # else rungame's: one a core, at least 2
            cwd=ROOT, env=env, stdout=self._log_file, stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the app stopped:\n{self.log.read_text(errors='replace')[-3000:]}")
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.2)
        else:
            raise RuntimeError(f"the app did not answer in {timeout} s:\n{self.log.read_text(errors='replace')[-3000:]}")
        # The worker and beat log "ready" / "beat: Starting" a moment after gunicorn answers.
        while time.monotonic() < end and "ready." not in self.log.read_text(errors="replace"):
            time.sleep(0.2)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # rungame terminates gunicorn, the worker and beat
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the group this script started, by its id
                self.proc.wait()
        self._log_file.close()


def server_times(log: Path, since: float = 0.0) -> dict[str, list[float]]:
    """Milliseconds the server spent per request, by endpoint, from the access log (lines after `since`)."""
    import re
    from datetime import datetime

    pattern = re.compile(r'ACCESS \[([^\]]+)\] "(\w+) (\S+) [^"]*" (\d+) (\d+)')
    out: dict[str, list[float]] = {}
    for line in log.read_text(errors="replace").splitlines():
        m = pattern.search(line)
        if not m:
            continue
        at = datetime.strptime(m.group(1), "%d/%b/%Y:%H:%M:%S %z").timestamp()
        if at < since:
            continue
        path = m.group(3)
        kind = ("clock" if path.endswith("/clock") else "order" if path.endswith("/order") else
                "withdraw" if path.endswith("/withdraw") else "orders_list" if path.endswith("/orders") else
                "healthz" if path == "/healthz" else "other")
        out.setdefault(kind, []).append(float(m.group(5)))
    return out


def cpu_snapshot(app_pgid: int) -> tuple[float, float, float]:
    """(machine busy CPU-seconds, this test's CPU-seconds (app group + this process), wall time) from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    busy = (sum(fields) - fields[3] - fields[4]) / tick  # minus idle and iowait
    return busy, processes_cpu(lambda pid, pgid: pgid == app_pgid or pid == os.getpid()), time.monotonic()


def processes_cpu(counted) -> float:
    """CPU-seconds (user + system) of the processes for which counted(pid, process group id) is true, from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parts = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if counted(int(entry), int(parts[2])):
            total += (int(parts[11]) + int(parts[12])) / tick
    return total


def others_cores(before: tuple, after: tuple) -> tuple[float, float]:
    """Cores used on average between two snapshots: (by this test, by everything else on the machine)."""
    wall = after[2] - before[2]
    ours = (after[1] - before[1]) / wall
    return round(ours, 2), round(max(0.0, (after[0] - before[0]) / wall - ours), 2)
