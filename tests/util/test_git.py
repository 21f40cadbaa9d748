"""litrec's one way to git (`litrec.util.git`): the commit a result was computed from (and whether
the analysis code differed), and the questions its callers share."""

from __future__ import annotations

import ast
import shutil
import subprocess
from pathlib import Path

import pytest

from litrec.util.git import (
    QUICK_S,
    GitUnavailable,
    blobs,
    commit,
    commit_of,
    config,
    file_at,
    held_by_git,
    log,
    refs_of,
    run,
    toplevel,
)

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
SRC = Path(__file__).resolve().parents[2] / "src" / "litrec"


def git(root, *args):
    return subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t",
                           *args], check=True, capture_output=True, text=True).stdout.strip()


@needs_git
def test_outside_a_repository_there_is_no_commit(tmp_path):
    assert commit_of(tmp_path) is None


@needs_git
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


@needs_git
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


def _repo(root):
    (root / "results").mkdir(parents=True)
    (root / "results" / "r.json").write_text('{"x": 1}\n')
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-qm", "first")
    return git(root, "rev-parse", "HEAD")


@needs_git
def test_the_shared_questions_answer_in_a_repository_and_say_none_outside(tmp_path):
    head = _repo(tmp_path / "p")
    root = tmp_path / "p"
    assert toplevel(root / "results").resolve() == root.resolve()
    assert commit(root, "HEAD") == head and commit(root, "no-such-branch") is None
    assert commit(root, "--all") is None  # an option never reaches git as one
    assert file_at(root, "HEAD", "results/r.json") == b'{"x": 1}\n'
    assert file_at(root, "HEAD", "results/none.json") is None
    assert blobs(root, [f"{head}:results/r.json", f"{head}:nothing"]) == {
        f"{head}:results/r.json": b'{"x": 1}\n', f"{head}:nothing": None}
    assert log(root, "--format=%H", paths=("results",)) == (head + "\n").encode()
    assert refs_of(root).startswith(head + "\n")
    git(root, "config", "litrec.probe", "on")
    assert config(root, "litrec.probe") == "on" and config(root, "litrec.unset") is None
    (root / "results" / "r.json").unlink()
    assert held_by_git(root, "results/r.json") == ("git tracks it", "git checkout -- results/r.json")
    outside = tmp_path / "outside"
    outside.mkdir()
    assert toplevel(outside) is None and commit(outside, "HEAD") is None
    assert log(outside, paths=("x",)) is None and refs_of(outside) is None


def test_git_missing_is_none_for_a_question_and_a_clear_error_for_the_runner(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no git on the path
    assert commit_of(tmp_path) is None and config(tmp_path, "user.name") is None
    with pytest.raises(GitUnavailable, match="git is not installed"):
        run(tmp_path, "status")


@needs_git
def test_git_never_waits_on_standard_input_or_a_pager(tmp_path):
    _repo(tmp_path)
    done = run(tmp_path, "log", "--format=%H", timeout=QUICK_S)  # a pager would wait
    assert done.returncode == 0 and len(done.stdout.split()) == 1


def test_only_the_git_module_runs_git():
    """Every git process litrec starts goes through `litrec.util.git.run` (its timeout, its closed
    standard input, its errors): no other module names the program."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        if path == SRC / "util" / "git.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.List) and node.elts and isinstance(node.elts[0], ast.Constant) \
                    and node.elts[0].value == "git":
                found.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert found == []
