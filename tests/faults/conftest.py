"""Fault fixtures: a Redis server of the test's own (stopped and started at will), helpers to wait.

Never the machine's main Redis: `spare_redis` runs a separate redis-server on
a free port, with no persistence, and stops it after the test.
"""
from __future__ import annotations

import shutil
import socket
import subprocess

import pytest

from tests.workers import dies_with_the_tests, wait_until


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class SpareRedis:
    """A redis-server on 127.0.0.1:<free port> that a test may stop and start again (empty, as after a crash)."""

    def __init__(self, tmp_path):
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.tmp = tmp_path
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [shutil.which("redis-server"), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.tmp)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=dies_with_the_tests)
        if not wait_until(lambda: _answers(self.port), 10):
            raise RuntimeError("the spare redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        assert wait_until(lambda: not _answers(self.port), 5)


@pytest.fixture
def spare_redis(tmp_path):
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed: install Debian's redis-server (scripts/services.sh redis does)",
                    pytrace=False)
    server = SpareRedis(tmp_path)
    server.start()
    yield server
    server.stop()
