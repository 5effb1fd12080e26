"""Replay every case file (shared contract examples and this project's cases) through the CLI.

Each `X.case.json` has an `X.expect.json`: {"mode": ..., "expect": {...}}; the
expectation is a subset of the result (tests/engine/match.py semantics:
objects key by key, lists element by element and in order). An expectation
may instead describe a refusal of the whole case: {"exit": 2, "stderr": "..."}
(the stderr text, when given, must appear in the one line printed).
"""
import io
import json
import pathlib
import subprocess
import sys

import pytest

from larp.engine.cli import main

from .match import diff

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CONTRACT = sorted((HERE / "contract").glob("*.case.json"))
CASES = sorted((HERE / "cases").glob("**/*.case.json"))


def _expect_path(case_path: pathlib.Path) -> pathlib.Path:
    return case_path.with_name(case_path.name[: -len(".case.json")] + ".expect.json")


def _id(path: pathlib.Path) -> str:
    return f"{path.parent.name}/{path.name[: -len('.case.json')]}"


def check(expect_doc: dict, code: int, out: str, err: str) -> None:
    wanted_exit = expect_doc.get("exit", 0)
    assert code == wanted_exit, f"exit {code}, expected {wanted_exit}; stderr: {err.strip()}"
    if code != 0:
        assert out == "" and err.count("\n") == 1, "a refused case prints one line on stderr and nothing else"
        if "stderr" in expect_doc:
            assert expect_doc["stderr"] in err, err
        return
    assert err == ""
    problem = diff(expect_doc.get("expect", {}), json.loads(out))
    assert problem is None, problem


@pytest.mark.parametrize("case_path", CONTRACT + CASES, ids=_id)
def test_case_file(case_path):
    expect_doc = json.loads(_expect_path(case_path).read_text(encoding="utf-8"))
    out, err = io.StringIO(), io.StringIO()
    code = main([expect_doc["mode"], str(case_path)], io.StringIO(), out, err)
    check(expect_doc, code, out.getvalue(), err.getvalue())


def _django_ready() -> bool:
    return (ROOT / "manage.py").exists() and (ROOT / "larp" / "campaign" / "management" / "commands"
                                              / "adjudicate.py").exists()


@pytest.mark.skipif(not _django_ready(), reason="the Django project is not there")
@pytest.mark.parametrize("case_path", CONTRACT, ids=_id)
def test_contract_through_manage_py(case_path):
    expect_doc = json.loads(_expect_path(case_path).read_text(encoding="utf-8"))
    proc = subprocess.run([sys.executable, str(ROOT / "manage.py"), "adjudicate", expect_doc["mode"], str(case_path)],
                          cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=120)
    check(expect_doc, proc.returncode, proc.stdout, proc.stderr)
