"""An «Ордонанс» contest played alongside the war (the scenario's contests, docs/ordonnance.md "Pages"), through
its pages, to its end.

The moderator opens it as the hall does: a deck list on the «Составы колод» page when the game has none (every one
of the 31 possible cards, 1–3 copies each by the bot's seeded rng, marked made up for tests: the rules do not give the
deck, C4), then the «Новая партия» page — a virtual deck, two players tied to two factions of the game the rng
picks, the announced scoring as the rng picks — and deals on the table's page (the server's lot, or a first
player the page names). Then the player to move lays a card from the hand on their tablet (its seat at the table
is their faction's), now and then the moderator lays it for them from the moderator's page; now and then both
press at once: one goes through, the other is refused (409). Every card and territory is one the page offers.

Checks: `table_not_stuck` (the seat to move finds its hand form; the contest ends by itself within C8's bound,
`max_cards_per_player` cards per player), `table_replay` (the stored state equals `situation.replay` of the live
steps), `fog` (a player's page never names a card of another hand or of the draw pile but the card it draws).
"""
from __future__ import annotations

import re

from larp.rehearsal.bots import Page, together

MODERATOR_SHARE = 0.15
TOGETHER_SHARE = 0.08
DECK_NAME = "Колода репетиции (выдуманная)"


def bound(players: int) -> int:
    """The most cards a contest can take: C8's cards per player, times the players."""
    from larp.ordonnance.engine.data import load_rules

    return load_rules().max_cards_per_player * players


class Contest:
    def __init__(self, rehearsal, turn: int, number: int):
        self.rehearsal, self.turn, self.number = rehearsal, turn, number
        self.mod = rehearsal.mod
        self.rng = self.mod.rng
        self.acts = 0
        self.table_id = 0
        self.url = ""
        self.seats: dict = {}          # side key -> [Seat] of its faction's tablets
        self.together_done = 0

    @property
    def checks(self):
        return self.rehearsal.checks

    def last_act(self) -> int:
        return self.rehearsal.log.acts[-1].number if self.rehearsal.log.acts else 0

    def press(self, seat, page: Page, form, kind: str, choose: dict | None = None, expect: tuple = ()) -> Page:
        self.acts += 1
        return seat.submit(page, form, f"contest {kind} (ordonnance)", choose, expect=expect)

    def table(self):
        from larp.tables.models import Table

        return Table.objects.get(pk=self.table_id)

    # --- the moderator opens it ---------------------------------------------------------------------------

    def open(self) -> bool:
        from django.urls import reverse

        mod, game = self.mod.seat, self.mod.game_id
        page = mod.get(reverse("ordonnance:decks", args=[game]), "contest decks page (ordonnance)")
        if not page.xpath("//ul[@class='cards']//a[contains(@href, '/decks/')]"):
            form = next((f for f in page.forms() if f.xpath(".//input[@name='name']")), None)
            if form is None:
                return self.stuck(page, "the deck lists page offers no new deck list")
            choose = {"name": DECK_NAME, "made_for_tests": "on"}
            for field in form.xpath(".//input[starts-with(@name, 'k_')]"):
                choose[field.get("name")] = str(self.rng.randint(1, 3))
            page = self.press(mod, page, form, "deck list", choose)
            if page.status >= 400:
                return False
        page = mod.get(reverse("ordonnance:new", args=[game]), "contest new page (ordonnance)")
        form = next((f for f in page.forms() if f.xpath(".//input[@name='player1']")), None)
        if form is None:
            return self.stuck(page, "the new contest page offers no form")
        factions = [o for o in form.xpath(".//select[@name='faction1']/option") if o.get("value")]
        picked = self.rng.sample(factions, 2)
        decks = [o.get("value") for o in form.xpath(".//select[@name='deck']/option") if o.get("value")]
        announce = form.xpath(".//input[@name='announce']/@value")
        choose = {"title": f"Репетиция: партия {self.turn}.{self.number}", "mode": "virtual",
                  "deck": self.rng.choice(decks) if decks else "",
                  "announce": self.rng.choice(announce) if announce else "territories"}
        for i, option in enumerate(picked, start=1):
            choose[f"player{i}"] = f"Игрок: {option.text_content().strip()}"
            choose[f"faction{i}"] = option.get("value")
        page = self.press(mod, page, form, "new", choose)
        table_path = reverse("ordonnance:table", args=[game, 0]).rsplit("/0/", 1)[0]
        found = re.search(re.escape(table_path) + r"/(\d+)/?$", page.url.split("?")[0])
        if page.status >= 400 or not found:
            return self.stuck(page, "the new contest was not made")
        self.table_id, self.url = int(found.group(1)), page.url.split("?")[0]
        for side in self.table().sides.select_related("faction"):
            code = side.faction.code if side.faction else ""
            self.seats[side.key] = [t.seat for t in self.rehearsal.tablets if t.faction == code]
        lot = page.form("/lot")
        if lot is None:
            return self.stuck(page, "the new contest's page offers no deal")
        buttons = lot.xpath(".//button[@name='first_player']/@value")
        page = self.press(mod, page, lot, "deal", {"first_player": self.rng.choice(buttons) if buttons else ""})
        return page.status < 400

    def stuck(self, page: Page, what: str) -> bool:
        self.checks.check("table_not_stuck", False, f"turn {self.turn}: contest {self.number}: {what}",
                          page.act.number)
        return False

    # --- the players lay their cards -----------------------------------------------------------------------

    def read(self, seat) -> Page:
        player = seat is not self.mod.seat
        page = seat.get(self.url, f"contest page (ordonnance{', player' if player else ''})")
        if player:
            self.fog(seat, page)
        return page

    def hand_form(self, page: Page, side: str):
        for form in page.forms("/play"):
            if "to-move" in (form.get("class") or "") and form.xpath(f".//input[@name='player'][@value='{side}']"):
                return form
        return None

    def play(self) -> bool:
        limit = bound(max(2, len(self.seats)))
        for _ in range(limit + 5):
            table = self.table()
            state = table.state or {}
            if state.get("game_over") or not table.is_open:
                plays = len(state.get("plays") or [])
                self.checks.check("table_not_stuck", plays <= limit, f"turn {self.turn}: contest {self.number} took "
                                  f"{plays} cards, more than C8 allows ({limit})", self.last_act())
                return table.status == table.FINISHED
            side = state.get("to_move")
            players = self.seats.get(side) or []
            seat = self.rng.choice(players) if players and self.rng.random() >= MODERATOR_SHARE else self.mod.seat
            page = self.read(seat)
            form = self.hand_form(page, side)
            if form is None and seat is not self.mod.seat:
                self.stuck(page, f"{seat.name}'s page offers no card to lay on its turn")
                seat, page = self.mod.seat, self.read(self.mod.seat)
                form = self.hand_form(page, side)
            if form is None:
                return self.stuck(page, f"no page offers {side}'s card on its turn")
            choose = self.choose(form)
            if choose is None:
                return self.stuck(page, f"{seat.name}'s hand form offers no card or no territory")
            if players and self.rng.random() < TOGETHER_SHARE:
                self.both(side, seat, page, form, choose)
                continue
            answer = self.press(seat, page, form, "play", choose)
            if answer.status >= 400:
                return False
        return self.stuck(self.read(self.mod.seat), f"not over after {limit} cards (C8's bound)")

    def choose(self, form) -> dict | None:
        cards = form.xpath(".//input[@name='card'][not(@disabled)]/@value")
        territories = form.xpath(".//button[@name='territory']/@value")
        if not cards or not territories:
            return None
        return {"card": self.rng.choice(cards), "territory": self.rng.choice(territories)}

    def both(self, side, seat, page, form, choose) -> None:
        """The player and the moderator lay the same card at once: one goes through, the other is refused."""
        other = self.mod.seat if seat is not self.mod.seat else self.rng.choice(self.seats[side])
        second = self.read(other)
        form2 = self.hand_form(second, side)
        if form2 is None:
            self.press(seat, page, form, "play", choose)
            return
        answers = together(lambda: self.press(seat, page, form, "play (together)", choose, expect=(400, 409)),
                           lambda: self.press(other, second, form2, "play (together)", choose, expect=(400, 409)))
        through = [a for a in answers if a.status < 400]
        self.together_done += 1
        self.checks.check("table_not_stuck", len(through) == 1,
                          f"turn {self.turn}: contest {self.number}: one card laid at once by {seat.name} and "
                          f"{other.name}: {len(through)} went through (one must)", max(a.act.number for a in answers))

    # --- fog ----------------------------------------------------------------------------------------------

    def fog(self, seat, page: Page) -> None:
        """A player's page names no card of another hand, nor of the draw pile but the one it draws on its turn."""
        if page.status != 200:
            return
        table = self.table()
        state = table.state or {}
        mine = next((k for k, seats in self.seats.items() if seat in seats), None)
        hidden = {c for k, hand in (state.get("hands") or {}).items() if k != mine for c in hand}
        pile = list(state.get("draw_pile") or [])
        hidden |= set(pile[1:] if state.get("to_move") == mine else pile)
        shown = set(re.findall(r"\bc\d{3}\b", page.text)) & hidden
        self.checks.check("fog", not shown, f"turn {self.turn}: contest {self.number}: {seat.name}'s page names "
                                            f"cards it may not see {sorted(shown)[:5]}", page.act.number)


def play_contests(rehearsal, turn: int) -> None:
    """The turn's contests (`--contests N`), each opened by the moderator and played to its end."""
    from larp.ordonnance import services
    from larp.ordonnance import situation as sit
    from larp.tables import services as tables

    for number in range(1, getattr(rehearsal.options, "contests", 0) + 1):
        contest = Contest(rehearsal, turn, number)
        if not contest.open():
            continue
        ended = contest.play()
        table = contest.table()
        act = contest.last_act()
        replayed = sit.replay(services.setup_of(table), tables.live_steps(table))
        rehearsal.checks.check("table_replay", replayed == table.state, f"turn {turn}: contest {number} "
                                                                        f"(table {table.pk}): the stored state is "
                                                                        f"not its replay", act)
        rehearsal.checks.check("table_not_stuck", ended, f"turn {turn}: contest {number} (table {table.pk}) did "
                                                         f"not end by itself ({table.status})", act)
        if ended:
            rehearsal.night.tables_ended["ordonnance"] = rehearsal.night.tables_ended.get("ordonnance", 0) + 1
            rehearsal.night.notes.append(f"ordonnance contest {table.pk} (turn {turn}): "
                                         f"{len(table.state.get('plays', []))} cards, {contest.acts} acts, "
                                         f"{contest.together_done} laid together")
