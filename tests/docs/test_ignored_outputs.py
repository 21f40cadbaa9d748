"""What a failed run leaves behind is not committed by accident: the error log
`write_error_log` writes beside a result is ignored by git (.gitignore)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from litrec.results.store import write_error_log
from tests.conftest import REPO


@pytest.mark.skipif(shutil.which("git") is None or not (REPO / ".git").exists(),
                    reason="needs git and the project's repository")
def test_a_failed_runs_error_log_is_ignored_by_git(tmp_path):
    (tmp_path / "results" / "some-analysis").mkdir(parents=True)
    log = write_error_log(tmp_path / "results", "some-analysis", "paper_full", "Traceback ...")
    rel = log.relative_to(tmp_path).as_posix()  # where it lands under the project's results/
    out = subprocess.run(["git", "check-ignore", "--no-index", "-q", rel], cwd=REPO)
    assert out.returncode == 0, f"{rel} is not ignored by .gitignore"
