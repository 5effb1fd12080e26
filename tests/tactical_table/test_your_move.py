"""«Your move» on a tactical tablet: the battle's turn is run by the moderator; the side that moves is told so,
the other is not, and the turn passing moves the mark."""
from tests.tables.your_move_probe import mark
from tests.tactical_table.conftest import url


def test_the_side_that_moves_is_told_its_move(battle, moderator, player, other_player, client_for):
    mod, north, south = client_for(moderator), client_for(player), client_for(other_player)
    page = url(battle, "table")
    assert (mark(north, page), mark(south, page), mark(mod, page)) == ("0", "0", None)   # no turn yet
    assert mod.post(url(battle, "turn"), {"first": "north"}).status_code == 302
    assert (mark(north, page), mark(south, page)) == ("1", "0")
    for _ in range(5):                                   # north's five steps: the turn passes to south
        assert mod.post(url(battle, "turn"), {}).status_code == 302
    assert (mark(north, page), mark(south, page)) == ("0", "1")
