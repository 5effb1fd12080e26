"""A table's version pushed (issue 36): the page follows the table's stream instead of polling its version twice a
second. Let in as the version is (the seat checked in full, then a pass for the fast lane), one read of the cached
version per tick for all the streams of a table in a process, the same slots as the clock's streams, and off
(404: the page polls) when the server does not push."""
import json

import pytest
from django.urls import reverse

from larp.tables import registry, services, version_pass


@pytest.fixture(autouse=True)
def _table_streams_on(settings):
    settings.TABLE_STREAM = True  # off in the other tests (larp/settings_test.py)


@pytest.fixture
def shared(settings):
    settings.STATE_CACHE = True  # as with Redis: one cache every web process shares
    settings.CLOCK_STREAM = True


def url(table):
    return reverse("tables:stream", args=[table.game_id, table.pk])


def event(line) -> dict:
    line = line.decode() if isinstance(line, bytes) else line
    assert line.startswith("data: "), line
    return json.loads(line[len("data: "):])


def act(table, moderator):
    with services.locked(table.pk) as locked:
        services.record(locked, "ruling", moderator, reason="test")


def test_the_version_now_then_each_change(table, moderator, shared, django_capture_on_commit_callbacks):
    streams = [version_pass.stream(table.game_id, table.pk, seconds=5, tick=0.02, heartbeat=10) for _ in range(2)]
    for s in streams:
        assert next(s).startswith("retry:")
        assert event(next(s)) == {"version": table.version, "status": table.status}
    with django_capture_on_commit_callbacks(execute=True):
        act(table, moderator)
    for s in streams:
        assert event(next(s))["version"] == table.version + 1
        s.close()


def test_a_heartbeat_when_nothing_changes(table, shared):
    events = list(version_pass.stream(table.game_id, table.pk, seconds=0.3, tick=0.05, heartbeat=0.1))
    assert events[0].startswith("retry:") and event(events[1])["version"] == table.version
    assert {"beat": 1} in [event(e) for e in events[2:]]


def test_streams_of_a_table_share_one_read_per_tick(table, shared, monkeypatch):
    from larp import streams

    reads = []
    real = version_pass.current
    monkeypatch.setattr(version_pass, "current", lambda g, t: reads.append(t) or real(g, t))
    feed = streams.feed(("table", table.game_id, table.pk))
    for _ in range(20):  # twenty streams looking within one tick
        streams.read(feed, 60, lambda: version_pass._fresh(table.game_id, table.pk))
    assert len(reads) <= 1


def test_an_expired_version_is_read_from_the_database_and_cached_again(table, shared):
    from django.core.cache import cache

    cache.delete(version_pass._version_key(table.pk))
    assert version_pass.current(table.game_id, table.pk) == (table.version, table.status)
    assert cache.get(version_pass._version_key(table.pk)) == (table.game_id, table.version, table.status)


def test_a_stream_of_another_game_or_a_deleted_table_ends(table, shared):
    other = list(version_pass.stream(table.game_id + 1000, table.pk, seconds=5, tick=0.02))
    assert len(other) == 1 and other[0].startswith("retry:")


def test_no_seat_no_stream(table, player, east_player, client_for, shared):
    assert client_for(east_player).get(url(table)).status_code == 403
    client_for(player).get(reverse("tables:version", args=[table.game_id, table.pk]))  # a pass is not anyone else's
    assert client_for(east_player).get(url(table)).status_code == 403
    assert client_for(None).get(url(table)).status_code == 302  # to the sign-in page


def test_the_seat_checked_then_the_pass_opens_it_in_the_fast_lane(table, player, client_for, shared,
                                                                  django_assert_num_queries):
    tablet = client_for(player)
    first = tablet.get(url(table))  # the full check, which grants the pass
    assert first.status_code == 200 and first["Content-Type"] == "text/event-stream"
    lines = iter(first.streaming_content)
    assert next(lines).startswith(b"retry:") and event(next(lines))["version"] == table.version
    first.close()
    with django_assert_num_queries(0):  # no session, no seat: the pass
        again = tablet.get(url(table))
        assert again.status_code == 200 and "sessionid" not in again.cookies
        lines = iter(again.streaming_content)
        assert next(lines).startswith(b"retry:") and event(next(lines))["version"] == table.version
    assert again["X-Content-Type-Options"] == "nosniff" and again["Content-Encoding"] == "identity"
    again.close()


def test_past_the_slots_the_page_is_told_to_poll(table, player, client_for, shared, settings):
    """One pool of slots for the clock's streams and the tables': past CLOCK_STREAM_SLOTS the answer is 204 (the
    page's EventSource ends and it polls); a stream closed gives its slot back."""
    settings.CLOCK_STREAM_SLOTS = 1
    tablet = client_for(player)
    clock = tablet.get(reverse("turns:clock_stream", args=[table.game_id]))
    assert clock.status_code == 200
    assert tablet.get(url(table)).status_code == 204
    clock.close()
    table_stream = tablet.get(url(table))
    assert table_stream.status_code == 200
    assert tablet.get(url(table)).status_code == 204  # through the fast lane as well (the pass is held now)
    table_stream.close()
    last = tablet.get(url(table))
    assert last.status_code == 200
    last.close()  # its slot back (the pool is the process's: another test's streams count on it)


def test_off_the_page_polls(tiny_game, moderator, player, client_for, shared, settings):
    table = services.create_table(tiny_game, "tactical", "bench", [("a", "A", tiny_game.factions.get(code="north")),
                                                                   ("b", "B", tiny_game.factions.get(code="south"))],
                                  moderator, seed=1)
    tablet = client_for(player)
    page = registry.table_url(table.system, table.game_id, table.pk)
    assert f'data-table-stream-url="{url(table)}"' in tablet.get(page).content.decode()
    settings.CLOCK_STREAM = False
    tablet.get(reverse("tables:version", args=[table.game_id, table.pk]))  # a pass held: still off
    assert tablet.get(url(table)).status_code == 404
    html = tablet.get(page).content.decode()
    assert "data-table-stream-url" not in html and "data-table-version-url" in html
    settings.CLOCK_STREAM, settings.TABLE_STREAM = True, False   # the clock pushed, the tables polled
    assert tablet.get(url(table)).status_code == 404
    html = tablet.get(page).content.decode()
    assert "data-table-stream-url" not in html and "data-table-version-url" in html


def test_without_a_shared_cache_the_stream_reads_the_database(table, moderator, settings):
    settings.STATE_CACHE, settings.CLOCK_STREAM = False, True
    events = version_pass.stream(table.game_id, table.pk, seconds=5, tick=0.02, heartbeat=10)
    next(events)
    assert event(next(events))["version"] == table.version
    act(table, moderator)
    assert event(next(events))["version"] == table.version + 1
    events.close()


@pytest.mark.django_db(transaction=True)
def test_a_stream_holds_no_database_connection_between_its_reads(table, settings):
    import threading

    from django.core.cache import cache
    from django.db import connection

    settings.STATE_CACHE = True
    seen = {}

    def tablet():
        cache.clear()  # the first read goes to the database
        events = version_pass.stream(table.game_id, table.pk, seconds=5, tick=0.02, heartbeat=10)
        seen["events"] = [next(events), next(events)]
        seen["open"] = connection.connection is not None
        events.close()

    t = threading.Thread(target=tablet)
    t.start()
    t.join(10)
    assert seen["events"][0].startswith("retry:") and '"version"' in seen["events"][1]
    assert seen["open"] is False


def test_one_stream_reads_and_another_takes_over_when_it_stops(table, moderator, shared,
                                                              django_capture_on_commit_callbacks):
    """The streams of a table in a process: one of them reads each tick, the others sleep until it wakes them;
    when the reader ends (or stops reading: stuck writing to a slow tablet), another stream reads instead."""
    from larp import streams

    shared_feed = streams.feed(("table", table.game_id, table.pk))
    first = version_pass.stream(table.game_id, table.pk, seconds=5, tick=0.02, heartbeat=0.05)
    next(first), next(first)
    assert event(next(first)) == {"beat": 1} and shared_feed.reader is not None  # it read while it waited
    first.close()
    assert shared_feed.reader is None
    shared_feed.reader = object()  # a reader that never reads again
    second = version_pass.stream(table.game_id, table.pk, seconds=5, tick=0.02, heartbeat=10)
    next(second), next(second)
    with django_capture_on_commit_callbacks(execute=True):
        act(table, moderator)
    assert event(next(second))["version"] == table.version + 1
    second.close()


def test_a_new_stream_never_starts_from_a_read_begun_before_it(table, shared):
    """The page that opens a stream shows the version of its render; a read another stream began before that
    may bring the version before it, and the page would refresh for nothing (a form being filled swapped under
    the moderator's fingers). A new stream waits for that read and reads again."""
    import threading
    import time

    from larp import streams

    shared_feed = streams.feed(("table", table.game_id, table.pk))
    with shared_feed.lock:
        shared_feed.tag, shared_feed.current = "old", {"version": table.version - 1, "status": table.status}
        shared_feed.seq += 1
        shared_feed.reading, shared_feed.started = True, time.monotonic()  # begun before the stream

    def that_read_ends():
        time.sleep(0.1)
        with shared_feed.lock:
            shared_feed.reading, shared_feed.read_at = False, time.monotonic()
            shared_feed.done.notify_all()

    threading.Thread(target=that_read_ends).start()
    events = version_pass.stream(table.game_id, table.pk, seconds=5, tick=0.02, heartbeat=10)
    next(events)
    assert event(next(events)) == {"version": table.version, "status": table.status}
    events.close()


def test_a_stream_ends_as_soon_as_its_page_went_away(table, shared):
    """Each act at a table leaves a page for the act's answer: its stream must give its thread and slot back
    then, not at its next write (up to two heartbeats later). Seen on the connection, without writing to it."""
    import socket
    import time
    from types import SimpleNamespace

    from larp import streams

    server_side, page = socket.socketpair()
    left = streams.gone(SimpleNamespace(META={"gunicorn.socket": server_side}))
    assert left() is False
    events = version_pass.stream(table.game_id, table.pk, seconds=5, tick=0.02, heartbeat=10, left=left)
    next(events), next(events)
    page.close()
    assert left() is True
    started = time.monotonic()
    assert list(events) == [] and time.monotonic() - started < 1
    server_side.close()
    assert streams.gone(SimpleNamespace(META={})) is None  # not under gunicorn: ends at a write, as before
