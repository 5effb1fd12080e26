"""The client's address as the throttle (django-axes) and the logs should see it.

Directly (`make run`): the socket's address, REMOTE_ADDR. Behind reverse proxies
(README, "Scaling past one machine"), REMOTE_ADDR is the proxy's, the same for
everyone; set TRUSTED_PROXIES to how many proxies stand in front of the app and
the address is read from X-Forwarded-For, counting from the right: each proxy
appends the address it saw, so what a client writes into the header itself is
never taken. With TRUSTED_PROXIES = 0 (the default) the header is ignored.
"""
from __future__ import annotations

import ipaddress

from django.conf import settings


def client_address(request) -> str | None:
    remote = request.META.get("REMOTE_ADDR")
    proxies = int(getattr(settings, "TRUSTED_PROXIES", 0) or 0)
    if proxies <= 0:
        return remote
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    if len(hops) < proxies:
        return remote  # did not come through the proxies
    candidate = hops[-proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote
