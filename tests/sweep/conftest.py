"""A toy project whose analysis declares a sweep over seeds (`tests.support.sweep_toy`), ready to
run in-process."""

from __future__ import annotations

import pytest

from tests.support.sweep_toy import write_sweep_project
from tests.support.toy import importable


@pytest.fixture
def sweep_project(tmp_path, monkeypatch):
    """The sweep project in `tmp_path`: the working directory, its `analysis` the one imported,
    rich 200 columns wide (it wraps neither messages nor table rows)."""
    monkeypatch.setenv("COLUMNS", "200")
    return importable(write_sweep_project(tmp_path), monkeypatch)
