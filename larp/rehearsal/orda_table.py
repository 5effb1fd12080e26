"""A battle of the war played at an «Орда» table (docs/orda.md, "Table") through its pages, to the engine's own end.

Who presses what follows the table's page: the active faction's seat begins its turn, activates units and ends the
turn; the attacked faction's seat chooses the counter-measure; the attacker's seat rolls. A seat is the tablet of
the war faction the table's side belongs to (its player signed in by the join code), and now and then the moderator
instead (the moderator may press any act). Every choice is among what the seat's page offers, by the bot's seeded
rng: a unit of the «Выберите юнита» links, one of its move forms (mostly the one that brings it nearest an enemy
token, or the enemy's walls once none stands), one of its «Атаковать» forms, now and then its trait's form; a
counter-measure form; server dice, or the moderator's dice typed by hand.

Before the first turn a battle of the war lacks the printed values the source lost (O23): the moderator follows
the table page's links to the game's data set (creating it on the «Данные «Орды»» page if the game has none),
enters the numbers on the data set's editor page — each chosen by the rng within the range the form accepts, kept small so a
battle ends (attack 1–3, defence 0–2, speed 1–3, summon 1–3, range 2–3, durability 2–4) — and takes them with
«Взять значения из набора данных». The set is titled as made up for a rehearsal.

Now and then two seats (the player and the moderator) press «Начало хода» or «Итоги» at once: one goes through, the
other is refused (400 or 403), and never both.

Checks (`checks.py`): `table_not_stuck` (the seat whose act the table waits for finds its form on its page; the
battle ends by the engine within the bound), `table_replay` (the stored state equals `situation.replay` of the live
steps), `fog` (a player's page shows nothing of the event deck's hidden order, the only hidden data, O5).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from larp.rehearsal.bots import Page, any_options, together

MODERATOR_SHARE = 0.15      # a seat's act pressed by the moderator instead
TOGETHER_SHARE = 0.1        # a turn's start or end pressed by the player and the moderator at once
STATS_RANGE = {"health": (1, 4), "attack": (1, 3), "defence": (0, 2), "speed": (1, 3), "summon": (1, 3),
               "range": (2, 3)}
DURABILITY_RANGE = (2, 4)
DATA_TITLE = "Репетиция: числа выдуманы ботом"


def tour_bound() -> int:
    """The battle's bound in tours: the one tour limit the rules give any mode (Border's, O6 (b)); Conquest, the
    mode of a battle of the war, has none, so the rehearsal holds it to that."""
    from larp.orda.engine.data import load

    data = load()
    return max(int(data.number("modes", mode, "rus_china_tours")) for mode in ("border",))


def distance(a, b) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_of(text: str):
    try:
        q, r = (int(x) for x in (text or "").split(","))
    except ValueError:
        return None
    return (q, r)


def faction_of(unit_id: str) -> str:
    return unit_id.rsplit("-", 1)[0]


def tokens_of(page: Page) -> list:
    """(hex, faction, unit) of every token the page's board shows."""
    out = []
    for g in page.xpath("//svg//g[@data-unit]"):
        cell = g.xpath("ancestor::*[@data-hex][1]/@data-hex")
        out.append((hex_of(cell[0]) if cell else None, faction_of(g.get("data-unit")), g.get("data-unit")))
    return out


def walls_of(page: Page) -> list:
    """The hexes of the cities and capitals the page's board shows still standing (a destroyed one is marked ✕)."""
    out = []
    for cell in page.xpath("//svg//g[@data-hex][.//polygon[contains(@class,'city')]]"):
        left = " ".join(cell.xpath(".//text[contains(@class,'city-left')]/text()"))
        if "✕" not in left and hex_of(cell.get("data-hex")):
            out.append(hex_of(cell.get("data-hex")))
    return out


@dataclass
class OrdaTable:
    rehearsal: object
    bot: object            # the moderator's bot
    url: str
    turn: int
    battle: str
    table_id: int
    acts: int = 0
    seats: dict = field(default_factory=dict)       # side key -> [Seat] of its war faction's tablets
    cities: dict = field(default_factory=dict)      # hex -> the faction whose tokens stood nearest at the start
    together_done: int = 0
    auto_turns: int = 0

    @property
    def checks(self):
        return self.rehearsal.checks

    @property
    def rng(self):
        return self.bot.rng

    def last_act(self) -> int:
        return self.rehearsal.log.acts[-1].number if self.rehearsal.log.acts else 0

    def table(self):
        from larp.tables.models import Table

        return Table.objects.get(pk=self.table_id)

    def state(self) -> dict:
        from larp.orda import services

        return services.current(self.table())

    def read(self, seat, query: str = "") -> Page:
        page = seat.get(self.url + query, f"table page (orda{'' if seat is self.bot.seat else ', player'})")
        if seat is not self.bot.seat:
            self.fog(page)
        return page

    def press(self, seat, page: Page, form, kind: str, choose: dict | None = None, expect: tuple = ()) -> Page:
        self.acts += 1
        return seat.submit(page, form, f"table {kind} (orda)", choose, expect=expect)

    # --- the night's table -------------------------------------------------------------------------------

    def play(self) -> bool:
        from larp.orda import situation as sit

        for side in self.table().sides.select_related("faction"):
            code = side.faction.code if side.faction else ""
            self.seats[side.key] = [t.seat for t in self.rehearsal.tablets if t.faction == code]
        bound = tour_bound()
        limit = bound * max(2, len(self.seats)) * 80            # acts: far more than a turn can take, so a loop ends
        key, activations = None, 0
        while self.acts < limit:
            table = self.table()
            if not table.is_open:
                return table.status == table.FINISHED
            state = self.state()
            case = state["case"]
            if state["phase"] == sit.OVER:
                return True
            if case["game"]["tour"] > bound:
                self.checks.check("table_not_stuck", False, f"turn {self.turn}: the Orda table of battle {self.battle} "
                                  f"is not over after {bound} tours (the rules' longest tour limit)", self.last_act())
                return self.rule_the_end()
            if not state.get("started", True) and state["phase"] == sit.START and sit.missing_text(case):
                if not self.enter_values():
                    return False
                continue
            if not state.get("started", True) and sit.order_open(state):
                if not self.order():
                    return False
                continue
            pending = state.get("pending")
            if pending:
                ok = self.counter(case, pending) if not pending.get("counter") else self.roll(case, pending)
                if not ok:
                    return False
                continue
            active = case["game"]["active"]
            now = (case["game"]["tour"], active)
            if now != key:
                key, activations = now, 0
            if state["phase"] == sit.START:
                if not self.turn_start(active):
                    return False
                continue
            if activations >= 3 or not self.activate(active):
                if not self.turn_end(active):
                    return False
            activations += 1
        self.checks.check("table_not_stuck", False, f"turn {self.turn}: the Orda table of battle {self.battle} was "
                                                    f"still open after {limit} acts", self.last_act())
        return False

    def seat_for(self, faction: str):
        seats = self.seats.get(faction) or []
        if seats and self.rng.random() >= MODERATOR_SHARE:
            return self.rng.choice(seats)
        return self.bot.seat

    def offered(self, faction: str, what: str, find):
        """(seat, page, found) of the seat whose act the table waits for; the moderator's if the player's page
        does not offer it (a violation: the act is the player's); None when no page offers it (stuck)."""
        seat = self.seat_for(faction)
        page = self.read(seat)
        found = find(page)
        if found is not None and found != []:
            return seat, page, found
        if seat is not self.bot.seat:
            self.checks.check("table_not_stuck", False, f"turn {self.turn}: {seat.name}'s page at the Orda table of "
                              f"battle {self.battle} does not offer {what}, which the table waits for",
                              page.act.number)
            page = self.read(self.bot.seat)
            found = find(page)
            if found is not None and found != []:
                return self.bot.seat, page, found
        self.checks.check("table_not_stuck", False, f"turn {self.turn}: no page at the Orda table of battle "
                          f"{self.battle} offers {what}, which the table waits for", page.act.number)
        return None

    # --- before the first turn -----------------------------------------------------------------------------

    def enter_values(self) -> bool:
        """The printed values: the data set's editor filled through its pages, then taken at the table."""
        page = self.read(self.bot.seat)
        links = page.xpath("//div[contains(@class,'missing-values')]//a/@href")
        if not links:
            self.checks.check("table_not_stuck", False, f"turn {self.turn}: the Orda table of battle {self.battle} "
                              f"lacks printed values and links no data set to enter them", page.act.number)
            return False
        mod = self.bot.seat
        data = mod.get(links[0], "orda data page")
        create = [f for f in data.forms() if f.xpath(".//button[@name='create']")]
        if create:
            data = self.press(mod, data, create[0], "data set create", {"title": DATA_TITLE, "create": "1"})
        edit_url = data.url.split("?")[0]
        factions = [h.split("faction=")[1] for h in data.xpath("//p[@class='jump']/a/@href") if "faction=" in h]
        for faction in factions:
            data = mod.get(f"{edit_url}?faction={faction}", "orda data page")
            form = [f for f in data.forms() if f.xpath(".//button[@name='stats']")]
            if not form:
                continue
            choose = {"stats": "1"}
            for box in form[0].xpath(".//input[@type='number']"):
                if box.get("value"):
                    continue
                param = box.get("name", "").split("__")[-1]
                lo, hi = STATS_RANGE.get(param, (1, 2))
                lo, hi = max(lo, int(box.get("min", lo))), min(hi, int(box.get("max", hi)))
                choose[box.get("name")] = str(self.rng.randint(lo, hi))
            data = self.press(mod, data, form[0], "data stats", choose)
        form = [f for f in data.forms() if f.xpath(".//button[@name='fields']")]
        if form:
            choose = {"fields": "1", "title": DATA_TITLE}
            for name in ("capital_durability", "city_durability"):
                if not form[0].xpath(f".//input[@name='{name}']/@value"):
                    choose[name] = str(self.rng.randint(*DURABILITY_RANGE))
            self.press(mod, data, form[0], "data fields", choose)
        page = self.read(mod)
        take = page.form("/act/values/")
        if take is None:
            self.checks.check("table_not_stuck", False, f"turn {self.turn}: after the data set was filled the Orda "
                              f"table of battle {self.battle} offers no «take the values»", page.act.number)
            return False
        options = take.xpath(".//select[@name='data_set']/option/@value")
        page = self.press(mod, page, take, "values", {"data_set": options[0]} if options else {})
        return 200 <= page.status < 300

    def order(self) -> bool:
        """A roll-off for the turn order with the server's dice (a bridge's table has its order fixed)."""
        page = self.read(self.bot.seat)
        form = [f for f in page.forms("/act/rolloff/") if f.xpath(".//button[@name='how']")]
        if not form:
            self.checks.check("table_not_stuck", False, f"turn {self.turn}: the Orda table of battle {self.battle} "
                              f"waits for its turn order and offers no roll-off", page.act.number)
            return False
        page = self.press(self.bot.seat, page, form[0], "rolloff", {"how": "server"})
        return 200 <= page.status < 300

    # --- a faction's turn ------------------------------------------------------------------------------------

    def turn_start(self, faction: str) -> bool:
        found = self.offered(faction, "«Начало хода»", lambda p: p.form("/act/turn_start/"))
        if found is None:
            return False
        seat, page, form = found
        self.remember_cities(page)
        choose = {"go": "1"}
        for name in ("summon_hex", "summon_next"):
            options = form.xpath(f".//select[@name='{name}']/option/@value")
            if options:
                choose[name] = self.rng.choice(options)
        return self.maybe_together(faction, seat, page, form, "turn start", choose, "/act/turn_start/")

    def turn_end(self, faction: str) -> bool:
        found = self.offered(faction, "«Итоги»", lambda p: p.form("/act/turn_end/"))
        if found is None:
            return False
        seat, page, form = found
        return self.maybe_together(faction, seat, page, form, "turn end", {}, "/act/turn_end/")

    def maybe_together(self, faction, seat, page, form, kind, choose, action) -> bool:
        """The act pressed by its seat, or now and then by the player and the moderator at once: exactly one
        goes through, the other is refused as pressed too late."""
        players = self.seats.get(faction) or []
        if not players or self.rng.random() >= TOGETHER_SHARE:
            answer = self.press(seat, page, form, kind, choose)
            return 200 <= answer.status < 300
        player = self.rng.choice(players)
        pages = [self.read(player), self.read(self.bot.seat)]
        forms = [p.form(action) for p in pages]
        if not all(f is not None for f in forms):
            return self.press(seat, page, form, kind, choose).status < 300
        answers = together(*[lambda s=s, p=p, f=f: self.press(s, p, f, kind + " (together)", choose,
                                                               expect=(400, 403, 409))
                             for s, p, f in zip((player, self.bot.seat), pages, forms)])
        through = [a for a in answers if 200 <= a.status < 300]
        self.together_done += 1
        self.checks.check("table_not_stuck", len(through) == 1,
                          f"turn {self.turn}: «{kind}» pressed at once by {player.name} and the moderator at the Orda "
                          f"table of battle {self.battle}: {len(through)} went through (one must)",
                          max(a.act.number for a in answers))
        return len(through) >= 1

    def activate(self, faction: str) -> bool:
        """One activation of a unit the page offers: its trait now and then, else an attack it offers, else a
        move (mostly toward the enemy) and then an attack if the move brought one. False: nothing to activate."""
        seat = self.seat_for(faction)
        page = self.read(seat)
        links = page.xpath("//section[@id='orda-act-battle']//p[@class='units-pick']/a/@href")
        if not links:
            return False
        self.remember_cities(page)
        link = self.rng.choice(links)
        page = self.read(seat, link)
        if self.rng.random() < 0.1:
            ability = page.form("/act/ability/")
            if ability is not None:
                self.press(seat, page, ability, "ability", any_options(ability, self.rng))
                return True
        if self.declare(seat, page):
            return True
        moves = page.forms("/act/move/")
        if not moves:
            return True       # nothing for this unit: the turn goes on to the next choice (or its end)
        form = self.pick_move(page, faction, moves, link.split("unit=")[-1])
        if form is None:
            return True
        choose = {}
        if form.xpath(".//select[@name='how']"):
            choose["how"] = "server"
        answer = self.press(seat, page, form, "move", choose)
        if 200 <= answer.status < 300 and self.rng.random() < 0.9:
            self.declare(seat, self.read(seat, link))
        return True

    def declare(self, seat, page: Page) -> bool:
        targets = [f for f in page.forms("/act/declare/")]
        if not targets or self.rng.random() < 0.1:
            return False
        form = self.rng.choice(targets)
        self.press(seat, page, form, "declare", any_options(form, self.rng))
        return True

    def pick_move(self, page: Page, faction: str, moves: list, unit: str):
        """Mostly the offered move nearest an enemy token (the enemy's walls still standing once none stands), not
        provoking; None to stay when the unit stands as near as any move would bring it (a siege goes on)."""
        tokens = tokens_of(page)
        goals = [h for h, f, _u in tokens if h and f != faction]
        if not goals:
            goals = [h for h in walls_of(page) if self.cities.get(h, faction) != faction]
        if not goals:
            return self.rng.choice(moves)
        if self.rng.random() < 0.1:
            return self.rng.choice(moves)

        def score(form):
            button = form.xpath(".//button[@data-hex]")
            h = hex_of(button[0].get("data-hex")) if button else None
            text = " ".join(button[0].itertext()) if button else ""
            return (min(distance(h, g) for g in goals) if h else 99) + (2 if "⚔" in text or "⚠" in text else 0)

        best = min(score(f) for f in moves)
        here = next((h for h, _f, u in tokens if u == unit), None)
        if here and min(distance(here, g) for g in goals) <= best:
            return None
        return self.rng.choice([f for f in moves if score(f) == best])

    def remember_cities(self, page: Page) -> None:
        """Whose each city is, by the tokens that stood nearest it when the battle began (they start by their
        capital, O5): where the moves go once no enemy token stands."""
        if self.cities:
            return
        tokens = tokens_of(page)
        for h in walls_of(page):
            near = sorted((distance(h, t), f) for t, f, _u in tokens if t)
            if near:
                self.cities[h] = near[0][1]

    # --- an attack's counter-measure and dice -------------------------------------------------------------------

    def counter(self, case: dict, pending: dict) -> bool:
        target = next((u["faction"] for u in case["units"] if u["id"] == pending["target"]), "")
        found = self.offered(target, "the counter-measure", lambda p: p.forms("/act/counter/"))
        if found is None:
            return False
        seat, page, forms = found
        form = self.rng.choice(forms)
        choose = {}
        button = form.xpath(".//button[@name='counter']")
        if button:
            choose["counter"] = button[0].get("value")
        options = form.xpath(".//select[@name='retreat_to']/option/@value")
        if options:
            choose["retreat_to"] = self.rng.choice(options)
        answer = self.press(seat, page, form, "counter", choose)
        return 200 <= answer.status < 300

    def roll(self, case: dict, pending: dict) -> bool:
        attacker = next((u["faction"] for u in case["units"] if u["id"] == pending["attacker"]), "")
        found = self.offered(attacker, "the attack's dice", lambda p: p.forms("/act/attack/"))
        if found is None:
            return False
        seat, page, forms = found
        hand = [f for f in forms if f.xpath(".//input[@name='die_attacker']")]
        server = [f for f in forms if f.xpath(".//button[@name='how'][@value='server']")]
        if hand and (not server or self.rng.random() < 1 / 3):
            choose = {"how": "hand", "die_attacker": str(self.rng.randint(1, 6)),
                      "die_defender": str(self.rng.randint(1, 6))}
            answer = self.press(seat, page, hand[0], "attack (typed dice)", choose)
        else:
            answer = self.press(seat, page, (server or forms)[0], "attack (server dice)", {"how": "server"})
        return 200 <= answer.status < 300

    def rule_the_end(self) -> bool:
        """Past the bound: the moderator ends the battle by the ruling the page offers, so the night goes on."""
        page = self.read(self.bot.seat)
        form = page.form("/act/override_end/")
        if form is None:
            return False
        options = form.xpath(".//select[@name='winner']/option/@value")
        self.press(self.bot.seat, page, form, "end by ruling",
                   {"winner": self.rng.choice(options) if options else "", "reason": "репетиция: предел туров"})
        return False

    # --- fog ------------------------------------------------------------------------------------------------

    def fog(self, page: Page) -> None:
        """The event deck's order is the only hidden data (O5): no card still in the pile is named."""
        from django.utils import translation

        from larp.orda import selectors

        if page.status != 200:
            return
        table = self.table()
        pile = ((table.state or {}).get("case") or {}).get("event", {}).get("draw_pile") or []
        text = page.text
        shown = set(re.findall(r"\b(e\d\d)\b", text)) & set(pile)
        with translation.override("ru"):
            shown |= {card for card, said in selectors.event_texts(table, pile).items() if said in text}
        self.checks.check("fog", not shown, f"turn {self.turn}: a player's page at the Orda table of battle "
                                            f"{self.battle} names event cards still in the deck {sorted(shown)}",
                          page.act.number)


def play(rehearsal, bot, turn: int, battle: str, url: str) -> tuple[bool, int]:
    """(ended by the engine, acts) of an Orda table a battle was sent to; its replay checked."""
    from larp.orda import situation as sit
    from larp.tables import services as tables

    found = re.search(r"/(\d+)/?$", url.rstrip("/") + "/")
    if not found:
        return False, 0
    game = OrdaTable(rehearsal, bot, url, turn, battle, int(found.group(1)))
    ended = game.play()
    table = game.table()
    act = game.last_act()
    replayed = sit.replay(table.setup, [(s.kind, s.payload) for s in tables.live_steps(table)])
    rehearsal.checks.check("table_replay", replayed == table.state, f"turn {turn}: the Orda table {table.pk}'s "
                                                                    f"stored state is not its replay", act)
    if ended:
        reason = (table.result or {}).get("ended_by")
        rehearsal.checks.check("table_not_stuck", bool(reason) and reason != "moderator",
                               f"turn {turn}: the Orda table {table.pk} ended without the engine's reason "
                               f"({reason})", act)
        rehearsal.night.notes.append(f"orda table {table.pk} (battle {battle}, turn {turn}): "
                                     f"{reason} in tour {(table.result or {}).get('tour')}, {game.acts} acts, "
                                     f"{game.together_done} pressed together")
    return ended, game.acts
