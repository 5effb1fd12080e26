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
    "act_once": "each act is done once (a battle confirmed once, regroup applied once, an order resent after "
                "its answer was lost kept once)",
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


def expected_orders(filings) -> dict:
    """unit -> (its last acknowledged filing, the later filing whose answer said the unit's order was withdrawn,
    or None).

    `filings`: every tablet's filings of one turn (`tablets.Filing`). R5: a fleet carrying an army takes no
    order of its own, so an army's sea attack or landing that boards a fleet withdraws the fleet's order
    (`orders.services._drop_carrying_fleet_order`), and the tablet that filed the army's order is told on the
    fleet's card (`Filing.withdrawn`); the army leaving the fleet later does not bring the order back: the
    fleet holds unless it is given a new order. So a fleet's order acknowledged before an answer that said it
    was withdrawn is expected gone, not kept. (The army's picks need not name the fleet: the form asks which
    fleet only when there is a choice.)
    """
    last: dict = {}
    told: dict = {}
    for filing in filings:
        if not filing.saved:
            continue
        if filing.unit not in last or last[filing.unit].act < filing.act:
            last[filing.unit] = filing
        for fleet in filing.withdrawn:
            if fleet not in told or told[fleet].act < filing.act:
                told[fleet] = filing
    return {unit: (filing, told[unit] if unit in told and told[unit].act > filing.act else None)
            for unit, filing in last.items()}
