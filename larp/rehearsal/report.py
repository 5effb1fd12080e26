"""The night's report: turns, acts, tables played to their end, each check's count, every violation with the
seed and act that reproduce it, and the latency of each kind of act (p50/p95). Text, or JSON."""
from __future__ import annotations

import statistics

from larp.rehearsal.checks import CHECKS


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def latency(acts) -> dict:
    """Per kind of act: how many, p50 and p95 in milliseconds."""
    kinds: dict[str, list[float]] = {}
    for act in acts:
        kinds.setdefault(act.kind, []).append(act.seconds)
    return {kind: {"n": len(v), "p50_ms": round(statistics.median(v) * 1000, 1),
                   "p95_ms": round(_percentile(v, 0.95) * 1000, 1)} for kind, v in sorted(kinds.items())}


def figures(night) -> dict:
    """The night's figures besides latency: the server's CPU per phase change and per tablet (only when the
    rehearsal ran its own server: another's CPU is not ours to read) and each tablet's bytes on the wire."""
    tablets = max(1, night.tablets)
    wire: dict[str, int] = {}
    for act in night.log.acts:
        if act.seat != "moderator":
            wire[act.seat] = wire.get(act.seat, 0) + act.bytes
    minutes = max(night.seconds, 1.0) / 60
    out = {"tablet_kb": round(statistics.mean(wire.values()) / 1000, 1) if wire else 0.0,
           "tablet_kb_per_minute": round(statistics.mean(wire.values()) / 1000 / minutes, 1) if wire else 0.0}
    if night.change_cpu:
        out.update(phase_changes=len(night.change_cpu),
                   change_cpu_ms=round(statistics.median(night.change_cpu) * 1000, 1),
                   change_cpu_ms_max=round(max(night.change_cpu) * 1000, 1),
                   change_cpu_ms_per_tablet=round(max(night.change_cpu) * 1000 / tablets, 2))
    return out


def as_data(night) -> dict:
    o = night.options
    return {
        "seed": o.seed, "scenario": o.scenario, "game": night.game_id, "turns": night.turns_played,
        "turns_asked": o.turns, "tablets_per_faction": o.tablets, "tables": o.tables, "fast": o.fast,
        "seconds": round(night.seconds, 1), "acts": len(night.log.acts),
        "tables_ended": night.tables_ended,
        "checks": {name: night.checks.counts.get(name, 0) for name in CHECKS},
        "violations": [{"check": v.check, "message": v.message, "act": v.act, "seed": v.seed,
                        "reproduce": v.steps()} for v in night.checks.violations],
        "latency": latency(night.log.acts),
        "figures": figures(night),
        "notes": night.notes,
        "log": [{"act": a.number, "seat": a.seat, "kind": a.kind, "method": a.method, "url": a.url,
                 "status": a.status, "ms": round(a.seconds * 1000, 1)} for a in night.log.acts],
        "passed": not night.checks.failed,
    }


def as_text(night) -> str:
    data = as_data(night)
    lines = [f"Rehearsal, seed {data['seed']}: game {data['game']}, {data['turns']} of {data['turns_asked']} turns, "
             f"{data['acts']} acts in {data['seconds']} s",
             "Tables played to their end: " + (", ".join(f"{k} {v}" for k, v in data["tables_ended"].items())
                                                or "none"), "", "Checks:"]
    for name, description in CHECKS.items():
        bad = sum(1 for v in data["violations"] if v["check"] == name)
        lines.append(f"  {'FAIL' if bad else 'ok  '} {name:<20} {data['checks'][name]:>6} checked"
                     f"{f', {bad} failed' if bad else ''}  — {description}")
    if data["violations"]:
        lines += ["", "Violations:"]
        for v in data["violations"]:
            lines.append(f"  [{v['check']}] act {v['act']}: {v['message']}")
            lines.append(f"      reproduce: {v['reproduce']}")
    lines += ["", f"{'kind of act':<40} {'n':>5} {'p50 ms':>8} {'p95 ms':>8}"]
    for kind, row in data["latency"].items():
        lines.append(f"{kind:<40} {row['n']:>5} {row['p50_ms']:>8} {row['p95_ms']:>8}")
    f = data["figures"]
    lines.append("")
    lines.append(f"a tablet's answers on the wire: {f['tablet_kb']} KB over the night, "
                 f"{f['tablet_kb_per_minute']} KB a minute")
    if "change_cpu_ms" in f:
        lines.append(f"the server's CPU over a phase change: median {f['change_cpu_ms']} ms, at most "
                     f"{f['change_cpu_ms_max']} ms ({f['change_cpu_ms_per_tablet']} ms a tablet), "
                     f"{f['phase_changes']} changes")
    else:
        lines.append("the server's CPU over a phase change: not measured (a server of its own only, not --url)")
    lines += [f"note: {n}" for n in data["notes"]]
    lines.append("PASSED" if data["passed"] else f"FAILED: {len(data['violations'])} violation(s)")
    return "\n".join(lines) + "\n"
