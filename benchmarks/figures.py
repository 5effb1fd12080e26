"""What the benchmark scripts share: timing a call, and the `figure | measured | target | ratio | ok` table."""
import time


def timed(fn, runs: int) -> list[float]:
    """Seconds each of `runs` calls of `fn` took."""
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def print_targets(rows: list[tuple[str, float, float]]) -> list[str]:
    """Print (name, measured, target) rows, lower is better; returns the names of the missed ones."""
    width = max(len(r[0]) for r in rows)
    print(f"{'figure':<{width}} | {'measured':>9} | {'target':>7} | {'ratio':>6} | ok")
    print(f"{'-' * width}-|-{'-' * 9}-|-{'-' * 7}-|-{'-' * 6}-|-------")
    missed = []
    for name, measured, target in rows:
        ok = measured <= target
        if not ok:
            missed.append(name)
        print(f"{name:<{width}} | {measured:>9.3f} | {target:>7.1f} | {measured / target:>6.3f} | "
              f"{'yes' if ok else 'MISSED'}")
    return missed
