"""After a phase change every faction's board is drawn once, right after the commit, by a thread of the process
that made the change (larp.tablet.warm; issue 36): each tablet then gets its board kept, and it is exactly the
board the tablet would have drawn itself."""
import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from larp.tablet import warm
from larp.turns import services
from tests.tablet.boards import HTMX, board, untokened

DRAWING_TABLES = ("forces_army", "forces_fleet", "forces_troopcard", "orders_order", "tablet_spyreport",
                  "campaign_province")


def test_the_boards_drawn_after_a_change_are_those_each_tablet_would_draw(
        client_for, tiny_game, moderator, player, other_player, started, state_cache, settings):
    north, south = client_for(player), client_for(other_player)
    assert north.post(reverse("tablet:file_order", args=[tiny_game.pk, "north", "north-1"]),
                      {"type": "march", "s1": "northfield"}, **HTMX).status_code == 200
    services.next_phase(tiny_game, moderator, "test", phase_id=started.pk, skip=True)  # Movement: orders shown
    settings.STATE_CACHE = False
    alone = {"north": board(north, tiny_game, "north"), "south": board(south, tiny_game, "south")}
    settings.STATE_CACHE = True

    assert warm.boards(tiny_game.pk) == 2  # North and South have players; East has none
    for client, code in ((north, "north"), (south, "south")):
        with CaptureQueriesContext(connection) as queries:
            html = board(client, tiny_game, code)
        drawn = [q["sql"] for q in queries.captured_queries if any(f'"{t}"' in q["sql"] for t in DRAWING_TABLES)]
        assert drawn == [], drawn  # kept: nothing of the board read again
        assert untokened(html) == untokened(alone[code])
    card = alone["north"].split('data-unit="north-1"')[1].split("</article>")[0]
    assert 'data-has-order="1"' in card and "Северное Поле" in card  # the board shows the state after the order


def test_nothing_is_drawn_without_a_shared_cache(tiny_game, started, settings):
    settings.STATE_CACHE = False
    assert warm.boards(tiny_game.pk) == 0


def test_a_phase_change_has_them_drawn_after_its_commit_not_before(tiny_game, moderator, started, state_cache,
                                                                  monkeypatch, django_capture_on_commit_callbacks):
    asked = []
    monkeypatch.setattr(warm, "soon", asked.append)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.next_phase(tiny_game, moderator, "test", phase_id=started.pk, skip=True)
    assert asked == []  # not before the commit: a thread would read the state before the change
    for callback in callbacks:
        callback()
    assert asked == [tiny_game.pk]


def test_changes_during_a_drawing_are_claimed_at_once_and_drawn_in_turn_by_one_thread(monkeypatch, settings,
                                                                                    state_cache):
    settings.BOARDS_DRAWN_AT_CHANGE = True
    release, done = threading.Event(), threading.Event()
    claimed, drawn, threads = [], [], set()

    def claim(game_id):
        claimed.append(warm.Claim(game_id, f"v{len(claimed)}", "p0", ("north",)))
        return claimed[-1]

    def draw(c):
        threads.add(threading.current_thread().name)
        release.wait(5)
        drawn.append(c.version)
        if len(drawn) == 3:
            done.set()
        return 1

    monkeypatch.setattr(warm, "claim", claim)
    monkeypatch.setattr(warm, "draw", draw)
    monkeypatch.setattr("larp.turns.clock.invalidate", lambda game_id: None)
    for _ in range(3):  # three changes, the last two while the first is drawn
        warm.soon(7)
    assert [c.version for c in claimed] == ["v0", "v1", "v2"]  # each claimed at once, in the committing thread
    release.set()
    assert done.wait(5)
    for _ in range(100):
        if 7 not in warm._queues:
            break
        threading.Event().wait(0.01)
    assert drawn == ["v0", "v1", "v2"] and threads == {"boards-7"} and 7 not in warm._queues


def test_a_drawing_that_fails_leaves_the_boards_to_the_tablets(monkeypatch, settings, state_cache, caplog):
    settings.BOARDS_DRAWN_AT_CHANGE = True
    finished = threading.Event()

    def draw(c):
        finished.set()
        raise RuntimeError("the database went away")

    monkeypatch.setattr(warm, "claim", lambda game_id: warm.Claim(game_id, "v", "p0", ("north",)))
    monkeypatch.setattr(warm, "draw", draw)
    monkeypatch.setattr("larp.turns.clock.invalidate", lambda game_id: None)
    warm.soon(8)
    assert finished.wait(5)
    for _ in range(100):
        if 8 not in warm._queues:
            break
        threading.Event().wait(0.01)
    assert 8 not in warm._queues  # a next change draws again
    assert "the boards of game 8 were not drawn after a phase change" in caplog.text


def test_a_claim_outlived_by_the_state_draws_nothing_and_leaves_no_mark(tiny_game, player, started, state_cache):
    from django.core.cache import cache

    from larp.tablet import rendered
    from larp.turns import state_version

    claimed = warm.claim(tiny_game.pk)
    assert claimed.codes == ("north",)
    key = rendered.board_key(tiny_game.pk, "north", claimed.variant, claimed.version)
    assert cache.get(f"{key}:making") == 1  # a tablet asking now waits for this drawing
    state_version.bump(tiny_game.pk)  # another change came first: its own claim draws the boards
    assert warm.draw(claimed) == 0 and cache.get(f"{key}:making") is None and cache.get(key) is None


def test_boards_kept_already_are_not_drawn_again(tiny_game, player, other_player, started, state_cache):
    assert warm.boards(tiny_game.pk) == 2
    assert warm.boards(tiny_game.pk) == 0


def test_a_board_that_fails_to_draw_leaves_no_mark_behind(tiny_game, started, state_cache):
    """Marked before drawing, a board whose drawing fails is unmarked: its tablets draw it at once, not after
    waiting in vain for a board that will never come."""
    from django.core.cache import cache

    from larp.tablet import rendered

    def fails(extra):
        raise RuntimeError("no")

    keys = [rendered.board_key(tiny_game.pk, code, "p1", "v1") for code in ("north", "south")]
    assert rendered.mark_boards(tiny_game.pk, "p1", "v1", ["north", "south"]) == ["north", "south"]
    with pytest.raises(RuntimeError):
        rendered.draw_marked(tiny_game.pk, "p1", "v1", {"north": lambda extra: "<div>north</div>", "south": fails})
    assert cache.get(keys[0]) == "<div>north</div>" and cache.get(keys[1]) is None
    assert cache.get(f"{keys[0]}:making") is None and cache.get(f"{keys[1]}:making") is None


def test_a_board_another_request_is_drawing_is_left_to_it(tiny_game, started, state_cache):
    from django.core.cache import cache

    from larp.tablet import rendered

    key = rendered.board_key(tiny_game.pk, "south", "p1", "v2")
    cache.add(f"{key}:making", 1, 10)  # a tablet's request draws South's board
    assert rendered.mark_boards(tiny_game.pk, "p1", "v2", ["north", "south"]) == ["north"]
    assert cache.get(f"{key}:making") == 1


def test_a_tablet_whose_process_kept_the_clock_before_the_change_gets_the_board_drawn_for_it(
        client_for, tiny_game, moderator, player, started, state_cache, monkeypatch):
    """A tablet hears of the change from one web process and asks its board of another, whose own copy of the
    clock (LOCAL_TTL) is from before the change: the board is chosen by the clock as it is (Strategy closed),
    so the one drawn after the change is served, not drawn again for the clock that was."""
    import time

    from larp.tablet import views
    from larp.turns import clock

    monkeypatch.setattr(clock, "_shared", lambda: True)  # each process keeps its copy, as with Redis
    north = client_for(player)
    before = clock.state(tiny_game.pk)  # the other process's copy: Strategy, orders open
    assert before["phase"] == "strategy" and before["state"] == "running"
    services.next_phase(tiny_game, moderator, "test", phase_id=started.pk, skip=True)
    clock.invalidate(tiny_game.pk)  # the change's commit
    assert warm.boards(tiny_game.pk) == 1  # drawn by the process that made the change, for Movement
    clock._local[tiny_game.pk] = (time.monotonic(), before)  # the tablet's process, its copy within LOCAL_TTL
    assert clock.payload(tiny_game.pk)["phase"] == "strategy"  # what it says without asking afresh
    drawn, draw_board = [], views.draw_board
    monkeypatch.setattr(views, "draw_board", lambda *a, **kw: drawn.append(a[1].code) or draw_board(*a, **kw))
    html = board(north, tiny_game, "north")
    assert drawn == [] and 'data-unit="north-1"' in html
