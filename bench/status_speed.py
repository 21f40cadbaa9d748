"""Benchmark: `litrec status`, against a named earlier litrec, in one run.

Times, as whole processes on this machine (medians of N, interleaved ABBA so a busy moment hits
each alike):

- baseline: `python -c pass` (the interpreter start every command pays);
- current:  `python -m litrec status --profile P` in a snapshot of this repository
  (`git archive HEAD` with the working copy's src/);
- against:  the same in a snapshot of `--against REV` (default `27a4a82~1`, the commit before
  the installed distributions' providers were kept per project: `importlib.metadata`'s
  `packages_distributions` read every installed file list in every status).

On which project (`--project`): `toy` (the default), the tests' NumPy-only toy paper with its
`quick` result, the case that paid `packages_distributions` (an analysis that imports JAX
records a fixed list of versions); `live`, this repository's records and results at
`--profile`. Each litrec runs in its own copy of the project, so the two never share a cache,
and each gets one untimed status first (its caches filled, as any earlier command would).

    python bench/status_speed.py [--repeats 9] [--project toy|live] [--profile paper_full] [--against REV] [--json PATH]
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.support.seeds_toy import claim, write_project  # noqa: E402  (the tests' toy paper)

BEFORE = "27a4a82~1"


def _once(cmd: list[str], tree: release.Tree, where: Path) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=where, env=tree.env)
    took = time.perf_counter() - t0
    if done.returncode not in (0, 1):
        sys.exit(f"{tree.name}: failed: {' '.join(cmd)}\n{done.stderr[-2000:]}")
    return took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--project", choices=("toy", "live"), default="toy")
    ap.add_argument("--profile", default=None, help="default: quick for toy, paper_full for live")
    ap.add_argument("--against", default=BEFORE, metavar="REV", help=f"the earlier litrec (default {BEFORE})")
    report.add_json_argument(ap)
    args = report.parse(ap, repeats=1, against=BEFORE)  # its figure is a ratio to an earlier litrec
    profile = args.profile or ("quick" if args.project == "toy" else "paper_full")
    cmd = [sys.executable, "-m", "litrec", "status", "--profile", profile]
    with release.trees(args.against, snapshot=True) as trees:
        where = {t.name: t.root for t in trees}
        if args.project == "toy":
            for tree in trees:
                where[tree.name] = write_project(tree.root.parent / f"toy-{trees.index(tree)}", claim(
                    "F1", '{metric: loss_trained, op: ">", value: 0.0, source: {kind: extension, '
                    'reason: a source every release reads}}'))
                _once([sys.executable, "-m", "litrec", "run", "--profile", profile, "--jobs", "1"], tree,
                      where[tree.name])
        if not args.smoke:  # (a smoke run's timed status fills them: the same command once less)
            for tree in trees:
                _once(cmd, tree, where[tree.name])  # untimed: its caches filled
        base: list[float] = []
        runs: dict[str, list[float]] = {t.name: [] for t in trees}
        for i in range(args.repeats):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            base.append(time.perf_counter() - t0)
            for tree in (trees if i % 2 == 0 else trees[::-1]):
                runs[tree.name].append(_once(cmd, tree, where[tree.name]))
    b = statistics.median(base)
    now, then = trees[0].name, trees[1].name
    print(f"{args.repeats} runs each, whole processes, medians; load average {os.getloadavg()[0]:.1f}")
    print(f"baseline  python -c pass: {b:6.3f} s")
    for name in (now, then):
        print(f"litrec status ({args.project}, {profile}) {name:<22}: {statistics.median(runs[name]):6.3f} s")
    ratio = statistics.median(runs[now]) / statistics.median(runs[then])
    print(f"current / {then}: {ratio:.2f}x")
    report.emit([report.Row(f"status ({args.project}, {profile})", statistics.median(runs[now]), "s", then,
                            statistics.median(runs[then]), "<= 1.0x the earlier", ratio <= 1.0)], args.json)


if __name__ == "__main__":
    main()
