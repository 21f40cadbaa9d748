"""An extension edited after the run is a change of its `+ext` row alone: `diff` shows it there as
old → new, the claim's own row stays as it was judged, and `run` exits as the claim says."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.support.seeds_toy import claim, litrec, status, write_claims, write_project

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="no git on this machine")

PAPER = "source: {kind: paper, where: Table 1, quote: the trained loss is below 0.2, threshold: paper}"
EXTENSION = "source: {kind: extension, reason: litrec's closer test}"
HOLDS = "{metric: loss_trained, op: '<', value: 0.2, " + PAPER + "}"
# the toy's loss_gd is its trained loss + 0.02 at every seed: both tolerances hold
WAS, NOW = "loss_trained ≈ loss_gd (±0.1 abs)", "loss_trained ≈ loss_gd (±0.05 abs)"


def _ext(tol: str) -> str:
    return "{metric: loss_trained, op: '≈', ref: loss_gd, abs_tol: " + tol + ", " + EXTENSION + "}"


def _git(root, *args) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
                        "HOME": str(root), "PATH": "/usr/bin:/bin:/usr/local/bin"})


@pytest.fixture(scope="module")
def committed(tmp_path_factory):
    """F1 (the paper's `< 0.2`, litrec's `≈ loss_gd ±0.1`), run and committed."""
    root = write_project(tmp_path_factory.mktemp("ext-edits"), claim("F1", HOLDS, _ext("0.1")))
    proc = litrec("run", "--profile", "quick", "--jobs", "1", cwd=root)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "F1 run")
    return root


@pytest.fixture
def tightened(committed, tmp_path):
    """The extension's tolerance tightened after the run (±0.1 → ±0.05), not rerun."""
    root = tmp_path / "copy"
    shutil.copytree(committed, root)
    write_claims(root, claim("F1", HOLDS, _ext("0.05")))
    return root


def test_diff_shows_an_extension_edit_on_its_ext_row_old_to_new(tightened):
    proc = litrec("diff", "--profile", "quick", cwd=tightened)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "ARXIV-0000.00003#F1+ext  reproduced",
        f"    expectation changed since the run, not yet run: {WAS} → {NOW}",
        "1 of 2 checked claims changed from HEAD (quick) to working tree (quick)"]
    doc = json.loads(litrec("diff", "--profile", "quick", "--format", "json", cwd=tightened).stdout)
    (ext,) = doc["claims"]
    assert ext["claim"] == "ARXIV-0000.00003#F1+ext"
    assert ext["new"]["edited"] == [{"old": WAS, "new": NOW}]
    assert ext["old"]["expectations"] == ext["new"]["expectations"] == [WAS]  # what each side ran with
    everything = json.loads(litrec("diff", "--profile", "quick", "--all", "--format", "json",
                                   cwd=tightened).stdout)["claims"]
    own = next(c for c in everything if c["claim"] == "ARXIV-0000.00003#F1")
    assert own["changed"] == [] and own["new"]["edited"] == [] and own["new"]["verdict"] == "reproduced"


def test_an_extension_edit_leaves_the_claim_and_the_exit_status_of_run_alone(tightened):
    code, rows = status(tightened)
    assert code == 0
    assert rows["F1"]["verdict"] == "reproduced" and rows["F1"]["expectation_changed"] is False
    ext = rows["F1+ext"]
    assert ext["verdict"] == "expectation changed"  # the row itself says so, as it should
    assert ext["stored_verdict"] == "reproduced" and ext["stored_expectations"] == [WAS]
    assert [(o["expectation"], o["stored_expectation"]) for o in ext["outcomes"]] == [(NOW, WAS)]
    proc = litrec("run", "--profile", "quick", "--jobs", "1", cwd=tightened)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "nothing to run" in proc.stderr  # neither the claim nor its extension reruns for it
    run_rows = {r["claim"].partition("#")[2]: r for r in json.loads(litrec(
        "run", "--profile", "quick", "--jobs", "1", "--format", "json", cwd=tightened).stdout)["claims"]}
    assert run_rows["F1"]["verdict"] == "reproduced"
    assert run_rows["F1+ext"]["verdict"] == "expectation changed"


def test_an_extension_removed_is_a_change_of_its_row_not_of_the_claim(committed, tmp_path):
    root = tmp_path / "copy"
    shutil.copytree(committed, root)
    write_claims(root, claim("F1", HOLDS))  # litrec's extension dropped
    _, rows = status(root)
    assert rows["F1"]["verdict"] == "reproduced" and "F1+ext" not in rows
    proc = litrec("diff", "--profile", "quick", cwd=root)
    assert proc.stdout.splitlines()[:2] == [
        "ARXIV-0000.00003#F1+ext  reproduced",
        f"    expectation changed since the run, not yet run: removed: {WAS}"]
    assert "ARXIV-0000.00003#F1 " not in proc.stdout
