"""A run in a git repository stores the commit it was computed from (`litrec.util.git.commit_of`)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(root, *args):
    return subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t",
                           *args], check=True, capture_output=True, text=True).stdout.strip()


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
