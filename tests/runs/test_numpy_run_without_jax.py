"""A run of a NumPy-only analysis imports no JAX in any process, even where another analysis of
the folder uses it: the server the workers fork from preloads JAX only for analyses that use it
(`litrec.runs.executors.prestart`), and a run of the JAX analysis still gets it preloaded."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from tests.support.jax_toy import JAX_TOY
from tests.support.sweep_toy import TOY

# The sweep toy, with what each point's process holds: JAX imported or not.
SEEN = TOY.replace('"ok": True,', '"ok": True, "jax_here": "jax" in __import__("sys").modules,')

# every module imported, by every process (workers inherit the interpreter's -X flags)
JAX_IMPORTED = re.compile(r"^import time:.*\|\s+jax(\.|$)", re.M)


@pytest.fixture
def mixed(sweep_project):
    """The sweep project (NumPy only) beside an analysis that uses JAX."""
    (sweep_project / "analysis" / "toy_sweep.py").write_text(SEEN % {"quick": ""})
    (sweep_project / "analysis" / "toy_jax.py").write_text(JAX_TOY)
    reg = sweep_project / "analysis" / "registry.yaml"
    reg.write_text(reg.read_text() + "toy-jax:\n  module: toy_jax\n  title: Toy JAX\n")
    return sweep_project


def _run(root, name: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-X", "importtime", "-m", "litrec", "run", name,
                           "--profile", "quick", "--jobs", "2", "--allow-not-reproduced"],
                          cwd=root, capture_output=True, text=True, timeout=300)


def test_a_numpy_only_analysis_runs_without_jax_in_any_process(mixed):
    done = _run(mixed, "toy-sweep")
    assert done.returncode == 0, done.stderr[-3000:]
    points = json.loads((mixed / "results" / "toy-sweep" / "quick.json").read_text())["points"]
    assert len(points) == 3
    assert [p["metrics"]["jax_here"] for p in points] == [False] * 3
    assert not JAX_IMPORTED.search(done.stderr), "a process of the run imported JAX"


@pytest.mark.slow
def test_the_jax_analysis_of_the_same_folder_still_runs(mixed):
    done = _run(mixed, "toy-jax")
    assert done.returncode == 0, done.stderr[-3000:]
    assert JAX_IMPORTED.search(done.stderr)
    assert (mixed / "results" / "toy-jax" / "quick.json").is_file()


@pytest.mark.parametrize("targets, warmed", [
    (("np-one",), [False]),             # named: its server starts at once, without JAX
    (("jax-one",), [True]),             # named: at once, with JAX (as fast as before)
    (("np-one", "jax-one"), []),        # both: the run's plan starts it
    ((), []),                           # every analysis may run: the plan starts it
    (("NOTE-1",), []),                  # a record: which analyses its claims name, the plan knows
])
def test_the_server_starts_early_where_the_run_names_what_it_imports(tmp_path, monkeypatch, targets, warmed):
    from litrec.runs import executors

    got = []
    monkeypatch.setattr(executors, "warm", lambda spec, uses_jax, early=None: got.append(uses_jax))
    (tmp_path / "np_one.py").write_text("import numpy\n")
    (tmp_path / "jax_one.py").write_text("import jax\n")
    (tmp_path / "registry.yaml").write_text("np-one:\n  module: np_one\n  title: N\n"
                                            "jax-one:\n  module: jax_one\n  title: J\n")
    executors.prestart(executors.ExecutorSpec.of("local", 2), tmp_path, targets)
    assert got == warmed
