"""Django's Redis cache, with one redis client per connection pool instead of a new one per call.

Django's RedisCacheClient builds a `redis.Redis` for every get or set; building one fills its table of
response callbacks (some 170 entries), about 0.3 ms of CPU, more than the round trip to Redis itself. A
tablet's request makes several cache calls (its session, the clock, the rendered board), sixty tablets make
them at once at a phase change (issue 36). A client is thread-safe over its pool, so one serves every thread.
"""
from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class _Client(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}
        self._lock = threading.Lock()

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            with self._lock:
                client = self._clients.get(index)
                if client is None:
                    client = self._clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client


class SharedClientRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _Client
