"""The moderator's bot: signs in with a password and runs the console through its pages' forms.

It follows the console home's one primary button (start, the next phase, open the next turn) and, when that
button leads to a page, does that page's work: movement applied, every battle fought (server dice two times in
three, typed dice otherwise), now and then the last battle undone with a reason and fought again, regroup
applied. It presses only what the pages show.
"""
from __future__ import annotations

import random
import urllib.parse
from dataclasses import dataclass, field

from larp.rehearsal.bots import Page, Seat, together

UNDO_REASONS = ("кубики прочитали не того сражения", "полководец передумал", "ошибка при вводе")


@dataclass
class ModeratorBot:
    seat: Seat
    game_id: int
    rng: random.Random
    undo_share: float = 0.15
    double_share: float = 0.1                   # acts pressed twice at once (a double click)
    undone: set = field(default_factory=set)   # (turn, battle) undone once already
    on_page: object = None                      # called with every page answered (the checks)
    tables: tuple = ()                          # the systems battles are sent to, in turn (each one at least)
    send_share: float = 1 / 3                   # the share of battles sent to a table
    sent: list = field(default_factory=list)    # (turn, battle, system, table page) of each battle sent
    on_table: object = None                     # called with (bot, turn, battle, system, table_url) to play it

    def url(self, tail: str) -> str:
        return f"/g/{self.game_id}/{tail}"

    def sign_in(self, username: str, password: str) -> Page:
        page = self.seat.get("/login/", "moderator login page")
        form = [f for f in page.forms() if f.xpath(".//input[@name='password']")][0]
        return self._submit(page, form, "moderator sign-in", {"username": username, "password": password})

    def _seen(self, page: Page) -> Page:
        if self.on_page is not None:
            self.on_page(self, page)
        return page

    def _submit(self, page: Page, form, kind: str, choose: dict | None = None) -> Page:
        if self.rng.random() >= self.double_share or kind.startswith("moderator"):
            return self._seen(self.seat.submit(page, form, kind, choose))
        # A double click: both copies go at once; one acts, the other is refused as done (409) or shows the
        # same page; the checks of the acts' log (act_once) say whether it was done twice.
        first, second = together(lambda: self.seat.submit(page, form, kind, choose, expect=(409,)),
                                 lambda: self.seat.submit(page, form, kind + " (double press)", choose,
                                                          expect=(409,)))
        for answer in (first, second):
            self._seen(answer)
        return first if 200 <= first.status < 400 else second

    def console(self) -> Page:
        return self._seen(self.seat.get(self.url("console/"), "console"))

    def next_step(self) -> tuple[str, str, object, Page]:
        """The console home's primary: ("post", label, form, page), ("link", label, href, page) or ("wait", ...)."""
        page = self.console()
        forms = page.xpath("//div[@data-next-step]//form")
        if forms:
            label = " ".join(" ".join(b.itertext()) for b in forms[0].xpath(".//button")).strip()
            return "post", label, forms[0], page
        links = page.xpath("//div[@data-next-step]//a[contains(@class, 'primary')]")
        if links:
            return "link", " ".join(links[0].itertext()).strip(), links[0].get("href"), page
        return "wait", "", None, page

    def press_primary(self, form, page: Page, label: str) -> Page:
        return self._submit(page, form, f"console: {_kind_of(form)}")

    # --- the pages a primary link leads to ------------------------------------------------------

    def movement(self, href: str) -> Page:
        page = self._seen(self.seat.get(href, "movement page"))
        form = page.form("movement/apply")
        if form is not None:
            page = self._submit(page, form, "movement apply")
        return page

    def regroup(self, href: str) -> Page:
        page = self._seen(self.seat.get(href, "regroup page"))
        form = page.form("regroup/apply")
        if form is not None:
            page = self._submit(page, form, "regroup apply")
        return page

    def battles(self, href: str, turn: int, limit: int = 60) -> Page:
        """Fight every battle the page offers, one at a time; returns the last page."""
        page = self._seen(self.seat.get(href, "battles page"))
        for _ in range(limit):
            dice = page.xpath("//form[contains(@class, 'dice-form')]")
            if not dice:
                return page
            battle = dice[0].xpath(".//input[@name='battle']")[0].get("value")
            system = self._table_for(page)
            # Each system's first battle goes to its table whatever the dice (a night short of battles still
            # plays every system it names), then one battle in three.
            if system and (len(self.sent) < len(self.tables) or self.rng.random() < self.send_share):
                page = self.send_to_table(page, turn, battle, system)
                continue
            if dice[0].xpath(".//input[@name='roll']"):
                page = self._submit(page, page.form("battles/confirm"), "battle confirm (server dice)")
            elif self.rng.random() < 2 / 3 and page.form("battles/roll") is not None:
                page = self._submit(page, page.form("battles/roll"), "battle roll (server)")
                continue
            else:
                typed = {side: [str(self.rng.randint(1, 6)) for _ in dice[0].xpath(f".//input[@name='{side}']")]
                         for side in ("attacker", "defender")}
                page = self._submit(page, page.form("battles/confirm"), "battle confirm (typed dice)", typed)
            undo = page.form("battles/undo")
            if undo is not None and (turn, battle) not in self.undone and self.rng.random() < self.undo_share:
                last = undo.xpath(".//input[@name='battle']")[0].get("value")
                self.undone.add((turn, last))
                page = self._submit(page, undo, "battle undo", {"reason": self.rng.choice(UNDO_REASONS)})
        return page

    def _table_for(self, page: Page) -> str:
        """The next system of `tables` the page's «play at the table» form offers for this battle ("" if none)."""
        form = page.form("/battles/table/send")
        if form is None or not self.tables:
            return ""
        offered = {o.get("value") for o in form.xpath(".//select[@name='system']/option[not(@disabled)]")}
        system = self.tables[len(self.sent) % len(self.tables)]
        return system if system in offered else ""

    def send_to_table(self, page: Page, turn: int, battle: str, system: str) -> Page:
        """Send the battle to a table, play it there (`on_table`), confirm its result back on the battles page."""
        page = self._submit(page, page.form("/battles/table/send"), f"bridge send ({system})",
                            {"system": system, "reason": "репетиция: сражение за столом"})
        links = page.xpath("//*[contains(@class, 'at-table-state')]//a/@href")
        if not links:
            return page
        self.sent.append((turn, battle, system, links[0]))
        if self.on_table is not None:
            self.on_table(self, turn, battle, system, links[0])
        page = self._seen(self.seat.get(page.url, "battles page"))
        confirm = page.form("/battles/table/confirm")
        if confirm is not None:
            page = self._submit(page, confirm, f"bridge confirm ({system})")
        return page


def _kind_of(form) -> str:
    """A console post's kind for the report: the last part of its address (start, next, …)."""
    return urllib.parse.urlparse(form.get("action") or "").path.rstrip("/").rsplit("/", 1)[-1]
