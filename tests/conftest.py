"""Shared fixtures: the fixture project (tests/fixtures/project) copied into a temporary folder.

Two kinds of test read records:

- most tests run on the fixture project, a frozen copy of the seed records with
  a stub analysis registry (see tests/fixtures/README.md); they may name its
  records and count its links, since it changes only with the tests;
- the tests in tests/project check the project's own records, analyses and
  results (they validate, their results are current, every claim's analysis is
  tested, every record gets a page). They read PROJECT, the repository unless
  the environment variable LITREC_TEST_PROJECT names another project's root, and
  derive what they expect from the files they find there.

Builders of small projects and results that tests share live in tests/support (not test
modules); `mini` here writes the smallest whole project with a real analysis.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
PROJECT = Path(os.environ.get("LITREC_TEST_PROJECT") or REPO).resolve()

# Settings that make JAX keep every program it compiles in a folder, however small or quick.
COMPILE_CACHE_VARIABLES = ("JAX_COMPILATION_CACHE_DIR", "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS",
                           "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES")


def compile_cache_env(folder) -> dict[str, str]:
    """The environment variables that make JAX keep every program it compiles in `folder`."""
    return dict(zip(COMPILE_CACHE_VARIABLES, (str(folder), "0", "-1")))


def _share_compiled_programs() -> None:
    """One JAX compilation cache for the whole test session: the repository's own
    `.litrec-cache/jax/`, where `litrec run` keeps what it compiles (CI's quick run fills it
    before the tests). Every test, both xdist workers and every process they start (litrec
    runs, workers, scripts: they inherit the environment) then compile a program once and
    load it afterwards; compiling is most of a quick training's CPU time. A loaded program
    is the executable XLA compiled, so no number changes (tests/runs/test_warm_workers.py
    checks it bit for bit). Set before JAX is imported, which reads these variables. Left
    alone with `LITREC_NO_CACHE=1` or a JAX_COMPILATION_CACHE_DIR of one's own; the tests
    of litrec's own compile cache, and of reruns compiled afresh, take it away again
    (`without_shared_compile_cache`)."""
    from litrec.cache.slots import cache_dir

    if os.environ.get("JAX_COMPILATION_CACHE_DIR") or "jax" in sys.modules:
        return
    folder = cache_dir(REPO, "jax")
    if folder is not None:
        os.environ.update(compile_cache_env(folder))


_share_compiled_programs()

from litrec.commands import main  # noqa: E402


def but_hermetic(result: dict) -> dict:
    """`without_times`, less whether the points ran in a sandbox and the note saying why not
    (dask's never do, nor a run with LITREC_SANDBOX=off: litrec.runs.sandbox)."""
    out = {k: v for k, v in without_times(result).items() if k != "hermetic"}
    return {**out, "notes": [n for n in out.get("notes", []) if not str(n).startswith("not hermetic")]}


def without_times(result: dict) -> dict:
    """A stored result without what differs between two runs of the same inputs: when it
    started, how long it and each of its points took, and the hash over them."""
    out = {k: v for k, v in result.items() if k not in ("started", "wall_time_s", "content_hash")}
    if isinstance(out.get("points"), list):
        out["points"] = [{k: v for k, v in p.items() if k != "wall_time_s"} for p in out["points"]]
    return out


def copy_project(dest: Path, *overlays: str) -> Path:
    """The fixture project in `dest`, with each overlay (a folder of tests/fixtures) copied over it."""
    shutil.copytree(FIXTURES / "project", dest, dirs_exist_ok=True)
    for overlay in overlays:
        shutil.copytree(FIXTURES / overlay, dest, dirs_exist_ok=True)
    return dest


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A copy of the fixture project (records and a stub registry); the working directory."""
    root = copy_project(tmp_path / "project")
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def mini(tmp_path) -> Path:
    """A small valid project in `tmp_path/project` (`tests.support.mini`): a paper with one checked
    claim, a note that uses it, a NumPy-only analysis."""
    from tests.support.mini import write_mini

    return write_mini(tmp_path / "project")


@pytest.fixture
def cli(capsys):
    """Run the CLI in-process; return (exit code, stdout, stderr)."""

    def run(*args):
        code = main([str(a) for a in args])
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


@pytest.fixture
def without_shared_compile_cache(monkeypatch):
    """JAX as a user has it, without the session's compile cache (`_share_compiled_programs`):
    for the tests of litrec's own compile cache, and of reruns that must compile afresh."""
    for name in COMPILE_CACHE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    if "jax" not in sys.modules:
        yield
        return
    import jax
    from jax.experimental.compilation_cache import compilation_cache as cc

    names = ("jax_compilation_cache_dir", "jax_persistent_cache_min_compile_time_secs",
             "jax_persistent_cache_min_entry_size_bytes")
    saved = {name: getattr(jax.config, name) for name in names}
    for name, value in zip(names, (None, 1.0, 0)):  # JAX's defaults
        jax.config.update(name, value)
    cc.reset_cache()
    try:
        yield
    finally:
        for name, value in saved.items():
            jax.config.update(name, value)
        cc.reset_cache()


@pytest.fixture(autouse=True)
def _keep_this_repositorys_analysis_package():
    """A test that runs `litrec run` in this process imports its project's `analysis` package
    (its folder put on `sys.path`); left so, the tests of this repository's analyses that the
    worker runs next would import that project's package instead of this one. After each
    test, `sys.path` and the `analysis` modules are as they were before it."""
    def held() -> dict:
        return {n: m for n, m in sys.modules.items() if n == "analysis" or n.startswith("analysis.")}

    before, path = held(), list(sys.path)
    yield
    after = held()
    for name in after.keys() - before.keys():
        del sys.modules[name]
    sys.modules.update({n: m for n, m in before.items() if after.get(n) is not m})
    if sys.path != path:
        sys.path[:] = path


_LITREC_SETTINGS = {k: v for k, v in os.environ.items() if k.startswith("LITREC_")}


@pytest.fixture(autouse=True)
def _litrec_settings_as_the_session_began():
    """Each test begins with the LITREC_ variables the session began with: a point of an
    in-process run restores the environment it saved when it ends (`litrec.analyses.environ.
    cleaned`), and one that outlives its test (a thread of a stopped run) would otherwise leave
    that test's setting (LITREC_SANDBOX=off) to the tests after it."""
    for name in [k for k in os.environ if k.startswith("LITREC_")]:
        if name not in _LITREC_SETTINGS:
            del os.environ[name]
    os.environ.update(_LITREC_SETTINGS)
    yield


@pytest.fixture
def sandboxed(monkeypatch):
    """Points run in their sandbox where the machine can make one, whatever the suite's setting:
    `make test` runs the others' points unsandboxed (LITREC_SANDBOX=off), `make test-all` not."""
    monkeypatch.delenv("LITREC_SANDBOX", raising=False)
