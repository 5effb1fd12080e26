"""A print job whose worker died mid-way: the open status page turns from «готовится 9 %» to the failure and its
reason by itself (no reload), and the print button makes the document again. Real headless Chromium."""
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from larp.sheets import services
from larp.sheets.models import PrintJob
from tests.browser.conftest import artifacts, browser, game_for, new_page  # noqa: F401 - fixtures


@pytest.mark.browser
def test_the_status_page_shows_a_stalled_job_failed_without_a_reload(game_for, new_page, live_server,  # noqa: F811
                                                                     artifacts, settings):  # noqa: F811
    settings.PRINT_STALL_SECONDS = 3
    game, mod, _player, _join = game_for(300)
    job, _ = services.request_print(game, "battle-sheets", {"paper": "a4"}, mod)
    # A worker took it, reached 9 % and was killed: nobody will move it again.
    now = timezone.now()
    PrintJob.objects.filter(pk=job.pk).update(state=PrintJob.RUNNING, progress=9, started_at=now, progressed_at=now)

    client = Client()
    client.force_login(mod)
    page = new_page(viewport={"width": 1024, "height": 700})
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": live_server.url,
                               "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    page.goto(f"/g/{game.pk}/print/jobs/{job.pk}/")
    status = page.locator(f"#print-job-{job.pk}")
    assert "готовится" in status.inner_text() and "не удалось" not in status.inner_text()
    page.wait_for_function(
        f"document.querySelector('#print-job-{job.pk}').innerText.includes('не удалось')", timeout=10000)
    text = page.locator(f"#print-job-{job.pk}").inner_text()
    assert "не удалось: печать прервалась на 9 % — её фоновая задача остановилась" in text, text
    page.screenshot(path=str(artifacts / "print-job-stalled.png"))
    assert PrintJob.objects.get(pk=job.pk).state == PrintJob.FAILED

    page.click("text=Напечатать заново")  # the same document, made afresh
    page.wait_for_load_state()
    again = PrintJob.objects.exclude(pk=job.pk).get(game=game)
    assert again.kind == job.kind and again.params == PrintJob.objects.get(pk=job.pk).params
    assert page.url.endswith(f"/print/jobs/{again.pk}/")


def test_a_job_that_keeps_progressing_is_never_given_up(tiny_game, moderator, settings):  # noqa: F811
    settings.PRINT_STALL_SECONDS = 3
    job, _ = services.request_print(tiny_game, "battle-sheets", {}, moderator)
    started = timezone.now() - timedelta(seconds=30)
    PrintJob.objects.filter(pk=job.pk).update(state=PrintJob.RUNNING, progress=50, started_at=started,
                                              progressed_at=timezone.now() - timedelta(seconds=1))
    same, created = services.request_print(tiny_game, "battle-sheets", {}, moderator)
    assert not created and same.pk == job.pk and same.state == PrintJob.RUNNING  # slow, but alive
    PrintJob.objects.filter(pk=job.pk).update(progressed_at=timezone.now() - timedelta(seconds=4))
    assert services.job_status(tiny_game, job.pk).state == PrintJob.FAILED
