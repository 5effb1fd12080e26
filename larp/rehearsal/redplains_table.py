"""Playing a war battle sent to a Red Plains table to the engine's own end, through the table's pages
(docs/red-plains.md, "Table").

A table the bridge made starts placed, at the command phase of turn 1. Each side is played from its player's
seat (the faction's tablet signed in by its join code) when that seat's page shows the side's panel, else by the
moderator for the side (a neutral garrison has no player). Every battle turn a side may choose its stake, rolls
by the server, may give orders (for each unit, now and then, one of the orders its picker offers and one of the
variants the second list offers for it), and confirms; a side whose orders the page does not let it confirm gives
fewer. The moderator then rolls the execution's dice (all at once, group by group by the server, or typed in) and
applies the turn, until the page says the battle is over. A side may stop the battle when the page offers it
(W39.3).

Now and then two presses of the same act go at once: the same press twice (one confirmation key: counted once,
the copy answered «Уже сделано») or two seats of the side pressing «roll» together (one rolls, the other is
refused: the roll is made). The table's log must then hold one roll of the side.

The checks here: `fog` on every page a player's seat reads (only its own side's panel, none of the enemy's unit
pickers, no enemy unit hidden in a forest on its board, none of the moderator's execution panel), and the
`table_not_stuck` facts (`Played`): some seat had an open act at every read until the end, and the battle ended
within `end_of_battle.max_battle_turns` of the rules' data (W5.1, W39.6).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from larp.rehearsal.bots import Page, together

SYSTEM = "red-plains"
KIND = f"({SYSTEM})"
ORDER_SHARE = 0.6        # a unit's chance of an order in slot 1 (else it has none: it waits)
STAKE_SHARE = 0.5        # a side's chance of choosing its stake (else the low stake stands, W7.1)
REROLL_SHARE = 0.15      # a side's chance of a messenger's re-roll when the page offers one
STOP_SHARE = 0.5         # a side's chance of stopping the battle when the page offers it (W39.3)
DOUBLE_SHARE = 0.12      # a roll pressed twice at once (one key) or by two seats together
ACTS_PER_TURN = 60       # a loop guard only: a turn takes far fewer acts (the bound is the rules' turns)


def turn_bound() -> int:
    """W5.1/W39.6: the battle ends at the end of this battle turn at the latest (the rules' data file)."""
    from larp.redplains.engine.data import load

    return load().max_battle_turns


def replay(table) -> dict:
    """The table's state as the engine's replay of its live steps (what `services` stores after every step)."""
    from larp.redplains import services
    from larp.redplains import situation as sit

    return sit.replay(table.setup, services.step_dicts(table))


@dataclass
class Played:
    ended: bool = False
    acts: int = 0
    turns: int = 0                      # the battle turns played (the state's turn at the end)
    bound: int = 0
    stuck: list = field(default_factory=list)      # (act, what) where no seat had an open act before the end
    refusals: list = field(default_factory=list)   # (act, what) a double press answered otherwise than expected


class RedPlainsTable:
    def __init__(self, mod, url: str, players: dict, checks):
        """`mod`: the moderator's bot; `players`: faction code → its tablet's Seat; `checks`: the night's."""
        self.mod, self.url, self.checks = mod, url, checks
        self.rng = mod.rng
        self.table_id = int(re.search(r"/(\d+)/?$", url.rstrip("/") + "/").group(1))
        self.seats = self._seats(players)
        self.done: dict[str, set] = {key: set() for key in self.seats}   # what a side did this turn
        self.orders: dict[str, list] = {}                                 # the picks a side gave last
        self.played = Played(bound=turn_bound())

    # --- who plays each side --------------------------------------------------------------------

    def _seats(self, players: dict) -> dict:
        from larp.tables.models import Side

        seats = {}
        for side in Side.objects.filter(table_id=self.table_id).select_related("faction").order_by("key"):
            seat = players.get(side.faction.code) if side.faction_id else None
            seats[side.key] = seat if seat is not None else self.mod.seat
        return seats

    def read(self, seat, key: str = "") -> Page:
        return self._seen(seat, seat.get(self.url, f"table page {KIND}"), key)

    # --- the play ---------------------------------------------------------------------------------

    def play(self) -> Played:
        limit = self.played.bound * ACTS_PER_TURN
        while self.played.acts < limit:
            page = self.read(self.mod.seat)
            if page.xpath("//*[@data-end]"):
                self.played.ended = True
                break
            if self._execute(page):
                continue
            acted = False
            for key in self.rng.sample(sorted(self.seats), len(self.seats)):
                seat = self.seats[key]
                own = page if seat is self.mod.seat else self.read(seat, key)
                if self._side_act(seat, own, key):
                    acted = True
                    break
            if not acted:
                self.played.stuck.append((page.act.number, self._whose(page)))
                break
        self.played.turns = self._turn()
        return self.played

    def _turn(self) -> int:
        from larp.tables.models import Table

        return int((Table.objects.get(pk=self.table_id).state or {}).get("turn") or 0)

    @staticmethod
    def _whose(page: Page) -> str:
        found = page.xpath("//*[@data-frame-source]/@data-whose")
        return found[0] if found else "?"

    def _press(self, seat, page: Page, form, what: str, choose: dict | None = None, expect: tuple = ()) -> Page:
        self.played.acts += 1
        answer = seat.submit(page, form, f"table {what} {KIND}", choose, expect=expect)
        return self._seen(seat, answer, self._side_of(form))

    def _seen(self, seat, page: Page, key: str) -> Page:
        """The checks of a page a seat was answered: the moderator's hook, or the fog of a player's seat."""
        if seat is self.mod.seat:
            self.mod._seen(page)
        elif key:
            self.fog(page, key)
        return page

    @staticmethod
    def _side_of(form) -> str:
        found = form.xpath(".//input[@name='side']/@value")
        return found[0] if found else ""

    def _execute(self, page: Page) -> bool:
        """The moderator's execution: the awaited dice (all, one group by the server, or typed in), then the turn
        applied. False when the page offers neither."""
        every, one, apply = (self._form(page.doc, act) for act in ("dice_all", "dice", "execute"))
        if every is None and one is None and apply is None:
            return False
        roll = self.rng.random()
        if one is not None and roll < 0.25:
            count = page.xpath("//*[@data-dice-count]/@data-dice-count")
            dice = " ".join(str(self.rng.randint(1, 6)) for _ in range(int(count[0]) if count else 1))
            self._press(self.mod.seat, page, one, "dice (typed)", {"source": "hand", "dice": dice})
        elif one is not None and (roll < 0.5 or every is None):
            self._press(self.mod.seat, page, one, "dice (server)", {"source": "server"})
        elif every is not None:
            self._press(self.mod.seat, page, every, "dice all")
        else:
            self._press(self.mod.seat, page, apply, "execute")
            self.done = {key: set() for key in self.seats}
            self.orders = {}
        return True

    def _panel(self, page: Page, key: str):
        found = page.xpath(f"//section[@data-side-panel='{key}']")
        return found[0] if found else None

    @staticmethod
    def _form(panel, act: str):
        found = panel.xpath(f".//form[contains(@action, '/act/{act}')]")
        exact = [f for f in found if f.get("action").rstrip("/").endswith(f"/act/{act}")]
        return exact[0] if exact else None

    def _side_act(self, seat, page: Page, key: str) -> bool:
        """One act of the side, among those its panel offers now; False when it offers none."""
        panel = self._panel(page, key)
        if panel is None:
            return False
        done = self.done[key]
        stop = self._form(panel, "stop")
        if stop is not None and "stop" not in done:
            done.add("stop")
            if self.rng.random() < STOP_SHARE:
                self._press(seat, page, stop, "stop")
                return True
        stake = self._form(panel, "stake")
        if stake is not None and "stake" not in done:
            done.add("stake")
            if self.rng.random() < STAKE_SHARE:
                values = [b.get("value") for b in stake.xpath(".//button[@name='stake']")]
                self._press(seat, page, stake, "stake", {"stake": self.rng.choice(values)})
                return True
        roll = self._form(panel, "roll")
        if roll is not None:
            self._roll(seat, page, roll, key)
            return True
        reroll = self._form(panel, "reroll")
        if reroll is not None and "reroll" not in done:
            done.add("reroll")
            if self.rng.random() < REROLL_SHARE:
                self._press(seat, page, reroll, "reroll", {"source": "server"})
                return True
        given = self._form(panel, "orders")
        confirm = self._form(panel, "confirm")
        if given is not None and "orders" not in done:
            done.add("orders")
            picks = self.choose_orders(given, self.rng)
            if picks or confirm is None:
                self.orders[key] = picks
                self._give(seat, page, given, picks)
                return True
        if confirm is not None:
            self._press(seat, page, confirm, "confirm")
            done.clear()
            self.orders.pop(key, None)
            return True
        if given is not None and self.orders.get(key):
            # The orders given do not let the side confirm (too many for its count, a plan the rules refuse
            # together): fewer, down to none.
            self.orders[key] = self.orders[key][:-1]
            self._give(seat, page, given, self.orders[key])
            return True
        return False

    def _give(self, seat, page: Page, form, picks: list[tuple[str, str, str]]) -> None:
        self._press(seat, page, form, "orders", self.order_choice(form, picks))

    @staticmethod
    def order_choice(form, picks: list[tuple[str, str, str]]) -> dict:
        """The form's order selects as the picks set them: every other select back to «—» (the form shows the
        orders given before as chosen)."""
        choose = {name: "" for name in form.xpath(".//select[starts-with(@name, 'o_') or starts-with(@name, "
                                                  "'x_')]/@name")}
        for unit, group, detail in picks:
            choose[f"o_{unit}_1"], choose[f"x_{unit}_1"] = group, detail
        return choose

    @staticmethod
    def choose_orders(form, rng) -> list[tuple[str, str, str]]:
        """(unit, order, variant) for some units: an order the unit's first list offers (not greyed) and a variant
        of it the second list offers (none when it offers none)."""
        picks = []
        for picker in form.xpath(".//div[@data-picker]"):
            unit = picker.get("data-picker")
            groups = [o.get("value") for o in picker.xpath(f".//select[@name='o_{unit}_1']//option")
                      if o.get("value") and o.get("disabled") is None]
            if not groups or rng.random() >= ORDER_SHARE:
                continue
            group = rng.choice(groups)
            details = [o.get("value") for o in picker.xpath(f".//select[@name='x_{unit}_1']//option")
                       if o.get("data-group") == group and o.get("disabled") is None]
            picks.append((unit, group, rng.choice(details) if details else ""))
        return picks

    def _roll(self, seat, page: Page, form, key: str) -> None:
        """The command roll by the server; now and then pressed twice at once."""
        from larp.tables.models import Step

        if self.rng.random() >= DOUBLE_SHARE:
            self._press(seat, page, form, "roll", {"source": "server"})
            return
        before = Step.objects.filter(table_id=self.table_id, kind="roll", side=key, undone=False).count()
        if seat is not self.mod.seat and self.rng.random() < 0.5:
            # Two seats of the side (its player and the moderator for it) press «roll» at once, each its own key.
            mod_page = self.read(self.mod.seat)
            panel = self._panel(mod_page, key)
            mod_form = self._form(panel, "roll") if panel is not None else None
            if mod_form is None:
                self._press(seat, page, form, "roll", {"source": "server"})
                return
            self.played.acts += 2
            answers = together(
                lambda: seat.submit(page, form, f"table roll {KIND}", {"source": "server"}, expect=(400,)),
                lambda: self.mod.seat.submit(mod_page, mod_form, f"table roll (two seats) {KIND}",
                                             {"source": "server"}, expect=(400,)))
            what, seats = "two seats pressing «roll» together", (seat, self.mod.seat)
            won = [a for a in answers if a.status == 200]
            ok = len(won) == 1 and all(a.status in (200, 400) for a in answers)
        else:
            self.played.acts += 2
            answers = together(
                lambda: seat.submit(page, form, f"table roll {KIND}", {"source": "server"}),
                lambda: seat.submit(page, form, f"table roll (double press) {KIND}", {"source": "server"}))
            what, seats = "a double press of «roll» (one key)", (seat, seat)
            ok = all(a.status == 200 for a in answers)
        for who, answer in zip(seats, answers):
            self._seen(who, answer, key)
        after = Step.objects.filter(table_id=self.table_id, kind="roll", side=key, undone=False).count()
        act = max(a.act.number for a in answers)
        if not ok:
            self.played.refusals.append((act, f"{what} for {key} answered "
                                              f"{[a.status for a in answers]}, not one roll and one refusal"))
        if after != before + 1:
            self.played.refusals.append((act, f"{what} for {key} made {after - before} rolls, not one"))

    def fog(self, page: Page, key: str) -> None:
        fog(self.checks, page, key, self.table_id)


def fog(checks, page: Page, key: str, table_id: int) -> None:
    """What the side's page shows is its own: its panel only, its own units' pickers, no enemy unit hidden in a
    forest (W38.2), not the moderator's execution panel with the dice and odds."""
    from larp.redplains import situation as sit
    from larp.tables.models import Table

    if page.status != 200:
        return
    act = page.act.number
    panels = set(page.xpath("//section[@data-side-panel]/@data-side-panel"))
    checks.check("fog", panels <= {key}, f"the {key} seat's Red Plains page shows the panels of "
                                         f"{sorted(panels - {key})}", act)
    table = Table.objects.get(pk=table_id)
    state = table.state or {}
    mine = {u["id"] for u in state.get("units", []) if u.get("side") == key}
    pickers = set(page.xpath("//*[@data-picker]/@data-picker"))
    checks.check("fog", pickers <= mine, f"the {key} seat's Red Plains page offers orders to enemy units "
                                         f"{sorted(pickers - mine)}", act)
    hidden = {u for u in sit.unseen(table.setup, state) if u not in mine} if state.get("units") else set()
    shown = set(page.xpath("//*[@data-board]//*[@data-unit]/@data-unit"))
    checks.check("fog", not (shown & hidden), f"the {key} seat's Red Plains board shows enemy units hidden in a "
                                              f"forest {sorted(shown & hidden)}", act)
    checks.check("fog", not page.xpath("//*[@id='rp-exec'] | //*[@data-odds]"),
                 f"the {key} seat's Red Plains page shows the moderator's execution panel", act)


def play(mod, url: str, players: dict, checks) -> Played:
    """Play the Red Plains table at `url` to its end (see the module's doc)."""
    return RedPlainsTable(mod, url, players, checks).play()
