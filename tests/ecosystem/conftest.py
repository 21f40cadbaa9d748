"""Shared helpers for the ecosystem tests: the repository root and sandbox projects."""

from __future__ import annotations

import contextlib
import io
import os
import shlex
import shutil
from pathlib import Path

import pytest

from tests.conftest import STUB_ANALYSIS

from litrec.yamlsafe import load_bytes

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "records"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def analysis_names(records_dir: Path) -> set[str]:
    """Every analysis name the records mention (claims' checks and discrepancies)."""
    names = set()
    for path in records_dir.rglob("*.yaml"):
        data = load_bytes(path.read_bytes()).data
        for c in data.get("claims", []) or []:
            if isinstance(c, dict) and isinstance(c.get("check"), dict):
                names.add(c["check"].get("analysis"))
        for d in data.get("discrepancies", []) or []:
            if isinstance(d, dict) and d.get("analysis"):
                names.add(d["analysis"])
    return {n for n in names if isinstance(n, str)}


def stub_registry(analysis_dir: Path, names: set[str]) -> None:
    """An analysis registry naming `names`, each with an empty module, so records validate."""
    analysis_dir.mkdir(parents=True, exist_ok=True)
    lines = []
    for name in sorted(names):
        module = name.replace("-", "_")
        (analysis_dir / f"{module}.py").write_text('"""A stub for the tests."""\n' + STUB_ANALYSIS,
                                                 encoding="utf-8")
        lines.append(f"{name}:\n  module: {module}\n  title: stub {name}\n")
    (analysis_dir / "registry.yaml").write_text("".join(lines), encoding="utf-8")


def make_project(dest: Path, records: Path = RECORDS) -> Path:
    """A copy of `records` in `dest/records` with a stub analysis registry beside it."""
    shutil.copytree(records, dest / "records")
    stub_registry(dest / "analysis", analysis_names(dest / "records"))
    return dest


@pytest.fixture
def project(tmp_path) -> Path:
    """A sandbox copy of the repository's records that validates (stub analyses)."""
    return make_project(tmp_path / "proj")


def run_cli(line: str | list[str], cwd: Path | None = None) -> tuple[int, str, str]:
    """Run `litrec ...` in this process; return (exit code, stdout, stderr)."""
    from litrec.commands import main

    argv = shlex.split(line) if isinstance(line, str) else list(line)
    if argv and argv[0] == "litrec":
        argv = argv[1:]
    out, err = io.StringIO(), io.StringIO()
    old = Path.cwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse usage errors
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        os.chdir(old)
    return code, out.getvalue(), err.getvalue()
