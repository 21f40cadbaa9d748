"""The toy projects of the run tests, ready to run in-process: `toy` (`tests.support.run_toy`:
a figure, a helper module, a claim not reproduced) and `sweep_project` (`tests.support.sweep_toy`:
an analysis that sweeps three seeds)."""

from __future__ import annotations

import pytest

from tests.support.run_toy import write_run_toy
from tests.support.sweep_toy import write_sweep_project
from tests.support.toy import importable


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy project in `tmp_path`: the working directory, its `analysis` the one imported."""
    return importable(write_run_toy(tmp_path), monkeypatch)


@pytest.fixture
def sweep_project(tmp_path, monkeypatch):
    """The sweep project in `tmp_path`: the working directory, its `analysis` the one imported,
    rich 200 columns wide (it wraps neither messages nor table rows)."""
    monkeypatch.setenv("COLUMNS", "200")
    return importable(write_sweep_project(tmp_path), monkeypatch)
