"""manage.py print_sheets: a valid PDF, or one clear line and a non-zero exit status."""
import os
import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command

from larp.scenarios.loader import load_scenario
from tests import workers
from tests.sheets.pdf import pdf_pages


@pytest.mark.parametrize("kind, pages", [("battle-sheets", 11), ("order-forms", 11)])
def test_writes_a_pdf_by_title(latin_game, tmp_path, kind, pages):
    out = tmp_path / "out.pdf"
    call_command("print_sheets", latin_game.title, "--kind", kind, "-o", str(out))
    assert len(pdf_pages(out.read_bytes())) == pages


def test_game_by_id_one_faction_a5(latin_game, tmp_path):
    out = tmp_path / "venice.pdf"
    call_command("print_sheets", str(latin_game.pk), "--kind", "battle-sheets", "--faction", "venice",
                 "--paper", "a5", "-o", str(out))
    pages = pdf_pages(out.read_bytes())
    assert len(pages) == 1 and "Венеция" in pages[0]


def test_protocols_and_turn_results_of_a_turn(latin_game, resolved_turn, tmp_path):
    call_command("print_sheets", latin_game.title, "--kind", "protocols", "--turn", "1", "-o", str(tmp_path / "p.pdf"))
    call_command("print_sheets", latin_game.title, "--kind", "protocols", "--turn", "1", "--battle", "3",
                 "-o", str(tmp_path / "p3.pdf"))
    call_command("print_sheets", latin_game.title, "--kind", "turn-results", "-o", str(tmp_path / "r.pdf"))
    assert len(pdf_pages((tmp_path / "p.pdf").read_bytes())) == 4
    (only,) = pdf_pages((tmp_path / "p3.pdf").read_bytes())
    assert "Автобой № 3" in only and "Янина" in only
    assert "ИТОГИ ХОДА" in pdf_pages((tmp_path / "r.pdf").read_bytes())[0]


@pytest.mark.parametrize("args, message", [
    (["Нет такой игры", "--kind", "battle-sheets"], "No game titled or numbered 'Нет такой игры'"),
    (["{game}", "--kind", "protocols", "--turn", "1"], "У хода 1 ещё нет итогов"),
    (["{game}", "--kind", "battle-sheets", "--faction", "atlantis"], "нет фракции atlantis"),
])
def test_errors_are_command_errors(latin_game, tmp_path, args, message):
    out = tmp_path / "never.pdf"
    args = [a.replace("{game}", latin_game.title) for a in args]
    with pytest.raises(CommandError, match=message):
        call_command("print_sheets", *args, "-o", str(out))
    assert not out.exists()


def run_command(*args):
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="larp.settings_test", DATABASE_URL=workers.test_database_url())
    return subprocess.run([sys.executable, "manage.py", "print_sheets", *args], cwd=workers.ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


def test_from_the_shell_errors_exit_non_zero_without_a_traceback(transactional_db, tmp_path):
    load_scenario("tiny", title="Shell game", seed=3)
    unknown = run_command("Нет такой игры", "--kind", "battle-sheets", "-o", str(tmp_path / "x.pdf"))
    no_results = run_command("Shell game", "--kind", "turn-results", "--turn", "1", "-o", str(tmp_path / "y.pdf"))
    for done in (unknown, no_results):
        assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
    assert "No game titled or numbered" in unknown.stderr
    assert "ещё нет итогов" in no_results.stderr
    ok = run_command("Shell game", "--kind", "order-forms", "-o", str(tmp_path / "z.pdf"))
    assert ok.returncode == 0, ok.stderr
    assert len(pdf_pages((tmp_path / "z.pdf").read_bytes())) == 3
