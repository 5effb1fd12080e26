"""The clock as sixty tablets follow it (issue 36): polled without sessions or queries, and pushed by streams
that share one reader per process instead of each reading the clock four times a second."""
import json
import time

import pytest
from django.urls import reverse

from larp.turns import clock, services


def test_a_clock_poll_touches_no_session_and_no_table(tiny_game, moderator, client, django_assert_num_queries):
    services.start_game(tiny_game, moderator)
    url = reverse("turns:clock", args=[tiny_game.pk])
    first = client.get(url)
    with django_assert_num_queries(0):
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and "sessionid" not in again.cookies
    assert first["X-Content-Type-Options"] == "nosniff" and "no-cache" in first["Cache-Control"]
    assert client.get(url, HTTP_HOST="evil.example").status_code == 400  # ALLOWED_HOSTS still holds


def test_streams_of_a_game_share_one_read_per_tick(tiny_game, moderator, monkeypatch):
    services.start_game(tiny_game, moderator)
    reads = []
    real = clock.payload
    monkeypatch.setattr(clock, "payload", lambda game_id, now=None: reads.append(game_id) or real(game_id, now))
    feed = clock._feed(tiny_game.pk)
    for _ in range(20):  # twenty streams looking within one tick
        clock._read(tiny_game.pk, feed, tick=60)
    assert len(reads) <= 1


def test_a_change_is_pushed_to_every_open_stream(tiny_game, moderator):
    phase = services.start_game(tiny_game, moderator)
    streams = [clock.stream(tiny_game.pk, seconds=5, tick=0.02, heartbeat=10) for _ in range(3)]
    for s in streams:
        assert next(s).startswith("retry:")
        assert json.loads(next(s)[len("data: "):])["state"] == "running"
    services.pause(tiny_game, moderator, phase_id=phase.pk)
    clock.invalidate(tiny_game.pk)  # what the pause's commit does
    for s in streams:
        event = json.loads(next(s)[len("data: "):])
        assert event["state"] == "paused" and abs(event["server_time"] - time.time()) < 2
        s.close()


def test_a_late_stream_gets_the_time_of_now(tiny_game, moderator):
    services.start_game(tiny_game, moderator)
    early = clock.stream(tiny_game.pk, seconds=5, tick=0.02)
    next(early), next(early)
    time.sleep(0.3)  # the shared read is older than this
    late = clock.stream(tiny_game.pk, seconds=5, tick=0.02)
    next(late)
    event = json.loads(next(late)[len("data: "):])
    assert abs(event["server_time"] - time.time()) < 0.2
    assert event["remaining"] == pytest.approx(event["deadline"] - event["server_time"], abs=0.2)
    early.close(), late.close()


def test_past_its_slots_a_worker_tells_the_tablet_to_poll(tiny_game, moderator, client, settings):
    """Each open stream holds a thread: past CLOCK_STREAM_SLOTS the answer is 204 (the EventSource ends and the
    tablet polls); a stream closed, by its end or by the tablet going away, gives its slot back."""
    services.start_game(tiny_game, moderator)
    settings.CLOCK_STREAM, settings.CLOCK_STREAM_SLOTS = True, 1
    url = reverse("turns:clock_stream", args=[tiny_game.pk])
    first = client.get(url)
    assert first.status_code == 200 and first["Content-Type"] == "text/event-stream"
    assert client.get(url).status_code == 204
    first.close()  # never read: the slot comes back all the same
    second = client.get(url)
    assert second.status_code == 200
    assert next(iter(second.streaming_content)).startswith(b"retry:")
    second.close()
    assert client.get(url).status_code == 200


def test_the_page_offers_the_stream_only_when_the_server_pushes(tiny_game, moderator, player, client_for, settings):
    services.start_game(tiny_game, moderator)
    page = reverse("tablet:faction", args=[tiny_game.pk, "north"])
    settings.CLOCK_STREAM = True
    assert 'data-clock-stream="/g/' in client_for(player).get(page).content.decode()
    settings.CLOCK_STREAM = False
    assert "data-clock-stream" not in client_for(player).get(page).content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_stream_holds_no_database_connection_between_its_reads(tiny_game, moderator):
    """A clock read that misses the cache opens the thread's connection; a stream lives for minutes, forty of
    them a web worker: each would hold a PostgreSQL connection all that time, and touch it again at its end,
    outside any request (a live server then refuses it). The stream lets go after every read."""
    import threading

    from django.core.cache import cache
    from django.db import connection

    services.start_game(tiny_game, moderator)
    seen = {}

    def tablet():
        cache.clear()                                     # the first read goes to the database
        events = clock.stream(tiny_game.pk, seconds=5, tick=0.02, heartbeat=10)
        seen["events"] = [next(events), next(events)]
        seen["open"] = connection.connection is not None
        events.close()

    t = threading.Thread(target=tablet)
    t.start()
    t.join(10)
    assert seen["events"][0].startswith("retry:") and '"phase"' in seen["events"][1]
    assert seen["open"] is False


def test_a_poll_that_read_before_a_change_does_not_keep_the_old_phase(tiny_game, moderator, monkeypatch, settings):
    """A poll reads the database, a moderator's act commits and drops the cached clock, then the poll caches
    what it had read: the next polls must not be served that copy (before: the phase before the change, on every
    tablet, until the copy expired 30 s later)."""
    import os

    from larp.cache import SharedClientRedisCache

    shared = SharedClientRedisCache(settings.TEST_REDIS_URL, {"KEY_PREFIX": f"test-clock-race-{os.getpid()}"})
    monkeypatch.setattr(clock, "cache", shared)
    monkeypatch.setattr(clock, "_shared", lambda: True)
    phase = services.start_game(tiny_game, moderator)
    clock.invalidate(tiny_game.pk)
    real = clock._from_db

    def raced(game_id):
        before = real(game_id)  # the poll reads the phase as it is...
        monkeypatch.setattr(clock, "_from_db", real)
        services.pause(tiny_game, moderator, phase_id=phase.pk)  # ...the moderator's pause commits meanwhile...
        return before  # ...and the poll keeps what it read

    monkeypatch.setattr(clock, "_from_db", raced)
    assert clock.state(tiny_game.pk)["state"] == "running"  # the racing poll itself answers what it read
    clock._local.clear()  # the next poll, in another web process
    assert clock.state(tiny_game.pk)["state"] == "paused"
    clock._local.clear()
    reads = []
    monkeypatch.setattr(clock, "_from_db", lambda game_id: reads.append(game_id) or real(game_id))
    assert clock.state(tiny_game.pk)["state"] == "paused" and reads == []  # kept again, for everyone
