"""Moderators see, without reloading, that background tasks have stopped (the worker's heartbeat is old), and
see the warning go when the worker is back. Real headless Chromium against a live server."""
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from larp.turns.models import WorkerHeartbeat
from tests.browser.conftest import artifacts, browser, game_for, new_page  # noqa: F401 - fixtures
from tests.workers import wait_until

WARNING = "Фоновые задачи не работают: сроки фаз закроются, когда они вернутся."


def _heartbeat(seconds_ago: float) -> None:
    WorkerHeartbeat.objects.update_or_create(
        name="worker", defaults={"beat_at": timezone.now() - timedelta(seconds=seconds_ago)})


def _signed_in(page, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": live_server.url,
                               "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])


def test_the_warning_needs_a_live_worker(client_for, tiny_game, moderator, player):
    _heartbeat(1)
    page = client_for(moderator).get(f"/g/{tiny_game.pk}/console/").content.decode()
    assert 'id="worker-status"' in page and WARNING not in page
    _heartbeat(settings.WORKER_STALE_SECONDS + 1)
    assert WARNING in client_for(moderator).get(f"/g/{tiny_game.pk}/console/").content.decode()
    assert WARNING in client_for(moderator).get(f"/g/{tiny_game.pk}/worker-status").content.decode()
    WorkerHeartbeat.objects.all().delete()  # never beat at all: no worker has run yet
    assert WARNING in client_for(moderator).get(f"/g/{tiny_game.pk}/worker-status").content.decode()
    assert client_for(player).get(f"/g/{tiny_game.pk}/worker-status").status_code == 403
    assert client_for(None).get(f"/g/{tiny_game.pk}/worker-status").status_code == 302


@pytest.mark.browser
def test_console_shows_and_clears_the_warning_without_a_reload(game_for, new_page, live_server, artifacts):  # noqa: F811
    game, mod, _player, _join = game_for(300)
    _heartbeat(0)
    page = new_page(viewport={"width": 1280, "height": 900})
    _signed_in(page, live_server, mod)
    page.goto(f"/g/{game.pk}/console/")
    status = page.locator("#worker-status")
    assert status.count() == 1 and WARNING not in status.inner_text()

    _heartbeat(settings.WORKER_STALE_SECONDS + 5)  # the worker stopped beating
    page.wait_for_function("document.querySelector('#worker-status').innerText.includes('Фоновые задачи')",
                           timeout=9000)
    assert page.locator("#worker-status").inner_text().strip() == WARNING
    page.screenshot(path=str(artifacts / "console-worker-down.png"), full_page=False)

    _heartbeat(0)  # it is back
    page.wait_for_function("!document.querySelector('#worker-status').innerText.includes('Фоновые задачи')",
                           timeout=9000)
    assert wait_until(lambda: page.locator("#worker-status").count() == 1, 1)
