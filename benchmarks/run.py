"""Every quick benchmark, one after another: `make bench` (or `.venv/bin/python benchmarks/run.py`).

Runs the scripts whose figures have targets and take under a minute or so:
the military engine, each further rule system's engine (`*_engine.py`),
printing, the CPU of one order, a tablet on an emulated hall network, the
deadline lateness with a real worker and sixty tablets at a phase change. Each prints its own table; this script
ends with one line per script and exits 1 if any script failed or missed a
target (each script exits 1 on a missed target, 2 when it cannot run here). The load test (benchmarks/load/run.py, about 6 minutes) runs only
with --load, and a rehearsed night of 60 tablets (benchmarks/rehearsal.py, about 25 minutes) only with --rehearsal.
"""
import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUICK = ["engine.py", *sorted(p.name for p in HERE.glob("*_engine.py")), "table_step.py", "printing.py", "order_cost.py",
         "tablet_network.py", "deadline.py", "phase_change.py"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--load", action="store_true", help="also run the load test (about 6 minutes)")
    parser.add_argument("--rehearsal", action="store_true",
                        help="also run a rehearsed night: 6 turns, 60 tablets (about 25 minutes)")
    parser.add_argument("only", nargs="*", help="run only these scripts (e.g. engine.py orda_engine.py)")
    args = parser.parse_args()
    scripts = args.only or QUICK + (["load/run.py"] if args.load else []) + (["rehearsal.py"] if args.rehearsal else [])
    summary = []
    for name in scripts:
        print(f"\n== {name} ==", flush=True)
        started = time.monotonic()
        code = subprocess.run([sys.executable, str(HERE / name)], cwd=HERE.parent).returncode
        summary.append((name, code, time.monotonic() - started))
    print("\n== summary ==")
    for name, code, seconds in summary:
        verdict = "ok" if code == 0 else "MISSED a target" if code == 1 else f"FAILED (exit {code})"
        print(f"{name:<22} {verdict:<16} {seconds:6.1f} s")
    return 0 if all(code == 0 for _, code, _ in summary) else 1


if __name__ == "__main__":
    sys.exit(main())
