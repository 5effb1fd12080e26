"""Playing a battle sent to a table through that system's pages, to its end, and checking it.

One entry per system (`PLAYERS`: its play and its engine's replay); `play_table` runs it and checks the table
(not stuck, within its rules' bound, stored finished, its state its engine's replay). Red Plains is played in
`redplains_table.py`. A system without a player here is refused by the command (`SYSTEMS`).

The tactical rules (docs/tactical-rules.md, "Table"): the moderator approves the suggested army of each side,
starts the battle, rolls the Initiative on the server, begins the first turn with a side the page offers, plays
combat acts step by step (`_combat`), and ends it by the act the page offers (T29: the engine names no winner),
with the winner and the way it ended as the page's end form suggests them. The sides' players read their pages
and ask the odds of their own next action (`_players_look`, `tactical_fog`).
"""
from __future__ import annotations

from larp.rehearsal.bots import Page, any_options, form_values

SYSTEMS = ("tactical", "red-plains", "orda")
ACT_LIMIT = 40   # a table not ended after this many acts is stuck


def play_tactical(bot, url: str, players: dict | None = None, checks=None) -> tuple[bool, int]:
    """(ended, acts) of the moderator's play of a tactical table from its page; the sides' players (faction code
    → Seat) read their pages before the battle, in it (asking the odds of their own next action) and at its end."""
    acts = 0
    seats = _tactical_seats(url, players or {})
    _players_look(bot, seats, url, checks)
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
        # The end: the winner and the way it ended, one of the options each offers.
        choose = any_options(form, bot.rng) if kind.startswith("table end") else {}
        page = bot._submit(page, form, kind, choose)
        acts += 1
        if kind.startswith("table end"):
            _players_look(bot, seats, url, checks)
            return True, acts
        if not page.url.rstrip("/").endswith(url.rstrip("/")):
            page = bot._seen(bot.seat.get(url, "table page (tactical)"))
        if kind.startswith("table start"):
            page, played = _first_turn(bot, page, url)
            acts += played
            _players_look(bot, seats, url, checks)
            page, played = _combat(bot, page, url, ACT_LIMIT - acts - 1)
            acts += played
    return False, acts


def _tactical_seats(url: str, players: dict) -> dict:
    """The side key → its player's Seat, for the sides a faction with a tablet plays."""
    import re

    from larp.tables.models import Side

    found = re.search(r"/(\d+)/?$", url.rstrip("/") + "/")
    sides = Side.objects.filter(table_id=int(found.group(1))).select_related("faction") if found else []
    return {s.key: players[s.faction.code] for s in sides if s.faction_id and s.faction.code in players}


def _players_look(bot, seats: dict, url: str, checks) -> None:
    """Each side's player reads the table's page (its fog checked) and, in the battle, asks the odds of an action
    of its own among what its odds form offers (the players' one thing to do there: every battle act is the
    moderator's)."""
    import urllib.parse

    for key, seat in sorted(seats.items()):
        page = seat.get(url, "table page (tactical, player)")
        if checks is not None:
            tactical_fog(checks, page, key)
        form = page.xpath("//section[@id='tr-player-odds']//form")
        if not form:
            continue
        values = {}
        for name in ("kind", "attacker", "defender", "attacked_from"):
            options = [o for o in form[0].xpath(f".//select[@name='{name}']/option/@value") if o]
            if options:
                values[name] = bot.rng.choice(options)
        values["distance_cm"] = str(bot.rng.randint(5, 40))
        odds = seat.get(f"{url.split('?')[0]}?{urllib.parse.urlencode(values)}", "table odds (tactical, player)")
        if checks is not None:
            tactical_fog(checks, odds, key)


def tactical_fog(checks, page: Page, key: str) -> None:
    """A side's tactical page is its own: before the battle it shows its own army (the other's only as a status,
    T-rules' army lists are each side's); none of the moderator's forms (approve, start, the action, the end).
    In the battle the board is the table's, open to both sides: nothing else is hidden."""
    if page.status != 200:
        return
    armies = {i.removeprefix("tr-army-") for i in page.xpath("//section[starts-with(@id, 'tr-army-')]/@id")}
    checks.check("fog", armies <= {key}, f"the {key} seat's tactical page shows the armies of "
                                         f"{sorted(armies - {key})}", page.act.number)
    moderators = [f.get("action") for f in page.forms() if any(
        part in (f.get("action") or "") for part in ("/approve/", "/start/", "/act/", "/end/", "/override/"))]
    moderators += page.xpath("//form[@id='tr-action-form']/@id")
    checks.check("fog", not moderators, f"the {key} seat's tactical page offers the moderator's forms "
                                        f"{moderators}", page.act.number)


COMBAT_KINDS = ("clash", "melee", "volley")   # the action form's combat kinds the bot tries
COMBAT_SHARE = 0.6                             # a step's chance of a combat act before the next step
TRIES = 4                                      # pairs of units looked at (the odds shown) before giving up a step


def _combat(bot, page: Page, url: str, budget: int) -> tuple[Page, int]:
    """The battle played by combat acts turn by turn: at each step of the turn tracker, now and then a clash,
    melee or volley between two units the action form offers, resolved only when the page's «Show the odds» for
    it shows odds and no refusal; then «Next step». It stops when every unit of a side has fled or been destroyed
    (the page says so), after the turns the bot chose, or when its act budget is spent; the end form follows (T29:
    the engine names no winner, the moderator ends the battle)."""
    acts, turns = 0, bot.rng.randint(1, 2)
    steps = len(page.xpath("//ol[contains(@class, 'tr-steps')]/li")) or 1
    for _ in range(turns * steps):
        if acts >= budget - 2 or page.xpath("//*[contains(@class, 'tr-routed')]"):
            break
        if bot.rng.random() < COMBAT_SHARE:
            page, played = _combat_act(bot, page, url)
            acts += played
        step = page.form("/turn/")
        if step is None:
            break
        bot._submit(page, step, "table next step (tactical)")
        acts += 1
        page = bot._seen(bot.seat.get(url, "table page (tactical)"))
    return page, acts


def _combat_act(bot, page: Page, url: str) -> tuple[Page, int]:
    """One combat act among the units the action form offers (not fleeing), the odds read first; (page, acts)."""
    import urllib.parse

    forms = page.xpath("//form[@id='tr-action-form']")
    if not forms:
        return page, 0
    units = [o.get("value") for o in forms[0].xpath(".//select[@name='attacker']/option")
             if o.get("value") and not o.get("data-fleeing")]
    if len(units) < 2:
        return page, 0
    for _ in range(TRIES):
        first, second = bot.rng.sample(units, 2)
        kind = bot.rng.choice(COMBAT_KINDS)
        values = {k: v for k, v in form_values(forms[0]).items() if k not in ("csrfmiddlewaretoken", "key")}
        values.update(kind=[kind], attacker=[first], defender=[second], preview=["1"], server_rest=["on"])
        if kind == "melee":
            values["melee_units"] = [first, second]
        if kind == "volley":
            values["distance_cm"] = [str(bot.rng.randint(5, 40))]
        query = urllib.parse.urlencode([(k, v) for k, vs in values.items() for v in vs])
        odds = bot._seen(bot.seat.get(f"{url.split('?')[0]}?{query}", "table odds (tactical)"))
        if odds.status != 200 or odds.xpath("//*[@id='tr-odds']//*[contains(@class, 'tr-refused')]") or \
                not odds.xpath("//*[@id='tr-odds']//li"):
            continue
        shown = odds.xpath("//form[@id='tr-action-form']")
        resolve = odds.xpath("//button[@id='tr-resolve']/@formaction")
        if not shown or not resolve:
            return odds, 0
        sent = form_values(shown[0])
        sent.update(server_rest=["on"])
        sent.pop("preview", None)
        bot._seen(bot.seat.post(urllib.parse.urljoin(odds.url, resolve[0]), sent, f"table {kind} (tactical)"))
        return bot._seen(bot.seat.get(url, "table page (tactical)")), 1
    return page, 0


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


# --- one entry per system: its play (to the end, through its pages) and its engine's replay ------------------


def _tactical(night, bot, url: str):
    from larp.rehearsal.redplains_table import Played

    ended, acts = play_tactical(bot, url, night.player_seats(), night.checks)
    return Played(ended=ended, acts=acts, bound=ACT_LIMIT, turns=acts)


def _red_plains(night, bot, url: str):
    from larp.rehearsal import redplains_table

    return redplains_table.play(bot, url, night.player_seats(), night.checks)


def _tactical_replay(table) -> dict:
    from larp.tactical.services import replay_table

    return replay_table(table)


def _red_plains_replay(table) -> dict:
    from larp.rehearsal import redplains_table

    return redplains_table.replay(table)


PLAYERS = {"tactical": (_tactical, _tactical_replay), "red-plains": (_red_plains, _red_plains_replay)}


def play_table(night, bot, turn: int, battle: str, system: str, url: str) -> None:
    """Play the table a battle was sent to, to its end, and check it: some seat had an open act at every read
    until the end, it ended within its rules' bound and is stored finished, its state is its engine's replay."""
    import re

    from larp.tables.models import Table

    if system == "orda":
        _play_orda(night, bot, turn, battle, url)
        return
    play, replay = PLAYERS[system]
    played = play(night, bot, url)
    checks, act = night.checks, night.log.acts[-1].number
    for number, what in played.stuck:
        checks.check("table_not_stuck", False, f"turn {turn}: the {system} table of battle {battle} offers no act "
                                               f"to any seat before its end ({what})", number)
    for number, what in played.refusals:
        checks.check("http", False, f"turn {turn}: the {system} table of battle {battle}: {what}", number)
    checks.check("table_not_stuck", played.ended, f"turn {turn}: the {system} table of battle {battle} did not end "
                                                  f"({played.acts} acts played)", act)
    checks.check("table_not_stuck", played.turns <= played.bound,
                 f"turn {turn}: the {system} table of battle {battle} ended after {played.turns}, past its rules' "
                 f"bound of {played.bound}", act)
    found = re.search(r"/(\d+)/?$", url.rstrip("/") + "/")
    table = Table.objects.filter(pk=int(found.group(1))).first() if found else None
    if table is None:
        checks.check("table_replay", False, f"no table at {url}", act)
        return
    checks.check("table_replay", replay(table) == table.state,
                 f"turn {turn}: the {system} table {table.pk}'s stored state is not its engine's replay", act)
    if played.ended:
        checks.check("table_not_stuck", table.status == Table.FINISHED,
                     f"turn {turn}: table {table.pk} ended on its page but is {table.status}", act)
        night.night.tables_ended[system] = night.night.tables_ended.get(system, 0) + 1


def _play_orda(night, bot, turn: int, battle: str, url: str) -> None:
    """An Orda table: its bots check its replay, its bound and its fog as they play (`orda_table.play`); here
    only that it ended and is stored finished."""
    import re

    from larp.rehearsal.orda_table import play
    from larp.tables.models import Table

    ended, acts = play(night, bot, turn, battle, url)
    act = night.log.acts[-1].number
    night.checks.check("table_not_stuck", ended, f"turn {turn}: the orda table of battle {battle} offers no act "
                                                 f"before its end ({acts} acts played)", act)
    found = re.search(r"/(\d+)/?$", url.rstrip("/") + "/")
    table = Table.objects.filter(pk=int(found.group(1))).first() if found else None
    if ended and table is not None:
        night.checks.check("table_not_stuck", table.status == Table.FINISHED,
                           f"turn {turn}: table {table.pk} ended on its page but is {table.status}", act)
        night.night.tables_ended["orda"] = night.night.tables_ended.get("orda", 0) + 1
