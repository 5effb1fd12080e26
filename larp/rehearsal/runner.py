"""A whole game night played by bots: the game prepared, the stack started, the turns played, the checks run.

The bots act only through HTTP (`bots.Seat`). The runner itself reads the database the server writes (it is
the same one: a rehearsal against `--url` must share the server's database) to know when to act and to check
the invariants after the acts; it never writes the game after preparing it.
"""
from __future__ import annotations

import io
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

from larp.rehearsal import checks as named
from larp.rehearsal.bots import Act, Log, Page, Seat, together
from larp.rehearsal.moderator import ModeratorBot
from larp.rehearsal.tablets import TabletBot

ROOT = Path(__file__).resolve().parents[2]
FAST_STRATEGY_MIN = 20.0          # seconds of a --fast Strategy phase, at least
FAST_SECONDS_PER_UNIT = 0.5       # and this much more per unit to order (the tablets file one after another)


class SetupError(Exception):
    """The night cannot be prepared as asked (no such game, a copy this database cannot hold): one line."""


@dataclass
class Options:
    scenario: str = "latin-east-1204"
    game: str = ""
    turns: int = 6
    tablets: int = 1
    tables: list = field(default_factory=list)
    seed: int = 1
    url: str = ""
    fast: bool = False
    prepared: int = 0          # a rehearsal copy made already (the console's page): played as it is
    contests: int = 0          # «Ордонанс» contests played alongside, per turn (ordonnance_table.py)


@dataclass
class Night:
    """What the report is made of."""
    options: Options
    log: Log
    checks: named.Checks
    game_id: int = 0
    turns_played: int = 0
    seconds: float = 0.0
    tables_ended: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    change_cpu: list = field(default_factory=list)  # the server's CPU-seconds over each phase change (own stack)
    tablets: int = 0


# The moderator's acts that change the phase (their kinds: the console's address, moderator.py's _kind_of).
PHASE_CHANGES = ("console: start", "console: next", "console: open")


# --- the stack ------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Stack:
    """A live server (gunicorn) on a free port and a Celery worker with beat, on this process's database."""

    def __init__(self, workdir: Path):
        from larp.campaign.management.commands.rungame import redis_reachable
        from larp.checks import refuse_dev_key_without_debug

        refuse_dev_key_without_debug()  # the server refuses to start so: say it before anything else
        self.env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.env.setdefault("LARP_PLAIN_STATIC", "1")  # no collectstatic needed: bots read no static files
        if "CELERY_BROKER_URL" not in os.environ and not redis_reachable(settings.CELERY_BROKER_URL):
            self.env.update(CELERY_BROKER_URL="filesystem://", CACHE_URL="locmem")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workdir = workdir
        python = sys.executable
        self.children = [
            self._start("web", [python, "-m", "gunicorn", "larp.wsgi:application", "--bind",
                                f"127.0.0.1:{self.port}", "--workers", "2", "--threads", "4", "--timeout", "60"]),
            self._start("worker", [python, "-m", "celery", "-A", "larp", "worker", "--pool", "solo", "-B",
                                   "--schedule", str(workdir / "beat"), "--loglevel", "INFO",
                                   "--without-gossip", "--without-mingle", "--without-heartbeat"]),
        ]
        self._wait_ready()

    def _start(self, name: str, command: list[str]) -> subprocess.Popen:
        log = open(self.workdir / f"{name}.log", "w")
        return subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)

    def _wait_ready(self, timeout: float = 120.0) -> None:
        import urllib.request

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                with urllib.request.urlopen(self.url + "/login/", timeout=5) as answer:
                    if answer.status == 200 and "ready." in (self.workdir / "worker.log").read_text(errors="replace"):
                        return
            except OSError:
                pass
            if any(child.poll() is not None for child in self.children):
                break
            time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"the stack did not start; logs in {self.workdir}")

    def cpu_seconds(self) -> float:
        """CPU-seconds the stack's processes and theirs (gunicorn's workers, Celery's) have used so far (/proc)."""
        tick = os.sysconf("SC_CLK_TCK")
        parents, used = {}, {}
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                with open(f"/proc/{name}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(name)] = int(fields[1])
            # Its own CPU and that of its children that have ended (a restarted worker's, a pool's).
            used[int(name)] = sum(int(v) for v in fields[11:15]) / tick
        mine = {child.pid for child in self.children}
        grown = True
        while grown:
            more = {pid for pid, parent in parents.items() if parent in mine} - mine
            grown = bool(more)
            mine |= more
        return sum(used.get(pid, 0.0) for pid in mine)

    def stop(self) -> None:
        for child in self.children:
            if child.poll() is None:
                child.terminate()
        for child in self.children:
            try:
                child.wait(timeout=15)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


# --- the game -------------------------------------------------------------------------------------


def prepare(options: Options, out=None):
    """A fresh game from the scenario (or a copy of the named game), a moderator, the tablets' join codes."""
    from larp.campaign.services.members import add_moderator, create_player
    from larp.scenarios import ScenarioError
    from larp.scenarios.loader import load_scenario
    from larp.tablet import services as tablet

    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    if options.prepared:
        from larp.campaign.models import Game

        game = Game.objects.get(pk=options.prepared, rehearsal_of__isnull=False)
    elif options.game:
        game = copy_game(options.game, f"Репетиция {options.seed} ({options.game}) {stamp}")
    else:
        try:
            game = load_scenario(options.scenario, title=f"Репетиция {options.seed}: {options.scenario} {stamp}")
        except ScenarioError as exc:
            raise SetupError(f"--scenario: {exc}") from None
    units = game.armies.count() + game.fleets.count()
    if options.fast:
        seconds = int(FAST_STRATEGY_MIN + FAST_SECONDS_PER_UNIT * units * max(1, options.tablets))
        game.rules = {**game.rules, "phase_seconds": {**game.rules.get("phase_seconds", {}), "strategy": seconds}}
        game.save(update_fields=["rules"])
    password = f"rehearse-{random.SystemRandom().randrange(10 ** 12)}"
    mod, _ = add_moderator(game, f"rehearsal-mod-{game.pk}", password=password)
    seats = []
    for faction in game.factions.order_by("code"):
        for i in range(1, options.tablets + 1):
            player, _ = create_player(faction, f"rehearsal-{game.pk}-{faction.code}-{i}")
            token = tablet.issue_code(mod, game, player)
            seats.append((faction.code, i, reverse("tablet:join", args=[tablet.link(token)])))
    return game, mod.username, password, seats


def copy_game(name: str, title: str):
    """The named game (id or title) copied through its game file, so the rehearsal never touches it."""
    from larp.campaign.models import Game
    from larp.gamefile import services as gamefile

    found = Game.objects.filter(pk=int(name)) if name.isdigit() else Game.objects.filter(title=name)
    if found.count() != 1:
        raise SetupError(f"--game: no single game with id or title {name!r}")
    from larp.rehearsal.services import make_copy

    try:
        return make_copy(found.get(), title)
    except gamefile.GameFileError as exc:
        raise SetupError(f"--game: {exc}") from None


# --- the night ------------------------------------------------------------------------------------


class Rehearsal:
    def __init__(self, options: Options, say=None):
        self.options = options
        self.say = say or (lambda line: None)
        self.log = Log(on_act=self.after_act)
        self.checks = named.Checks(options.seed)
        self.night = Night(options, self.log, self.checks)
        self.rng = random.Random(options.seed)
        self.own_units: dict[str, set] = {}
        self.resent: list[tuple] = []  # (faction, unit, key, act) of orders sent again after a lost answer
        self.offline_rng = random.Random(f"{options.seed}-offline")
        self.stack = None  # its processes' CPU is read around each phase change (not with --url: not ours)
        self._cpu_before: float | None = None

    # --- checks after every act ------------------------------------------------------------------

    def after_act(self, act: Act) -> None:
        if self.stack is not None and act.seat == "moderator":
            # The server's CPU over a phase change: from the moderator's act before it to the answer to it.
            now = self.stack.cpu_seconds()
            if act.kind.startswith(PHASE_CHANGES) and self._cpu_before is not None:
                self.night.change_cpu.append(now - self._cpu_before)
            self._cpu_before = now
        expected = act.expect or ()
        ok = act.status in expected or 200 <= act.status < 400
        self.checks.check("http", ok, f"{act.method} {act.url} ({act.kind}, {act.seat}) answered "
                                      f"{act.status or act.note}", act.number)

    def fog(self, bot: TabletBot, page: Page) -> None:
        shown = {a.get("data-unit") for a in page.xpath("//article[@data-unit]")}
        foreign = sorted(shown - self.own_units.get(bot.faction, set()))
        self.checks.check("fog", not foreign, f"{bot.faction}'s tablet page shows the stacks of other factions' "
                                              f"units {foreign}", page.act.number)
        others = sorted({h for h in page.xpath("//a/@href | //form/@action")
                         if "/f/" in h and f"/f/{bot.faction}/" not in h})
        self.checks.check("fog", not others, f"{bot.faction}'s tablet page links to other factions' pages {others}",
                          page.act.number)

    # --- the whole night ------------------------------------------------------------------------

    def run(self) -> Night:
        started = time.monotonic()
        stack = None
        workdir = Path(tempfile.mkdtemp(prefix="rehearsal-"))
        try:
            game, username, password, seats = prepare(self.options)
            self.game = game
            self.night.game_id = game.pk
            self.own_units = self._units_by_faction(game)
            base = self.options.url
            if not base:
                stack = self.stack = Stack(workdir)
                base = stack.url
                self.night.notes.append(f"stack: {base}, broker {stack.env.get('CELERY_BROKER_URL', 'default')}, "
                                        f"logs in {workdir}")
            self.say(f"game {game.pk} «{game.title}» at {base}")
            self.mod = ModeratorBot(Seat(base, "moderator", self.log), game.pk, random.Random(self.rng.random()))
            self.mod.tables, self.mod.on_table = tuple(self.options.tables), self.play_table
            signed = self.mod.sign_in(username, password)
            self.checks.check("http", "/login/" not in signed.url, "the moderator's sign-in with the right password "
                                                                  "stayed on the login page", signed.act.number)
            self.tablets = []
            for faction, i, join in seats:
                seat = Seat(base, f"{faction}#{i}", self.log)
                bot = TabletBot(seat, faction, join, game.pk, random.Random(self.rng.random()))
                page = bot.join()
                self.fog(bot, page)
                self.tablets.append(bot)
            self.night.tablets = len(self.tablets)
            first = self._start_game()
            for number in range(first, first + self.options.turns):
                self.play_turn(number, last=number == first + self.options.turns - 1)
                self.night.turns_played += 1
                self.say(f"turn {number} done ({len(self.log.acts)} acts, "
                         f"{len(self.checks.violations)} violations)")
            self.final_checks()
        finally:
            if stack is not None:
                stack.stop()
            self.night.seconds = time.monotonic() - started
        return self.night

    def _units_by_faction(self, game) -> dict[str, set]:
        """Every army's and fleet's code (as pages name them) by its faction, from the engine's view of the game."""
        from larp.turns.situation import case_from_game

        case = case_from_game(game)
        found: dict[str, set] = {}
        for unit in case["armies"] + case["fleets"]:
            found.setdefault(unit["faction"], set()).add(unit["id"])
        return found

    def _start_game(self) -> int:
        """The game started from the console when it is not yet (a copy may be started): its current turn."""
        from larp.turns.models import Phase

        phase = Phase.objects.filter(turn__game=self.game).order_by("-pk").first()
        if phase is not None:
            return phase.turn.number
        kind, label, form, page = self.mod.next_step()
        self.checks.check("console_not_stuck", kind == "post", f"a new game's console offers no start ({kind})",
                          page.act.number)
        if kind == "post":
            self.mod.press_primary(form, page, label)
        return 1

    # --- one turn ---------------------------------------------------------------------------------

    def play_turn(self, number: int, last: bool) -> None:
        from larp.turns.models import Phase, Turn

        turn = Turn.objects.get(game=self.game, number=number)
        strategy = Phase.objects.filter(turn=turn, kind=Phase.STRATEGY).first()
        if strategy is not None and strategy.state != Phase.CLOSED:  # a copy may be further on in its turn
            self.strategy(turn)
            self.after_deadline(turn)
        self.moderate(turn)
        self.turn_equals_engine(turn)
        self.acts_once(turn)
        from larp.rehearsal.ordonnance_table import play_contests
        play_contests(self, turn.number)
        if not last:
            kind, label, form, page = self.mod.next_step()
            ok = kind == "post" and form.get("action", "").endswith("/next")
            self.checks.check("console_not_stuck", ok, f"after regroup of turn {number} the console offers no "
                                                       f"next turn ({kind} {label!r})", page.act.number)
            if ok:
                self.mod.press_primary(form, page, label)
            phase = Phase.objects.filter(turn__game=self.game).order_by("-pk").first()
            self.checks.check("console_not_stuck", phase.turn.number == number + 1 and phase.kind == Phase.STRATEGY,
                              f"turn {number + 1} did not open", self.log.acts[-1].number)

    def strategy(self, turn) -> None:
        """Every tablet reads its board and files some of its units' orders; one filing waits for the last
        second; one form read before the deadline is sent again after it (and must be refused)."""
        last_second, after = None, None
        for bot in self.tablets:
            bot.filings, bot.answers = [], []  # this turn's
        for bot in self.tablets:
            page = bot.board()
            self.fog(bot, page)
            forms = {unit: (page, form) for unit, form in bot.open_forms(page)}
            for unit in list(forms):
                if unit not in forms:
                    continue
                page, form = forms[unit]  # as the page shows it now: an answer may have replaced the card
                if bot.rng.random() < 0.15:
                    continue  # left without an order: it holds
                picks = bot.choose(form)
                if picks is None:
                    self.checks.check("http", False, f"{bot.faction}: the order form of {unit} offers a path that "
                                                     f"cannot be completed", page.act.number)
                    continue
                if last_second is None and self.rng.random() < 0.2:
                    last_second = (bot, page, unit, form, picks)
                    continue
                if after is None:
                    after = (bot, page, unit, form, dict(picks))
                filing = self.press(bot, page, unit, form, picks)
                self.checks.check("http", filing.saved, f"{bot.faction}: a legal {picks} for {unit} was refused "
                                                        f"before the deadline (status {filing.status}: "
                                                        f"{filing.refusal})", filing.act)
                # The answer carries the unit's card and, out of band, the fleets' cards an army's order changed.
                answer = bot.answers[-1]
                shown = {a.get("data-unit") for a in answer.xpath("//article[@data-unit]")}
                for code in shown:
                    forms.pop(code, None)
                forms.update({code: (answer, f) for code, f in bot.open_forms(answer) if code != unit})
        clock = self.tablets[0].clock()
        if last_second is not None:
            bot, page, unit, form, picks = last_second
            self._wait_remaining(bot, 1.0)
            bot.file(page, unit, form, picks, kind="file order (last second)")
            last = bot.filings[-1]
            # Sent before the deadline: it must be saved (an answer after it is still on time: R3's grace).
            self.checks.check("http", last.saved, f"{bot.faction}: an order sent a second before the deadline "
                                                   f"for {unit} was refused (status {last.status})", last.act)
        grace = float(settings.ORDER_GRACE_SECONDS) + float(settings.ORDER_SETTLE_SECONDS)
        self._wait_closed(turn, grace)
        if after is not None and clock:
            bot, page, unit, form, picks = after
            filing = bot.file(page, unit, form, picks, kind="file order (after the deadline)", expect=(409,))
            self.checks.check("late_refused", not filing.saved and filing.status == 409,
                              f"{bot.faction}: an order for {unit} sent after the deadline was "
                              f"{'accepted' if filing.saved else f'answered {filing.status}'}", filing.act)

    def press(self, bot: TabletBot, page: Page, unit: str, form, picks: dict):
        """File an order; now and then pressed twice at once (one key: kept once), or together with a fellow
        seat of the faction choosing for the same unit (either may be kept, both must be acknowledged)."""
        roll = self.rng.random()
        fellows = [b for b in self.tablets if b.faction == bot.faction and b is not bot]
        if roll < 0.05:
            key = f"double-{self.rng.randrange(10 ** 9)}"
            first, second = together(lambda: bot.file(page, unit, form, picks, key=key),
                                     lambda: bot.file(page, unit, form, picks, kind="file order (double press)",
                                                      key=key))
            self.checks.check("http", second.saved, f"{bot.faction}: the second copy of a double press for {unit} "
                                                    f"was refused (status {second.status}: {second.refusal})",
                              second.act)
            return first
        if roll < 0.12 and fellows:
            fellow = fellows[0]
            other = fellow.choose(form) or picks
            first, second = together(lambda: bot.file(page, unit, form, picks),
                                     lambda: fellow.file(page, unit, form, other, kind="file order (two seats)"))
            first.together = second.together = (first.key, second.key)
            self.checks.check("http", second.saved, f"{fellow.faction}: a second seat's order for {unit} pressed "
                                                    f"together was refused (status {second.status}: "
                                                    f"{second.refusal})", second.act)
            return first
        if 0.12 <= roll < 0.16:
            return self.offline_and_back(bot, page, unit, form, picks)
        return bot.file(page, unit, form, picks)

    def offline_and_back(self, bot: TabletBot, page: Page, unit: str, form, picks: dict):
        """The order reaches the server but its answer is lost on the hall's Wi-Fi; the tablet goes quiet for a
        moment, comes back, reads its page and sends the order again with the same confirmation key (as
        tablet.js's outbox does). The answer to the copy is the acknowledgement; the server must keep the order
        once (`act_once` after the deadline: one event of the key)."""
        # Its own random numbers: the night's other choices stay what the seed made them before.
        key = f"offline-{self.offline_rng.randrange(10 ** 9)}"
        bot.file(page, unit, form, picks, kind="file order (answer lost)", key=key)
        bot.filings.pop()  # the tablet never saw that answer: not an acknowledgement
        bot.answers.pop()
        time.sleep(self.offline_rng.uniform(0.2, 0.6))  # offline: no request at all
        bot.seat.get(bot.page_url, "tablet page (back online)")
        again = bot.file(page, unit, form, picks, kind="file order (resent after going offline)", key=key)
        self.resent.append((bot.faction, unit, key, again.act))
        return again

    def _wait_remaining(self, bot: TabletBot, seconds: float) -> None:
        """Until the tablet's clock says `seconds` are left (its own clock from the server's answer)."""
        clock = bot.clock()
        if clock.get("remaining") is None:
            return
        deadline = time.monotonic() + float(clock["remaining"])
        time.sleep(max(0.0, deadline - time.monotonic() - seconds))

    def _wait_closed(self, turn, grace: float, timeout: float = 900.0) -> None:
        """Until the Strategy phase is closed (by the worker at the deadline, or a tablet's clock request)."""
        from larp.turns.models import Phase

        end = time.monotonic() + timeout
        bot = self.tablets[0]
        while time.monotonic() < end:
            phase = Phase.objects.get(turn=turn, kind=Phase.STRATEGY)
            if phase.state == Phase.CLOSED:
                break
            clock = bot.clock()
            time.sleep(max(0.2, min(2.0, (clock.get("remaining") or 0) + grace)))
        time.sleep(0.2)

    def after_deadline(self, turn) -> None:
        """Every acknowledged order is the one the server keeps; the deadline was closed once."""
        from larp.orders.models import Order
        from larp.turns.models import AuditEntry, Phase

        phase = Phase.objects.get(turn=turn, kind=Phase.STRATEGY)
        act = self.log.acts[-1].number
        self.checks.check("deadline_once", phase.state == Phase.CLOSED,
                          f"turn {turn.number}: Strategy is not closed after its deadline", act)
        closes = AuditEntry.objects.filter(game=self.game, action="phase_closed", detail__turn=turn.number,
                                           detail__phase=Phase.STRATEGY).count()
        self.checks.check("deadline_once", closes == 1,
                          f"turn {turn.number}: Strategy closed {closes} times in the audit log", act)
        from larp.orders.models import OrderEvent

        for faction, unit, key, resent_at in self.resent:
            events = OrderEvent.objects.filter(turn=turn, unit=unit, key=key).exclude(
                action=OrderEvent.DROPPED).count()
            self.checks.check("act_once", events == 1, f"turn {turn.number}: {faction}'s order for {unit}, sent, its "
                                                       f"answer lost and sent again with its key (act {resent_at}), "
                                                       f"is on the record {events} times", resent_at)
        self.resent = []
        kept = {}
        for order in Order.objects.filter(turn=turn, implicit=False):
            kept[order.payload.get("unit")] = order
        for unit, (filing, dropped_by) in sorted(named.expected_orders(f for bot in self.tablets
                                                                 for f in bot.filings).items()):
            order = kept.get(unit)
            if dropped_by is not None:
                # R5: a later army order boarded this fleet, which withdrew the fleet's order (the answer said so).
                self.checks.check("orders_kept", order is None,
                                  f"turn {turn.number}: {unit}'s order {filing.picks} (act {filing.act}) was "
                                  f"said withdrawn when {dropped_by.unit}'s order was filed (act {dropped_by.act}), "
                                  f"yet the server keeps {order.payload if order else 'none'}", dropped_by.act)
                continue
            ok = order is not None and (order.key == filing.key or order.key in filing.together)
            self.checks.check("orders_kept", ok, f"turn {turn.number}: {unit}'s acknowledged order {filing.picks} "
                                                 f"(act {filing.act}) is not the one kept "
                                                 f"({order.payload if order else 'none'})", filing.act)

    def moderate(self, turn, limit: int = 40) -> None:
        """The console from the closed Strategy to regroup applied."""
        from larp.battles.models import TurnResolution

        for _ in range(limit):
            resolution = TurnResolution.objects.filter(turn=turn).first()
            if resolution is not None and resolution.applied_at is not None:
                return
            kind, label, target, page = self.mod.next_step()
            if kind == "post":
                self.mod.press_primary(target, page, label)
            elif kind == "link" and "/movement/" in target:
                self.mod.movement(target)
            elif kind == "link" and "/battles/" in target:
                self.mod.battles(target, turn.number)
            elif kind == "link" and "/regroup/" in target:
                self.mod.regroup(target)
            else:
                time.sleep(0.3)
        self.checks.check("console_not_stuck", False, f"turn {turn.number}: regroup not applied after {limit} "
                                                      f"steps of the console", self.log.acts[-1].number)

    # --- the turn equals the engine ------------------------------------------------------------

    def turn_equals_engine(self, turn) -> None:
        from larp.battles.models import TurnResolution
        from larp.turns.situation import case_from_game

        resolution = TurnResolution.objects.get(turn=turn)
        case = dict(turn.start_state)
        case["orders"] = [o.payload for o in turn.orders.order_by("implicit", "filed_at", "id")]
        case["dice"], case["choices"], case["seed"] = resolution.dice, resolution.choices, None
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as f:
            json.dump(case, f, ensure_ascii=False)
        out = io.StringIO()
        try:
            call_command("adjudicate", "turn", f.name, stdout=out)
        finally:
            os.unlink(f.name)
        expected = json.loads(out.getvalue())["state"]
        now = case_from_game(self.game)
        differences = []
        armies = {a["id"]: (a["province"], sorted(a["troops"])) for a in now["armies"] if a["province"]}
        want = {k: (v["province"], sorted(v["troops"])) for k, v in expected["armies"].items() if v["province"]}
        differences += [f"army {k}: {armies.get(k)} ≠ engine {want.get(k)}" for k in sorted(set(armies) | set(want))
                        if armies.get(k) != want.get(k)]
        fleets = {x["id"]: (x["sea"], sorted(x["troops"])) for x in now["fleets"] if x["sea"]}
        want = {k: (v["sea"], sorted(v["troops"])) for k, v in expected["fleets"].items() if v["sea"]}
        differences += [f"fleet {k}: {fleets.get(k)} ≠ engine {want.get(k)}" for k in sorted(set(fleets) | set(want))
                        if fleets.get(k) != want.get(k)]
        provinces = {p["id"]: (p["owner"], sorted(p["garrison"])) for p in now["provinces"]}
        want = {k: (v["owner"], sorted(v["garrison"])) for k, v in expected["provinces"].items()}
        differences += [f"province {k}: {provinces.get(k)} ≠ engine {want.get(k)}" for k in sorted(want)
                        if provinces.get(k) != want.get(k)]
        if now["special_state"] != expected["special_state"]:
            differences.append("the specials' state differs")
        self.checks.check("turn_equals_engine", not differences,
                          f"turn {turn.number}: the map after regroup is not the engine's: " + "; ".join(differences[:5]),
                          self.log.acts[-1].number)

    def acts_once(self, turn) -> None:
        """The audit log has each console act of the turn once: a battle's confirmation (net of its undoes),
        the movement, the regroup, each phase's start."""
        from collections import Counter

        from larp.turns.models import AuditEntry

        entries = AuditEntry.objects.filter(game=self.game, detail__turn=turn.number)
        act = self.log.acts[-1].number
        # A battle is decided by its dice (battle_confirmed) or by a table's result (outside_outcome_entered).
        confirmed = Counter(e.detail.get("battle") for e in entries.filter(
            action__in=["battle_confirmed", "outside_outcome_entered"]))
        undone = Counter(e.detail.get("battle") for e in entries.filter(action="battle_undone"))
        for battle, n in sorted(confirmed.items()):
            self.checks.check("act_once", n - undone.get(battle, 0) == 1,
                              f"turn {turn.number}: battle {battle} decided {n} times, undone "
                              f"{undone.get(battle, 0)}", act)
        for action in ("movement_applied", "regroup_applied"):
            n = entries.filter(action=action).count()
            self.checks.check("act_once", n == 1, f"turn {turn.number}: {action} {n} times in the audit log", act)
        from larp.dice.models import Roll

        silent = Roll.objects.filter(stream__game=self.game, ref__startswith=f"turn-{turn.number}:").exclude(
            status=Roll.USED).filter(reason="").count()
        self.checks.check("act_once", silent == 0, f"turn {turn.number}: {silent} server dice rolled and dropped "
                                                   f"without a reason (a roll made twice?)", act)
        started = Counter(e.detail.get("phase") for e in entries.filter(action="phase_started"))
        for phase, n in sorted(started.items()):
            self.checks.check("act_once", n == 1, f"turn {turn.number}: phase {phase} started {n} times", act)

    def play_table(self, bot: ModeratorBot, turn: int, battle: str, system: str, url: str) -> None:
        """Play the table a battle was sent to, to its end, and check it (`tables.play_table`)."""
        from larp.rehearsal.tables import play_table

        play_table(self, bot, turn, battle, system, url)

    def player_seats(self) -> dict:
        """Each faction's first tablet seat (signed in by its join code): who plays its side at a table."""
        seats = {}
        for bot in self.tablets:
            seats.setdefault(bot.faction, bot.seat)
        return seats

    def final_checks(self) -> None:
        from larp.dice import selectors as dice

        lines = dice.check(self.game)
        act = self.log.acts[-1].number if self.log.acts else 0
        for line in lines:
            self.checks.check("dice", not line.problems, f"verify_dice: {line.text()}", act)
