"""Run everything a game night needs on one machine: web server, Celery worker and beat.

Uses Redis when it answers; otherwise a broker that needs no server
(kombu's filesystem transport), so it always starts. Ctrl-C stops all.

The three are supervised: whichever stops is started again after a back-off
(1 s, doubling up to 30 s; back to 1 s once it has run for a minute), with a
line in the log; the others go on. The web server in particular keeps serving
while the worker or beat is restarted.
"""
import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from urllib.parse import urlparse

from django.conf import settings

from larp.commands import Command as BaseCommand
from larp.commands import input_error

FIRST_BACKOFF = 1.0  # seconds before the first restart of a child that stopped
MAX_BACKOFF = 30.0
STABLE_AFTER = 60.0  # a child that ran this long before stopping starts again from FIRST_BACKOFF


def redis_reachable(url: str, timeout: float = 0.5) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 6379), timeout=timeout) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def tls_arguments() -> list[str]:
    """gunicorn's TLS flags when the night runs over HTTPS (settings.HTTPS; scripts/make-certificate)."""
    if not settings.HTTPS:
        return []
    for path in (settings.TLS_CERT, settings.TLS_KEY):
        if not os.path.exists(path):
            raise SystemExit(f"HTTPS is on but {path} is missing: run scripts/make-certificate first.")
    return ["--certfile", settings.TLS_CERT, "--keyfile", settings.TLS_KEY]


def default_web_workers() -> int:
    """One web worker a core (at least two: one busy printing a stack of battle sheets leaves the other). Each is a
    process with its own threads; more processes than cores only make them wait for a core and repeat what each
    process keeps for itself (a phase change on sixty tablets cost 16-23 ms of CPU a tablet with three workers on
    two cores, 13-16 ms with two: benchmarks/README.md)."""
    return max(2, os.cpu_count() or 2)


def web_threads() -> int:
    """Threads per web worker: 4 for pages, and CLOCK_STREAM_SLOTS more when the clock is pushed (each open
    stream holds one)."""
    default = 4 + (settings.CLOCK_STREAM_SLOTS if settings.CLOCK_STREAM else 0)
    return int(os.environ.get("WEB_THREADS", default))


def web_command(python: str, host: str, port: int, web_workers: int, extra: list[str] | None = None) -> list[str]:
    """gunicorn's command line; `extra` is appended (e.g. TLS options)."""
    return [python, "-m", "gunicorn", "larp.wsgi:application", "--bind", f"{host}:{port}",
            "--workers", str(web_workers), "--threads", str(web_threads()), "--timeout", "60", "--access-logfile", "-",
            "--logger-class", "larp.gunicorn_log.Logger",  # the access log without the tablets' polls
            # Tablets ask the clock every second: keep their connections open between polls (idle
            # keep-alive connections wait in gthread's poller, not in one of the 4 threads).
            "--keep-alive", "75", *(extra or [])]


def _bounded(low: int, high: int, what: str):
    """An argparse type: an integer from low to high (a string default, e.g. from PORT, is checked too)."""
    def convert(text: str) -> int:
        text = str(text).strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 6) or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"{what} must be a number from {low} to {high}, not {text!r}")
        return int(text)
    convert.__name__ = what
    return convert


def worker_command(python: str) -> list[str]:
    return [python, "-m", "celery", "-A", "larp", "worker", "--loglevel", "INFO", "--concurrency", "2"]


def beat_command(python: str) -> list[str]:
    return [python, "-m", "celery", "-A", "larp", "beat", "--loglevel", "INFO"]


@dataclass
class Child:
    """One supervised process: started again after a back-off whenever it stops."""

    name: str
    command: list[str]
    env: dict
    proc: subprocess.Popen | None = None
    started_at: float = 0.0
    backoff: float = FIRST_BACKOFF
    restart_at: float | None = None
    restarts: int = 0

    def start(self) -> None:
        self.proc = subprocess.Popen(self.command, env=self.env)
        self.started_at, self.restart_at = time.monotonic(), None

    def check(self, now: float, say) -> None:
        """Notice a stop and schedule the restart; restart when its time has come."""
        if self.restart_at is None:
            if self.proc is None or self.proc.poll() is None:
                return
            if now - self.started_at >= STABLE_AFTER:
                self.backoff = FIRST_BACKOFF
            self.restart_at = now + self.backoff
            say(f"{self.name} stopped (exit {self.proc.returncode}); restarting in {self.backoff:g} s.")
            self.backoff = min(self.backoff * 2, MAX_BACKOFF)
        elif now >= self.restart_at:
            self.start()
            self.restarts += 1
            say(f"{self.name} restarted (pid {self.proc.pid}, restart {self.restarts}).")

    def terminate(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()

    def wait(self, timeout: float) -> None:
        if self.proc is None:
            return
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Command(BaseCommand):
    help = "Start the web server, a Celery worker and Celery beat (Redis when reachable, else a serverless broker)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", type=_bounded(1, 65535, "the port"), default=os.environ.get("PORT", "8000"),
                            help="default: PORT or 8000")
        parser.add_argument("--web-workers", type=_bounded(1, 64, "the number of web workers"),
                            default=os.environ.get("WEB_WORKERS", str(default_web_workers())),
                            help="default: WEB_WORKERS or one a core, at least 2")

    @staticmethod
    def check_address(host: str, port: int) -> None:
        """Refuse, in one line, an address the web server could never listen on (else it restarts forever)."""
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError) as exc:
            raise input_error(f"argument --host: {host!r} is not an address of this machine: {exc}") from None
        family, kind, proto, _name, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as exc:
                raise input_error(f"cannot listen on {host}:{port}: {exc.strerror}") from None

    def say(self, line: str) -> None:
        self.stderr.write(f"[rungame {time.strftime('%H:%M:%S')}] {line}")
        self.stderr.flush()

    def handle(self, *args, host, port, web_workers, **options):
        from larp.checks import refuse_dev_key_without_debug

        refuse_dev_key_without_debug()
        self.check_address(host, port)
        env = dict(os.environ)
        if "CELERY_BROKER_URL" not in os.environ:
            if redis_reachable(settings.REDIS_URL):
                env["CELERY_BROKER_URL"] = settings.REDIS_URL
                broker = f"Redis at {settings.REDIS_URL}"
            else:
                env["CELERY_BROKER_URL"] = "filesystem://"
                env.setdefault("CACHE_URL", "locmem")
                broker = f"no Redis at {settings.REDIS_URL}: using the file broker in {settings.VAR_DIR}"
        else:
            broker = env["CELERY_BROKER_URL"]
        python = sys.executable
        children = [
            Child("web", web_command(python, host, port, web_workers, tls_arguments()), env),
            Child("worker", worker_command(python), env),
            Child("beat", beat_command(python), env),
        ]
        for child in children:
            child.start()
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
        scheme = "https" if settings.HTTPS else "http"
        self.stdout.write(self.style.SUCCESS(f"\n  Open {scheme}://{shown}:{port}/  (admin: {scheme}://{shown}:{port}/admin/)"))
        self.stdout.write(f"  Broker: {broker}")
        self.stdout.write(f"  Demo logins: {settings.VAR_DIR / 'demo-logins.txt'}\n  Ctrl-C stops everything.\n")
        self.stdout.flush()
        self.supervise(children)

    def supervise(self, children: list[Child]) -> None:
        stopping = False

        def stop(*_):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        try:
            while not stopping:
                now = time.monotonic()
                for child in children:
                    child.check(now, self.say)
                time.sleep(0.2)
        finally:
            for child in children:
                child.terminate()
            for child in children:
                child.wait(timeout=10)
