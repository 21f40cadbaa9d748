"""Results stay byte for byte what litrec wrote in a clone that converts line ends
(`core.autocrlf=true`, Git for Windows' default): the project's `.gitattributes` keeps git from
converting `results/` and `analysis/`, whose bytes a result's seal, signature and inputs key hash."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.seeds_toy import claim, litrec, write_project

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

REPO = Path(__file__).resolve().parents[2]
F2 = claim("F2", '{metric: loss_trained, op: ">", value: 0.0, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}')


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                          cwd=cwd, check=True, capture_output=True, text=True).stdout


def _files(root: Path, *folders: str) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for f in folders
            for p in sorted((root / f).rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


def test_a_clone_with_autocrlf_reads_every_result_as_it_was_written(tmp_path):
    root = write_project(tmp_path / "project", F2)
    assert litrec("run", "--profile", "quick", "--jobs", "1", cwd=root).returncode == 0
    shutil.copy(REPO / ".gitattributes", root / ".gitattributes")
    (root / ".gitignore").write_text("__pycache__/\n.litrec-cache/\n")
    git("init", "-q", cwd=root)
    git("add", ".", cwd=root)
    git("commit", "-qm", "a result", cwd=root)
    written = _files(root, "results", "analysis")
    assert any(name.endswith(".history.jsonl") for name in written)
    clone = tmp_path / "clone"
    git("clone", "-q", "-c", "core.autocrlf=true", str(root), str(clone), cwd=tmp_path)
    assert b"\r\n" in (clone / "records/literature/ARXIV-0000.00003.yaml").read_bytes()  # it converts
    assert _files(clone, "results", "analysis") == written
    assert git("status", "--porcelain", cwd=clone) == ""
    proc = litrec("validate", cwd=clone)
    assert proc.returncode == 0 and "modified" not in proc.stdout, proc.stdout
    proc = litrec("status", "--profile", "quick", "--check-current", cwd=clone)
    assert proc.returncode == 0, proc.stdout + proc.stderr
