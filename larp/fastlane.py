"""The requests a game night sends by the thousand, answered before sessions, sign-in and the rest.

Sixty tablets follow the clock, and every tablet at a battle table follows the table's version (its stream,
or polls twice a second; issue 36). Neither needs what the middleware below this one does for a page: the
clock is public to anyone who knows the game's number (phase, turn, deadline; no session), and a table's
version (or its stream) is answered here only to a session that was shown to have a seat at that table a
moment ago (`larp.tables.version_pass`): the full check ran on that session's first poll or stream, and runs
again whenever its pass has lapsed (a few seconds). Anything else, or a poll without a pass, goes the
ordinary way (sessions, sign-in, join code, seat). The host is still checked (ALLOWED_HOSTS) and the
security headers are still set (this middleware sits below SecurityMiddleware).

At a phase change every tablet also asks for its faction's board and the map's SVG, rendered once per state:
those kept are answered here to a session holding a pass to them (`larp.tablet.board_pass`: every right it
stands for checked live); the others, and the first render, go the ordinary way.
"""
from __future__ import annotations

import re

CLOCK = re.compile(r"^/g/(\d{1,18})/clock(/stream)?$")
TABLE_VERSION = re.compile(r"^/g/(\d{1,18})/tables/(\d{1,18})/(version|stream)$")
BOARD = re.compile(r"^/g/(\d{1,18})/f/([-a-zA-Z0-9_]{1,64})/$")
MAP_SVG = re.compile(r"^/g/(\d{1,18})/map/svg$")


def is_poll(path: str) -> bool:
    """Whether the path is the clock, a table's version or either's stream (what tablets ask by the thousand)."""
    return bool(CLOCK.match(path) or TABLE_VERSION.match(path))


class FastLaneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "GET":
            response = self._answer(request, request.path_info)
            if response is not None:
                if not response.streaming and not response.has_header("Content-Length"):
                    # Without a length gunicorn sends the body chunked: two more writes for a few bytes.
                    response["Content-Length"] = str(len(response.content))
                return response
        return self.get_response(request)

    @staticmethod
    def _answer(request, path: str):
        if path.endswith(("/clock", "/stream")):
            found = CLOCK.match(path)
            if found:
                request.get_host()  # DisallowedHost (400) as on any other page
                from larp.turns import views

                view = views.clock_stream if found.group(2) else views.clock_view
                return view(request, int(found.group(1)))
        if path.endswith("/") and request.META.get("HTTP_HX_REQUEST") == "true":
            found = BOARD.match(path)
            if found:
                from larp.tablet import board_pass

                return FastLaneMiddleware._checked_host(request, board_pass.board(
                    request, int(found.group(1)), found.group(2)))
        elif path.endswith("/svg"):
            found = MAP_SVG.match(path)
            if found:
                from larp.tablet import board_pass

                return FastLaneMiddleware._checked_host(request, board_pass.svg(
                    request, int(found.group(1)), request.GET.get("f", ""), request.GET.get("v", "")))
        if path.endswith(("/version", "/stream")):
            found = TABLE_VERSION.match(path)
            if found:
                from larp.tables import version_pass

                game_id, table_id = int(found.group(1)), int(found.group(2))
                if found.group(3) == "stream":
                    if not version_pass.may_stream(request, game_id, table_id):
                        return None
                    request.get_host()  # before the stream takes its slot
                    return version_pass.streamed(request, game_id, table_id)
                answer = version_pass.answer(request, game_id, table_id)
                if answer is not None:
                    request.get_host()
                return answer
        return None

    @staticmethod
    def _checked_host(request, answer):
        if answer is not None:
            request.get_host()  # DisallowedHost (400) as on any other page
        return answer
