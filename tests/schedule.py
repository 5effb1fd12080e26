"""The order test modules start in, so that every core stays busy to the end of the run.

`make test` runs the suite on parallel processes (pytest-xdist with `--dist loadscope`: a module, or a class,
is one unit of work, handed to whichever process is free next). Were the longest modules last, one process
would still be playing a whole night while the others had nothing left to do; so modules start longest first
(longest-processing-time-first scheduling), by the seconds each took in a recorded run, `tests/durations.json`.
A module the record does not know yet (a new one) is guessed from its markers. The record only orders the
run: a stale one makes it slower, never wrong.

    make test ARGS=--store-durations      # run, then write the seconds of the modules that ran into the record
"""
from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

RECORD = Path(__file__).with_name("durations.json")
GUESS = {"worker": 60.0, "browser": 30.0}  # seconds of a module the record does not know, by its tests' markers
DEFAULT_GUESS = 1.0


def pytest_addoption(parser):
    parser.addoption("--store-durations", action="store_true", default=False,
                     help="write the seconds each test module took in this run into tests/durations.json "
                          "(the order modules start in)")


def module_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def recorded() -> dict[str, float]:
    try:
        found = json.loads(RECORD.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): float(v) for k, v in found.items()} if isinstance(found, dict) else {}


def order(items: list, seconds_of: dict[str, float]) -> None:
    """Sort items in place: modules longest first, a module's tests in their own order, equal modules as found.
    (Called from tests/conftest.py's collection hook; every xdist process sorts the same collection by the same
    record, so they all agree on it.)"""
    guessed: dict[str, float] = {}
    first: dict[str, int] = {}
    for index, item in enumerate(items):
        module = module_of(item.nodeid)
        first.setdefault(module, index)
        if module not in seconds_of:
            marked = [s for marker, s in GUESS.items() if item.get_closest_marker(marker)]
            guessed[module] = guessed.get(module, 0.0) + max(marked or [DEFAULT_GUESS])

    def key(item):
        module = module_of(item.nodeid)
        return -seconds_of.get(module, guessed.get(module, DEFAULT_GUESS)), first[module]

    items.sort(key=key)  # stable: within a module the collected order stays


class Recorder:
    """On the process that reports (xdist's controller, or the only one): each module's seconds, stored at the end."""

    def __init__(self):
        self.seconds: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report):
        self.seconds[module_of(report.nodeid)] += report.duration

    def pytest_sessionfinish(self, session, exitstatus):
        if not self.seconds:
            return
        record = recorded()
        record.update({module: round(s, 1) for module, s in self.seconds.items()})
        RECORD.write_text(json.dumps(dict(sorted(record.items())), indent=0, ensure_ascii=False) + "\n",
                          encoding="utf-8")


def pytest_configure(config):
    if config.getoption("--store-durations") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(Recorder(), "larp-durations-recorder")
