"""A rerun on the same machine and versions reproduces an analysis's metrics bit for bit.

Each run is a fresh process, one of them confined to a single core, so neither
the thread pool's size nor what ran before in the process can change a digit. The
first compiles its programs afresh, into a compile cache of the test's own (not the
tests' shared one); the second runs those same executables, so the two differ in
the process and the thread pool alone. (That a program loaded from a compile cache
computes what a fresh compile does is tests/runs/test_warm_workers.py's.)
(What does change float32 digits is the CPU's instruction set, which XLA compiles
for: a result records it under `platform.isa`; see site/writing-analyses.md.)
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import COMPILE_CACHE_VARIABLES, compile_cache_env

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import json, sys
sys.path.insert(0, {root!r})
import dataclasses, importlib
mod = importlib.import_module({module!r})
config = {config}
metrics = mod.run(config)["metrics"]
metrics.pop("timing", None)   # what the training cost: differs from run to run, judged by no claim
print(json.dumps(metrics, sort_keys=True, default=repr))
"""


def _metrics_in_a_fresh_process(module: str, config: str, cores: set[int] | None, programs: Path) -> str:
    code = CHILD.format(root=str(ROOT), module=module, config=config)
    # without XLA_FLAGS, and with the test's own compile cache in place of the tests' shared one
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS" and k not in COMPILE_CACHE_VARIABLES}
    env.update(compile_cache_env(programs))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=600,
                          preexec_fn=(lambda: os.sched_setaffinity(0, cores)) if cores else None)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.strip().splitlines()[-1]


def _twice(module: str, overrides: dict | str, programs: Path) -> tuple[dict, dict]:
    """The metrics of `module` run on one core and on all, each in a fresh process, the first
    compiling into the empty folder `programs`, the second loading from it; the config:
    overrides of the quick profile, or a Python expression of it (`mod` is the module)."""
    config = overrides if isinstance(overrides, str) else f'dataclasses.replace(mod.PROFILES["quick"], **{overrides!r})'
    if not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs two cores and sched_setaffinity")
    one_core = {min(os.sched_getaffinity(0))}
    a = _metrics_in_a_fresh_process(module, config, one_core, programs)
    compiled = {p.name for p in programs.iterdir()}
    assert compiled  # the first run compiled afresh, and kept what it compiled
    b = _metrics_in_a_fresh_process(module, config, None, programs)
    assert {p.name for p in programs.iterdir()} == compiled  # the second ran the same executables
    return json.loads(a), json.loads(b)


@pytest.mark.slow
def test_proposition_1_float32_errors_are_identical_in_a_rerun(tmp_path):
    a, b = _twice("analysis.prop1_identity", {}, tmp_path)
    assert a["case_errors_f32"] and all(e > 0 for e in a["case_errors_f32"])  # float32 round-off present
    assert a == b


@pytest.mark.slow
def test_a_short_training_is_identical_in_a_rerun(tmp_path):
    small = {"steps": 60, "batch_size": 256, "eval_tasks": 512, "eval_chunk": 256,
             "tune_tasks": 512, "monitor_tasks": 256, "eval_every": 20,
             "ood_alphas": (1.0,), "ood_tasks": 256}
    a, b = _twice("analysis.single_layer", small, tmp_path)
    assert a["loss_trained"] != a["loss_gd"]  # a trained model, not a copy of the baseline
    assert a == b

