"""Presses over real HTTP against pytest-django's live server, the way two moderators or a busy tablet
send them: one signed-in session per caller, CSRF as a browser sends it, many threads at once."""
from __future__ import annotations

import http.cookiejar  # noqa: F401  (urllib's cookie handling is not needed: the cookies are set by hand)
import secrets
import threading
import urllib.error
import urllib.parse
import urllib.request

from django.conf import settings
from django.db import connection
from django.test import Client


class Caller:
    """A signed-in browser: its session cookie and a CSRF cookie with the matching header."""

    def __init__(self, base_url: str, user, language: str = "ru"):
        client = Client()
        client.force_login(user)
        self.base = base_url
        self.csrf = secrets.token_hex(16)
        self.cookie = (f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}; "
                       f"{settings.CSRF_COOKIE_NAME}={self.csrf}; {settings.LANGUAGE_COOKIE_NAME}={language}")

    def post(self, path: str, data: dict, headers: dict | None = None, timeout: float = 60) -> tuple[int, str]:
        body = urllib.parse.urlencode(data, doseq=True).encode()
        request = urllib.request.Request(self.base + path, data=body, method="POST", headers={
            "Cookie": self.cookie, "X-CSRFToken": self.csrf, "Content-Type": "application/x-www-form-urlencoded",
            **(headers or {})})
        return _open(request, timeout)

    def get(self, path: str, headers: dict | None = None, timeout: float = 60) -> tuple[int, str]:
        request = urllib.request.Request(self.base + path, headers={"Cookie": self.cookie, **(headers or {})})
        return _open(request, timeout)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


_opener = urllib.request.build_opener(NoRedirect)


def _open(request, timeout) -> tuple[int, str]:
    try:
        with _opener.open(request, timeout=timeout) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as answer:
        return answer.code, answer.read().decode()


def at_once(calls: list, timeout: float = 120) -> list:
    """Run the calls in threads released together; their results in the same order."""
    results, barrier = [None] * len(calls), threading.Barrier(len(calls))

    def run(i, call):
        barrier.wait()
        try:
            results[i] = call()
        except Exception as exc:  # noqa: BLE001 - reported as the result
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=timeout)
    return results
