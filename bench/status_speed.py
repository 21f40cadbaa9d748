"""Benchmark: `litrec status` on the live project, against a named earlier litrec, in one run.

Times, as whole processes on this machine (medians of N, interleaved ABBA so a busy moment hits
each alike):

- baseline: `python -c pass` (the interpreter start every command pays);
- current:  `python -m litrec status --profile P` in a snapshot of this repository
  (`git archive HEAD` with the working copy's src/);
- against:  the same in a snapshot of `--against REV` (default `27a4a82~1`, the commit before
  the installed distributions' providers were kept per project: `importlib.metadata`'s
  `packages_distributions` read every installed file list in every status).

Each tree gets one untimed status first (its caches filled, as any earlier command would), and
each runs in its own snapshot, so the two never share a cache. `--profile quick` times a
project whose analyses import no JAX, the case that paid it most; the row says which.

    python bench/status_speed.py [--repeats 9] [--profile paper_full] [--against REV] [--json PATH]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import release  # noqa: E402
import report  # noqa: E402

BEFORE = "27a4a82~1"


def _once(cmd: list[str], tree: release.Tree) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=tree.root, env=tree.env)
    took = time.perf_counter() - t0
    if done.returncode not in (0, 1):
        sys.exit(f"{tree.name}: failed: {' '.join(cmd)}\n{done.stderr[-2000:]}")
    return took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--profile", default="paper_full")
    ap.add_argument("--against", default=BEFORE, metavar="REV", help=f"the earlier litrec (default {BEFORE})")
    report.add_json_argument(ap)
    args = ap.parse_args()
    cmd = [sys.executable, "-m", "litrec", "status", "--profile", args.profile]
    with release.trees(args.against, snapshot=True) as trees:
        for tree in trees:
            _once(cmd, tree)  # untimed: its caches filled
        base: list[float] = []
        runs: dict[str, list[float]] = {t.name: [] for t in trees}
        for i in range(args.repeats):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            base.append(time.perf_counter() - t0)
            for tree in (trees if i % 2 == 0 else trees[::-1]):
                runs[tree.name].append(_once(cmd, tree))
    b = statistics.median(base)
    now, then = trees[0].name, trees[1].name
    print(f"{args.repeats} runs each, whole processes, medians; load average {os.getloadavg()[0]:.1f}")
    print(f"baseline  python -c pass: {b:6.3f} s")
    for name in (now, then):
        print(f"litrec status ({args.profile}) {name:<22}: {statistics.median(runs[name]):6.3f} s")
    ratio = statistics.median(runs[now]) / statistics.median(runs[then])
    print(f"current / {then}: {ratio:.2f}x")
    report.emit([report.Row(f"status ({args.profile})", statistics.median(runs[now]), "s", then,
                            statistics.median(runs[then]), "<= 1.0x the earlier", ratio <= 1.0)], args.json)


if __name__ == "__main__":
    main()
