"""benchmarks/suite.py reads pytest's summary and the machine's CPU as the README's figures are read."""
import importlib.util
from pathlib import Path

SUITE = Path(__file__).resolve().parents[1] / "benchmarks" / "suite.py"


def _suite():
    spec = importlib.util.spec_from_file_location("suite_benchmark", SUITE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_summary_is_pytests_last_line_with_its_time():
    suite = _suite()
    log = ("4 workers [2730 items]\n....\nFAILED tests/x.py::test_y - assert 1\n"
           "================ 1 failed, 2729 passed in 490.56s (0:08:10) ================\n")
    assert suite.summary_line(log) == "1 failed, 2729 passed in 490.56s (0:08:10)"
    assert suite.summary_line("make: *** [Makefile:33: test] Error 2\n") == ""


def test_the_machines_cpu_grows_and_the_targets_are_the_issues():
    suite = _suite()
    before = suite.busy_seconds()
    assert before is not None and before > 0
    sum(i * i for i in range(200_000))
    assert suite.busy_seconds() >= before
    assert suite.TARGETS == {"test": 420, "test-quick": 120}
