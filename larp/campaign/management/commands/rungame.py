"""Run everything a game night needs on one machine: web server, Celery worker and beat.

Uses Redis when it answers; otherwise a broker that needs no server
(kombu's filesystem transport), so it always starts. Ctrl-C stops all.
"""
import os
import signal
import socket
import subprocess
import sys
import time
from urllib.parse import urlparse

from django.conf import settings
from django.core.management.base import BaseCommand


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


class Command(BaseCommand):
    help = "Start the web server, a Celery worker and Celery beat (Redis when reachable, else a serverless broker)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--web-workers", type=int, default=int(os.environ.get("WEB_WORKERS", "3")))

    def handle(self, *args, host, port, web_workers, **options):
        from larp.checks import refuse_dev_key_without_debug

        refuse_dev_key_without_debug()
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
        commands = {
            "web": [python, "-m", "gunicorn", "larp.wsgi:application", "--bind", f"{host}:{port}",
                    "--workers", str(web_workers), "--threads", "4", "--timeout", "60", "--access-logfile", "-",
                    # Tablets ask the clock every second: keep their connections open between polls (idle
                    # keep-alive connections wait in gthread's poller, not in one of the 4 threads).
                    "--keep-alive", "75", *tls_arguments()],
            "worker": [python, "-m", "celery", "-A", "larp", "worker", "--loglevel", "INFO", "--concurrency", "2"],
            "beat": [python, "-m", "celery", "-A", "larp", "beat", "--loglevel", "INFO"],
        }
        procs = {name: subprocess.Popen(cmd, env=env) for name, cmd in commands.items()}
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
        scheme = "https" if settings.HTTPS else "http"
        self.stdout.write(self.style.SUCCESS(f"\n  Open {scheme}://{shown}:{port}/  (admin: {scheme}://{shown}:{port}/admin/)"))
        self.stdout.write(f"  Broker: {broker}")
        self.stdout.write(f"  Demo logins: {settings.VAR_DIR / 'demo-logins.txt'}\n  Ctrl-C stops everything.\n")

        stopping = False

        def stop(*_):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        try:
            while not stopping:
                for name, proc in procs.items():
                    if proc.poll() is not None:
                        self.stderr.write(f"{name} stopped (exit {proc.returncode}); stopping the rest.")
                        stopping = True
                time.sleep(0.5)
        finally:
            for proc in procs.values():
                if proc.poll() is None:
                    proc.terminate()
            for proc in procs.values():
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
