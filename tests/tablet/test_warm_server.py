"""The boards drawn after a phase change on a server run as on game night (`manage.py rungame`: gunicorn, a
Celery worker and beat, the cache in Redis): the moderator's press has every faction's board drawn by the
process that made it (larp.tablet.warm), and each tablet is then given its own faction's board, exactly the
board drawn for it alone, with its own tokens."""
import re
import urllib.request

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from larp.campaign.services.members import add_moderator, create_player
from larp.turns import services
from tests.faults.test_rungame_supervises import PAGE_TIMEOUT, Rungame, _get
from tests.workers import purge_queue, wait_until

pytestmark = pytest.mark.worker


def untokened(html: str) -> str:
    return re.sub(r'value="[^"]{16,}"', "", html)


def signed_in(user) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def board_over_http(base: str, game, faction: str, cookie: str) -> str:
    request = urllib.request.Request(f"{base}/g/{game.pk}/f/{faction}/", headers={
        "Cookie": cookie + "; csrftoken=" + "c" * 32, "HX-Request": "true"})
    with urllib.request.urlopen(request, timeout=PAGE_TIMEOUT) as response:
        assert response.status == 200
        return response.read().decode()


@pytest.fixture
def night(transactional_db, tmp_path):
    import redis

    purge_queue()
    prefix = f"warm-{tmp_path.name}"
    started = Rungame(tmp_path, CACHE_URL="redis", REDIS_URL=settings.TEST_REDIS_URL, CACHE_KEY_PREFIX=prefix,
                      BOARDS_DRAWN_AT_CHANGE="1", LOG_LEVEL="INFO")
    yield started
    started.stop()
    purge_queue()
    client = redis.Redis.from_url(settings.TEST_REDIS_URL)
    for key in client.scan_iter(f"{prefix}:*"):  # the server's cache: nothing of it is left to other tests
        client.delete(key)


def test_a_phase_change_on_the_night_server_draws_every_board_once_and_each_tablet_gets_its_own(fast_game, night):
    game = fast_game(600)
    mod, _ = add_moderator(game, "mod")
    north, _ = create_player(game.factions.get(code="north"), "north-tablet")
    south, _ = create_player(game.factions.get(code="south"), "south-tablet")
    phase = services.start_game(game, mod)
    cookies = {"north": signed_in(north), "south": signed_in(south)}
    assert wait_until(lambda: _get(night.base + "/healthz")[0] == 200, 40), night.text()[-3000:]
    for code, cookie in cookies.items():  # each tablet's page open once (its pass to the board)
        assert "data-unit" in board_over_http(night.base, game, code, cookie)

    press = urllib.request.Request(f"{night.base}/g/{game.pk}/control/next", method="POST", headers={
        "Cookie": signed_in(mod) + "; csrftoken=" + "x" * 32, "X-CSRFToken": "x" * 32},
        data=f"phase={phase.pk}&skip=1&reason=test".encode())
    with urllib.request.urlopen(press, timeout=PAGE_TIMEOUT) as response:
        assert response.status == 200  # followed to the console
    drawn = f"boards of game {game.pk} drawn after a phase change: 2 in"
    assert wait_until(lambda: drawn in night.text(), 20), "\n".join(
        line for line in night.text().splitlines() if "close_due_phases" not in line)[-4000:]
    assert "were not drawn" not in night.text()

    alone = {code: Client() for code in cookies}
    alone["north"].force_login(north)
    alone["south"].force_login(south)
    for code, cookie in cookies.items():
        served = board_over_http(night.base, game, code, cookie)
        mine = alone[code].get(reverse("tablet:faction", args=[game.pk, code]), HTTP_HX_REQUEST="true")
        assert untokened(served) == untokened(mine.content.decode())  # this process draws it without any cache
        assert f'data-unit="{code}-1"' in served
        other = "south" if code == "north" else "north"
        assert f'data-unit="{other}-1"' not in served
        assert 'data-lock-note role="status" hidden' not in served  # Movement: orders are closed
