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

Each run's CPU time is measured beside its wall time (the `litrec run` process and its
children; on dask, every process of the workers' groups), as cores busy: CPU / wall. The
serial run is not one core's work (XLA's threads, the host drawing the next chunk), so on C
cores no executor can beat it by more than C / (its cores busy), a bound printed beside the
one of whole points.

Goal: at least 1.7x faster on two workers, with identical metrics.

    python bench/cluster_speedup.py [--analysis deeper-gdpp] [--profile paper] [--repeats 1] [--json PATH]

The default is the paper profile of deeper-gdpp, whose points take minutes on a core (about
twenty minutes serial on two cores); `--profile quick` is a reduced size (two seeds). `--smoke`
runs a NumPy analysis of two seeds, added to the copy, on a cluster of one worker.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
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

from tests.support.realcluster import Cluster  # noqa: E402  (the tests' cluster: the same commands)
from tests.support.toy import analysis as toy_analysis  # noqa: E402

GOAL = 1.7  # speed-up over the baseline
TIMES = ("started", "wall_time_s", "content_hash")
# What every `dask worker`'s nanny sets in its worker (distributed.nanny.pre-spawn-environ): each
# run is made with the same, so that litrec finds its workers' numerics environment its own.
THREADS = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
# Metrics that time the training (site/writing-analyses.md): they differ between any two runs
TIMING_METRICS = ("timing", "train_seconds", "ms_per_step", "wall_time_s")  # and each point's own time
# The smoke run's analysis, added to its copy of the project: two seeds of NumPy (seconds, where
# the project's own analyses compile with JAX for longer), so each point goes through the cluster.
SMOKE = "bench-smoke"
SMOKE_ANALYSIS = toy_analysis(doc="The smoke run's analysis: a number per seed (NumPy only).",
                              head='SEEDS = {"quick": (0, 1)}', fields="seed: int = 0",
                              profiles='{"quick": Config()}',
                              body='return {"metrics": {"level": 1.0 + config.seed}}')


def without_timings(value):
    """A result with the timing metrics (dotted names too) and the notes that quote them
    ("ms/step") left out, at any depth, and whether its points ran in a sandbox (dask's workers
    never do, the local executor's do where bwrap can make one): what two runs must agree on."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items()
                if not set(str(k).split(".")) & set(TIMING_METRICS) and k not in ("hermetic", "not_hermetic")}
    if isinstance(value, list):
        return [without_timings(v) for v in value
                if not (isinstance(v, str) and ("ms/step" in v or v.startswith("not hermetic")))]
    return value


def differences(a, b, where: str = "") -> list[str]:
    """The paths (`points.0.metrics.k5.loss_trained`) where two results differ, at most 20."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            out += differences(a.get(k), b.get(k), f"{where}.{k}" if where else str(k))
        return out[:20]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{where}.{i}")][:20]
    same = a is b or a == b or (isinstance(a, float) and isinstance(b, float) and a != a and b != b)
    return [] if same else [where or "(the whole result)"]  # NaN is NaN here, as in a stored result


def make_project(root: Path) -> None:
    """The project's records and analyses, nothing else (results go to folders of the bench)."""
    ignore = shutil.ignore_patterns("__pycache__", ".litrec-cache")
    for folder in ("records", "analysis"):
        shutil.copytree(REPO / folder, root / folder, ignore=ignore)


def add_smoke_analysis(root: Path) -> None:
    """The smoke run's analysis (`SMOKE_ANALYSIS`) in the project at `root`, registered as `SMOKE`."""
    (root / "analysis" / "bench_smoke.py").write_text(SMOKE_ANALYSIS, encoding="utf-8")
    with (root / "analysis" / "registry.yaml").open("a", encoding="utf-8") as registry:
        registry.write(f"\n{SMOKE}:\n  module: bench_smoke\n  title: The smoke run's analysis\n")


def group_cpu(groups: list[int]) -> float:
    """CPU seconds (user and system) of every live process in the given process groups (the
    dask workers, each started in a session of its own with its nanny's worker process)."""
    total = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            fields = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) in groups:  # fields after the name: state, ppid, pgrp, ...
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def children_cpu() -> float:
    """CPU seconds of this process's finished children (`litrec run` and its local workers)."""
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def time_run(root: Path, analysis: str, profile: str, flags: list[str], results: str,
             groups: list[int]) -> tuple[float, float, dict]:
    """(wall s, CPU s of the run and of the workers in `groups`, the result)."""
    cpu0 = children_cpu() + group_cpu(groups)
    cmd = [sys.executable, "-m", "litrec", "run", analysis, "--profile", profile, "--force", "--no-compile-cache",
           "--allow-not-reproduced", "--results", results, "--format", "json", *flags]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, env={**os.environ, **THREADS})
    wall = time.perf_counter() - t0
    cpu = children_cpu() + group_cpu(groups) - cpu0
    if proc.returncode != 0:
        sys.exit(f"{' '.join(flags)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    result = json.loads((root / results / analysis / f"{profile}.json").read_text())
    return wall, cpu, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--analysis", default="deeper-gdpp", help="the analysis to run (default: deeper-gdpp)")
    ap.add_argument("--profile", default="paper", help="its profile (default: paper; quick is a reduced size)")
    ap.add_argument("--workers", type=int, default=2, help="dask worker processes (default: 2)")
    ap.add_argument("--repeats", type=int, default=1, help="runs of each (default: 1; paper points take minutes)")
    report.add_json_argument(ap)
    args = report.parse(ap, analysis=SMOKE, profile="quick", repeats=1, workers=1)
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start; "
          f"{args.analysis} --profile {args.profile}, {args.workers} dask workers, median of {args.repeats}")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        make_project(root)
        if args.smoke:
            add_smoke_analysis(root)
        with Cluster(Path(tmp) / "cluster", workers=args.workers) as cluster:
            configs = [("local, 1 job (baseline)", ["--jobs", "1"]),
                       (f"dask, {args.workers} workers", ["--executor", "dask", "--scheduler", cluster.address])]
            times: dict[str, list[float]] = {name: [] for name, _ in configs}
            busy: dict[str, list[float]] = {name: [] for name, _ in configs}  # cores busy: CPU / wall
            results: dict[str, dict] = {}
            for rep in range(args.repeats):  # interleaved, the order swapped each time
                for i, (name, flags) in (list(enumerate(configs)) if rep % 2 == 0 else
                                         list(enumerate(configs))[::-1]):
                    groups = [w.pid for w in cluster.workers] if "--executor" in flags else []
                    wall, cpu, result = time_run(root, args.analysis, args.profile, flags,
                                                 f"results-{i}", groups)
                    times[name].append(wall)
                    busy[name].append(cpu / wall)
                    results[name] = without_timings({k: v for k, v in result.items() if k not in TIMES})
                    print(f"  run {rep + 1} {name:<26} {wall:8.1f} s, CPU {cpu:7.1f} s = {cpu / wall:.2f} "
                          f"cores busy (first point sent to last back: {result['wall_time_s']:.1f} s)",
                          flush=True)
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
    print(f"results identical (but for times and sandboxing): {same}")
    for path in differences(results[configs[0][0]], results[configs[1][0]]):
        print(f"  differs: {path}")
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    serial_busy = statistics.median(busy[configs[0][0]])
    print(f"the serial run keeps {serial_busy:.2f} cores busy (XLA's threads, the host drawing the next "
          f"chunk): on {os.cpu_count()} cores no executor can be more than "
          f"{os.cpu_count() / serial_busy:.2f}x faster than it")
    label = f"{args.analysis} {args.profile}, dask cluster of {args.workers} workers"
    report.emit([report.Row(label, med, "s", "serial (--jobs 1)", base, f">= {GOAL}x faster, same metrics",
                            base / med >= GOAL and same),
                 report.Row(f"{args.analysis} {args.profile}, {points} whole points on {args.workers} workers",
                            bound, "x", goal="(best possible with equal points)"),
                 report.Row(f"{args.analysis} {args.profile}, serial run: cores busy (CPU / wall)",
                            serial_busy, "cores", goal=f"(bound: {os.cpu_count()} cores / this)")],
                args.json)


if __name__ == "__main__":
    main()
