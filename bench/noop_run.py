"""Benchmark: a `litrec run` with nothing stale, against the bare interpreter start.

Times, as whole processes in one run on this machine (median of N runs):

- baseline: `python -c pass` (the interpreter start every command pays);
- litrec:   `python -m litrec run --profile paper` on this repository, where every
  committed result is current, so nothing runs and JAX is never imported.

Goal: the no-op run returns in under 1 s.

    python bench/noop_run.py [--repeats 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(cmd: list[str], repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        out.append(time.perf_counter() - t0)
        if proc.returncode not in (0, 1):
            sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    check = subprocess.run([sys.executable, "-m", "litrec", "status", "--check-current"],
                           capture_output=True, text=True, cwd=ROOT)
    if check.returncode != 0:
        sys.exit("some results are stale or missing, so `litrec run` would not be a no-op; "
                 "run `litrec run` first\n" + check.stderr[-2000:])
    base = timed([sys.executable, "-c", "pass"], args.repeats)
    run = timed([sys.executable, "-m", "litrec", "run", "--profile", "paper", "--format", "json"],
                args.repeats)
    b, r = statistics.median(base), statistics.median(run)
    print(f"{args.repeats} runs each, whole processes, medians")
    print(f"baseline  python -c pass          : {b:6.3f} s")
    print(f"litrec    run (nothing stale)     : {r:6.3f} s  (goal: < 1 s)")
    print(f"ratio     litrec / baseline       : {r / b:6.2f}x")


if __name__ == "__main__":
    main()
