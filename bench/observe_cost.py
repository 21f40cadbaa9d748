"""Benchmark: what watching a run costs (`litrec.analyses.observe`: an audit hook sees every file
opened while a point runs, and the modules loaded are checked after it).

Times, each in a fresh process, alternating (ABAB...), on one seed of a paper-scale analysis
(Proposition 2's `paper` profile by default: both models trained 2,500 steps at batch 2,048):

- baseline: the analysis's `run(config)` as litrec called it before, no hook installed;
- observed: the same inside `observing(project)`, then `check` of what it read and loaded.

Prints the medians and their ratio; goal: at most 1.02x (the hook must cost little).

    python bench/observe_cost.py [--repeats 3] [--analysis prop2_mlp_attention] [--profile paper] [--json PATH]
"""

from __future__ import annotations

import argparse
import atexit
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

import report  # noqa: E402

GOAL = 1.02

CHILD = r'''
import json, sys, time
sys.path.insert(0, {root!r})
from litrec.runs.sweep import make_config
from litrec.analyses.observe import check, observing
from litrec.analyses.analysisimport import compiled_sources, load_analysis
observed = {observed}
mod, files = load_analysis({root!r}, "analysis", {module!r})
config = make_config(mod, {profile!r}, {{"seed": 0}})
t0 = time.perf_counter()
if observed:
    with observing({root!r}) as seen:
        out = mod.run(config)
    t1 = time.perf_counter()
    check(seen, "analysis", files, {{}}, compiled_sources())
    checked = time.perf_counter() - t1
else:
    out = mod.run(config)
    checked = 0.0
print(json.dumps({{"wall": time.perf_counter() - t0, "check": checked}}))
'''


def one(module: str, profile: str, observed: bool, root: Path = ROOT) -> dict:
    code = CHILD.format(root=str(root), module=module, profile=profile, observed=observed)
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def toy_project(folder: Path) -> Path:
    """The smoke run's project: one NumPy analysis `toy` of a seed (`tests.support.toy`), in
    seconds where the project's own analyses compile with JAX for longer."""
    sys.path.insert(0, str(ROOT))
    from tests.support.toy import analysis, write_analysis

    return write_analysis(folder, analysis(fields="seed: int = 0", metrics={"level": 1.0}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--analysis", default="prop2_mlp_attention")
    parser.add_argument("--profile", default="paper")
    report.add_json_argument(parser)
    args = report.parse(parser, repeats=1, analysis="toy", profile="quick")
    root = ROOT
    if args.smoke:  # a toy project of its own, removed on the way out
        root = toy_project(Path(tempfile.mkdtemp(prefix="litrec-bench-")))
        atexit.register(shutil.rmtree, root, ignore_errors=True)
    times: dict[bool, list[float]] = {False: [], True: []}
    checks = []
    for _ in range(args.repeats):
        for observed in (False, True):
            got = one(args.analysis, args.profile, observed, root)
            times[observed].append(got["wall"])
            if observed:
                checks.append(got["check"])
            print(f"{'observed' if observed else 'baseline'}: {got['wall']:.2f} s", file=sys.stderr)
    base, seen = statistics.median(times[False]), statistics.median(times[True])
    rows = [report.Row(f"observed run ({args.analysis}, {args.profile}, seed 0)", seen, "s",
                       "the same run unobserved", base, f"<= {GOAL}x baseline", seen <= GOAL * base),
            report.Row("check after the run", statistics.median(checks) * 1000, "ms")]
    report.emit(rows, args.json)


if __name__ == "__main__":
    main()
