"""Benchmark: a real analysis on a real dask cluster of two workers vs one process.

Copies the project's `records/` and `analysis/` into a temporary folder, then times
whole `litrec run ANALYSIS --profile PROFILE --force` commands there:

- baseline: `--jobs 1`  (the points one after another, in litrec's own process)
- `--executor dask --scheduler ADDRESS`: a cluster started beforehand as
  site/scale-out.md tells a user to (`dask scheduler` on loopback and `--workers`
  `dask worker --nthreads 1` processes, each in a folder of its own), as a
  long-lived cluster is; its start is not timed.

Each run compiles afresh (`--no-compile-cache`), as a first run on a fresh clone does,
so neither side finds programs the other compiled. The two results must agree on every
metric but the timings of the training (`timing`, `train_seconds`, `ms_per_step`, and the
notes that quote them). It also prints the best speed-up the workers could give: the analysis's points
(its seeds) are whole tasks, so with P points of equal length on W workers the last
round keeps some workers idle: P / ceil(P / W) (5 seeds on 2 workers: 1.67x).

Goal: at least 1.7x faster on two workers, with identical metrics.

    python bench/cluster_speedup.py [--analysis deeper-gdpp] [--profile paper] [--repeats 1] [--json PATH]

The default is the paper profile of deeper-gdpp, whose points take minutes on a core (about
twenty minutes serial on two cores); `--profile quick` is a reduced size (two seeds).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO))

import report  # noqa: E402
from tests.sweep.realcluster import Cluster  # noqa: E402  (the tests' cluster: the same commands)

GOAL = 1.7  # speed-up over the baseline
TIMES = ("started", "wall_time_s", "content_hash")
# Metrics that time the training (site/writing-analyses.md): they differ between any two runs
TIMING_METRICS = ("timing", "train_seconds", "ms_per_step")


def without_timings(value):
    """A result with the timing metrics (dotted names too) and the notes that quote them
    ("ms/step") left out, at any depth: what two runs must agree on."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items()
                if not set(str(k).split(".")) & set(TIMING_METRICS)}
    if isinstance(value, list):
        return [without_timings(v) for v in value if not (isinstance(v, str) and "ms/step" in v)]
    return value


def make_project(root: Path) -> None:
    """The project's records and analyses, nothing else (results go to folders of the bench)."""
    ignore = shutil.ignore_patterns("__pycache__", ".litrec-cache")
    for folder in ("records", "analysis"):
        shutil.copytree(REPO / folder, root / folder, ignore=ignore)


def time_run(root: Path, analysis: str, profile: str, flags: list[str], results: str) -> tuple[float, dict]:
    cmd = [sys.executable, "-m", "litrec", "run", analysis, "--profile", profile, "--force", "--no-compile-cache",
           "--allow-not-reproduced", "--results", results, "--format", "json", *flags]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"{' '.join(flags)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    result = json.loads((root / results / analysis / f"{profile}.json").read_text())
    return wall, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--analysis", default="deeper-gdpp", help="the analysis to run (default: deeper-gdpp)")
    ap.add_argument("--profile", default="paper", help="its profile (default: paper; quick is a reduced size)")
    ap.add_argument("--workers", type=int, default=2, help="dask worker processes (default: 2)")
    ap.add_argument("--repeats", type=int, default=1, help="runs of each (default: 1; paper points take minutes)")
    report.add_json_argument(ap)
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start; "
          f"{args.analysis} --profile {args.profile}, {args.workers} dask workers, median of {args.repeats}")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        make_project(root)
        with Cluster(Path(tmp) / "cluster", workers=args.workers) as cluster:
            configs = [("local, 1 job (baseline)", ["--jobs", "1"]),
                       (f"dask, {args.workers} workers", ["--executor", "dask", "--scheduler", cluster.address])]
            times: dict[str, list[float]] = {name: [] for name, _ in configs}
            results: dict[str, dict] = {}
            for rep in range(args.repeats):  # interleaved, the order swapped each time
                for i, (name, flags) in (list(enumerate(configs)) if rep % 2 == 0 else
                                         list(enumerate(configs))[::-1]):
                    wall, result = time_run(root, args.analysis, args.profile, flags, f"results-{i}")
                    times[name].append(wall)
                    results[name] = without_timings({k: v for k, v in result.items() if k not in TIMES})
                    print(f"  run {rep + 1} {name:<26} {wall:8.1f} s  "
                          f"(first point sent to last back: {result['wall_time_s']:.1f} s)", flush=True)
        points = max(1, len(results[configs[0][0]].get("points") or [None]))
    base = statistics.median(times[configs[0][0]])
    med = statistics.median(times[configs[1][0]])
    same = results[configs[0][0]] == results[configs[1][0]]
    bound = points / math.ceil(points / args.workers)
    print(f"\n{'executor':<26} {'median s':>9} {'speed-up':>9}")
    for name, _ in configs:
        m = statistics.median(times[name])
        print(f"{name:<26} {m:9.1f} {base / m:8.2f}x")
    print(f"\n{points} points on {args.workers} workers: at most {bound:.2f}x when the points are of equal length")
    print(f"results identical (but for times): {same}")
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    label = f"{args.analysis} {args.profile}, dask cluster of {args.workers} workers"
    report.emit([report.Row(label, med, "s", "serial (--jobs 1)", base, f">= {GOAL}x faster, same metrics",
                            base / med >= GOAL and same),
                 report.Row(f"{args.analysis} {args.profile}, {points} whole points on {args.workers} workers",
                            bound, "x", goal="(best possible with equal points)")], args.json)


if __name__ == "__main__":
    main()
