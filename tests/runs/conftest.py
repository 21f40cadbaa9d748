"""The toy projects of the run tests, ready to run in-process: `toy` (`tests.support.run_toy`:
a figure, a helper module, a claim not reproduced) and `sweep_project` (`tests.support.sweep_toy`:
an analysis that sweeps three seeds); `ran_toy`, the toy with its quick result, run once a session
(`toy_run`) and copied for each test that starts from it."""

from __future__ import annotations

import shutil

import pytest

from tests.support.inprocess import run_inprocess
from tests.support.run_toy import write_run_toy
from tests.support.sweep_toy import write_sweep_project
from tests.support.toy import importable


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy project in `tmp_path`: the working directory, its `analysis` the one imported."""
    return importable(write_run_toy(tmp_path), monkeypatch)


@pytest.fixture(scope="session")
def toy_run(tmp_path_factory):
    """`litrec run --profile quick --format json` on the toy, once a session (in this process):
    (the project, exit code, standard output, standard error). The project is only ever read
    or copied (`ran_toy`), never changed."""
    root = write_run_toy(tmp_path_factory.mktemp("ran-toy") / "toy")
    return (root, *run_inprocess(["run", "--profile", "quick", "--format", "json"], cwd=root))


@pytest.fixture(scope="session")
def toy_result(toy_run):
    """The toy project after its quick run (`toy_run`), its result stored: only read or copied."""
    root, code, out, err = toy_run
    assert code == 1 and (root / "results" / "toy" / "quick.json").is_file(), out + err  # F2: not reproduced
    return root


@pytest.fixture
def ran_toy(toy_result, tmp_path, monkeypatch):
    """`toy` as `litrec run --profile quick` leaves it, its result current (a copy of
    `toy_result`): for the tests whose first step was that run, without running the analysis
    again. Its `.litrec-cache` comes along; the run memo's key names the project's folder, so
    no answer kept there is taken here."""
    return importable(shutil.copytree(toy_result, tmp_path / "toy", symlinks=True), monkeypatch)


@pytest.fixture
def sweep_project(tmp_path, monkeypatch):
    """The sweep project in `tmp_path`: the working directory, its `analysis` the one imported,
    rich 200 columns wide (it wraps neither messages nor table rows)."""
    monkeypatch.setenv("COLUMNS", "200")
    return importable(write_sweep_project(tmp_path), monkeypatch)
