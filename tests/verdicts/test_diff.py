"""`litrec diff`: what changed between the stored results of two commits of a temporary git
repository, of HEAD and the working tree, or of two profiles."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.verdicts.test_suspect import GOOD
from tests.verdicts.test_status_width import _result

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="no git on this machine")


def _git(root, *args):
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
                        "HOME": str(root), "PATH": "/usr/bin:/bin:/usr/local/bin"})


def _f1(project, loss_trained: float) -> None:
    _result(project, "single-layer-lsa", [{**GOOD, "loss_trained": loss_trained},
                                          {**GOOD, "loss_trained": loss_trained * 1.001}],
            store=True)


@pytest.fixture
def repo(project):
    _git(project, "init", "-q", "-b", "main")
    _f1(project, 0.2)
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "F1 reproduced")
    _f1(project, 0.5)  # F1 no longer within 1% of loss_gd
    _git(project, "commit", "-q", "-am", "F1 not reproduced")
    return project


def test_two_commits(repo, cli):
    code, out, _ = cli("diff", "HEAD~1", "HEAD")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "ARXIV-2212.07677#F1  reproduced → not reproduced"
    assert any(ln.startswith("    loss_trained ≈ loss_gd (±0.01 rel): 0.2001 [") and "→ 0.5002 ["
               in ln for ln in lines), out
    assert lines[-1] == "1 of 6 checked claims changed from HEAD~1 (paper) to HEAD (paper)"
    doc = json.loads(cli("diff", "HEAD~1", "HEAD", "--format", "json")[1])
    (claim,) = doc["claims"]
    assert claim["claim"] == "ARXIV-2212.07677#F1"
    assert (claim["old"]["verdict"], claim["new"]["verdict"]) == ("reproduced", "not reproduced")
    first = claim["new"]["outcomes"][0]
    assert first["metric"] == "loss_trained" and len(first["interval"]) == 2 and first["n"] == 2
    assert claim["old"]["expectations"] == claim["new"]["expectations"]


def test_head_and_the_working_tree_and_a_changed_expectation(repo, cli):
    assert cli("diff")[1].startswith("0 of 6 checked claims changed from HEAD (paper)")
    _f1(repo, 0.2)  # back in the working tree
    out = cli("diff")[1]
    assert "ARXIV-2212.07677#F1  not reproduced → reproduced" in out
    lit = repo / "records/literature/ARXIV-2212.07677.yaml"
    lit.write_text(lit.read_text().replace("{metric: cos_sensitivity, op: \">\", value: 0.99",
                                           "{metric: cos_sensitivity, op: \">\", value: 0.995"))
    _f1(repo, 0.2)  # rewritten with the new expectations stored
    out = cli("diff", "HEAD")[1]
    assert "    expectation removed: cos_sensitivity > 0.99" in out
    assert "    expectation added: cos_sensitivity > 0.995" in out


def test_an_expectation_edited_since_the_run_is_a_change(repo, cli):
    """Status says *expectation changed*; diff must not say nothing changed."""
    lit = repo / "records/literature/ARXIV-2212.07677.yaml"
    lit.write_text(lit.read_text().replace("{metric: cos_sensitivity, op: \">\", value: 0.99",
                                           "{metric: cos_sensitivity, op: \">\", value: 0.995"))
    code, out, _ = cli("diff")
    assert code == 0
    assert "ARXIV-2212.07677#F1  not reproduced" in out
    assert "    expectation changed, not yet run: added since the run: cos_sensitivity > 0.995" in out
    assert "    expectation changed, not yet run: removed since the run: cos_sensitivity > 0.99" in out
    assert out.splitlines()[-1].startswith("1 of 6 checked claims changed")
    doc = json.loads(cli("diff", "--format", "json")[1])
    (claim,) = doc["claims"]
    assert claim["new"]["edited"] == ["added since the run: cos_sensitivity > 0.995",
                                      "removed since the run: cos_sensitivity > 0.99"]


def test_a_side_that_cannot_be_judged_says_why(repo, cli):
    result = repo / "results/single-layer-lsa/paper.json"
    doc = json.loads(result.read_text())
    for p in doc.get("points") or []:
        p["metrics"].pop("cos_sensitivity", None)
    doc.get("metrics", {}).pop("cos_sensitivity", None)
    result.write_text(json.dumps(doc))
    code, out, _ = cli("diff")
    assert code == 0 and "ARXIV-2212.07677#F1  not reproduced → error" in out
    assert "new side: the result has no metric 'cos_sensitivity'" in out
    doc = json.loads(cli("diff", "--format", "json")[1])
    assert "no metric 'cos_sensitivity'" in doc["claims"][0]["new"]["reason"]


def test_two_profiles_and_refusals(repo, cli):
    result = repo / "results/single-layer-lsa/paper.json"
    quick = result.with_name("quick.json")
    text = json.loads(result.read_text())
    text["profile"] = "quick"
    quick.write_text(json.dumps(text))
    code, out, _ = cli("diff", "--profile", "paper", "--profile", "quick", "--all")
    assert code == 0 and "ARXIV-2212.07677#F1  not reproduced" in out
    assert "changed from working tree (paper) to working tree (quick)" in out
    code, _, err = cli("diff", "no-such-rev")
    assert code == 2 and "'no-such-rev' is not a commit" in err
    code, _, err = cli("diff", "A", "B", "C")
    assert code == 2 and "at most two revisions" in err
