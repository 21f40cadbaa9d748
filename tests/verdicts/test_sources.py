"""Expectations say where they come from, and a paper's claim is judged on what the paper states.

Each expectation of a paper's (literature record's) claim names its source: the
paper, the official code, or litrec's extension. The claim's verdict rests on the
first two; extensions are judged beside it, in a row of their own (`REF+ext`), and
never turn the claim into *not reproduced*. Whether an expectation was committed
before the first result it judges (pre-registered) or after (post hoc) is worked
out from git history, and every surface marks a post-hoc criterion.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time

import pytest

from tests.support.seeds_toy import claim, litrec, site_pages, status, write_claims, write_project

PAPER = ("source: {kind: paper, where: Table 1, quote: the trained loss is below 0.2, "
         "threshold: paper}")
OFFICIAL = "source: {kind: official, file: src/train.py, line: 12, threshold: official}"
EXTENSION = "source: {kind: extension, reason: litrec's stricter test}"
# the toy's trained loss is about 0.1 at every seed: `< 0.2` holds, `< 0.05` fails
HOLDS = "{metric: loss_trained, op: '<', value: 0.2, " + PAPER + "}"
ALSO = "{metric: loss_trained, op: '<', ref: loss_gd, " + OFFICIAL + "}"
STRICT = "{metric: loss_trained, op: '<', value: 0.05, " + EXTENSION + "}"


def _git(root, *args, when: str | None = None) -> str:
    env = {**({"GIT_COMMITTER_DATE": when, "GIT_AUTHOR_DATE": when} if when else {}),"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org", "HOME": str(root),
           "PATH": "/usr/bin:/bin:/usr/local/bin"}
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                          text=True, env=env).stdout


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    root = write_project(tmp_path_factory.mktemp("sources"), claim("F1", HOLDS, ALSO, STRICT))
    assert litrec("run", "--profile", "quick", "--allow-not-reproduced", cwd=root).returncode == 0
    return root


def test_an_extension_that_fails_leaves_the_claims_verdict_alone(ran):
    code, rows = status(ran)
    assert code == 0
    assert rows["F1"]["verdict"] == "reproduced" and rows["F1"]["extension_of"] is None
    assert [o["expectation"] for o in rows["F1"]["outcomes"]] == [
        "loss_trained < 0.2", "loss_trained < loss_gd"]
    ext = rows["F1+ext"]
    assert ext["verdict"] == "not reproduced" and ext["extension_of"] == "ARXIV-0000.00003#F1"
    assert [o["expectation"] for o in ext["outcomes"]] == ["loss_trained < 0.05"]
    assert ext["outcomes"][0]["source"] == {"kind": "extension", "reason": "litrec's stricter test"}
    assert rows["F1"]["outcomes"][1]["source"] == {"kind": "official", "file": "src/train.py",
                                                   "line": 12, "threshold": "official"}


def test_the_extension_row_is_shown_beside_the_claim(ran, tmp_path):
    out = litrec("status", "--profile", "quick", cwd=ran).stdout
    lines = [ln for ln in out.splitlines() if ln.startswith("ARXIV-")]  # the rows, after the summary
    assert lines[0].startswith("ARXIV-0000.00003#F1 ") and "reproduced" in lines[0]
    assert lines[1].startswith("ARXIV-0000.00003#F1+ext") and "not reproduced" in lines[1]
    summary = ("1 claim of ARXIV-0000.00003: 1 reproduced; 1 extension beside them: 1 not "
               "reproduced (profile quick)")
    assert summary in out and out.index(summary) < out.index(lines[0])
    doc = json.loads(litrec("export", "json", "--profile", "quick", cwd=ran).stdout)
    (c,) = doc["claims"]
    assert c["verdict"] == "reproduced" and c["extension"]["verdict"] == "not reproduced"
    tex = litrec("export", "tex", "--profile", "quick", cwd=ran).stdout
    assert "FOneExtQuickVerdict}{not reproduced}" in tex and "FOneQuickVerdict}{reproduced}" in tex
    page = site_pages(ran)["records/ARXIV-0000.00003.md"]
    assert "litrec's extensions" in page and "litrec&#x27;s stricter test" in page or \
        "litrec's stricter test" in page


@pytest.fixture(scope="module")
def apart(tmp_path_factory):
    """One run of three claims, each judged on its own: F1 checked by an extension alone, F2 by
    the paper's criterion and an extension's precondition, F3 by a criterion of each source,
    litrec's threshold among them (its reason in record text to escape)."""
    pre = ("{metric: baseline_drop, op: '>', value: 0.9, precondition: true, "
           + EXTENSION + "}")
    ours = ("{metric: loss_trained, op: '<', value: 0.15, source: {kind: paper, where: Table 1, "
            "quote: the trained loss is below 0.2, threshold: litrec, "
            "threshold_reason: a margin <over> 0.1}}")
    root = write_project(tmp_path_factory.mktemp("apart"), claim("F1", STRICT), claim("F2", HOLDS, pre),
                         claim("F3", HOLDS, ALSO, ours, STRICT))
    assert litrec("run", "--profile", "quick", "--allow-not-reproduced", cwd=root).returncode == 0
    return root


def test_status_and_the_site_say_whose_each_threshold_is(apart):
    """The paper's, the official code's, or litrec's with its reason: on `status --verbose` and in
    the claim's expectation table on its page (record text escaped)."""
    root = apart
    text = " ".join(litrec("status", "--profile", "quick", "--verbose", cwd=root,
                           env={"COLUMNS": "400"}).stdout.split())
    assert "“the trained loss is below 0.2”; threshold: the paper's;" in text
    assert "official code, src/train.py:12; threshold: the official code's;" in text
    assert "threshold: litrec's (a margin <over> 0.1)" in text
    assert "litrec's extension: litrec's stricter test; threshold: litrec's;" in text
    page = site_pages(root)["records/ARXIV-0000.00003.md"]
    assert "threshold: the paper&#x27;s" in page and "threshold: the official code&#x27;s" in page
    assert "threshold: litrec&#x27;s (a margin &lt;over&gt; 0.1)" in page
    assert "a margin <over>" not in page


def test_quotes_left_unchecked_are_said_by_validate_not_by_the_site(tmp_path):
    """The paper's text is git-ignored: whether it is there is the machine's, not the records'."""
    root = write_project(tmp_path, claim("F1", HOLDS))
    rec = root / "records" / "literature" / "ARXIV-0000.00003.yaml"
    rec.write_text(rec.read_text().replace("title: A toy paper\n",
                                           "title: A toy paper\ntext: texts/toy.txt\n"))
    proc = litrec("validate", cwd=root)
    assert proc.returncode == 0 and "1 quote of ARXIV-0000.00003's paper sources not checked" in proc.stdout
    assert "not checked" not in site_pages(root)["index.md"]


def test_a_claim_whose_only_expectations_are_extensions_is_not_judged_on_them(apart):
    _, rows = status(apart)
    assert rows["F1"]["verdict"] == "unchecked" and "extension" in rows["F1"]["reason"]
    assert rows["F1+ext"]["verdict"] == "not reproduced"


def test_a_precondition_stays_with_the_claim_whatever_its_source(apart):
    _, rows = status(apart)
    assert rows["F2"]["verdict"] == "inconclusive" and "precondition failed" in rows["F2"]["reason"]
    assert "F2+ext" not in rows


def test_validate_refuses_a_papers_expectation_without_a_source(tmp_path):
    root = write_project(tmp_path, claim("F1", HOLDS, "{metric: loss_trained, op: '<', value: 0.3}"))
    proc = litrec("validate", cwd=root)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr + proc.stdout
    text = proc.stdout + proc.stderr
    assert "records/literature/ARXIV-0000.00003.yaml:" in text
    assert "claims[0].check.expect[1]: expectation 'loss_trained < 0.3' of ARXIV-0000.00003#F1 " \
           "has no source" in text
    assert "{kind: extension, reason:" in text  # the fix


def test_a_note_needs_no_source(tmp_path):
    root = write_project(tmp_path, claim("F1", HOLDS))
    (root / "records" / "notes").mkdir(parents=True)
    (root / "records" / "notes" / "NOTE-1.yaml").write_text(
        "id: NOTE-1\nkind: note\ntitle: A note\nclaims:\n  - id: C1\n    kind: observation\n"
        "    title: t\n    statement: s\n    check:\n      analysis: toy\n      expect:\n"
        "        - {metric: loss_trained, op: '<', value: 0.3}\n")
    assert litrec("validate", cwd=root).returncode == 0


@pytest.mark.parametrize("source, needle", [
    ("{kind: paper, states: x}", "where"),
    ("{kind: paper, where: Fig. 1, threshold: paper}", "add quote: the paper's own words at Fig. 1"),
    ("{kind: official, file: a.py, threshold: official}", "line"),
    ("{kind: extension}", "reason"),
    ("{kind: extension, reason: r, file: a.py}", "file and line to kind official"),
    ("{kind: code, where: x}", "paper"),
])
def test_an_incomplete_source_is_a_located_error(tmp_path, source, needle):
    root = write_project(tmp_path, claim("F1", "{metric: loss_trained, op: '<', value: 0.2, "
                                               f"source: {source}}}"))
    proc = litrec("validate", cwd=root)
    text = proc.stdout + proc.stderr
    assert proc.returncode == 1 and "Traceback" not in text
    assert "ARXIV-0000.00003.yaml:" in text and "claims[0].check.expect[0].source" in text
    assert needle in text


def test_a_reworded_note_or_a_new_source_is_no_changed_expectation(tmp_path):
    root = write_project(tmp_path, claim("F1", HOLDS))
    litrec("run", "--profile", "quick", cwd=root)
    reworded = HOLDS.replace(PAPER, "note: a new note, source: {kind: paper, where: Fig. 2, "
                                    "quote: other words, threshold: litrec, threshold_reason: why}")
    write_claims(root, claim("F1", reworded))
    _, rows = status(root)
    assert rows["F1"]["verdict"] == "reproduced" and not rows["F1"]["expectation_changed"]
    write_claims(root, claim("F1", HOLDS.replace("0.2", "0.25")))  # the criterion itself
    _, rows = status(root)
    assert rows["F1"]["verdict"] == "expectation changed"


@pytest.mark.skipif(shutil.which("git") is None, reason="no git on this machine")
def test_registration_is_read_from_history_and_a_post_hoc_criterion_is_marked(tmp_path):
    """Committed before the run: pre-registered. Rewritten after the run (and the result
    committed with it): post hoc, on every surface, even once rerun."""
    root = write_project(tmp_path, claim("F1", HOLDS))
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "the expectation, before any result")
    litrec("run", "--profile", "quick", cwd=root)
    _, rows = status(root)
    (o,) = rows["F1"]["outcomes"]
    assert o["registration"]["state"] == "pre-registered" and rows["F1"]["post_hoc"] == []
    assert o["registration"]["commit"] == _git(root, "rev-parse", "HEAD").strip()

    moved = HOLDS.replace("0.2", "0.15")
    write_claims(root, claim("F1", moved))
    _, rows = status(root)
    assert rows["F1"]["outcomes"][0]["registration"]["state"] == "uncommitted"
    time.sleep(1.1)  # git and the result keep whole seconds: a tie is the next test's
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "the threshold moved after seeing the result")
    assert litrec("run", "--profile", "quick", "--force", cwd=root).returncode == 0
    _, rows = status(root)
    (o,) = rows["F1"]["outcomes"]
    assert rows["F1"]["verdict"] == "reproduced"  # the verdict stands; the mark says how it came
    assert o["registration"]["state"] == "post hoc"
    assert o["registration"]["first_result"] < o["registration"]["committed"]
    assert rows["F1"]["post_hoc"] == ["loss_trained < 0.15"]
    text = litrec("status", "--profile", "quick", "--verbose", cwd=root).stdout
    assert "post hoc: loss_trained < 0.15" in text and "POST HOC (committed" in text
    doc = json.loads(litrec("export", "json", "--profile", "quick", cwd=root).stdout)
    assert doc["claims"][0]["post_hoc"] == ["loss_trained < 0.15"]
    assert doc["claims"][0]["outcomes"][0]["registration"]["state"] == "post hoc"
    tex = litrec("export", "tex", "--profile", "quick", cwd=root).stdout
    assert "FOneQuickRegistration}{post hoc: 1 of 1 criteria; 1 event: tightened" in tex
    assert "(post hoc)}" in tex
    page = site_pages(root)["records/ARXIV-0000.00003.md"]
    assert "lr-r-post-hoc" in page
    # a criterion restored to what was committed before the first result is pre-registered again
    write_claims(root, claim("F1", HOLDS))
    _git(root, "commit", "-q", "-am", "back")
    _, rows = status(root)
    assert rows["F1"]["outcomes"][0]["registration"]["state"] == "post hoc"  # re-added: a new run of it


@pytest.mark.skipif(shutil.which("git") is None, reason="no git on this machine")
@pytest.mark.slow
def test_a_kept_answer_follows_the_commit(tmp_path):
    """A run with nothing to run keeps its answer; committing changes registrations, so the kept
    answer is not reused across commits: cached equals uncached."""
    root = write_project(tmp_path, claim("F1", HOLDS))
    _git(root, "init", "-q", "-b", "main")
    litrec("run", "--profile", "quick", cwd=root)
    first = json.loads(litrec("run", "--profile", "quick", "--format", "json", cwd=root).stdout)
    assert first["claims"][0]["outcomes"][0]["registration"]["state"] == "uncommitted"
    time.sleep(1.1)  # git and the result keep whole seconds: a commit in the run's second is a tie
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "records and result together")
    cached = json.loads(litrec("run", "--profile", "quick", "--format", "json", cwd=root).stdout)
    fresh = json.loads(litrec("run", "--profile", "quick", "--format", "json", "--no-cache",
                              cwd=root).stdout)
    assert cached["claims"] == fresh["claims"]
    assert cached["claims"][0]["outcomes"][0]["registration"]["state"] == "post hoc"


@pytest.mark.skipif(shutil.which("git") is None, reason="no git on this machine")
def test_a_criterion_committed_in_the_first_results_second_is_judged_by_the_runs_commit(tmp_path):
    """Git and results keep whole seconds. A threshold moved and committed in the very second the
    first result started (the commit's date set to it) is post hoc: that result ran from a commit
    without it, an ancestor of the threshold's; ancestry decides, not the tie of seconds."""
    root = write_project(tmp_path, claim("F1", HOLDS))
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "the expectation, before any result")
    litrec("run", "--profile", "quick", cwd=root)
    assert status(root)[1]["F1"]["outcomes"][0]["registration"]["state"] == "pre-registered"
    started = json.loads((root / "results/toy/quick.json").read_text())["started"]
    write_claims(root, claim("F1", HOLDS.replace("0.2", "0.15")))
    _git(root, "commit", "-q", "-am", "moved in the result's second", when=started)
    _, rows = status(root)
    (o,) = rows["F1"]["outcomes"]
    assert o["registration"]["committed"][:19] == started[:19]  # dated in the result's second
    assert o["registration"]["state"] == "post hoc" and "ancestor" in o["registration"]["why"]
