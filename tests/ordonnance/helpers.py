"""Running the Ordonnance command line in-process, as tests/engine/test_cli.py does for the core."""
import io
import json

from larp.ordonnance.engine import cli


def run(argv, stdin_text=""):
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(argv, io.StringIO(stdin_text), out, err)
    return code, out.getvalue(), err.getvalue()


def run_case(mode, case):
    return run([mode, "-"], case if isinstance(case, str) else json.dumps(case, ensure_ascii=False))


def result(mode, case) -> dict:
    code, out, err = run_case(mode, case)
    assert code == 0, err
    return json.loads(out)


def assert_malformed(code, out, err, field=None):
    """Exit 2, nothing on stdout, exactly one line on stderr, no traceback; optionally naming `field`."""
    assert code == 2, (code, err)
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, repr(err)
    assert "Traceback" not in err
    if field is not None:
        assert err.startswith(f"{field}: "), err


def card(*symbols):
    return {"symbols": list(symbols)}
