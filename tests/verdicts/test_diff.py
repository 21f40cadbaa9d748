"""`litrec diff`: what changed between the stored results of two commits of a temporary git
repository, of HEAD and the working tree, or of two profiles."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.support.results import GOOD, sealed_result

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="no git on this machine")


def _git(root, *args):
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
                        "HOME": str(root), "PATH": "/usr/bin:/bin:/usr/local/bin"})


def _f1(project, loss_trained: float) -> None:
    sealed_result(project, "single-layer-lsa", [{**GOOD, "loss_trained": loss_trained},
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
    assert "    expectation changed: cos_sensitivity > 0.99 → cos_sensitivity > 0.995" in out


def test_an_expectation_edited_since_the_run_is_a_change(repo, cli):
    """Status says *expectation changed*; diff shows the edit, the old criterion and the new."""
    lit = repo / "records/literature/ARXIV-2212.07677.yaml"
    lit.write_text(lit.read_text().replace("{metric: cos_sensitivity, op: \">\", value: 0.99",
                                           "{metric: cos_sensitivity, op: \">\", value: 0.995"))
    assert "expectation changed" in cli("status", "--profile", "paper")[1]
    code, out, _ = cli("diff")
    assert code == 0
    assert "ARXIV-2212.07677#F1  not reproduced" in out
    assert "    expectation changed since the run, not yet run: cos_sensitivity > 0.99 → " \
           "cos_sensitivity > 0.995" in out
    assert out.splitlines()[-1].startswith("1 of 6 checked claims changed")
    doc = json.loads(cli("diff", "--format", "json")[1])
    (claim,) = doc["claims"]
    assert claim["new"]["edited"] == [{"old": "cos_sensitivity > 0.99",
                                       "new": "cos_sensitivity > 0.995"}]
    assert claim["changed"] == ["expectation changed since the run, not yet run: "
                                "cos_sensitivity > 0.99 → cos_sensitivity > 0.995"]


def test_an_expectation_added_or_removed_since_the_run_is_named_as_such(repo, cli):
    lit = repo / "records/literature/ARXIV-2212.07677.yaml"
    text = lit.read_text()
    line = next(ln for ln in text.splitlines() if "{metric: pred_diff," in ln)
    lit.write_text(text.replace(line + "\n", ""))  # pred_diff's criterion removed
    out = cli("diff")[1]
    assert "    expectation changed since the run, not yet run: removed: pred_diff < 0.05" in out
    doc = json.loads(cli("diff", "--format", "json")[1])
    assert doc["claims"][0]["new"]["edited"] == [{"old": "pred_diff < 0.05", "new": None}]


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


def _without_stored_expectations(project, metrics: list[dict]) -> None:
    """A sealed result as litrec wrote them before results kept their expectations."""
    sealed_result(project, "single-layer-lsa", metrics)  # store=False: no "expectations" key


def test_an_old_result_without_stored_expectations_says_so_in_words(project, cli):
    _git(project, "init", "-q", "-b", "main")
    no_cos = {k: v for k, v in GOOD.items() if k != "cos_sensitivity"}
    _without_stored_expectations(project, [no_cos, no_cos])  # and without a metric F1 names now
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "old")
    _f1(project, 0.2)
    code, out, _ = cli("diff", "HEAD")
    assert code == 0 and "error" not in out, out
    assert "ARXIV-2212.07677#F1  no stored expectations → reproduced" in out
    assert ("    old side: the result stored no expectations (it was written before results kept "
            "them) and has no metric 'cos_sensitivity', which the claim's expectations now name; "
            "nothing to compare on this side") in out
    doc = json.loads(cli("diff", "HEAD", "--format", "json")[1])
    old = doc["claims"][0]["old"]
    assert old["verdict"] == "no stored expectations" and "no metric 'cos_sensitivity'" in old["reason"]
    # one that has every metric is judged against today's expectations, and says so
    _without_stored_expectations(project, [GOOD, GOOD])
    _git(project, "commit", "-q", "-am", "old, every metric")
    _f1(project, 0.5)
    out = cli("diff", "HEAD")[1]
    assert "ARXIV-2212.07677#F1  reproduced → not reproduced" in out
    assert ("    old side: the result stored no expectations (it was written before results kept "
            "them): judged against the claim's expectations now") in out


def test_every_error_and_missing_side_says_why(repo, cli):
    result = repo / "results/single-layer-lsa/paper.json"
    doc = json.loads(result.read_text())
    for p in doc["points"]:
        p["metrics"]["model_diff"] = "large"  # a text where a number is compared: refused
    result.write_text(json.dumps(doc))
    out = cli("diff")[1]
    assert "ARXIV-2212.07677#F1  not reproduced → error" in out
    assert "    new side: model_diff: " in out and "; not judged" in out
    claim = json.loads(cli("diff", "--format", "json")[1])["claims"][0]
    assert claim["new"]["reason"].startswith("model_diff: ")
    result.unlink()
    out = cli("diff")[1]
    assert "ARXIV-2212.07677#F1  not reproduced → missing" in out
    assert "    new side: no readable result at " in out and "single-layer-lsa/paper.json" in out
    for claim in json.loads(cli("diff", "--all", "--format", "json")[1])["claims"]:
        for side in (claim["old"], claim["new"]):
            assert side["verdict"] not in ("error", "missing") or side["reason"], claim


def test_a_working_tree_result_not_current_is_said_so(repo, cli):
    """A verdict moved by a result whose code changed since it ran is not shown as current: the
    claim says its side is stale, and the summary names the result (JSON: `not_current`)."""
    _f1(repo, 0.2)  # the working tree's F1 reproduces again ...
    module = repo / "analysis" / "single_layer.py"
    module.write_text(module.read_text() + "# edited after the run\n")  # ... but its code moved since
    code, out, _ = cli("diff")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "ARXIV-2212.07677#F1  not reproduced → reproduced"
    assert ("    new side: stale: its last run's numbers, not current (litrec status says why)"
            in lines)
    assert not any(ln.startswith("    old side: stale") for ln in lines)  # HEAD: as it stored it
    assert lines[-1] == ("working tree (paper): 1 result not current, judged on their last run's "
                         "numbers: single-layer-lsa (stale) (litrec status says why)")
    doc = json.loads(cli("diff", "--format", "json")[1])
    (claim,) = doc["claims"]
    assert claim["new"]["state"] == "stale" and "code changed" in claim["new"]["state_reason"]
    assert claim["old"]["state"] is None and doc["old"]["not_current"] == {}
    assert doc["new"]["not_current"]["single-layer-lsa"]["state"] == "stale"
    module.write_text(module.read_text().replace("# edited after the run\n", ""))
    assert "not current" not in cli("diff")[1]  # current again: nothing said


def test_each_metric_both_sides_measured_has_its_change_and_percent(repo, cli):
    code, out, _ = cli("diff", "HEAD~1", "HEAD")
    line = next(ln for ln in out.splitlines() if ln.startswith("    loss_trained ≈ loss_gd"))
    assert code == 0 and line.endswith("→ 0.5002 [0.4971, 0.5034], change +0.3001 (+150%)"), line
    doc = json.loads(cli("diff", "HEAD~1", "HEAD", "--format", "json")[1])
    metrics = {m["metric"]: m for m in doc["claims"][0]["metrics"]}
    lt = metrics["loss_trained"]
    assert (lt["old"], lt["new"], lt["old_n"], lt["new_n"]) == (0.2001, 0.50025, 2, 2)
    assert lt["change"] == pytest.approx(0.30015) and lt["percent"] == pytest.approx(150.0, abs=0.01)
    assert metrics["cos_sensitivity"]["change"] == 0 and metrics["cos_sensitivity"]["percent"] == 0
    assert metrics["ood.max_rel_gap"]["old"] == 0.01  # every metric both sides have, changed or not


def test_diff_as_csv_and_markdown_a_row_per_metric_that_changed(repo, cli):
    import csv
    import io

    code, out, _ = cli("diff", "HEAD~1", "HEAD", "--format", "csv")
    rows = list(csv.reader(io.StringIO(out, newline="")))
    assert code == 0 and rows[0] == ["claim", "verdict", "metric", "old", "new", "change", "change %"]
    (row,) = rows[1:]
    assert row[:5] == ["ARXIV-2212.07677#F1", "reproduced → not reproduced", "loss_trained", "0.2001",
                       "0.50025"]
    assert float(row[5]) == pytest.approx(0.30015) and row[5].startswith("+")
    code, out, _ = cli("diff", "HEAD~1", "HEAD", "--format", "md")
    assert out.splitlines()[2] == ("| ARXIV-2212.07677#F1 | reproduced → not reproduced | loss_trained "
                                   "| 0.2001 | 0.5002 | +0.3001 | +150 |")
    code, out, _ = cli("diff", "HEAD~1", "HEAD", "--format", "md", "--all")
    assert "| ARXIV-2212.07677#F1 | reproduced → not reproduced | cos_sensitivity | 0.999 | 0.999 | +0 | +0 |" in out
    assert "| NOTE-621#C1 | missing |  |  |  |  |  |" in out  # no numbers on either side: the verdict alone


def test_a_change_from_zero_or_of_a_boolean_has_no_percent():
    from litrec.verdicts.change import change_of, change_words, metric_changes

    assert change_of(0.0, 0.5) == (0.5, None) and change_words(0.0, 0.5) == ", change +0.5"
    assert change_of(True, False) == (None, None) and change_words(True, False) == ""
    assert change_of(float("nan"), 1.0) == (None, None)
    assert change_of(-2.0, -1.0) == (1.0, 50.0)  # in percent of the old value's magnitude
    old = [{"metric": "x", "mean": 2.0, "n": 3}]
    new = [{"metric": "x", "mean": 3.0, "n": 5}, {"metric": "x", "mean": 3.0, "n": 5},
           {"metric": "y", "mean": 1.0, "n": 5}]
    assert metric_changes(old, new) == [{"metric": "x", "old": 2.0, "new": 3.0, "old_n": 3, "new_n": 5,
                                         "change": 1.0, "percent": 50.0}]
