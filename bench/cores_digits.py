"""Measurement: whether the number of usable cores changes a training's float32 digits.

Runs each paper-scale training for a few steps at its `paper_full` settings
(deeper-gdpp's five separate layers and recurrent K = 2, Proposition 2's two
models, Proposition 3), each in two fresh processes: one confined to a single
core (`sched_setaffinity`), one on every core this process may use. It prints
how many of the metrics differ between the two (what the trainings cost,
`timing`, `train_seconds`, `ms_per_step` and `chunk_seconds` at any depth, left
out) and which.

A result's inputs include its usable cores (`litrec.analyses.inputs`) because of
what this measures: XLA sizes its thread pool by the process's CPU affinity and
splits its larger sums across the threads. Needs two cores or more.

    python bench/cores_digits.py [--only deeper_gdpp,prop2_mlp_attention] [--smoke]
"""
import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

import report  # noqa: E402

TIMINGS = ("timing", "train_seconds", "ms_per_step", "chunk_seconds")  # what a training cost, at any depth

# A few steps of each paper-scale training, at its paper_full settings otherwise.
CONFIGS = {
    "deeper_gdpp": 'dataclasses.replace(mod.PROFILES["paper_full"], depths=tuple(dataclasses.replace('
                   'd, steps=20, eval_every=10) for d in mod.PROFILES["paper_full"].depths), chunk_size=10, '
                   'eval_tasks=2_000, eval_chunk=1_000, curve_tasks=500, tune_tasks=2_048, tune_iters=5)',
    "prop2_mlp_attention": 'dataclasses.replace(mod.PROFILES["paper_full"], steps=20, chunk_size=10, '
                           'eval_every=10, eval_tasks=256, curve_tasks=128, identity_tasks=8)',
    "prop3_token_building": 'dataclasses.replace(mod.PROFILES["paper_full"], steps=20, chunk_size=10, '
                            'eval_every=10, eval_tasks=1_024, tune_tasks=1_024, monitor_tasks=512, copy_tasks=32)',
}

# The smoke run's: the smallest analysis at its quick profile, on its smallest size alone (one
# program to compile: seconds, not a finding).
SMOKE = {"prop1_identity": 'dataclasses.replace(mod.PROFILES["quick"], sizes=((5, 3, 2),))'}

CHILD = """
import dataclasses, importlib, json, sys
sys.path.insert(0, {root!r})
mod = importlib.import_module("analysis." + {module!r})
metrics = mod.run({config})["metrics"]
for name in {timings!r}:
    metrics.pop(name, None)
print(json.dumps(metrics, sort_keys=True, default=repr))
"""


def leaves(value, prefix: str = "") -> dict:
    """Every number of a metrics tree by its dotted name (list entries indexed)."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            out.update(leaves(v, f"{prefix}{k}."))
        return out
    if isinstance(value, list):
        out = {}
        for i, v in enumerate(value):
            out.update(leaves(v, f"{prefix}{i}."))
        return out
    name = prefix.rstrip(".")
    return {} if set(name.split(".")) & set(TIMINGS) else {name: value}


def metrics_on(module: str, cores: set[int] | None, configs: dict[str, str] = CONFIGS) -> dict:
    """The module's metrics from a fresh process, confined to `cores` (None: as this one)."""
    code = CHILD.format(root=str(ROOT), module=module, config=configs[module], timings=TIMINGS)
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=1200, preexec_fn=(lambda: os.sched_setaffinity(0, cores)) if cores else None)
    if proc.returncode != 0:
        raise SystemExit(f"{module} failed:\n{proc.stderr[-3000:]}")
    return leaves(json.loads(proc.stdout.strip().splitlines()[-1]))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="comma-separated: " + ",".join(CONFIGS))
    report.add_json_argument(ap)
    args = report.parse(ap)
    if args.smoke:
        report.fast_compiles()
    if not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2:
        report.cannot_measure("needs two usable cores and sched_setaffinity", args.json)
        return 0
    n = len(os.sched_getaffinity(0))
    rows = []
    configs = SMOKE if args.smoke else CONFIGS
    for module in [m for m in args.only.split(",") if m and not args.smoke] or list(configs):
        one = metrics_on(module, {min(os.sched_getaffinity(0))}, configs)
        every = metrics_on(module, None, configs)
        differ = sorted(k for k in set(one) | set(every) if one.get(k) != every.get(k))
        print(f"  differ: {', '.join(differ)}", flush=True)
        first = f"; first: {differ[0]} {one.get(differ[0])!r} on 1, {every.get(differ[0])!r} on {n}" if differ else ""
        print(f"{module}: {len(differ)} of {len(every)} metrics differ between 1 core and {n}{first}", flush=True)
        rows.append(report.Row(f"{module}, a few paper_full steps: metrics that differ on 1 core", len(differ),
                               "metrics", f"metrics (on {n} cores)", len(every), "(finding)"))
    report.emit(rows, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
