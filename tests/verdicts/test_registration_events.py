"""Registration is proven by ancestry and the committed ledgers, and every change after a look
is an event.

Each test builds a toy project in a temporary git repository and does to it what a researcher,
or a careless co-author, might: set a threshold after a quick look, backdate a commit, fold a
new threshold into the claim's first commit with a rebase, judge on a side branch, relabel a
source, change a setting, move a failing criterion to the extension row, add seeds after an
inconclusive judgement. None of these may read *pre-registered*.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.files import write
from tests.support.seeds_toy import TOY, claim, litrec, site_pages, status, write_claims, write_project

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="no git on this machine")

SRC = "source: {kind: official, file: toy.py, line: 1, threshold: official}"
EXT = "source: {kind: extension, reason: litrec's stricter test}"
# the toy's trained loss is about 0.1 at every seed (quick: ±0.01 over seeds 0, 1, 2)
HOLDS = "{metric: loss_trained, op: '<', value: 0.2, " + SRC + "}"
TIGHT = "{metric: loss_trained, op: '<', value: 0.15, " + SRC + "}"
FAILS = "{metric: loss_trained, op: '<', value: 0.05, " + SRC + "}"
UNSURE = "{metric: loss_trained, op: '<', value: 0.1, " + SRC + "}"
IGNORE = "results/*/quick.json\nresults/*/quick/\nresults/*/*.partial/\n.litrec-cache/\n"


def git(root: Path, *args: str, when: str | None = None, env: dict | None = None) -> str:
    dates = {"GIT_COMMITTER_DATE": when, "GIT_AUTHOR_DATE": when} if when else {}
    full = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.org", "HOME": str(root),
            "PATH": "/usr/bin:/bin:/usr/local/bin", **dates, **(env or {})}
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                          text=True, env=full).stdout


def repo(root: Path, *expect: str) -> Path:
    """The toy project with claim F1 (`expect`), committed; the quick ledger is tracked (as the
    project's own .gitignore leaves it), the quick results are not."""
    write_project(root, claim("F1", *expect))
    write(root, ".gitignore", IGNORE)
    git(root, "init", "-q", "-b", "main")
    commit(root, "the claim, before any result")
    return root


def commit(root: Path, message: str, when: str | None = None) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message, when=when)


def run(root: Path, *extra: str, profile: str = "quick") -> None:
    proc = litrec("run", "--profile", profile, "--allow-not-reproduced", *extra, cwd=root)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr


def row(root: Path, profile: str = "quick", claim_id: str = "F1") -> dict:
    return status(root, profile=profile)[1][claim_id]


def states(r: dict) -> list[str]:
    return [o["registration"]["state"] for o in r["outcomes"]]


def kinds(r: dict) -> list[str]:
    return [e["kind"] for e in r["events"]]


def test_a_threshold_set_after_a_quick_judgement_reads_post_hoc_after_a_fresh_clone(tmp_path):
    """The quick run is uncommitted, but its judgement is in the committed quick ledger: a clone
    that has only git still knows the threshold came after it, and says the event."""
    root = repo(tmp_path / "a", HOLDS)
    run(root)
    assert states(row(root)) == ["pre-registered"] and row(root)["how"] == "pre-registered"
    commit(root, "the quick ledger")
    time.sleep(1.1)
    write_claims(root, claim("F1", TIGHT))
    commit(root, "tightened after a quick look")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(root), str(clone)], check=True)
    assert not (clone / "results/toy/quick.json").exists()
    run(clone)
    r = row(clone)
    assert states(r) == ["post hoc"]
    assert r["outcomes"][0]["registration"]["seen"].startswith("reproduced at quick")
    assert kinds(r) == ["tightened"] and "loss_trained < 0.2 → loss_trained < 0.15" in r["events"][0]["text"]
    assert r["how"].startswith("post hoc: 1 of 1 criteria; 1 event: tightened")
    tex = litrec("export", "tex", "--profile", "quick", cwd=clone).stdout
    assert "QuickRegistration}{post hoc" in tex and "pre-registered" not in tex
    said = litrec("diff", "HEAD~1", "--profile", "quick", cwd=clone).stdout
    assert "1 event of its protocol between the sides" in said and "tightened: loss_trained < 0.2" in said
    doc = json.loads(litrec("diff", "HEAD~1", "--profile", "quick", "--format", "json", cwd=clone).stdout)
    assert [e["kind"] for e in doc["events"]["ARXIV-0000.00003#F1"]] == ["tightened"]
    assert litrec("diff", "HEAD", "--profile", "quick", "--format", "json", cwd=clone).stdout.count('"tightened"') == 0
    pages = site_pages(clone)
    assert "1 event of its protocol" in pages["index.md"] and "lr-r-post-hoc" in pages["index.md"]
    page = pages["records/ARXIV-0000.00003.md"]
    assert "Events of its protocol" in page and "tightened: loss_trained &lt; 0.2 → loss_trained &lt; 0.15" in page


@pytest.mark.slow
def test_a_backdated_commit_is_post_hoc_by_ancestry_and_its_date_is_reported(tmp_path):
    root = repo(tmp_path, HOLDS)
    run(root)
    commit(root, "the result's judgement")
    write_claims(root, claim("F1", TIGHT))
    commit(root, "tightened, backdated", when="2001-01-01T00:00:00+00:00")
    run(root, "--force")
    reg = row(root)["outcomes"][0]["registration"]
    assert reg["state"] == "post hoc" and "ancestor" in reg["why"]
    assert "contradicts its ancestry" in reg["contradiction"]


@pytest.mark.slow
def test_a_rebase_that_folds_a_threshold_into_the_first_commit_cannot_erase_the_ledger(tmp_path):
    """`git rebase --autosquash --committer-date-is-author-date`: the tightened threshold now
    sits in the claim's first commit, dated before every run; the committed ledger still holds
    the judgement under the old threshold, from a commit no branch holds any more."""
    root = repo(tmp_path, HOLDS)
    first = git(root, "rev-parse", "HEAD").strip()
    run(root)
    commit(root, "the result's judgement")
    write_claims(root, claim("F1", TIGHT))
    git(root, "commit", "-q", "-am", f"fixup! {git(root, 'log', '-1', '--format=%s', first).strip()}")
    git(root, "rebase", "-q", "-i", "--autosquash", "--committer-date-is-author-date", "--root",
        env={"GIT_SEQUENCE_EDITOR": "true", "GIT_EDITOR": "true"})
    assert "0.15" in git(root, "show", "HEAD~1:records/literature/ARXIV-0000.00003.yaml")
    run(root, "--force")
    reg = row(root)["outcomes"][0]["registration"]
    assert reg["state"] == "post hoc" and "earlier form: loss_trained < 0.2" in reg["why"]


@pytest.mark.slow
def test_a_result_on_a_side_branch_counts(tmp_path):
    """Judged on a side branch (its own commit, its ledger committed there only); the threshold
    then moved on main: main's working tree has no ledger entry, git has."""
    root = repo(tmp_path, HOLDS)
    git(root, "checkout", "-q", "-b", "side")
    write(root, "notes.txt", "a side commit\n")
    commit(root, "side work")
    run(root)
    commit(root, "judged on the side branch")
    git(root, "checkout", "-q", "main")
    assert not (root / "results/toy/quick.history.jsonl").exists()
    time.sleep(1.1)
    write_claims(root, claim("F1", TIGHT))
    commit(root, "tightened on main")
    run(root)
    reg = row(root)["outcomes"][0]["registration"]
    assert reg["state"] == "post hoc" and "outside this branch" in reg["why"]


@pytest.mark.slow
def test_a_relabelled_source_is_an_expectation_changed_never_a_quiet_flip(tmp_path):
    """A failing paper criterion relabelled `extension` leaves the claim's row: with no rerun
    the claim reads *expectation changed*, never *reproduced*; rerun, the criterion is post hoc
    in its new row and the move is an event."""
    root = repo(tmp_path, HOLDS, FAILS)
    run(root)
    commit(root, "judged: not reproduced")
    assert row(root)["verdict"] == "not reproduced"
    write_claims(root, claim("F1", HOLDS, FAILS.replace(SRC, EXT)))
    commit(root, "relabelled")
    assert row(root)["verdict"] == "expectation changed"
    run(root, "--force")
    r, ext = row(root), row(root, claim_id="F1+ext")
    assert r["verdict"] == "reproduced" and states(ext) == ["post hoc"]
    assert "moved to extension" in kinds(r)
    assert r["through"] == ("reproduced after loss_trained < 0.05 moved to the extension row after "
                            "it failed; before: not reproduced at quick")
    assert "moved to the extension row after it failed" in r["how"]


@pytest.mark.slow
def test_a_setting_changed_after_a_judged_result_is_an_event_though_no_criterion_moved(tmp_path):
    root = repo(tmp_path, UNSURE)
    run(root)
    commit(root, "judged")
    before = row(root)["verdict"]
    write(root, "analysis/toy.py", TOY.replace('"quick": Config()', '"quick": Config(wiggle=0.001)'))
    commit(root, "a smaller wiggle")
    run(root)
    r = row(root)
    assert states(r) == ["pre-registered"] and kinds(r) == ["settings changed"]
    assert "settings changed at quick" in r["events"][0]["text"] and "wiggle 0.01 → 0.001" in r["events"][0]["text"]
    assert r["how"] != "pre-registered"
    if r["verdict"] != before:
        assert r["through"].startswith(f"{r['verdict']} after the experiment changed (wiggle)")


@pytest.mark.slow
def test_seeds_added_after_an_inconclusive_judgement_are_marked(tmp_path):
    root = repo(tmp_path, UNSURE)
    run(root)
    assert row(root)["verdict"] == "inconclusive"
    commit(root, "inconclusive on three seeds")
    write(root, "analysis/toy.py", TOY.replace('"quick": (0, 1, 2)', '"quick": (0, 1, 2, 3, 4, 5)'))
    commit(root, "three more seeds")
    run(root)
    r = row(root)
    assert r["seeds_after_looking"] and kinds(r) == ["seeds added"]
    assert "seeds added after looking at quick" in r["events"][0]["text"] and "3 → 6 seeds" in r["events"][0]["text"]
    text = " ".join(litrec("status", "--profile", "quick", cwd=root).stdout.split())  # unwrapped
    assert "seeds added after looking (optional stopping)" in text
    doc = json.loads(litrec("export", "json", "--profile", "quick", cwd=root).stdout)
    assert doc["claims"][0]["seeds_after_looking"] is True


@pytest.mark.slow
def test_a_criterion_set_after_a_judgement_at_another_scale_is_post_hoc(tmp_path):
    root = repo(tmp_path, HOLDS)
    run(root, profile="paper")
    commit(root, "judged at paper")
    time.sleep(1.1)
    write_claims(root, claim("F1", TIGHT))
    commit(root, "tightened")
    run(root)
    reg = row(root)["outcomes"][0]["registration"]
    assert reg["state"] == "post hoc" and reg["seen"].startswith("reproduced at paper")


def test_a_source_written_before_litrec_asked_for_more_is_no_event(tmp_path):
    """A record committed when sources needed no `threshold` (today's litrec refuses it) keeps
    its criteria in history: filling in the source later is prose, no criterion removed or added."""
    old = HOLDS.replace(", threshold: official", "")
    root = repo(tmp_path, old)
    write_claims(root, claim("F1", HOLDS))
    commit(root, "the source says whose the threshold is")
    run(root)
    r = row(root)
    assert r["events"] == [] and states(r) == ["pre-registered"]
    assert r["outcomes"][0]["registration"]["commit"] == git(root, "rev-list", "--max-parents=0", "HEAD").strip()


def test_a_scale_the_claims_analysis_lacks_is_not_judged_and_no_hint_names_it(tmp_path):
    """Two papers' analyses, one with a `paper_full` profile and one without: at `paper_full`
    the other's claim is unchecked, says why, and passes --check-current; the hint printed for
    the claim that lacks a result is a command that works."""
    root = write_project(tmp_path, claim("F1", HOLDS))
    big = TOY.replace('"paper": Config(wiggle=0.002)}', '"paper": Config(wiggle=0.002), "paper_full": Config()}')
    big = big.replace('"paper": (0, 1, 2)}', '"paper": (0, 1, 2), "paper_full": (0, 1)}')
    write(root, "analysis/big.py", big)
    write(root, "analysis/registry.yaml", "toy:\n  module: toy\n  title: Toy\nbig:\n  module: big\n  title: Big\n")
    write(root, "records/literature/ARXIV-0000.00004.yaml",
          "id: ARXIV-0000.00004\nkind: literature\ntitle: Another paper\nclaims:\n"
          + "".join("  " + line + "\n" for line in claim("G1", HOLDS).replace("analysis: toy", "analysis: big")
                    .splitlines()))
    code, rows = status(root, profile="paper_full")
    assert rows["F1"]["verdict"] == "unchecked" and "has no profile 'paper_full'" in rows["F1"]["reason"]
    assert rows["G1"]["verdict"] == "missing"
    text = litrec("status", "--profile", "paper_full", cwd=root).stdout
    assert "ARXIV-0000.00003#F1 --profile paper_full" not in text
    hint = next(line for line in text.splitlines() if "litrec run ARXIV-0000.00004#G1" in line)
    command = hint[hint.index("litrec run"):].split(";")[0].split()
    assert litrec(*command[1:], cwd=root).returncode == 0
    assert status(root, profile="paper_full")[1]["G1"]["verdict"] == "reproduced"
    assert litrec("status", "--profile", "paper_full", "--check-current", cwd=root).returncode == 0
