"""The named invariants of a rehearsal: each counts how often it was checked and keeps every violation.

A violation says what went wrong in one sentence and how to get there again: the seed of the night and the
number of the act after which it was seen (`manage.py rehearse --seed S` plays the same choices).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field

# Every check's name and what it promises (the report lists them in this order).
CHECKS = {
    "http": "no 5xx, and no 4xx for a choice the page offered",
    "orders_kept": "every acknowledged order is on the server after the deadline",
    "late_refused": "no order is accepted after the deadline (and its grace)",
    "deadline_once": "each deadline is closed once",
    "act_once": "each act of the console is done once (a battle confirmed once, regroup applied once)",
    "fog": "a tablet's pages never show another faction's hidden data",
    "turn_equals_engine": "the turn the console applied equals `adjudicate turn` on its case",
    "table_replay": "every table's stored state equals its engine's replay",
    "table_not_stuck": "until its end some seat of a table has an open act; a battle ends within its bound",
    "console_not_stuck": "the console always offers the next thing to do until the turn's regroup is applied",
    "dice": "`verify_dice` agrees with every die at the end",
}


@dataclass
class Violation:
    check: str
    message: str
    act: int
    seed: int

    def steps(self) -> str:
        return f"manage.py rehearse --seed {self.seed} … (seen after act {self.act})"


@dataclass
class Checks:
    seed: int
    counts: dict = field(default_factory=lambda: {name: 0 for name in CHECKS})
    violations: list = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def check(self, name: str, ok: bool, message: str, act: int) -> bool:
        """Count one check of `name`; when not `ok`, keep `message` as a violation after act `act`."""
        if name not in CHECKS:
            raise KeyError(name)
        with self._lock:
            self.counts[name] += 1
            if not ok:
                self.violations.append(Violation(name, message, act, self.seed))
        return ok

    @property
    def failed(self) -> bool:
        return bool(self.violations)
