"""Print jobs: one job per document while it is being made, claimed once, failures said plainly."""
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone, translation

from larp.sheets import services
from larp.sheets.models import PrintJob
from tests.sheets.pdf import pdf_pages


def test_a_double_request_gives_one_job(tiny_game, moderator, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        first, created_first = services.request_print(tiny_game, "battle-sheets", {"paper": "a4"}, moderator)
        second, created_second = services.request_print(tiny_game, "battle-sheets", {"paper": "A4"}, moderator)
    assert (created_first, created_second) == (True, False) and first.pk == second.pk
    assert len(callbacks) == 1  # queued once
    assert PrintJob.objects.count() == 1


def test_other_parameters_or_a_finished_job_make_a_new_one(tiny_game, moderator):
    job, _ = services.request_print(tiny_game, "battle-sheets", {}, moderator)
    a5, created = services.request_print(tiny_game, "battle-sheets", {"paper": "a5"}, moderator)
    assert created and a5.pk != job.pk
    with translation.override("en"):
        english, created = services.request_print(tiny_game, "battle-sheets", {}, moderator)
    assert created and english.language == "en"
    services.run_job(job.pk)
    again, created = services.request_print(tiny_game, "battle-sheets", {}, moderator)
    assert created and again.pk != job.pk  # the map may have changed since: print it afresh


def test_a_stale_job_is_given_up_and_made_again(tiny_game, moderator):
    job, _ = services.request_print(tiny_game, "order-forms", {}, moderator)
    PrintJob.objects.filter(pk=job.pk).update(created_at=timezone.now() - timedelta(minutes=30))
    fresh, created = services.request_print(tiny_game, "order-forms", {}, moderator)
    assert created and fresh.pk != job.pk
    job.refresh_from_db()
    assert job.state == PrintJob.FAILED and "печать не началась" in job.error


def test_run_job_makes_the_pdf_once(tiny_game, moderator):
    job, _ = services.request_print(tiny_game, "battle-sheets", {"faction": "north"}, moderator)
    assert services.run_job(job.pk) == PrintJob.DONE
    assert services.run_job(job.pk) == PrintJob.DONE  # a second delivery of the task does nothing
    job.refresh_from_db()
    assert (job.state, job.progress, job.error) == (PrintJob.DONE, 100, "")
    assert job.filename == f"game{tiny_game.pk}-battle-sheets-north.pdf"
    pages = pdf_pages(bytes(job.content))
    assert len(pages) == 1 and "Север" in pages[0] and "Альберт (3)" in pages[0]
    assert job.started_at and job.finished_at >= job.started_at


def test_a_job_made_in_english_reads_english(tiny_game, moderator):
    with translation.override("en"):
        job, _ = services.request_print(tiny_game, "order-forms", {}, moderator)
    services.run_job(job.pk)
    job.refresh_from_db()
    assert "ORDER FORM" in pdf_pages(bytes(job.content))[0]


def test_a_failing_job_records_why(tiny_game, moderator, monkeypatch):
    job, _ = services.request_print(tiny_game, "battle-sheets", {}, moderator)

    def broken(*args, **kwargs):
        raise RuntimeError("printer on fire")

    monkeypatch.setattr(services, "render_document", broken)
    assert services.run_job(job.pk) == PrintJob.FAILED
    job.refresh_from_db()
    assert job.state == PrintJob.FAILED and "printer on fire" in job.error and job.finished_at


def test_only_moderators_request(tiny_game, player, stranger):
    for user in (player, stranger):
        with pytest.raises(PermissionDenied):
            services.request_print(tiny_game, "battle-sheets", {}, user)
    assert not PrintJob.objects.exists()


@pytest.mark.parametrize("kind, params, message", [
    ("maps", {}, "Неизвестный документ"),
    ("battle-sheets", {"paper": "a3"}, "Формат бумаги"),
    ("battle-sheets", {"faction": "atlantis"}, "нет фракции atlantis"),
    ("battle-sheets", {"faction": "²"}, "нет фракции ²"),  # a Unicode digit: not a faction id either
    ("turn-results", {"turn": "²"}, "нужно число"),
    ("turn-results", {"turn": "x"}, "нужно число"),
    ("turn-results", {}, "Игра ещё не началась"),
    ("protocols", {"turn": 2}, "У хода 2 ещё нет итогов"),
])
def test_requests_that_cannot_be_printed_say_why(tiny_game, moderator, kind, params, message):
    with translation.override("ru"), pytest.raises(services.PrintError, match=message):
        services.request_print(tiny_game, kind, params, moderator)
    assert not PrintJob.objects.exists()


def test_parameters_a_document_does_not_read_are_dropped(tiny_game, moderator):
    job, _ = services.request_print(tiny_game, "battle-sheets", {"turn": 4, "battle": 2, "paper": "a5"}, moderator)
    assert job.params == {"paper": "a5"}
