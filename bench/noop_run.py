"""Benchmark: a `litrec run` with nothing stale, against the bare interpreter start.

Times, as whole processes in one run on this machine (median of N runs):

- baseline: `python -c pass` (the interpreter start every command pays);
- litrec:   `python -m litrec run --profile paper` on this repository, where every
  committed result is current, so nothing runs and JAX is never imported.

One untimed run first fills `.litrec-cache/sources/` (what the analyses import,
read from their sources) and Python's bytecode caches (`__pycache__`), as any
earlier command in the project would have: the runs are made without
PYTHONDONTWRITEBYTECODE, which some sandboxes set and no installation does
(compiling litrec's modules from source on every start costs about 0.1 s).

Goal: the no-op run returns in under 0.3 s.

    python bench/noop_run.py [--repeats 7] [--json PATH]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

import report  # noqa: E402

GOAL_S = 0.3
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


CPU: dict[str, list[float]] = {}  # command -> CPU seconds (user + system) of each run


def timed(cmd: list[str], repeats: int) -> list[float]:
    """Wall seconds of each of `repeats` runs; their CPU seconds go to CPU."""
    out = []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=ENV)
        out.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        CPU.setdefault(cmd[-1], []).append(after.ru_utime - before.ru_utime
                                           + after.ru_stime - before.ru_stime)
        if proc.returncode not in (0, 1):
            sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    report.add_json_argument(ap)
    args = ap.parse_args()
    check = subprocess.run([sys.executable, "-m", "litrec", "status", "--check-current"],
                           capture_output=True, text=True, cwd=ROOT)
    if check.returncode != 0:
        sys.exit("some results are stale or missing, so `litrec run` would not be a no-op; "
                 "run `litrec run` first\n" + check.stderr[-2000:])
    cmd = [sys.executable, "-m", "litrec", "run", "--profile", "paper", "--format", "json"]
    timed(cmd, 1)  # warm: the source cache and the OS's file cache
    base, run = [], []
    for _ in range(args.repeats):  # interleaved, so a busy moment hits both alike
        base += timed([sys.executable, "-c", "pass"], 1)
        run += timed(cmd, 1)
    b, r = statistics.median(base), statistics.median(run)
    print(f"{args.repeats} runs each, whole processes, medians; "
          f"load average {os.getloadavg()[0]:.1f}")
    cpu_b, cpu_r = statistics.median(CPU["pass"]), statistics.median(CPU[cmd[-1]])
    print(f"baseline  python -c pass          : {b:6.3f} s  (CPU {cpu_b:.3f} s)")
    print(f"litrec    run (nothing stale)     : {r:6.3f} s  (CPU {cpu_r:.3f} s; goal: < {GOAL_S} s)")
    print(f"ratio     litrec / baseline       : {r / b:6.2f}x")
    report.emit([report.Row("noop run (paper, nothing stale)", r, "s", "python -c pass", b,
                            f"< {GOAL_S} s", r < GOAL_S)], args.json)


if __name__ == "__main__":
    main()
