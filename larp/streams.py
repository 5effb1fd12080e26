"""What the server-sent streams share: the clock's (larp.turns.clock) and a table's version (larp.tables.version_pass).

- One reader per process (`Feed`, `read`): one of the open streams of one thing (a game's clock, a table) reads
  it once a tick and wakes the others when it changed, so sixty open streams cost about what one does, and a
  change shows within a tick.
- The events (`events`): what was read now, then whenever it changes; a heartbeat when nothing did; the end
  after a while (the page's EventSource reconnects).
- One pool of slots (`respond`, CLOCK_STREAM_SLOTS): each open stream holds one of the web worker's threads;
  past that the answer is 204, which ends the page's EventSource, and the page polls instead.
- A stream lets go of the database between its reads (`let_go_of_the_database`).
"""
from __future__ import annotations

import json
import logging
import select
import socket
import ssl
import threading
import time
from collections.abc import Callable, Hashable, Iterator

from django.db import DatabaseError

log = logging.getLogger(__name__)


class Feed:
    """One thing as this process's open streams share it: read by one of them per tick, not by each."""

    def __init__(self):
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)  # what the streams wait on: a change
        self.done = threading.Condition(self.lock)  # what a new stream waits on: the read in progress ended
        self.read_at = self.started = -1e9
        self.reading = False
        self.seq = 0
        self.tag = None
        self.current: dict = {}
        self.reader = None  # the stream that reads each tick (`events`)


LOOK = 4  # ticks a stream that is not the reader sleeps at most (then checks the reader still reads)
_feeds: dict[Hashable, Feed] = {}
_feeds_lock = threading.Lock()


def feed(key: Hashable) -> Feed:
    with _feeds_lock:
        found = _feeds.get(key)
        if found is None:
            found = _feeds[key] = Feed()
        return found


def read(feed: Feed, tick: float, fetch: Callable[[], tuple[str, dict]], since: float | None = None) -> None:
    """At most once a tick per process: `fetch()` gives (tag, what to send); the streams are woken if the tag
    changed. `since` (a new stream's first read): a read that began after that moment, this stream's own or one
    it waits for, never one that began before it (it may have fetched what the page that opened the stream had
    already replaced: a stale first event would make the page refresh for nothing)."""
    with feed.lock:
        if since is not None:
            give_up = time.monotonic() + 5  # a read stuck that long: read anyway
            while feed.reading and time.monotonic() < give_up:
                feed.done.wait(give_up - time.monotonic())
            if not feed.reading and feed.started >= since:
                return
        elif feed.reading or time.monotonic() - feed.read_at < tick:
            return
        feed.reading, feed.started = True, time.monotonic()
    try:
        tag, current = fetch()
    finally:
        with feed.lock:
            feed.reading, feed.read_at = False, time.monotonic()
            feed.done.notify_all()
    with feed.lock:
        if tag != feed.tag:
            feed.tag, feed.current, feed.seq = tag, current, feed.seq + 1
            feed.changed.notify_all()


def let_go_of_the_database() -> None:
    """A stream's thread closes the connection a read opened (a cache miss reads the database): it would
    otherwise hold it for the stream's whole life — forty streams a web worker, past PostgreSQL's limit of
    connections — and touch it again when the stream ends, outside any request. Not inside a transaction (a
    test reading the stream in its own)."""
    from django.db import connections

    for conn in connections.all(initialized_only=True):
        if conn.connection is not None and not conn.in_atomic_block:
            conn.close()


class Ended(Exception):
    """Raised by a feed's fetch when what the stream follows is gone (a table deleted): the stream ends."""


def gone(request) -> Callable[[], bool] | None:
    """Whether the page that opened the stream went away (its connection closed), seen without writing to it.
    Otherwise a stream whose page left (every act at a table leaves a page for the act's answer) would keep its
    thread and slot until a write failed: the second after the page left, up to two heartbeats later. Under
    gunicorn only (its socket is in the request); a TLS socket cannot be peeked at: its stream ends at a write,
    as before."""
    sock = request.META.get("gunicorn.socket")
    if sock is None or isinstance(sock, ssl.SSLSocket):
        return None
    poller = select.poll()
    poller.register(sock, select.POLLIN)

    def check() -> bool:
        try:
            if not poller.poll(0):
                return False
            return sock.recv(1, socket.MSG_PEEK) == b""  # closed; bytes would be a next request, not a goodbye
        except ConnectionError:
            return True
        except (OSError, ValueError):
            return False

    return check


def events(key: Hashable, fetch: Callable[[], tuple[str, dict]], seconds: float, *, tick: float, heartbeat: float,
           event: Callable[[dict], dict], beat: Callable[[], dict], what: str,
           left: Callable[[], bool] | None = None) -> Iterator[str]:
    """Server-sent events: `event(read)` for what is read now, then whenever its tag changes; `beat()` when
    nothing did for `heartbeat` seconds; the end after `seconds`, or as soon as `left()` says the page went
    away (`gone`). `what` names the stream in the log.

    One of the thing's open streams in this process is its reader (`Feed.reader`): it wakes each tick and reads;
    the others sleep until it wakes them with a change, or for LOOK ticks (a heartbeat may be due). A reader that
    stopped reading (ended, or stuck writing to a slow tablet) is replaced by the first stream that notices."""
    shared = feed(key)
    me = object()
    start = last_beat = time.monotonic()
    seen = 0
    yield "retry: 1000\n\n"
    try:
        read(shared, 0, fetch, since=start)  # a new stream starts from the thing as it is now
    except Ended:
        return
    finally:
        let_go_of_the_database()
    try:
        while time.monotonic() - start < seconds:
            if left is not None and left():
                return
            with shared.lock:
                if shared.reader is None or time.monotonic() - shared.read_at > LOOK * tick:
                    shared.reader = me
                reading = shared.reader is me
            if reading:
                try:
                    read(shared, tick, fetch)
                except Ended:
                    return
                except DatabaseError:  # the database restarting (or gone, at a test run's end): the page reconnects
                    log.warning("%s ended: the database did not answer", what)
                    return
                except Exception as e:  # noqa: BLE001 - anything else: this stream ends, the page reconnects
                    log.warning("%s ended: %r", what, e)
                    return
                finally:
                    let_go_of_the_database()
            with shared.lock:
                if shared.seq == seen:
                    shared.changed.wait(tick if reading else LOOK * tick)
                fresh = (shared.seq, shared.current) if shared.seq != seen else None
            now = time.monotonic()
            if fresh is not None:
                seen, last_beat = fresh[0], now
                yield f"data: {json.dumps(event(fresh[1]))}\n\n"
            elif now - last_beat >= heartbeat:
                last_beat = now
                yield f"data: {json.dumps(beat())}\n\n"
    finally:
        with shared.lock:
            if shared.reader is me:  # another stream reads from now on
                shared.reader = None
                shared.changed.notify_all()


_slots = None
_slots_lock = threading.Lock()


def slots() -> threading.BoundedSemaphore:
    """The web worker's stream slots, one pool for every kind of stream."""
    global _slots
    from django.conf import settings

    with _slots_lock:
        if _slots is None or _slots.size != settings.CLOCK_STREAM_SLOTS:
            _slots = threading.BoundedSemaphore(settings.CLOCK_STREAM_SLOTS)
            _slots.size = settings.CLOCK_STREAM_SLOTS
        return _slots


class Held:
    """A stream that gives its slot back when the server closes it (ended, or the page went away), even if
    it never started."""

    def __init__(self, events, release):
        self.events, self.release, self.closed = events, release, False

    def __iter__(self):
        return self

    def __next__(self):
        return next(self.events)

    def close(self):
        if not self.closed:
            self.closed = True
            try:
                self.events.close()
            finally:
                self.release()


def respond(make_events: Callable[[], Iterator[str]]):
    """The stream's response when this worker has a slot free, else 204 (the page's EventSource ends there and
    the page polls)."""
    from django.http import HttpResponse, StreamingHttpResponse

    held = slots()
    if not held.acquire(blocking=False):
        return HttpResponse(status=204)
    try:
        response = StreamingHttpResponse(Held(make_events(), held.release), content_type="text/event-stream")
    except BaseException:
        held.release()
        raise
    response["Cache-Control"] = "no-cache"
    response["Content-Encoding"] = "identity"  # not gzipped: each event must leave at once
    response["X-Accel-Buffering"] = "no"
    return response
