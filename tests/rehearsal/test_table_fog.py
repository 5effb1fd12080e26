"""The rehearsal's fog check at an «Ордонанс» contest: a page naming a card of the other player's hand (or of the
draw pile) is a violation; the player's own hand and the card it draws on its turn are not."""
import random
from types import SimpleNamespace

from larp.ordonnance import services
from larp.rehearsal.bots import Log, Page, Seat
from larp.rehearsal.checks import Checks
from larp.rehearsal.ordonnance_table import Contest, bound
from tests.orda_table.conftest import orda_data, orda_table  # noqa: F401 - the Orda table's fixtures
from tests.ordonnance_table.conftest import TEST_DECK


def page_with(log: Log, text: str) -> Page:
    act = log.new("north#1", "contest page (ordonnance, player)", "GET", "/")
    act.status = 200
    return Page(act, "/", text)


def test_the_fog_check_flags_another_hand_and_the_pile_not_ones_own(tiny_game, moderator):
    deck = services.import_yaml(tiny_game, moderator, TEST_DECK)
    north, south = tiny_game.factions.get(code="north"), tiny_game.factions.get(code="south")
    table = services.create(tiny_game, moderator, title="Туман", sides=[("p1", "Анна", north), ("p2", "Борис", south)],
                            mode="virtual", deck=deck, territory_names=None, announce="territories", seed=5)
    services.deal(table.pk, moderator, first_player="p1")
    table.refresh_from_db()
    state = table.state
    log, checks = Log(), Checks(seed=1)
    mine, theirs = Seat("http://x", "north#1", log), Seat("http://x", "south#1", log)
    rehearsal = SimpleNamespace(checks=checks, log=log, mod=SimpleNamespace(rng=random.Random(1), seat=None))
    contest = Contest(rehearsal, turn=1, number=1)
    contest.table_id, contest.seats = table.pk, {"p1": [mine], "p2": [theirs]}

    own = " ".join(state["hands"]["p1"]) + " " + state["draw_pile"][0]     # p1 moves: it sees the card it draws
    contest.fog(mine, page_with(log, f"<p>{own}</p>"))
    assert not checks.failed and checks.counts["fog"] == 1
    contest.fog(mine, page_with(log, f"<p>{state['hands']['p2'][0]}</p>"))
    contest.fog(mine, page_with(log, f"<p>{state['draw_pile'][1]}</p>"))
    contest.fog(theirs, page_with(log, f"<p>{state['draw_pile'][0]}</p>"))   # not p2's draw: p1 moves
    assert [v.check for v in checks.violations] == ["fog"] * 3
    assert bound(2) == 40                                                  # C8: 20 cards a player


def test_an_orda_table_is_held_to_the_rules_tour_limit():
    from larp.orda.engine.data import load
    from larp.rehearsal.orda_table import tour_bound

    assert tour_bound() == load().number("modes", "border", "rus_china_tours") == 30


def test_the_orda_fog_check_flags_the_text_of_a_card_still_in_the_deck_not_the_one_drawn(
        tiny_game, moderator, orda_table, orda_data):
    """O5: the event card drawn is shown with its text; a page quoting a card still in the pile (by its text, read
    from the table's data set once for the whole pile, or by its number) is a violation."""
    from larp.orda import services as orda
    from larp.orda.selectors import event_texts
    from larp.rehearsal.orda_table import OrdaTable
    from larp.tables.access import seat

    table = orda.act(orda_table.pk, moderator, seat(moderator, tiny_game.pk, orda_table.pk), "turn_start", {})
    event = table.state["case"]["event"]
    current, pile = event["current"], event["draw_pile"]
    texts = event_texts(table, [current, *pile])
    assert texts == {card: orda_data.data["events"][card] for card in [current, *pile]}
    log, checks = Log(), Checks(seed=1)
    rehearsal = SimpleNamespace(checks=checks, log=log)
    bot = SimpleNamespace(rng=random.Random(1))
    watch = OrdaTable(rehearsal, bot, "/", 1, "b1", table.pk)
    watch.fog(page_with(log, f"<p>{texts[current]}</p>"))
    assert not checks.failed and checks.counts["fog"] == 1
    watch.fog(page_with(log, f"<p>{texts[pile[0]]}</p>"))
    watch.fog(page_with(log, f"<p>{pile[-1]}</p>"))
    assert [v.check for v in checks.violations] == ["fog"] * 2
