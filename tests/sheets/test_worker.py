"""The print task through a real Celery worker against the test database and Redis."""
import time

import pytest

from larp.campaign.services.members import add_moderator
from larp.campaign.services.scenario import load_scenario
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
