"""Rewrite the test modules' asserts once, before the parallel test processes start.

pytest rewrites each test module's `assert`s to explain a failure and keeps the result next to the module
(__pycache__/*-pytest-*.pyc). On a fresh clone there is none yet, so each of the parallel processes rewrote every
module itself: about 10 s of CPU each, four times over. Here the modules without an up-to-date rewrite are
collected (not run) once, split over one process a core; a warm tree costs only the look at the files.

    .venv/bin/python scripts/warm_tests.py        (scripts/test.sh runs it)
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TAG = f"{sys.implementation.cache_tag}-pytest-{pytest.__version__}"


def cold_modules() -> list[Path]:
    """The test modules (and conftests) whose rewritten copy is missing or older than the module."""
    cold = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if not (path.name.startswith("test_") or path.name == "conftest.py"):
            continue
        cached = path.parent / "__pycache__" / f"{path.stem}.{TAG}.pyc"
        if not cached.exists() or cached.stat().st_mtime < path.stat().st_mtime:
            cold.append(path)
    return cold


def main() -> int:
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return 0  # nothing would be kept
    cold = [p for p in cold_modules() if p.name != "conftest.py"]
    if not cold:
        return 0
    parts = max(1, min(os.cpu_count() or 1, len(cold) // 20 or 1))
    groups = [cold[i::parts] for i in range(parts)]
    procs = [subprocess.Popen([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist",
                               "-p", "no:cacheprovider", *map(str, group)],
                              cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for group in groups]
    for proc in procs:
        proc.wait()  # a module that fails to import is reported by the real run
    return 0


if __name__ == "__main__":
    sys.exit(main())
