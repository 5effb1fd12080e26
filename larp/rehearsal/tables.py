"""Playing a battle sent to a table through that system's pages, to its end.

The tactical rules (docs/tactical-rules.md, "Table"): the moderator approves the suggested army of each side,
starts the battle, rolls the Initiative on the server, begins the first turn with a side the page offers, and
ends it by the act the page offers (T29: the engine names no winner), with the winner
and the way it ended as the page's end form suggests them. A system without a player here is refused by the
command (`SYSTEMS`).
"""
from __future__ import annotations

from larp.rehearsal.bots import Page, form_values

SYSTEMS = ("tactical", "orda")
ACT_LIMIT = 40   # a table not ended after this many acts is stuck


def play_at(rehearsal, bot, turn: int, battle: str, system: str, url: str) -> tuple[bool, int]:
    """(ended, acts) of the table `system` at `url`, played by its system's bots."""
    if system == "orda":
        from larp.rehearsal.orda_table import play
        return play(rehearsal, bot, turn, battle, url)
    return play_tactical(bot, url)


def play_tactical(bot, url: str) -> tuple[bool, int]:
    """(ended, acts) of the moderator's play of a tactical table from its page."""
    acts = 0
    page = bot._seen(bot.seat.get(url, "table page (tactical)"))
    while acts < ACT_LIMIT:
        form = _approvable(page)
        kind = "table approve (tactical)"
        if form is None and page.form("/start/") is not None:
            form, kind = page.form("/start/"), "table start (tactical)"
        if form is None and page.form("/end/") is not None:
            form, kind = page.form("/end/"), "table end (tactical)"
        if form is None:
            return False, acts
        choose = {}
        if kind.startswith("table end"):  # the winner and the way it ended: one of the options each offers
            for select in form.xpath(".//select[@name]"):
                options = select.xpath("./option/@value")
                if options:
                    choose[select.get("name")] = bot.rng.choice(options)
        page = bot._submit(page, form, kind, choose)
        acts += 1
        if kind.startswith("table end"):
            return True, acts
        if not page.url.rstrip("/").endswith(url.rstrip("/")):
            page = bot._seen(bot.seat.get(url, "table page (tactical)"))
        if kind.startswith("table start"):
            page, played = _first_turn(bot, page, url)
            acts += played
    return False, acts


def _first_turn(bot, page: Page, url: str) -> tuple[Page, int]:
    """The Initiative rolled by the server (Action: Test, Initiative), then the first turn begun by the side the
    bot picks among those the page's turn form offers."""
    import urllib.parse

    forms = page.xpath("//form[@id='tr-action-form']")
    resolve = page.xpath("//button[@id='tr-resolve']/@formaction")
    if not forms or not resolve:
        return page, 0
    values = form_values(forms[0])
    values.update(kind=["test"], test_kind=["initiative"], server_rest=["on"])
    page = bot._seen(bot.seat.post(urllib.parse.urljoin(page.url, resolve[0]), values, "table act (tactical)"))
    page = bot._seen(bot.seat.get(url, "table page (tactical)"))
    turn = page.form("/turn/")
    sides = turn.xpath(".//select[@name='first']/option/@value") if turn is not None else []
    sides = [s for s in sides if s]
    if not sides:
        return page, 1
    page = bot._submit(page, turn, "table turn (tactical)", {"first": bot.rng.choice(sides)})
    return bot._seen(bot.seat.get(url, "table page (tactical)")), 2


def _approvable(page: Page):
    for form in page.forms("/approve/"):
        if form.xpath(".//input[@name='approve']") and not form.xpath(".//button[@disabled]"):
            return form
    return None
