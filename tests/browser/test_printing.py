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
