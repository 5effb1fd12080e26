"""The print task through a real Celery worker against the test database and Redis."""
import time

import pytest
from django.urls import reverse

from larp.campaign.services.members import add_moderator
from larp.scenarios.loader import load_scenario
from larp.sheets import services
from larp.sheets.models import PrintJob
from tests.sheets.pdf import pdf_pages


@pytest.mark.worker
def test_worker_makes_the_battle_sheets(worker_factory):
    worker = worker_factory("printer", beat=False)
    game = load_scenario("latin-east-1204", title="Printed by a worker", seed=5)
    mod, _ = add_moderator(game, "print-mod")
    job, created = services.request_print(game, "battle-sheets", {"paper": "a4"}, mod)  # queued on commit
    assert created
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.finished:
            break
        time.sleep(0.1)
    assert job.state == PrintJob.DONE, job.error
    assert job.progress == 100 and job.filename.endswith("battle-sheets.pdf")
    pages = pdf_pages(bytes(job.content))
    assert len(pages) == 11 and "БОЕВОЙ ЛИСТ" in pages[0]
    log = worker.log.read_text(errors="replace")
    assert "larp.sheets.tasks.generate_print_job" in log and "succeeded" in log  # the worker, not a fallback


@pytest.mark.worker
def test_a_job_whose_worker_dies_mid_way_is_marked_failed_and_can_be_printed_again(worker_factory, settings,
                                                                                    client_for):
    settings.PRINT_STALL_SECONDS = 2  # production: 20 s without progress
    doomed = worker_factory("doomed-printer", beat=False)
    game = load_scenario("latin-east-1204", title="Printer killed", seed=5)
    mod, _ = add_moderator(game, "print-mod")
    job, _ = services.request_print(game, "battle-sheets", {"paper": "a4"}, mod)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and PrintJob.objects.get(pk=job.pk).state == PrintJob.QUEUED:
        time.sleep(0.005)
    doomed.stop(kill=True)  # SIGKILL mid-job: nobody will finish or fail it
    job.refresh_from_db()
    assert job.state == PrintJob.RUNNING, "the worker finished before it could be killed"

    moderator = client_for(mod)
    status = moderator.get(reverse("sheets:job", args=[game.pk, job.pk]), HTTP_HX_REQUEST="true")
    assert status.status_code == 200 and "hx-trigger" in status.content.decode()  # still polling: not yet stalled
    time.sleep(2.2)
    status = moderator.get(reverse("sheets:job", args=[game.pk, job.pk]), HTTP_HX_REQUEST="true").content.decode()
    assert "hx-trigger" not in status  # the status page's polling stops on the news
    assert "не удалось: печать прервалась на" in status, status
    job.refresh_from_db()
    assert job.state == PrintJob.FAILED

    worker_factory("printer", beat=False)
    again, created = services.request_print(game, "battle-sheets", {"paper": "a4"}, mod)  # the button works again
    assert created and again.pk != job.pk
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not again.finished:
        time.sleep(0.1)
        again.refresh_from_db()
    assert again.state == PrintJob.DONE, again.error
