"""Shared fixtures: a copy of the seed records in a temporary project."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from litrec.commands import main

REPO = Path(__file__).resolve().parents[1]
SEED_NAMES = [
    "prop1-identity", "single-layer-lsa", "deeper-gdpp", "prop2-mlp-attention",
    "prop3-token-building", "gd-input-range", "conditioning-vs-parameters",
]


# The least module that keeps the analysis contract (litrec.contract).
STUB_ANALYSIS = "PROFILES = {}\n\n\ndef run(config, progress=None):\n    return {'metrics': {}}\n"


def make_registry(analysis: Path, names) -> None:
    analysis.mkdir(parents=True, exist_ok=True)
    lines = []
    for n in names:
        mod = n.replace("-", "_")
        (analysis / f"{mod}.py").write_text(STUB_ANALYSIS)
        lines.append(f"{n}:\n  module: {mod}\n  title: {n}\n")
    (analysis / "registry.yaml").write_text("".join(lines))


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A temporary project holding the seed records and a registry of their analyses."""
    shutil.copytree(REPO / "records", tmp_path / "records")
    make_registry(tmp_path / "analysis", SEED_NAMES)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def cli(capsys):
    """Run the CLI in-process; return (exit code, stdout, stderr)."""

    def run(*args):
        code = main([str(a) for a in args])
        out = capsys.readouterr()
        return code, out.out, out.err

    return run
