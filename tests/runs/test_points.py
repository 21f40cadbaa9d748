"""Where points go to workers, a worker lays the analysis out (litrec.runs.points): litrec's own
process never imports it, and the result, figures over seeds and errors are those of a run here."""

from __future__ import annotations

import json
import sys

import pytest

from litrec.runs.points import declares_points
from tests.conftest import without_times
from tests.support.sweep_toy import TOY

SEED_FIGURES = '''

def seed_figures(points):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots()
    ax.plot([p["seed"] for p in points], [p["metrics"]["level"] for p in points])
    return {"levels": fig}
'''


@pytest.mark.parametrize("source, many", [
    ('SWEEP = {"quick": {"n": [1, 2]}}\n', True),
    ("SEEDS = {'paper': (0, 1, 2)}\n", True),
    ("SEEDS: dict = {}\n", True),
    ("SWEEP, OTHER = {}, 1\n", True),
    ("def run(config, progress=None):\n    SWEEP = 1\n", False),  # not at the top level
    ("PROFILES = {}\n", False),
    ("def (:\n", True),  # does not parse: a worker's import says why
])
def test_declares_points_reads_the_top_level_of_the_source(source, many):
    assert declares_points(source) is many


def _result(root, results):
    return json.loads((root / results / "toy-sweep" / "quick.json").read_text())


def test_a_sweep_laid_out_in_a_worker_matches_one_run_here(sweep_project, cli):
    (sweep_project / "analysis" / "toy_sweep.py").write_text(TOY % {"quick": ""} + SEED_FIGURES)
    code, _, err = cli("run", "--profile", "quick", "--jobs", "2", "--results", "far")
    assert code == 0, err
    assert "analysis.toy_sweep" not in sys.modules  # laid out, run and drawn in the workers
    code, _, err = cli("run", "--profile", "quick", "--jobs", "1", "--results", "here")
    assert code == 0, err
    assert "analysis.toy_sweep" in sys.modules
    far = without_times(_result(sweep_project, "far"))
    here = without_times(_result(sweep_project, "here"))
    for key in ("module", "config", "sweep", "seed", "seeds", "metrics", "spread", "points",
                "figures"):
        assert far[key] == here[key], key
    assert set(far["figures"]) == {"draws", "levels"}
    for rel in far["figures"].values():
        assert (sweep_project / "far" / "toy-sweep" / rel).read_bytes() == \
            (sweep_project / "here" / "toy-sweep" / rel).read_bytes()


@pytest.mark.parametrize("broken, said", [
    ('SWEEP = {"quick": {"sead": [0, 1]}}', "varies 'sead', which is not a field of Config; "
                                            "did you mean 'seed'?"),
    ('import sys\nsys.exit(3)\nSWEEP = {}', "analysis 'toy-sweep': "),
])
def test_a_worker_reports_a_broken_analysis_as_a_run_here_does(sweep_project, cli, broken, said):
    source = (TOY % {"quick": ""}).replace('SWEEP = {"quick": {"seed": [0, 1, 2]}}', broken)
    (sweep_project / "analysis" / "toy_sweep.py").write_text(source)
    errs = []
    for jobs in ("2", "1"):
        for mod in [m for m in sys.modules if m == "analysis" or m.startswith("analysis.")]:
            del sys.modules[mod]
        code, _, err = cli("run", "--profile", "quick", "--jobs", jobs, "--results", f"r{jobs}")
        assert code == 1
        assert said in err, err
        errs.append(err.replace(f"r{jobs}/", "R/"))
    assert errs[0] == errs[1]
    assert not (sweep_project / "r2" / "toy-sweep" / "quick.json").exists()


@pytest.mark.parametrize("source, jax", [
    ("import jax\n", True),
    ("from jax import numpy as jnp\n", True),
    ("import numpy as np\ndef f():\n    import jax.numpy as jnp\n", True),  # inside a function too
    ("import jaxtyping\n", False),
    ("import numpy as np\n# jax is not used here\n", False),
])
def test_the_workers_server_imports_jax_early_only_when_every_analysis_does(tmp_path, monkeypatch,
                                                                            source, jax):
    from litrec.runs import executors

    warmed = []
    monkeypatch.setattr(executors, "warm", lambda spec, uses_jax, early=None: warmed.append(uses_jax))
    spec = executors.ExecutorSpec.of("local", 2)
    (tmp_path / "mod.py").write_text(source)
    executors.prestart(spec, tmp_path)  # the one module: JAX preloaded where it imports it
    (tmp_path / "helper.py").write_text("import numpy\n")
    # beside a module without JAX: where some import it and some do not, the server waits for
    # the run's plan (`run_plan` warms it for the analyses that run)
    executors.prestart(spec, tmp_path)
    executors.prestart(spec, tmp_path / "missing")
    assert warmed == ([True] if jax else [False, False]) + [False]


def test_nothing_is_started_where_points_cannot_go_to_local_workers(monkeypatch, tmp_path):
    import multiprocessing.forkserver

    from litrec.runs import executors

    preload, started = [], []  # each start of the server the workers fork from: what it preloads
    monkeypatch.setattr(multiprocessing.forkserver, "set_forkserver_preload", preload.append)
    monkeypatch.setattr(multiprocessing.forkserver, "ensure_running", lambda: started.append(preload[-1]))
    assert executors.prestart(executors.ExecutorSpec.of("local", 1), tmp_path) is None
    assert executors.prestart(executors.ExecutorSpec.of("dask", None, "tcp://127.0.0.1:1"), tmp_path) is None
    assert started == []
    assert executors.prestart(executors.ExecutorSpec.of("local", 2), tmp_path) is None
    if executors.start_method() == "forkserver":  # local workers, no JAX: neither dask nor jax preloaded
        assert len(started) == 1 and "numpy" in started[0] and not {"jax", "distributed"} & set(started[0])
    else:
        assert started == []


@pytest.mark.slow
def test_a_cluster_started_early_is_closed_when_nothing_runs(sweep_project, cli):
    from distributed.deploy.spec import SpecCluster

    code, _, err = cli("run", "--profile", "quick", "--executor", "dask", "--jobs", "2")
    assert code == 0, err
    lit = sweep_project / "records" / "literature" / "ARXIV-0000.00002.yaml"
    lit.write_text(lit.read_text() + "# edited: the kept verdicts no longer hold\n")
    code, out, err = cli("run", "--profile", "quick", "--executor", "dask", "--jobs", "2",
                         "--format", "json")
    assert code == 0, err
    assert json.loads(out)["ran"] == []
    assert [c for c in SpecCluster._instances if c.status.name != "closed"] == []


def test_one_spec_decides_where_points_go(monkeypatch):
    """`--jobs` is worked out once (`ExecutorSpec.of`: none given, one worker per CPU), and one
    rule (`sends`) says whether an analysis's points go to workers; `parallel` is that rule for
    an analysis of several points."""
    from litrec.runs import options
    from litrec.runs.executors import ExecutorSpec

    monkeypatch.setattr(options, "default_jobs", lambda: 7)
    assert ExecutorSpec.of().workers == 7 and ExecutorSpec.of("local", 3).workers == 3
    table = {("local", 1): (False, False), ("local", 2): (False, True), ("dask", 1): (True, True)}
    for (kind, jobs), (one, several) in table.items():
        spec = ExecutorSpec.of(kind, jobs)
        assert (spec.sends(1), spec.sends(2), spec.sends(50)) == (one, several, several)
        assert spec.parallel is several


def test_jobs_is_worked_out_in_one_place():
    """No module of litrec.runs but the spec's `of` turns a missing --jobs into a number."""
    import ast
    from pathlib import Path

    import litrec.runs

    calls = []
    for path in sorted(Path(litrec.runs.__file__).parent.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for func in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
            for node in ast.walk(func):
                called = node.func if isinstance(node, ast.Call) else None
                if "default_jobs" in (getattr(called, "id", None), getattr(called, "attr", None)):
                    calls.append(f"{path.name}:{func.name}")
    assert calls == ["options.py:of"]
