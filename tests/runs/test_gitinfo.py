"""A result names the git commit it was computed from (and whether the analysis code differed)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from litrec.util.gitinfo import commit_of

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(root, *args):
    return subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t",
                           *args], check=True, capture_output=True, text=True).stdout.strip()


def test_outside_a_repository_there_is_no_commit(tmp_path):
    assert commit_of(tmp_path) is None


def test_the_commit_and_whether_the_analysis_code_differs(tmp_path):
    (tmp_path / "analysis").mkdir()
    (tmp_path / "analysis" / "a.py").write_text("x = 1\n")
    (tmp_path / "notes.txt").write_text("n\n")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "first")
    head = git(tmp_path, "rev-parse", "HEAD")
    assert commit_of(tmp_path) == {"commit": head, "dirty": False}
    (tmp_path / "notes.txt").write_text("changed, but not analysis code\n")
    (tmp_path / "analysis" / "__pycache__").mkdir()  # what importing the code writes
    (tmp_path / "analysis" / "__pycache__" / "a.cpython-312.pyc").write_bytes(b"\0")
    assert commit_of(tmp_path) == {"commit": head, "dirty": False}
    (tmp_path / "analysis" / "a.py").write_text("x = 2\n")
    assert commit_of(tmp_path) == {"commit": head, "dirty": True}


def test_an_untracked_module_under_analysis_or_records_is_dirty_and_an_ignored_one_is_not(tmp_path):
    for folder in ("analysis", "records"):
        (tmp_path / folder / "lib").mkdir(parents=True)
        (tmp_path / folder / "kept.txt").write_text("k\n")
    (tmp_path / ".gitignore").write_text("*.local\n")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "first")
    head = git(tmp_path, "rev-parse", "HEAD")
    paths = ("records", "analysis")
    (tmp_path / "analysis" / "lib" / "scratch.local").write_text("ignored\n")
    assert commit_of(tmp_path, paths) == {"commit": head, "dirty": False}
    module = tmp_path / "analysis" / "lib" / "helper.py"  # imported by the analysis, not added
    module.write_text("VALUE = 2\n")
    assert commit_of(tmp_path, paths) == {"commit": head, "dirty": True}
    module.unlink()
    (tmp_path / "records" / "NOTE-9.yaml").write_text("id: NOTE-9\n")
    assert commit_of(tmp_path, paths) == {"commit": head, "dirty": True}
    assert commit_of(tmp_path, ("analysis",)) == {"commit": head, "dirty": False}


def test_a_run_in_a_repository_stores_its_commit(toy, cli):
    git(toy, "init", "-q")
    git(toy, "add", ".")
    git(toy, "commit", "-qm", "records and analysis")
    cli("run", "--profile", "quick")
    result = json.loads((toy / "results" / "toy" / "quick.json").read_text())
    assert result["git"] == {"commit": git(toy, "rev-parse", "HEAD"), "dirty": False}
    code, out, _ = cli("status", "--profile", "quick", "--format", "json")
    claim = json.loads(out)[0]
    assert claim["provenance"]["git"]["commit"] == result["git"]["commit"], claim["provenance"].keys()
