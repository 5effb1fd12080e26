"""Join codes: a signed, expiring link per player account, revocable by a moderator.

The link carries `<token id>:<issue time>:<signature>` (django.core.signing's
TimestampSigner). The signature is made from the row's issue time, so the
same link (and QR code) can be shown again later without storing it: a copy
of the database alone signs no one in; the SECRET_KEY is needed too.
"""
from __future__ import annotations

import os
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.utils import timezone

SALT = "larp.tablet.join"


def max_age() -> timedelta:
    """How long a join code works: a whole game weekend by default (settings.TABLET_JOIN_MAX_AGE, seconds)."""
    return timedelta(seconds=int(getattr(settings, "TABLET_JOIN_MAX_AGE", 3 * 24 * 3600)))


def base_url() -> str:
    """The address tablets reach the server at, e.g. http://192.168.1.10:8000 (TABLET_BASE_URL); '' = the request's."""
    return (getattr(settings, "TABLET_BASE_URL", "") or os.environ.get("TABLET_BASE_URL", "")).rstrip("/")


class _IssuedAt(signing.TimestampSigner):
    """A TimestampSigner whose timestamp is the token's issue time, not now."""

    def __init__(self, at: datetime):
        super().__init__(salt=SALT)
        self._at = at

    def timestamp(self):
        return signing.b62_encode(int(self._at.timestamp()))


def new_key() -> str:
    return secrets.token_urlsafe(9)


def sign(key: str, issued_at: datetime) -> str:
    return _IssuedAt(issued_at).sign(key)


class TokenProblem(Exception):
    """`kind` is bad (forged or mangled), expired, or revoked."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


def unsign(value: str) -> str:
    """The token id, if the signature is the server's and not older than max_age(); else TokenProblem."""
    try:
        return signing.TimestampSigner(salt=SALT).unsign(value, max_age=max_age())
    except signing.SignatureExpired:
        raise TokenProblem("expired") from None
    except signing.BadSignature:
        raise TokenProblem("bad") from None


def expiry(issued_at: datetime | None = None) -> datetime:
    # Signatures carry whole seconds: the row expires with the signature.
    issued_at = issued_at or timezone.now()
    return issued_at + max_age()
