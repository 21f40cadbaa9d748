"""Warm workers and the compile cache: a worker imports an analysis once for all its points;
JAX's compiled programs are kept in .litrec-cache/jax/ of the project, loaded by later runs
with bit-identical numbers, and a damaged entry never breaks a run (the cache's refusal rules,
links and caching off among them, are tested once for every use in tests/cache/test_cache.py)."""

from __future__ import annotations

import json
import os
from collections import Counter

import pytest

from tests.support.jax_toy import JAX_TOY
from tests.support.sweep_toy import TOY, write_toy

COUNTED = '''
import os as _os
with open(_os.path.join(%(log)r, str(_os.getpid())), "a") as _fh:
    _fh.write("imported\\n")  # one line per import of this module in this process
'''


@pytest.mark.parametrize("executor", ["local", pytest.param("dask", marks=pytest.mark.slow)])
def test_a_worker_imports_the_analysis_once_for_all_its_points(sweep_project, cli, executor, monkeypatch):
    # the worker itself, not the sandboxed point server it keeps per analysis (litrec.runs.sandbox),
    # which could not write its log into the project
    monkeypatch.setenv("LITREC_SANDBOX", "off")
    log = sweep_project / "imports"
    log.mkdir()
    write_toy(sweep_project)
    module = sweep_project / "analysis" / "toy_sweep.py"
    toy = (TOY % {"quick": ""}).replace('SWEEP = {"quick": {"seed": [0, 1, 2]}}',
                                        'SWEEP = {"quick": {"seed": list(range(8))}}')
    module.write_text(COUNTED % {"log": str(log)} + toy)
    code, _, err = cli("run", "--profile", "quick", "--executor", executor, "--jobs", "2")
    assert code == 0, err
    result = json.loads((sweep_project / "results" / "toy-sweep" / "quick.json").read_text())
    assert len(result["points"]) == 8
    here = str(os.getpid())
    assert here not in {p.name for p in log.iterdir()}  # laid out in a worker (litrec.runs.points)
    workers = {p.name: p.read_text().count("imported") for p in log.iterdir()}
    assert 1 <= len(workers) <= 2 and set(workers.values()) == {1}, workers


@pytest.fixture
def jax_project(sweep_project, without_shared_compile_cache, monkeypatch):
    """The sweep project with a second analysis that compiles with JAX (one point), and JAX
    without the tests' shared compile cache, so that litrec's own is used. Its point runs in
    this process (LITREC_SANDBOX=off), where JAX's events are counted; the cache of a sandboxed
    point is tests/runs/test_sandbox.py's."""
    monkeypatch.setenv("LITREC_SANDBOX", "off")
    (sweep_project / "analysis" / "toy_jax.py").write_text(JAX_TOY)
    reg = sweep_project / "analysis" / "registry.yaml"
    reg.write_text(reg.read_text() + "toy-jax:\n  module: toy_jax\n  title: Toy JAX\n")
    return sweep_project


def _run(cli, root, *flags) -> dict:
    """One forced run of toy-jax in this process, with nothing compiled in memory first."""
    import jax

    jax.clear_caches()
    code, _, err = cli("run", "toy-jax", "--profile", "quick", "--force", *flags)
    assert code == 0, err
    return json.loads((root / "results" / "toy-jax" / "quick.json").read_text())["metrics"]


def _entries(root):
    folder = root / ".litrec-cache" / "jax"
    return sorted(p for p in folder.iterdir() if p.name.endswith("-cache")) if folder.is_dir() else []


@pytest.mark.slow  # minutes of the everyday suite on two cores; run by make test-all
def test_compiled_programs_are_kept_and_loaded_with_identical_numbers(jax_project, cli):
    import jax.monitoring

    fresh = _run(cli, jax_project, "--no-compile-cache")
    assert _entries(jax_project) == []
    cold = _run(cli, jax_project)
    kept = _entries(jax_project)
    assert any(p.name.startswith("jit__mix-") for p in kept), kept
    events = Counter()

    def count(event, **kwargs):
        events[event] += 1

    jax.monitoring.register_event_listener(count)
    try:
        warm = _run(cli, jax_project)
    finally:
        jax.monitoring.unregister_event_listener(count)
    assert events["/jax/compilation_cache/cache_hits"] >= 1
    assert fresh == cold == warm  # bit for bit: the same floats, as JSON
    assert _entries(jax_project) == kept


@pytest.mark.slow
def test_a_damaged_cache_entry_is_compiled_afresh_and_replaced(jax_project, cli):
    fresh = _run(cli, jax_project)
    for entry in _entries(jax_project):
        entry.write_bytes(b"\x00damaged" * 3)
    with pytest.warns(UserWarning, match="Error reading persistent compilation cache"):
        assert _run(cli, jax_project) == fresh
    assert _run(cli, jax_project) == fresh
    assert _entries(jax_project)
    assert all(p.read_bytes() != b"\x00damaged" * 3 for p in _entries(jax_project))
    import jax

    assert jax.config.jax_compilation_cache_dir is None  # JAX's settings as they were
    assert jax.config.jax_persistent_cache_min_compile_time_secs == 1.0
