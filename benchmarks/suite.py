"""The test suite's time, measured as `benchmarks/README.md` records it: `.venv/bin/python benchmarks/suite.py`.

A fresh clone of this checkout's HEAD (committed work only) in a temporary directory runs `make test` (or
`--quick`: `make test-quick`) as a newcomer would, with this checkout's `.venv` lent to it when there is one
(installing the packages is a first run's cost, not the suite's). Printed: the wall time, the CPU time the whole
machine spent meanwhile (Linux: `/proc/stat`, so Chromium, the workers and every process the tests start count),
how busy that kept the cores, pytest's own summary line, and a reference figure: a fixed pure-Python loop timed
before and after. Machines of the same kind have run the same commit from 7 to 12 minutes (benchmarks/README.md,
stops 46-50); the loop says which kind of day it was, and a run whose two loops differ much was disturbed.

Exits 1 when a test failed or the time missed its target (7 minutes for `make test`, 2 for `make test-quick`:
issue 31), 2 when it cannot run here (no git, no make). A failed run, or `--keep`, leaves the clone and its
log; `DATABASE_URL` and `TEST_WORKERS` are passed on as `make test` takes them.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from figures import print_targets  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {"test": 7 * 60, "test-quick": 2 * 60}
LOOP = 30_000_000


def reference_loop() -> float:
    """Seconds a fixed pure-Python loop takes in this interpreter (the project's Python 3.12: 1.3 s on stop 50's
    machine, which ran `make test` in 8 minutes)."""
    started = time.perf_counter()
    total = 0
    for i in range(LOOP):
        total += i
    return time.perf_counter() - started


def busy_seconds() -> float | None:
    """CPU seconds the whole machine has spent since boot (user, nice, system, irq, softirq, steal), or None."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(f) for f in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def summary_line(log: str) -> str:
    """pytest's last summary line ("2730 passed in 490.56s (0:08:10)"), or ''."""
    lines = [line.strip("= ") for line in log.splitlines() if re.search(r"\b(passed|failed|error)", line)
             and re.search(r"\bin [\d.]+s\b", line)]
    return lines[-1] if lines else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="make test-quick instead of make test")
    parser.add_argument("--keep", action="store_true", help="leave the clone and its log")
    parser.add_argument("--args", default="", help="passed to pytest as make test's ARGS")
    args = parser.parse_args()
    target = "test-quick" if args.quick else "test"
    for tool in ("git", "make"):
        if shutil.which(tool) is None:
            print(f"{tool} is not installed: install it to measure the suite", file=sys.stderr)
            return 2

    work = Path(tempfile.mkdtemp(prefix="larp-suite-"))
    clone = work / "clone"
    subprocess.run(["git", "clone", "--quiet", "--shared", str(ROOT), str(clone)], check=True)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=clone, check=True, capture_output=True,
                          text=True).stdout.strip()
    venv = ROOT / ".venv"
    if (venv / "bin" / "python").exists():
        (clone / ".venv").symlink_to(venv)
    log_path = work / f"make-{target}.log"
    print(f"{head}: make {target} in a fresh clone ({clone}); log {log_path}", flush=True)

    loop_before = reference_loop()
    busy_before, started = busy_seconds(), time.monotonic()
    env = {**os.environ, "ARGS": args.args} if args.args else dict(os.environ)
    with log_path.open("w", encoding="utf-8") as log:
        code = subprocess.run(["make", target], cwd=clone, env=env, stdout=log, stderr=subprocess.STDOUT).returncode
    wall, busy_after = time.monotonic() - started, busy_seconds()
    loop_after = reference_loop()

    text = log_path.read_text(encoding="utf-8", errors="replace")
    print(f"pytest: {summary_line(text) or '(no summary: see the log)'}")
    cores = os.cpu_count() or 1
    if busy_before is not None and busy_after is not None:
        cpu = busy_after - busy_before
        print(f"the machine's CPU: {cpu:.0f} s, {cpu / wall / cores:.0%} of {cores} cores over the run")
    print(f"reference loop: {loop_before:.2f} s before, {loop_after:.2f} s after")
    missed = print_targets([(f"make {target}, wall seconds", wall, TARGETS[target])])
    if code != 0:
        print(f"make {target} exited {code}: the clone and its log are kept ({log_path})")
        return 1
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
