"""gunicorn's access log without the polls that the fast lane answers (larp/fastlane.py).

Sixty tablets follow the clock and every tablet at a table asks its table's version twice a second: logged,
they are a hundred lines a second that no one reads, and formatting and writing each line costs the web
worker about a tenth of such a poll's CPU (issue 36). A poll that did not succeed (4xx, 5xx) is still logged,
as is every other request.
"""
from __future__ import annotations

from gunicorn import glogging

from larp.fastlane import is_poll

QUIET_STATUSES = frozenset({200, 204, 304})


class Logger(glogging.Logger):
    def access(self, resp, req, environ, request_time):
        if req.method == "GET" and getattr(resp, "status_code", None) in QUIET_STATUSES and is_poll(req.path):
            return
        super().access(resp, req, environ, request_time)
