"""What a result records of the packages: those its analysis imports, so a NumPy-only one
neither pays the JAX import nor goes stale when JAX changes.

An analysis that imports JAX (itself or through a helper of analysis/) records jax, jaxlib,
numpy and optax, as every result always has; one that imports NumPy alone records NumPy
and what else it imports (matplotlib), and a run of it never imports JAX.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from litrec.analyses import packages as fp_module
from litrec.analyses.inputs import VERSIONED, versioned_packages
from litrec.analyses.inputs import result_inputs as fingerprint
from litrec.analyses.registry import load_registry
from litrec.results.state import result_state

NUMPY_ONLY = '''\
"""A mean of uniform draws, with NumPy only."""
import dataclasses
from dataclasses import dataclass

import numpy as np

from analysis.helper import half


@dataclass(frozen=True)
class Config:
    seed: int = 0
    n: int = 1000


PROFILES = {"quick": Config(), "paper": Config(n=4000)}


def run(config, progress=None):
    from matplotlib.figure import Figure

    xs = np.random.default_rng(config.seed).uniform(size=config.n)
    fig = Figure()
    fig.subplots().hist(xs)
    return {"metrics": {"mean": float(xs.mean()), "half": half()}, "figures": {"hist": fig}}
'''

HELPER = "import math\n\n\ndef half():\n    return math.fsum([0.25, 0.25])\n"
JAX_HELPER = "import jax.numpy as jnp\n\n\ndef one():\n    return float(jnp.ones(()))\n"
WITH_JAX = '''\
"""Through a helper that imports JAX."""
from dataclasses import dataclass

from analysis.jax_helper import one


@dataclass(frozen=True)
class Config:
    seed: int = 0


PROFILES = {"quick": Config(), "paper": Config()}


def run(config, progress=None):
    return {"metrics": {"one": one()}}
'''

LIT = """\
id: ARXIV-0000.00002
kind: literature
title: Averages
claims:
  - id: F1
    kind: finding
    title: About a half
    statement: The mean of uniform draws is about a half.
    check:
      analysis: numpy-only
      expect:
        - {metric: mean, op: "≈", value: 0.5, abs_tol: 0.05, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}
"""


def _write_project(root: Path) -> Path:
    """A project with a NumPy-only analysis and one that imports JAX through a helper."""
    files = {"analysis/__init__.py": "", "analysis/helper.py": HELPER,
             "analysis/numpy_only.py": NUMPY_ONLY, "analysis/jax_helper.py": JAX_HELPER,
             "analysis/with_jax.py": WITH_JAX,
             "analysis/registry.yaml": "numpy-only:\n  module: numpy_only\n  title: NumPy only\n"
                                       "with-jax:\n  module: with_jax\n  title: With JAX\n",
             "records/literature/ARXIV-0000.00002.yaml": LIT}
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def root(tmp_path, monkeypatch) -> Path:
    """The project, nothing run yet; the working directory."""
    monkeypatch.chdir(_write_project(tmp_path))
    return tmp_path


@pytest.fixture(scope="module")
def numpy_only_run(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """The project after `litrec run numpy-only --profile quick` in a fresh interpreter, run once
    for this module (`ran` copies it): the project and what the run answered."""
    project = _write_project(tmp_path_factory.mktemp("numpy-only-run"))
    return project, _litrec(project, "run", "numpy-only", "--profile", "quick")


@pytest.fixture
def ran(numpy_only_run, tmp_path, monkeypatch) -> Path:
    """`root` after that run, its quick result stored (a copy; the run's exit code checked)."""
    project, done = numpy_only_run
    assert done.returncode == 0, done.stdout + done.stderr
    dest = shutil.copytree(project, tmp_path / "project", symlinks=True)
    monkeypatch.chdir(dest)
    return dest


def _registry(root: Path):
    diags: list = []
    reg = load_registry(root / "analysis", diags)
    assert diags == []
    return reg


def test_an_analysis_records_the_packages_it_imports(root):
    reg = _registry(root)
    numpy_only = fingerprint(reg, "numpy-only", "quick")
    assert list(numpy_only.versions) == ["matplotlib", "numpy"]  # math, dataclasses: the standard library
    assert numpy_only.versions["numpy"] == metadata.version("numpy")
    with_jax = fingerprint(reg, "with-jax", "quick")  # through its helper: what results always recorded
    assert tuple(with_jax.versions) == VERSIONED == ("jax", "jaxlib", "numpy", "optax")
    assert with_jax.versions["jax"] == metadata.version("jax")


def test_versioned_packages_rules():
    assert versioned_packages({"jax", "numpy"}) == VERSIONED
    assert versioned_packages({"optax"}) == VERSIONED
    assert versioned_packages({"numpy", "yaml", "os", "__future__"}) == ("numpy", "PyYAML")
    assert versioned_packages({"no_such_module_here"}) == ()


def _litrec(root: Path, *args: str) -> subprocess.CompletedProcess:
    """`litrec ARGS` in a fresh interpreter; its last line says whether JAX was imported."""
    code = ("import sys\nfrom litrec.commands import main\ncode = main(sys.argv[1:])\n"
            "print('jax imported:', 'jax' in sys.modules, file=sys.stderr)\nsys.exit(code)\n")
    return subprocess.run([sys.executable, "-c", code, *args], cwd=root, capture_output=True,
                          text=True, timeout=300)


def test_a_numpy_only_run_never_imports_jax_and_stays_current_when_jax_changes(numpy_only_run,
                                                                             monkeypatch):
    root, done = numpy_only_run  # read only
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr.rstrip().endswith("jax imported: False"), done.stderr
    result = json.loads((root / "results" / "numpy-only" / "quick.json").read_text(encoding="utf-8"))
    assert list(result["versions"]) == ["matplotlib", "numpy"]
    assert result["device"] == {"platform": "cpu", "devices": []}

    reg = _registry(root)
    assert result_state(reg, root / "results", "numpy-only", "quick").state == "current"
    real = metadata.version

    installed = fp_module.dist_info_versions()

    def bumped(*names):
        return lambda: {**installed, **{n: "999.0" for n in names}}

    monkeypatch.setattr(fp_module, "dist_info_versions", bumped("jax", "jaxlib", "optax"))
    assert result_state(reg, root / "results", "numpy-only", "quick").state == "current"
    assert fingerprint(reg, "with-jax", "quick").versions["jax"] == "999.0"  # the patch is seen
    monkeypatch.setattr(fp_module, "dist_info_versions", bumped("numpy"))
    state = result_state(reg, root / "results", "numpy-only", "quick")
    assert state.state == "stale" and f"numpy {real('numpy')} -> 999.0" in state.reason


@pytest.mark.slow
def test_a_jax_analysis_still_imports_jax_for_its_device(root):
    done = _litrec(root, "run", "with-jax", "--profile", "quick")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr.rstrip().endswith("jax imported: True"), done.stderr
    result = json.loads((root / "results" / "with-jax" / "quick.json").read_text(encoding="utf-8"))
    assert tuple(result["versions"]) == VERSIONED
    assert result["device"]["platform"] == "cpu" and result["device"]["devices"]


def test_package_versions_agree_with_importlib_metadata():
    """Versions read from dist-info folder names are what importlib.metadata reads from METADATA."""
    from importlib import metadata

    from litrec.analyses.inputs import package_versions

    names = sorted({d.metadata["Name"] for d in metadata.distributions()})
    assert len(names) > 10
    assert package_versions(names) == {n: metadata.version(n) for n in names}
    assert package_versions(["no-such-distribution-here"]) == {"no-such-distribution-here": None}


def test_package_versions_follow_sys_path_order(tmp_path, monkeypatch):
    from litrec.analyses import packages as fingerprint

    for where, version in (("first", "2.0"), ("second", "1.0")):
        (tmp_path / where / f"Some.Thing-{version}.dist-info").mkdir(parents=True)
    monkeypatch.setattr("sys.path", [str(tmp_path / "first"), str(tmp_path / "second")])
    assert fingerprint.package_versions(["some-thing"]) == {"some-thing": "2.0"}


def test_a_result_of_another_cpu_is_stale_here_and_passes_check_current_only_with_any_machine(
        ran, monkeypatch, capsys):
    from litrec.analyses import inputs as inputs_module
    from litrec.commands import main

    root = ran
    reg = _registry(root)
    here = inputs_module.machine_isa()
    assert result_state(reg, root / "results", "numpy-only", "quick").state == "current"
    assert main(["status", "--profile", "quick", "--check-current"]) == 0

    # the same project on a CPU without one of this one's features (or with one more)
    for other in (here[:-1] if len(here) > 1 else (here[0], "sse4_2"), (*here, "amx_tile_x")):
        monkeypatch.setattr(inputs_module, "machine_isa", lambda other=other: other)
        state = result_state(reg, root / "results", "numpy-only", "quick")
        assert state.state == "stale" and state.other_machine, state
        assert state.reason.startswith("computed on another CPU, rerun it here"), state.reason
        capsys.readouterr()
        assert main(["status", "--profile", "quick", "--check-current"]) == 1
        err = capsys.readouterr().err
        assert "ARXIV-0000.00002#F1 is stale: computed on another CPU" in err
        assert main(["status", "--profile", "quick", "--check-current", "--any-machine"]) == 0
        err = capsys.readouterr().err
        assert "1 claim rest on results computed on another CPU" in err
        assert main(["status", "--profile", "quick", "--format", "json"]) == 0
        row = json.loads(capsys.readouterr().out)[0]
        assert row["verdict"] == "stale" and row["other_machine"] is True

    # another CPU and another package version: behind the project too, --any-machine or not
    installed = fp_module.dist_info_versions()
    monkeypatch.setattr(fp_module, "dist_info_versions", lambda: {**installed, "numpy": "999.0"})
    state = result_state(reg, root / "results", "numpy-only", "quick")
    assert state.state == "stale" and not state.other_machine
    assert main(["status", "--profile", "quick", "--check-current", "--any-machine"]) == 1
    assert "other_machine" not in json.dumps(
        [main(["status", "--profile", "quick", "--format", "json"]), capsys.readouterr().out])


def test_check_current_on_another_cpu_never_passes_a_changed_expectation(ran, monkeypatch, capsys):
    """A threshold edited after the run: on a runner of another CPU the result reads stale before
    it reads expectation changed, and `--any-machine` must not let the edit through."""
    from litrec.analyses import inputs as inputs_module
    from litrec.commands import main

    root = ran
    here = inputs_module.machine_isa()
    monkeypatch.setattr(inputs_module, "machine_isa", lambda: (*here, "amx_tile_x"))
    assert main(["status", "--profile", "quick", "--check-current", "--any-machine"]) == 0
    rec = root / "records/literature/ARXIV-0000.00002.yaml"
    rec.write_text(rec.read_text(encoding="utf-8").replace("abs_tol: 0.05", "abs_tol: 0.2"), encoding="utf-8")
    capsys.readouterr()
    assert main(["status", "--profile", "quick", "--check-current", "--any-machine"]) == 1
    err = capsys.readouterr().err
    assert "ARXIV-0000.00002#F1 is stale: computed on another CPU" in err
    assert "its expectations also changed since the run" in err


def test_a_result_computed_with_other_usable_cores_is_stale_here(ran, monkeypatch, capsys):
    """XLA splits its sums by the cores it may use: a result records them and is current only
    where as many are usable (`taskset`, or another machine of the same CPU, makes it stale)."""
    from litrec.analyses import inputs as inputs_module
    from litrec.commands import main

    root = ran
    stored = json.loads((root / "results" / "numpy-only" / "quick.json").read_text(encoding="utf-8"))
    here = inputs_module.machine_cores()
    assert stored["inputs"]["cores"] == stored["platform"]["cores"] == here
    reg = _registry(root)
    assert result_state(reg, root / "results", "numpy-only", "quick").state == "current"

    monkeypatch.setattr(inputs_module, "machine_cores", lambda: here + 3)
    state = result_state(reg, root / "results", "numpy-only", "quick")
    assert state.state == "stale" and state.other_machine, state
    assert state.reason.startswith(f"computed with {here} usable cores, here {here + 3}: rerun it"), state.reason
    capsys.readouterr()
    assert main(["status", "--profile", "quick", "--check-current"]) == 1
    assert main(["status", "--profile", "quick", "--check-current", "--any-machine"]) == 0
    assert "with other usable cores" in capsys.readouterr().err


def test_a_result_stored_before_the_cores_were_keyed_counts_every_cpu_of_its_platform():
    from litrec.analyses.inputs import RESULT_FORMAT, Inputs, stored_inputs

    def now(cores, isa=("x86_64", "avx2")):
        return Inputs("c0de", {"analysis/a.py": "f00d"}, "quick", {"numpy": "2.0"}, isa=isa, cores=cores)

    record = {k: v for k, v in now(2).record().items() if k != "cores"}      # written by an older litrec
    older = {"format": RESULT_FORMAT, "code_hash": "c0de", "profile": "quick", "versions": {"numpy": "2.0"},
             "inputs": record, "platform": {"cpu_count": 2}}
    assert stored_inputs(older)["cores"] == 2
    assert now(2).matches(older)
    assert not now(4).matches(older) and now(4).only_machine_differs(older)
    assert now(4).why_stale(older).startswith("computed with 2 usable cores, here 4")
    unknown = {**older, "platform": {}}                                      # no count: never current
    assert not now(2).matches(unknown) and now(2).only_machine_differs(unknown)
    assert "an unrecorded number of usable cores" in now(2).why_stale(unknown)
    # an analysis without an instruction set (no numerics package) has no cores among its inputs
    plain = {**older, "inputs": {**record, "isa": None}}
    assert now(None, isa=None).matches(plain)


def test_run_leaves_a_result_of_another_cpu_alone_and_rerun_other_machine_reruns_it(
        ran, monkeypatch, capsys):
    from litrec.analyses import inputs as inputs_module
    from litrec.commands import main

    root = ran
    # this project's `analysis` package is imported here; it must not outlive the test
    for mod in [m for m in sys.modules if m == "analysis" or m.startswith("analysis.")]:
        monkeypatch.delitem(sys.modules, mod)
    try:
        _any_machine_then_plain(root, monkeypatch, capsys, main, inputs_module)
    finally:
        for mod in [m for m in sys.modules if m == "analysis" or m.startswith("analysis.")]:
            del sys.modules[mod]


def _any_machine_then_plain(root, monkeypatch, capsys, main, inputs_module):
    stored = root / "results" / "numpy-only" / "quick.json"
    before = stored.read_bytes()
    here = inputs_module.machine_isa()
    other = (*here, "amx_tile_x")
    from litrec.runs import sweep  # imported before the patch: it binds the name at import

    for module in (inputs_module, sweep):  # the run and the process computing it, both "there"
        monkeypatch.setattr(module, "machine_isa", lambda: other)
    monkeypatch.setenv("LITREC_SANDBOX", "off")  # the point runs in this process, where the CPU is patched
    reg = _registry(root)
    capsys.readouterr()
    for flag in ("--any-machine", None, None):  # the default; the third answered from the run memo
        # --jobs 1: in this process, no worker started under the patched CPU outlives the test
        assert main(["run", "numpy-only", "--profile", "quick", *filter(None, [flag]), "--jobs", "1"]) == 0
        err = capsys.readouterr().err
        assert "litrec run: kept 1 result computed on another CPU (" in err, err
        assert "not recomputed: numpy-only;" in err
        assert "recompute them here: litrec run numpy-only --profile quick --rerun-other-machine (about " in err
        assert "nothing to run: 1 result of another CPU kept as it is for profile 'quick'" in err, err
        assert "0 analyses current" not in err
        assert stored.read_bytes() == before  # neither rerun nor re-stamped
        assert result_state(reg, root / "results", "numpy-only", "quick").other_machine

    # asked: the memo of the runs above is not taken, the result is computed here
    assert main(["run", "numpy-only", "--profile", "quick", "--rerun-other-machine", "--jobs", "1"]) == 0
    assert "running numpy-only (quick): computed on another CPU" in capsys.readouterr().err
    assert stored.read_bytes() != before
    assert json.loads(stored.read_text(encoding="utf-8"))["inputs"]["isa"] == list(other)
    assert result_state(reg, root / "results", "numpy-only", "quick").state == "current"
