"""Benchmark: a CPU-bound sweep on the local executor vs a dask LocalCluster.

Writes a toy project in a temporary folder whose one analysis declares a sweep
over seeds; each point is a jitted JAX loop of elementwise maths on one core
(about half a second with the default `--steps`). Then times whole
`litrec run --force` processes:

- baseline: `--executor local --jobs 1`  (the points one after another, in litrec's process)
- `--executor local --jobs 2`            (two worker processes)
- `--executor dask --jobs 2`             (a LocalCluster of two single-threaded workers)

It also prints the speed-up two workers would give if the baseline's time
outside its points (interpreter start, imports, exit) stayed serial and its
points split evenly (Amdahl's law). A parallel run can beat it: its workers'
server imports JAX while litrec starts, where the baseline imports it in turn.

Prints the median wall time of each (the whole command: interpreter start,
worker start-up and JAX imports included) and its speed-up over the baseline,
and checks that the three results agree on every metric. One untimed run first
fills the project's compile cache (`.litrec-cache/jax/`), as an earlier run of
the project would have; every timed run then finds it.

Goal: each executor with two workers at least 1.6x faster than the baseline, with
identical results. The local executor with two workers is also timed with the 0.1.0
release's litrec (bench/release.py), on its own copy of the project, in the same
rounds: goal at most 1.10x 0.1.0's time, with the same metrics.

    python bench/sweep_speedup.py [--points 8] [--steps 30000] [--repeats 5]
                                  [--against 0.1.0 | --against none] [--json PATH] [--smoke]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import release  # noqa: E402
import report  # noqa: E402

GOAL = 1.6  # speed-up over the baseline

ANALYSIS = '''
"""Bench: a jitted loop of elementwise maths per seed (single-threaded XLA on CPU)."""
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class Config:
    seed: int = 0
    steps: int = %(steps)d    # loop iterations: set the seconds a point takes
    size: int = 4096          # vector length: small enough that XLA keeps to one thread


PROFILES = {"quick": Config(), "paper": Config()}
SWEEP = {"quick": {"seed": list(range(%(points)d))}}


@partial(jax.jit, static_argnums=(1,))
def _iterate(x, steps):
    return jax.lax.fori_loop(0, steps, lambda i, x: jnp.sin(x) * 0.999 + 0.01 * jnp.cos(3.0 * x), x)


def run(config, progress=None):
    (k_x,) = jax.random.split(jax.random.key(config.seed), 1)
    x = jax.random.normal(k_x, (config.size,))  # (size,)
    y = _iterate(x, config.steps)  # (size,)
    return {"metrics": {"level": jnp.mean(y), "spread": jnp.std(y)}}
'''

RECORD = '''id: ARXIV-0000.00009
kind: literature
title: Bench paper
claims:
  - id: F1
    kind: finding
    title: The level is finite
    statement: The level is finite.
    check:
      analysis: bench-sweep
      expect:
        - {metric: level, op: "<", value: 10%(source)s}
'''
SOURCE = ", source: {kind: extension, reason: a benchmark's own claim}"  # asked since 0.1.0

CONFIGS = [
    ("local, 1 job (baseline)", ["--executor", "local", "--jobs", "1"]),
    ("local, 2 jobs", ["--executor", "local", "--jobs", "2"]),
    ("dask LocalCluster, 2 workers", ["--executor", "dask", "--jobs", "2"]),
]


def make_project(root: Path, points: int, steps: int, sourced: bool = True) -> None:
    """The toy project; `sourced`: its expectation says its source (the 0.1.0 release knows no
    such field)."""
    (root / "analysis").mkdir()
    (root / "analysis" / "__init__.py").write_text("")
    (root / "analysis" / "bench_sweep.py").write_text(ANALYSIS % {"points": points, "steps": steps})
    (root / "analysis" / "registry.yaml").write_text(
        "bench-sweep:\n  module: bench_sweep\n  title: Bench sweep\n")
    (root / "records" / "literature").mkdir(parents=True)
    (root / "records" / "literature" / "ARXIV-0000.00009.yaml").write_text(
        RECORD % {"source": SOURCE if sourced else ""})


def time_run(root: Path, flags: list[str], results: str,
             env: dict | None = None) -> tuple[float, dict]:
    cmd = [sys.executable, "-m", "litrec", "run", "--profile", "quick", "--force", "--results", results,
           "--format", "json", *flags]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"{' '.join(flags)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    result = json.loads((root / results / "bench-sweep" / "quick.json").read_text())
    return wall, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--points", type=int, default=8, help="seeds in the sweep (default: 8)")
    ap.add_argument("--steps", type=int, default=30_000,
                    help="loop iterations per point; 30,000 is about 0.5 s on one core (default)")
    ap.add_argument("--repeats", type=int, default=5, help="runs of each executor (default: 5)")
    release.add_release_argument(ap)
    report.add_json_argument(ap)
    args = report.parse(ap, points=2, steps=100, repeats=1)
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start; "
          f"{args.points} points, median of {args.repeats} runs")
    with tempfile.TemporaryDirectory() as tmp, release.trees(args.against) as trees:
        root = Path(tmp) / "current"
        root.mkdir()
        make_project(root, args.points, args.steps)
        if not args.smoke:  # a smoke run's first timed run fills it: the same command once less
            time_run(root, CONFIGS[0][1], "results-warm")  # fills .litrec-cache/jax
        rel = trees[1] if len(trees) > 1 else None
        if rel:  # the release on its own copy of the project (each version keeps its caches)
            rel_root = Path(tmp) / "release"
            rel_root.mkdir()
            make_project(rel_root, args.points, args.steps, sourced=False)
            time_run(rel_root, CONFIGS[0][1], "results-warm", rel.env)
            rel_name = f"{rel.name}: local, 2 jobs"
        times: dict[str, list[float]] = {name: [] for name, _ in CONFIGS}
        if rel:
            times[rel_name] = []
        inside: list[float] = []  # the baseline's seconds from its first point to its last
        metrics: dict[str, dict] = {}
        for rep in range(args.repeats):  # interleaved, so a busy moment hits every executor alike
            for i, (name, flags) in enumerate(CONFIGS):
                wall, result = time_run(root, flags, f"results-{i}")
                times[name].append(wall)
                metrics[name] = result["metrics"]
                if i == 0:
                    inside.append(result["wall_time_s"])
                print(f"  run {rep + 1} {name:<30} {wall:6.2f} s  "
                      f"(from the first point sent to the last back: {result['wall_time_s']:.2f} s)")
                if rel and i == 1:  # the release's local --jobs 2 right after the current one
                    wall, result = time_run(rel_root, flags, "results-1", rel.env)
                    times[rel_name].append(wall)
                    metrics[rel_name] = result["metrics"]
                    print(f"  run {rep + 1} {rel_name:<30} {wall:6.2f} s")
        base = statistics.median(times[CONFIGS[0][0]])
        print(f"\n{'executor':<30} {'median s':>9} {'speed-up':>9}")
        for name in times:
            med = statistics.median(times[name])
            print(f"{name:<30} {med:9.2f} {base / med:8.2f}x")
        # Amdahl: what the baseline does outside its points (start, imports, exit) stays
        # serial; its points at best split evenly between two workers
        points = statistics.median(inside)
        bound = base / (base - points + points / 2)
        print(f"\nbaseline: {base - points:.2f} s outside its points, {points:.2f} s of points; "
              f"two workers with that outside time serial: {bound:.2f}x")
        same = all(m == metrics[CONFIGS[0][0]] for m in metrics.values())
        print(f"\nmetrics identical across executors: {same}")
        print(f"load average at end: {os.getloadavg()[0]:.1f}")
    rows = []
    for name, flags in CONFIGS[1:]:
        med = statistics.median(times[name])
        label = " ".join(flags[1::2][:1] + ["--jobs", flags[-1]])
        rows.append(report.Row(f"sweep {args.points} points, {label}", med, "s",
                               "serial (local --jobs 1)", base,
                               f">= {GOAL}x faster, same metrics", base / med >= GOAL and same))
    rows.append(report.Row(f"sweep {args.points} points, 2 workers, start and exit serial", bound,
                           "x", goal="(Amdahl's law on the baseline's own split)"))
    if rel:
        row = release.keep_row(f"sweep {args.points} points, local --jobs 2",
                               times[CONFIGS[1][0]], times[rel_name], "s", rel.name)
        row.goal += ", same metrics"
        row.met = row.met and same
        rows.append(row)
    report.emit(rows, args.json)


if __name__ == "__main__":
    main()
