"""A seal says the line ends of the files it seals (`line_endings: lf`, as litrec writes them), so a
checkout that converted them to CRLF (`core.autocrlf=true` where `.gitattributes` does not keep
`results/` byte for byte) reads as what it is: the result is intact, its line ends were converted,
and the warning says how to restore them; not *modified*. An edit is still modified, a seal
written before the field is read as LF, and a seal of files written with CRLF (`mixed`) is
checked byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from litrec.results.seal import broken_seal, canonical, converted_line_endings, seal
from tests.support.run_toy import write_run_toy
from tests.support.seeds_toy import litrec

SVG = b'<svg xmlns="http://www.w3.org/2000/svg">\n  <path d="M 0 0"/>\n</svg>\n'


def _sealed(folder: Path, figure: bytes = SVG, written: bytes | None = None) -> dict:
    """A sealed result in `folder` with one figure, sealed over `figure` and written as `written`."""
    data = seal({"metrics": {"x": 1}, "figures": {"line": "quick/line.svg"}}, {"line.svg": figure})
    (folder / "quick").mkdir(parents=True, exist_ok=True)
    (folder / "quick/line.svg").write_bytes(figure if written is None else written)
    (folder / "quick.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return data


def test_a_seal_says_its_files_are_lf_and_a_converted_figure_is_intact(tmp_path):
    data = _sealed(tmp_path, written=SVG.replace(b"\n", b"\r\n"))
    assert data["line_endings"] == "lf"
    assert broken_seal(data, tmp_path) is None
    words = converted_line_endings(data, tmp_path, tmp_path / "quick.json")
    assert words is not None and words.startswith("line endings converted (CRLF) in quick/line.svg: "
                                                   "the result is intact")
    assert "git config core.autocrlf false" in words and ".gitattributes" in words


def test_an_edit_after_a_conversion_is_still_modified(tmp_path):
    data = _sealed(tmp_path, written=SVG.replace(b"\n", b"\r\n").replace(b"M 0 0", b"M 0 1"))
    assert broken_seal(data, tmp_path) == "its figure line.svg does not match the hash stored with the result"
    assert converted_line_endings(data, tmp_path, tmp_path / "quick.json") is None


def test_a_seal_written_before_line_endings_were_stated_is_read_as_lf(tmp_path):
    data = _sealed(tmp_path, written=SVG.replace(b"\n", b"\r\n"))
    old = {k: v for k, v in data.items() if k != "line_endings"}
    old["content_hash"] = hashlib.sha256(canonical(old)).hexdigest()
    assert broken_seal(old, tmp_path) is None
    assert converted_line_endings(old, tmp_path, tmp_path / "quick.json") is not None


def test_files_written_with_crlf_are_sealed_as_mixed_and_checked_byte_for_byte(tmp_path):
    crlf = SVG.replace(b"\n", b"\r\n")
    data = _sealed(tmp_path, figure=crlf)
    assert data["line_endings"] == "mixed" and broken_seal(data, tmp_path) is None
    data = _sealed(tmp_path, figure=crlf, written=crlf.replace(b"\r\n", b"\r\r\n"))
    assert broken_seal(data, tmp_path) is not None
    assert converted_line_endings(data, tmp_path, tmp_path / "quick.json") is None


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                          cwd=cwd, check=True, capture_output=True, text=True).stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_clone_that_converted_the_results_reads_them_intact_with_a_warning(tmp_path):
    """A clone with `core.autocrlf=true` whose `.gitattributes` keeps `analysis/` byte for byte
    but not `results/` (with both, nothing is converted: tests/results/test_line_endings.py)."""
    root = write_run_toy(tmp_path / "project")
    done = litrec("run", "--profile", "quick", "--jobs", "1", cwd=root)
    assert done.returncode == 1, done.stdout + done.stderr  # F2 is not reproduced, as the toy says
    (root / ".gitattributes").write_text("analysis/** -text\n")
    (root / ".gitignore").write_text("__pycache__/\n.litrec-cache/\n")
    git("init", "-q", cwd=root)
    git("add", ".", cwd=root)
    git("commit", "-qm", "a result", cwd=root)
    clone = tmp_path / "clone"
    git("clone", "-q", "-c", "core.autocrlf=true", str(root), str(clone), cwd=tmp_path)
    assert json.loads((clone / "results/toy/quick.json").read_text())["line_endings"] == "lf"
    assert b"\r\n" in (clone / "results/toy/quick.json").read_bytes()  # converted
    assert any(b"\r\n" in p.read_bytes() for p in (clone / "results/toy").rglob("*.svg"))
    proc = litrec("validate", cwd=clone)
    out = " ".join((proc.stdout + proc.stderr).split())
    assert proc.returncode == 0 and "modified" not in out, out
    assert "warning: line_endings: line endings converted (CRLF) in quick.json, quick/line.svg" in out, out
    proc = litrec("status", "--profile", "quick", "--check-current", cwd=clone)
    out = " ".join((proc.stdout + proc.stderr).split())
    assert "modified" not in out and "line endings converted (CRLF)" in out, out
    assert "the result is intact" in out and "git config core.autocrlf false" in out, out
