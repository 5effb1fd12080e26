"""The printing page in Chromium: a document that cannot be printed yet says why, in Russian, and files nothing."""
import pytest

from larp.sheets.models import PrintJob
from tests.browser.test_console import sign_in


@pytest.mark.browser
def test_turn_results_before_any_result_say_why_and_battle_sheets_are_queued(game_for, new_page, artifacts):
    game, _mod, _player, _join = game_for()
    page = new_page(viewport={"width": 1280, "height": 900})
    sign_in(page, "mod1", "mod-password-1")
    page.goto(f"/g/{game.pk}/print/")
    page.click("button[value=turn-results]")
    error = page.locator(f"#print-jobs-{game.pk}")
    error.get_by_text("ещё нет итогов").wait_for()
    page.screenshot(path=str(artifacts / "printing-refused.png"), full_page=True)
    assert not PrintJob.objects.exists()
    page.click("button[value=battle-sheets]")
    page.locator(f"#print-jobs-{game.pk} [id^=print-job-]").first.wait_for()
    assert PrintJob.objects.filter(game=game, kind="battle-sheets").count() == 1


@pytest.mark.browser
def test_the_map_button_gives_the_map_as_a_pdf(game_for, new_page, artifacts):
    """The moderators' map on A3 from the printing page: the job appears, a worker makes it (here: the test, as
    the worker would), the list says it is ready, and its link gives the one-page PDF."""
    import io

    from pypdf import PdfReader

    from larp.sheets import services

    game, _mod, _player, _join = game_for()
    page = new_page(viewport={"width": 1280, "height": 900})
    sign_in(page, "mod1", "mod-password-1")
    page.goto(f"/g/{game.pk}/print/")
    form = page.locator("form.print-map")
    form.locator("select[name=paper]").select_option("a3")
    form.locator("button[value=map]").click()
    jobs = page.locator(f"#print-jobs-{game.pk}")
    jobs.get_by_text("Карта модераторов").first.wait_for()
    job = PrintJob.objects.get(game=game, kind="map")
    assert job.params == {"paper": "a3"}
    services.run_job(job.pk)
    link = jobs.get_by_role("link", name="Открыть PDF")
    link.wait_for()  # the status polls every second until the document is ready
    page.screenshot(path=str(artifacts / "printing-map.png"), full_page=True)
    response = page.request.get(link.get_attribute("href"))
    assert response.ok and response.headers["content-type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.body()))
    assert len(reader.pages) == 1 and round(float(reader.pages[0].mediabox.width)) == 1191
    assert "Карта — для модераторов" in reader.pages[0].extract_text()
