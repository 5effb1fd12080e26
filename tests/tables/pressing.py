"""Pressing a table's act the way people do: a page drawn in a browser (a signed-in session, its CSRF cookie, the
form's one-time key), then the form posted, ten times at once or by two seats together, against the live server.

    browser = Browser(live_server, user)
    form = browser.form(table_url, act_url)           # the fields of the form that posts to act_url, as drawn
    statuses = at_once([(browser, act_url, {**form, "source": "server"})] * 10)
"""
from __future__ import annotations

import html
import re
import threading
import urllib.error
import urllib.parse
import urllib.request

from django.conf import settings
from django.test import Client

FORM = re.compile(r'<form\b[^>]*\baction="(?P<action>[^"]*)"[^>]*>(?P<body>.*?)</form>', re.S)
HIDDEN = re.compile(r'<input type="hidden" name="(?P<name>[^"]+)" value="(?P<value>[^"]*)"')


class Browser:
    """One signed-in browser: its own cookies (the session, the CSRF token)."""

    def __init__(self, live_server, user):
        self.base = live_server.url
        client = Client()
        client.force_login(user)
        self.cookies = {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}
        self.lock = threading.Lock()

    def _open(self, request):
        with self.lock:
            request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        try:
            response = urllib.request.urlopen(request, timeout=60)
        except urllib.error.HTTPError as error:
            response = error
        with response:
            body = response.read().decode()
            with self.lock:
                for header in response.headers.get_all("Set-Cookie") or []:
                    name, _, rest = header.partition("=")
                    self.cookies[name.strip()] = rest.split(";", 1)[0]
            return response.status, body

    def get(self, path: str) -> str:
        status, body = self._open(urllib.request.Request(self.base + path))
        assert status == 200, (status, path)
        return body

    def forms(self, page_path: str, action: str) -> list[dict]:
        """The hidden fields of every form on the page that posts to `action`, as the page drew them."""
        found = []
        for m in FORM.finditer(self.get(page_path)):
            if html.unescape(m.group("action")) == action:
                found.append({h.group("name"): html.unescape(h.group("value")) for h in HIDDEN.finditer(m.group("body"))})
        return found

    def form(self, page_path: str, action: str, **match) -> dict:
        """The one form posting to `action` (whose hidden fields include `match`, e.g. side="north")."""
        forms = [f for f in self.forms(page_path, action) if all(f.get(k) == v for k, v in match.items())]
        assert forms, f"no form posting to {action} with {match} on {page_path}"
        return forms[0]

    def post(self, path: str, data: dict) -> int:
        """The form posted; the status of the answer (after the redirect to the table's page, if any)."""
        body = urllib.parse.urlencode(data, doseq=True).encode()
        return self._open(urllib.request.Request(self.base + path, data=body))[0]


def at_once(presses: list[tuple[Browser, str, dict]]) -> list[int]:
    """Every press posted in its own thread, released together; the final statuses (after redirects)."""
    gate = threading.Barrier(len(presses))
    statuses: list[int] = [0] * len(presses)

    def press(i, browser, path, data):
        gate.wait()
        statuses[i] = browser.post(path, data)

    threads = [threading.Thread(target=press, args=(i, *p)) for i, p in enumerate(presses)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return statuses
