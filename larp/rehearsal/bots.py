"""A seat's HTTP client: cookies, CSRF, redirects, and the forms of the page it last read.

A bot acts as a person with a browser without its script: it reads a page, picks one of the forms the page
offers and sends it with the values the page put in it plus those it chose. Every request is an act of the
rehearsal's log (`Log`), numbered, timed and kept with its status for the checks and the report.
"""
from __future__ import annotations

import http.cookiejar
import gzip
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field

import lxml.html


@dataclass
class Act:
    """One request a seat made: what for (`kind`), where, the answer's status and how long it took."""
    number: int
    seat: str
    kind: str
    method: str
    url: str
    status: int = 0
    seconds: float = 0.0
    sent: dict = field(default_factory=dict)
    note: str = ""
    expect: tuple = ()      # a refusal expected here (a late order's 409): not a defect
    bytes: int = 0          # the answer's body on the wire (gzip when the server sent it so, as to a tablet)


class Log:
    """Every act of the night in the order made (a lock: two seats may press together)."""

    def __init__(self, on_act=None):
        self.acts: list[Act] = []
        self.on_act = on_act  # called with every act once answered (the checks after every act)
        self._lock = threading.Lock()

    def new(self, seat: str, kind: str, method: str, url: str, sent: dict | None = None) -> Act:
        with self._lock:
            act = Act(len(self.acts) + 1, seat, kind, method, url, sent=dict(sent or {}))
            self.acts.append(act)
            return act


class Page:
    """An answer, parsed once with lxml's HTML parser (what a browser would build from it)."""

    def __init__(self, act: Act, url: str, text: str):
        self.act, self.url, self.text = act, url, text
        self.status = act.status
        self._doc = None

    @property
    def doc(self):
        if self._doc is None:
            self._doc = lxml.html.document_fromstring(self.text or "<html></html>", base_url=self.url)
        return self._doc

    def forms(self, action_part: str = "") -> list:
        """The page's forms that post somewhere whose address contains `action_part`."""
        return [f for f in self.doc.forms
                if (f.method or "GET").upper() == "POST" and action_part in (f.get("action") or "")]

    def form(self, action_part: str):
        found = self.forms(action_part)
        return found[0] if found else None

    def xpath(self, path: str) -> list:
        return self.doc.xpath(path)

    def text_of(self, path: str) -> str:
        return " ".join(" ".join(n.itertext()) for n in self.doc.xpath(path))


def form_values(form) -> dict[str, list[str]]:
    """What a browser sends for this form as it stands (hidden fields, checked boxes, selected options)."""
    values: dict[str, list[str]] = {}
    for name, value in form.form_values():
        values.setdefault(name, []).append(value)
    return values


class Seat:
    """One person's browser: a cookie jar, redirects followed, each request logged as an act."""

    def __init__(self, base_url: str, name: str, log: Log, timeout: float = 60.0):
        self.base = base_url.rstrip("/")
        self.name, self.log, self.timeout = name, log, timeout
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        self.last: Page | None = None

    def absolute(self, url: str) -> str:
        return url if url.startswith("http") else self.base + url

    def get(self, url: str, kind: str = "read", htmx: bool = False, expect: tuple = ()) -> Page:
        return self._send(kind, "GET", url, None, htmx, expect)

    def post(self, url: str, data: dict, kind: str, htmx: bool = False, expect: tuple = ()) -> Page:
        return self._send(kind, "POST", url, data, htmx, expect)

    def submit(self, page: Page, form, kind: str, choose: dict | None = None, htmx: bool = False,
               expect: tuple = ()) -> Page:
        """Send `form` of `page` as a browser would, with the values in `choose` set (each a value or a list)."""
        values = form_values(form)
        for name, value in (choose or {}).items():
            values[name] = value if isinstance(value, list) else [str(value)]
        action = urllib.parse.urljoin(page.url, form.get("action") or page.url)
        return self.post(action, values, kind, htmx, expect)

    def _send(self, kind: str, method: str, url: str, data: dict | None, htmx: bool, expect: tuple = ()) -> Page:
        full = self.absolute(url)
        act = self.log.new(self.name, kind, method, full, data)
        act.expect = tuple(expect)
        body = None
        headers = {"Accept-Language": "ru", "User-Agent": f"larp-rehearsal/{self.name}", "Accept-Encoding": "gzip"}
        if data is not None:
            body = urllib.parse.urlencode([(k, v) for k, vs in data.items() for v in (vs if isinstance(vs, list)
                                                                                       else [vs])]).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = full
            token = self.csrf_token()
            if token:
                headers["X-CSRFToken"] = token
        if htmx:
            headers["HX-Request"] = "true"
        request = urllib.request.Request(full, data=body, headers=headers, method=method)
        started = time.monotonic()
        try:
            with self.opener.open(request, timeout=self.timeout) as response:
                act.status, final = response.status, response.geturl()
                text = _body(act, response.read(), response.headers)
        except urllib.error.HTTPError as error:
            act.status, final = error.code, error.geturl() or full
            text = _body(act, error.read(), error.headers)
        except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
            act.status, final, text = 0, full, ""
            act.note = f"no answer: {error}"
        act.seconds = time.monotonic() - started
        page = Page(act, final, text)
        if self.log.on_act is not None:
            self.log.on_act(act)
        if method == "GET" and not htmx:
            self.last = page
        return page

    def csrf_token(self) -> str:
        for cookie in self.cookies:
            if cookie.name == "csrftoken":
                return cookie.value
        return ""


def _body(act: Act, raw: bytes, headers) -> str:
    """The answer's text; its size on the wire noted on the act."""
    act.bytes = len(raw)
    if (headers.get("Content-Encoding") or "").lower() == "gzip":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8", "replace")


def any_options(form, rng) -> dict:
    """One option, chosen by `rng`, of each named list the form offers (a list offering none is left out)."""
    choose = {}
    for select in form.xpath(".//select[@name]"):
        options = select.xpath("./option/@value")
        if options:
            choose[select.get("name")] = rng.choice(options)
    return choose


def together(*calls) -> list:
    """Run the calls at once, each in its own thread (a double click, two seats pressing together); their
    results in the order given."""
    results: list = [None] * len(calls)

    def run(i, call):
        results[i] = call()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results
