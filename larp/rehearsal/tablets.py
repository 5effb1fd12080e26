"""A player's tablet bot: signs in by its join code, files orders through the faction page's order forms.

It chooses only among what a form offers: an order type of the `types` chips, then at each depth one option of
the step group whose type and prefix (the steps chosen before) match, and the carrying fleet when the form
asks which. A path is sent once the last option chosen is marked complete.
"""
from __future__ import annotations

import json
import random
import secrets
from dataclasses import dataclass, field

from larp.rehearsal.bots import Page, Seat, form_values


@dataclass
class Filing:
    """An order a tablet sent and the server acknowledged (or refused)."""
    unit: str
    picks: dict
    key: str
    act: int
    status: int
    saved: bool
    refusal: str = ""
    together: tuple = ()    # the keys of filings for the same unit sent at the same moment (any may be kept)
    withdrawn: tuple = ()   # the fleets whose own order the answer says is withdrawn (an army boarded them, R5)


@dataclass
class TabletBot:
    seat: Seat
    faction: str
    join_path: str
    game_id: int
    rng: random.Random
    filings: list = field(default_factory=list)
    answers: list = field(default_factory=list)   # the pages answered to its filings, last one last
    clock_url: str = ""

    @property
    def page_url(self) -> str:
        return f"/g/{self.game_id}/f/{self.faction}/"

    def join(self) -> Page:
        page = self.seat.get(self.join_path, "tablet join")
        found = page.xpath("//*[@data-clock-url]")
        if found:
            self.clock_url = found[0].get("data-clock-url")
        return page

    def board(self) -> Page:
        return self.seat.get(self.page_url, "tablet page")

    def clock(self) -> dict:
        page = self.seat.get(self.clock_url, "tablet clock")
        try:
            return json.loads(page.text) if page.status == 200 else {}
        except ValueError:
            return {}

    @staticmethod
    def open_forms(page: Page) -> list[tuple[str, object]]:
        """(unit, form) of every order form the board offers open now."""
        found = []
        for article in page.xpath("//article[@data-unit]"):
            forms = article.xpath(".//form[@data-order-form]")
            if not forms:
                continue
            types = forms[0].xpath(".//fieldset[contains(concat(' ', @class, ' '), ' types ')]")
            if types and types[0].get("disabled") is None:
                found.append((article.get("data-unit"), forms[0]))
        return found

    def choose(self, form) -> dict | None:
        """A legal order among the form's offers: {"type", "s1".., "fleet"}; None if the form offers a dead end."""
        types = [i.get("value") for i in form.xpath(".//fieldset[contains(@class, 'types')]//input[@name='type']")]
        if not types:
            return None
        kind = self.rng.choice(types)
        picks = {"type": kind}
        path: list[str] = []
        for depth in (1, 2, 3):
            group = form.xpath(f".//fieldset[@data-group='step'][@data-type='{kind}'][@data-depth='{depth}']"
                               f"[@data-prefix='{'|'.join(path)}']")
            if not group:
                break
            options = group[0].xpath(".//input[@type='radio']")
            option = self.rng.choice(options)
            path.append(option.get("value"))
            picks[f"s{depth}"] = option.get("value")
            if depth == 1:
                fleets = form.xpath(f".//fieldset[@data-group='fleet'][@data-type='{kind}']"
                                    f"[@data-prefix='{path[0]}']//input[@type='radio']")
                if fleets:
                    picks["fleet"] = self.rng.choice(fleets).get("value")
            if option.get("data-complete") == "1":
                deeper = form.xpath(f".//fieldset[@data-group='step'][@data-type='{kind}'][@data-depth='{depth + 1}']"
                                    f"[@data-prefix='{'|'.join(path)}']")
                if not deeper or self.rng.random() < 0.5:
                    return picks
        return picks if kind == "hold" else None

    def file(self, page: Page, unit: str, form, picks: dict, kind: str = "file order", expect: tuple = (),
             key: str = "") -> Filing:
        """Send `picks` for `unit` as the tablet's script does (HTMX, a fresh confirmation key unless `key`)."""
        key = key or secrets.token_urlsafe(12)
        values = form_values(form)
        # The seat's own CSRF secret: the same form may come from a fellow seat's page (two seats, one unit).
        data = {"csrfmiddlewaretoken": self.seat.csrf_token() or values.get("csrfmiddlewaretoken", [""]),
                "key": key, **picks}
        answer = self.seat.post(_action(page, form), data, kind, htmx=True, expect=expect)
        saved = answer.status == 200 and bool(answer.xpath("//*[@data-saved]"))
        self.answers.append(answer)
        refusal = " ".join(answer.text_of("//*[@data-refused]").split())
        withdrawn = tuple(a.get("data-unit") for a in answer.xpath("//article[@data-unit]"
                                                                  "[.//*[@data-withdrawn or @data-dropped]]"))
        filing = Filing(unit, picks, key, answer.act.number, answer.status, saved, refusal, withdrawn=withdrawn)
        self.filings.append(filing)
        return filing


def _action(page: Page, form) -> str:
    import urllib.parse

    return urllib.parse.urljoin(page.url, form.get("action"))
