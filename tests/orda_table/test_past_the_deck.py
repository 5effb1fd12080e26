"""A table played past its event deck: at tour 25 the 24 cards are all used, and the table reshuffles the discards
by its own committed dice (O10), on the record, so the game goes on to each mode's own end — Border: thirty tours
elapsed; Skirmish: the enemy's leader dead and capital destroyed; Conquest: no Mongol unit left — through the same
services the pages call. The stored state must equal the engine's replay, and each reshuffle must be what the
table's dice give. The numbers are the data set MADE UP FOR THE TESTS."""
import pytest
from django.utils import translation

from larp.dice import selectors as dice_selectors
from larp.dice import services as dice
from larp.dice.models import Roll
from larp.orda import dataset, selectors, services
from larp.orda import situation as sit
from larp.orda.engine.data import load
from larp.orda.engine.hexes import distance
from larp.rules.dice import die
from larp.tables import services as tables
from larp.tables.access import seat
from larp.tables.models import Step, Table


@pytest.fixture(autouse=True)
def _russian():
    with translation.override("ru"):
        yield


class Play:
    """Acts at one table as its pages would send them: each faction's player for their own side, the moderator
    for the dice typed in by hand."""

    def __init__(self, game, table, moderator, player, other_player):
        self.table = table
        self.mod = (moderator, seat(moderator, game.pk, table.pk))
        self.side = {"rus": (player, seat(player, game.pk, table.pk)),
                     "north_mongolia": (other_player, seat(other_player, game.pk, table.pk))}

    def act(self, who, kind, payload, hand=None):
        user, s = self.mod if who is None else self.side[who]
        self.table = services.act(self.table.pk, user, s, kind, payload, hand=hand)
        return self.table

    @property
    def state(self):
        self.table.refresh_from_db()
        return services.current(self.table)

    def turn(self, fight=None):
        """One faction's turn: begin it, fight if `fight` is given, end it (unless the game ended meanwhile)."""
        faction = self.state["case"]["game"]["active"]
        self.act(faction, "turn_start", {})
        if fight is not None and self.state["phase"] == sit.BATTLE:
            fight(self, faction)
        if self.state["phase"] == sit.BATTLE:
            self.act(faction, "turn_end", {})

    def until(self, tour, fight=None):
        """Turns until `tour` begins or the table is finished."""
        while self.state["case"]["game"]["tour"] < tour and self.table.status != Table.FINISHED:
            self.turn(fight)


def _owner(case, uid):
    return next(u["faction"] for u in case["units"] if u["id"] == uid)


def _resolve(play):
    """Every attack waiting: the target's player defends, the moderator types in dice the attacker wins with."""
    while play.state.get("pending"):
        case, p = play.state["case"], play.state["pending"]
        if not p.get("counter"):
            play.act(_owner(case, p["target"]), "counter", {"counter": "defence"})
        play.act(None, "attack", {}, hand=[6, 1])


def attack_everything(play, faction):
    """A faction's three activations: a unit that can strike strikes (dice in its favour); otherwise the unit
    that can come nearest to the enemy (or to the enemy capital's walls, once no enemy stands) moves there
    without provoking an attack, and strikes if it now can. Units already at the enemy capital's walls stay."""
    for _activation in range(3):
        case = play.state["case"]
        acted = set(case.get("activations") or {})
        mine = [u for u in case["units"] if u["faction"] == faction and u["where"] == "board" and u["id"] not in acted]
        side = load().side_of
        enemies = [u["hex"] for u in case["units"] if u["where"] == "board" and side(u["faction"]) != side(faction)]
        walls = [c["hex"] for c in case["cities"] if c["kind"] == "capital" and not c["destroyed"]
                 and side(c["faction"]) != side(faction)]
        striker = next(((u, t) for u in mine for t in sit.legal_targets(case, u["id"])), None)
        if striker:
            u, t = striker
            play.act(faction, "declare", {"attacker": u["id"], "target": t["target"], "aimed": t["aimed"]})
            _resolve(play)
            continue
        goals = enemies or walls
        if not goals:
            return

        def gap(h):
            return min(distance(tuple(h), tuple(g)) for g in goals)

        best = None
        for u in mine:
            if not enemies and gap(u["hex"]) == 1:
                continue                                # besieging already
            for h, move in sit.legal_moves(case, u["id"]).items():
                if move["provoked"] or move["trap"]:
                    continue
                key = (gap(h) - gap(u["hex"]), gap(h), u["id"])
                if key[0] < 0 and (best is None or key < best[0]):
                    best = (key, u["id"], move["path"])
        if best is None:
            return
        _key, uid, path = best
        play.act(faction, "move", {"unit": uid, "path": path})
        targets = sit.legal_targets(play.state["case"], uid)
        if targets:
            play.act(faction, "declare", {"attacker": uid, "target": targets[0]["target"],
                                          "aimed": targets[0]["aimed"]})
            _resolve(play)


def fisher_yates(cards, dice):
    """The table's shuffle, written out again: dice in the order rolled, for positions n-1 down to 1."""
    cards = list(cards)
    for i, d in zip(range(len(cards) - 1, 0, -1), dice):
        cards[i], cards[d - 1] = cards[d - 1], cards[i]
    return cards


def check_the_record(play):
    """The stored state is the engine's replay; every reshuffle is on the record and is exactly what the table's
    committed dice give (checked again by the dice check once the seed is revealed). Returns the reshuffle steps."""
    table = play.table
    live = tables.live_steps(table)
    assert sit.replay(table.setup, [(s.kind, s.payload) for s in live]) == table.state
    shuffles = [s for s in live if (s.payload.get("choices") or {}).get("reshuffle")]
    stream = table.dice
    stream.refresh_from_db()
    for step in shuffles:
        before = sit.replay(table.setup, [(s.kind, s.payload) for s in live if s.seq < step.seq])
        cards = sit.reshuffle_due(before)
        assert cards and len(cards) == len(dataset.EVENTS)
        rolls = list(Roll.objects.filter(stream=stream, ref=step.ref).order_by("counter"))
        assert [r.sides for r in rolls] == list(range(len(cards), 1, -1))
        assert all(r.source == "server" and r.status == "used" and r.purpose == "перетасовка колоды событий"
                   and r.value == die(stream.seed, r.counter, r.sides) for r in rolls)
        order = step.payload["choices"]["reshuffle"]
        assert order == fisher_yates(cards, [r.value for r in rolls])
        assert step.outcome["reshuffled"] is True and step.outcome["event_drawn"] == order[0]
        assert step.outcome["faction"] == table.setup["game"]["order"][0]
    log = selectors.log(table, table.state["case"])
    said = [e for e in log if "Колода событий закончилась и перетасована" in e["text"]]
    assert [e["seq"] for e in said if not e["undone"]] == sorted((s.seq for s in shuffles), reverse=True)
    assert all(e["deck"] and not e["dice"] for e in said)     # the new order's dice stay off the log, as the deal's
    assert not any("O10" in e["text"] for e in log)
    dice.reveal(stream, play.mod[0])
    lines = dice_selectors.check(table.game)
    mine = [ln for ln in lines if ln.fingerprint == stream.fingerprint]
    assert len(mine) == 1 and mine[0].ok, mine[0].text if mine else lines
    return shuffles


def test_border_goes_past_the_deck_to_thirty_tours(tiny_game, orda_table, moderator, player, other_player):
    play = Play(tiny_game, orda_table, moderator, player, other_player)
    play.until(25)
    assert play.state["case"]["event"]["draw_pile"] == []        # the 24 cards are used: the freeze came here
    play.turn()                                                  # tour 25 begins: the reshuffle
    step = Step.objects.filter(table=play.table, kind="turn_start").order_by("-seq").first()
    assert step.outcome["tour"] == 25 and step.outcome["reshuffled"] is True
    play.until(31)
    table = play.table
    assert table.status == Table.FINISHED
    assert table.result["ended_by"] == "tours_elapsed" and table.result["tour"] == 30
    assert table.result["orda_side"] == "rus_china" and table.result["winner"] == "rus"
    assert len(check_the_record(play)) == 1


def test_skirmish_goes_past_two_reshuffles_to_the_leader_and_the_capital(tiny_game, moderator, orda_data,
                                                                         player, other_player):
    table = services.create(tiny_game, moderator, title="Схватка", data=orda_data, mode="skirmish",
                            order=["rus", "north_mongolia"],
                            factions={"rus": tiny_game.factions.get(code="north"),
                                      "north_mongolia": tiny_game.factions.get(code="south")})
    play = Play(tiny_game, table, moderator, player, other_player)
    play.until(50)                                               # tours 25 and 49 begin with a reshuffle
    assert play.table.status == Table.PLAYING
    play.until(80, fight=lambda p, f: attack_everything(p, f) if f == "rus" else None)
    table = play.table
    assert table.status == Table.FINISHED, play.state["case"]["game"]
    assert table.result["ended_by"] == "leaders_and_capitals" and table.result["winner"] == "rus"
    assert table.result["tour"] > 50
    assert [s.outcome["tour"] for s in check_the_record(play)] == [25, 49]


def test_conquest_goes_past_the_deck_until_no_mongol_unit_is_left(tiny_game, moderator, orda_data,
                                                                  player, other_player):
    table = services.create(tiny_game, moderator, title="Завоевание", data=orda_data, mode="conquest",
                            order=["rus", "north_mongolia"],
                            factions={"rus": tiny_game.factions.get(code="north"),
                                      "north_mongolia": tiny_game.factions.get(code="south")})
    play = Play(tiny_game, table, moderator, player, other_player)
    play.until(31)
    assert play.table.status == Table.PLAYING
    play.until(60, fight=lambda p, f: attack_everything(p, f) if f == "rus" else None)
    table = play.table
    assert table.status == Table.FINISHED, play.state["case"]["game"]
    assert table.result["ended_by"] == "reserves_exhausted" and table.result["winner"] == "rus"
    assert table.result["tour"] > 30 and table.result["losses"]["north_mongolia"]["lost"] == 12
    assert [s.outcome["tour"] for s in check_the_record(play)] == [25]


def test_nobody_chooses_the_new_order_and_an_undone_reshuffle_is_rolled_again(
        tiny_game, orda_table, moderator, player, other_player):
    play = Play(tiny_game, orda_table, moderator, player, other_player)
    play.until(25)
    cards = sit.reshuffle_due(play.state)
    assert sorted(cards) == list(dataset.EVENTS)
    play.act("rus", "turn_start", {"choices": {"reshuffle": sorted(cards)}})    # a chosen order is not taken
    first = Step.objects.filter(table=play.table).order_by("-seq").first()
    assert first.payload["choices"]["reshuffle"] != sorted(cards)
    services.undo(play.table.pk, moderator, play.mod[1], "нажали не тот ход")
    assert play.state["case"]["event"]["draw_pile"] == [] and play.state["phase"] == sit.START
    assert all(r.status == "discarded" for r in Roll.objects.filter(stream=play.table.dice, ref=first.ref))
    play.act("rus", "turn_start", {})                      # rolled again: new dice, the next counters
    again = Step.objects.filter(table=play.table).order_by("-seq").first()
    assert again.seq > first.seq and again.payload["choices"]["reshuffle"] != first.payload["choices"]["reshuffle"]
    play.act("rus", "turn_end", {})
    play.turn()
    play.turn()                                            # tour 26 draws the new deck's second card
    assert play.state["case"]["event"]["current"] == again.payload["choices"]["reshuffle"][1]
    assert [s.seq for s in check_the_record(play)] == [again.seq]
