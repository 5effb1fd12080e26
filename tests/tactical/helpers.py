"""Shared helpers of the tactical engine's tests: run a mode the way the command line does."""
import io
import json
import pathlib

from larp.tactical.engine import cli

CASES = pathlib.Path(__file__).resolve().parents[1] / "rules" / "cases" / "tactical"


def case(name: str) -> dict:
    return json.loads((CASES / f"{name}.case.json").read_text(encoding="utf-8"))


def run(mode: str, data) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `adjudicate tactical.MODE -` on `data` (a document or raw text)."""
    text = data if isinstance(data, str) else json.dumps(data)
    out, err = io.StringIO(), io.StringIO()
    code = cli.main([mode, "-"], io.StringIO(text), out, err)
    return code, out.getvalue(), err.getvalue()


def result(mode: str, data) -> dict:
    code, out, err = run(mode, data)
    assert code == 0, err
    return json.loads(out)
