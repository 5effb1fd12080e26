"""Sessions read from the shared cache, written to the database too (Django's cached_db), and still served
from the database alone while the cache is down (Redis stopped: tests/faults).

Every tablet request loads its session; from Redis that costs a fraction of the database query it replaces
(issue 36: sixty tablets fetch their boards at once at a phase change).
"""
from __future__ import annotations

import logging

from django.contrib.sessions.backends import cached_db, db

log = logging.getLogger(__name__)


class SessionStore(cached_db.SessionStore):
    def load(self):
        try:
            data = self._cache.get(self.cache_key)
        except Exception:  # noqa: BLE001 - the cache is down: the database has every session
            data = None
        if data is not None:
            return data
        found = self._get_session_from_db()
        if not found:
            return {}
        data = self.decode(found.session_data)
        try:
            self._cache.set(self.cache_key, data, self.get_expiry_age(expiry=found.expire_date))
        except Exception:  # noqa: BLE001
            log.warning("cache unavailable: session read from the database only")
        return data

    def exists(self, session_key):
        try:
            if self.cache_key_prefix + session_key in self._cache:
                return True
        except Exception:  # noqa: BLE001
            pass
        return db.SessionStore.exists(self, session_key)

    def delete(self, session_key=None):
        db.SessionStore.delete(self, session_key)
        session_key = session_key or self.session_key
        if session_key is None:
            return
        try:
            self._cache.delete(self.cache_key_prefix + session_key)
        except Exception:  # noqa: BLE001 - a session the cache still holds: see the note in larp/settings.py
            log.warning("cache unavailable: a deleted session stays in the cache until it expires")
