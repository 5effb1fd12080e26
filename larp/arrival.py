"""When a request reached the server: the moment an order's press is judged by (R3's hard deadline, with a
grace for the hall's Wi-Fi and the server's queue; larp.orders.services).

Django notes the moment it starts handling a request (`ArrivalMiddleware`, first in the chain). That is
after gunicorn's queue: on a saturated server a request may wait there for seconds. A proxy in front
(nginx) can stamp the moment the request reached it, before any queue:

    proxy_set_header X-Request-Start "t=${msec}";

and `REQUEST_START_HEADER=X-Request-Start` tells the server to believe it. The header is used only when
configured (a client can send any header it likes; the proxy must overwrite it), only in the forms
`t=<seconds>` / `<seconds>` (with a fraction, or in milli- or microseconds), and only when it is not in
the future nor older than REQUEST_START_MAX_AGE seconds; otherwise Django's own stamp counts.
"""
from __future__ import annotations

from datetime import datetime, timezone as dt_timezone

from django.conf import settings
from django.utils import timezone

ATTRIBUTE = "larp_arrived_at"


class ArrivalMiddleware:
    """Stamp each request with the moment Django began handling it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        setattr(request, ATTRIBUTE, timezone.now())
        return self.get_response(request)


def parse_stamp(value: str) -> float | None:
    """Seconds since the epoch from a request-start header, or None when it is not one."""
    value = (value or "").strip()
    if value.startswith("t="):
        value = value[2:]
    if not value or len(value) > 32:
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    if number != number or number <= 0:
        return None
    for scale in (1, 1e3, 1e6):  # seconds, milliseconds, microseconds (nginx, Heroku, HAProxy styles)
        if number / scale < 1e10:
            return number / scale
    return None


def arrived_at(request, now: datetime | None = None) -> datetime:
    """When this request reached the server: the trusted proxy's stamp when configured and sane, else
    Django's own (else now)."""
    now = now or timezone.now()
    own = getattr(request, ATTRIBUTE, None) or now
    header = getattr(settings, "REQUEST_START_HEADER", "")
    if header:
        raw = request.META.get("HTTP_" + header.upper().replace("-", "_"), "")
        stamp = parse_stamp(raw)
        if stamp is not None:
            at = datetime.fromtimestamp(stamp, tz=dt_timezone.utc)
            age = (now - at).total_seconds()
            if -getattr(settings, "REQUEST_START_SKEW", 1.0) <= age <= getattr(settings, "REQUEST_START_MAX_AGE", 60):
                return min(at, now)
    return min(own, now)
