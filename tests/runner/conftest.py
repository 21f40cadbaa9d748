"""The toy project of the `litrec run` tests (`tests.support.run_toy`), ready to run in-process."""

from __future__ import annotations

import pytest

from tests.support.run_toy import write_run_toy
from tests.support.toy import importable


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy project in `tmp_path`: the working directory, its `analysis` the one imported."""
    return importable(write_run_toy(tmp_path), monkeypatch)
