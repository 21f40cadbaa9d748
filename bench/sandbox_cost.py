"""Benchmark: what running points hermetic costs (`litrec.runs.sandbox`: each point in a bwrap
sandbox of its inputs, run by a point server kept per analysis) against the audit hook alone
(`litrec.analyses.observe`, what `bench/observe_cost.py` measures against no watching).

Each repeat is a fresh process, alternating (ABAB...), that imports litrec's point runner and
JAX first (as the forkserver that local workers fork from does), then runs two points of one
analysis (seeds 0 and 1 of Proposition 2's `paper` profile by default) through
`litrec.runs.sweep.run_point`:

- hook: each point in this process, watched by the audit hook (`LITREC_SANDBOX=off` today);
- sandbox: each point in the sandbox: the first starts the point server (an interpreter that
  imports litrec, JAX and the analysis inside the sandbox), the second finds it warm.

Prints the medians of the first point, the second and both, and their ratios; goal: both points
at most 1.05x the hook alone.

    python bench/sandbox_cost.py [--repeats 3] [--analysis prop2_mlp_attention] [--profile paper] [--json PATH]
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

GOAL = 1.05

CHILD = r'''
import json, os, sys, time
sys.path.insert(0, {root!r})
import jax, jax.numpy  # what the forkserver preloads
from pathlib import Path
from litrec.analyses.inputs import analysis_inputs
from litrec.runs import sandbox
from litrec.runs.sweep import Point, run_point
fp = analysis_inputs(Path({root!r}) / "analysis", {module!r}, {profile!r})
times = []
for seed in (0, 1):
    point = Point({root!r}, "analysis", {module!r}, {profile!r}, {{"seed": seed}}, fp.files, fp.versions,
                  figures=False, compile_cache=False, inputs=fp.record(), deps=fp.deps,
                  no_sandbox=None if {sandboxed} else "the benchmark's baseline: the hook alone")
    t0 = time.perf_counter()
    out = run_point(point)
    times.append(time.perf_counter() - t0)
    assert out["hermetic"] is {sandboxed}, out.get("not_hermetic")
sandbox.close()
print(json.dumps({{"first": times[0], "second": times[1]}}))
'''


def one(module: str, profile: str, sandboxed: bool, root: Path = ROOT) -> dict:
    code = CHILD.format(root=str(root), module=module, profile=profile, sandboxed=sandboxed)
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
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
    from litrec.runs import sandbox

    why = sandbox.unavailable()
    if why is not None:
        report.cannot_measure(f"no sandbox on this machine: {why}", args.json)
        return
    got: dict[bool, list[dict]] = {False: [], True: []}
    for _ in range(args.repeats):
        for sandboxed in (False, True):
            t = one(args.analysis, args.profile, sandboxed, root)
            got[sandboxed].append(t)
            print(f"{'sandbox' if sandboxed else 'hook'}: first point {t['first']:.2f} s, "
                  f"second {t['second']:.2f} s", file=sys.stderr)

    def med(sandboxed: bool, key: str) -> float:
        return statistics.median(t["first"] + t["second"] if key == "both" else t[key] for t in got[sandboxed])

    what = f"({args.analysis}, {args.profile}, seeds 0 and 1, {args.repeats} repeats)"
    rows = [report.Row(f"sandboxed points, both {what}", med(True, "both"), "s", "the hook alone",
                       med(False, "both"), f"<= {GOAL}x baseline", med(True, "both") <= GOAL * med(False, "both")),
            report.Row("sandboxed first point (starts the point server)", med(True, "first"), "s",
                       "the hook alone", med(False, "first")),
            report.Row("sandboxed second point (warm point server)", med(True, "second"), "s",
                       "the hook alone", med(False, "second"))]
    report.emit(rows, args.json)


if __name__ == "__main__":
    main()
