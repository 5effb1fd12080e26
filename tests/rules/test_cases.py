"""Replay every further rule system's case files through its command line (tests/rules/cases/README.md)."""
import io
import json
import pathlib

import pytest

from larp.rules import systems
from tests.engine.match import diff

CASES_DIR = pathlib.Path(__file__).resolve().parent / "cases"
CASES = sorted(CASES_DIR.glob("*/*.case.json"))


def _expect_path(case_path: pathlib.Path) -> pathlib.Path:
    return case_path.with_name(case_path.name[: -len(".case.json")] + ".expect.json")


@pytest.mark.parametrize("case_path", CASES, ids=lambda p: f"{p.parent.name}/{p.name[:-len('.case.json')]}")
def test_case_file(case_path):
    expect_doc = json.loads(_expect_path(case_path).read_text(encoding="utf-8"))
    system, mode = systems.split(expect_doc["mode"])
    assert system == case_path.parent.name, "a case file sits in its system's folder"
    module = systems.cli_module(system)
    assert module is not None, f"{system} has case files but no engine"
    out, err = io.StringIO(), io.StringIO()
    code = module.main([mode, str(case_path)], io.StringIO(), out, err)
    wanted_exit = expect_doc.get("exit", 0)
    assert code == wanted_exit, f"exit {code}, expected {wanted_exit}; stderr: {err.getvalue().strip()}"
    if code:
        assert out.getvalue() == "" and err.getvalue().count("\n") == 1
        assert expect_doc.get("stderr", "") in err.getvalue()
        return
    problem = diff(expect_doc.get("expect", {}), json.loads(out.getvalue()))
    assert problem is None, problem


def test_every_case_folder_names_a_system():
    folders = {p.name for p in CASES_DIR.iterdir() if p.is_dir()}
    assert folders <= set(systems.SYSTEMS) - {systems.DEFAULT}
