"""A changed expectation is its own state until the analysis reruns: every surface says so, CI fails."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.support.seeds_toy import claim, litrec, site_pages, status, write_claims, write_project

# the toy's quick losses are 0.10126, 0.10346, 0.10189 (mean 0.1022)
BEFORE = claim("F1", '{metric: loss_trained, op: "<", value: 0.5, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}',
               '{metric: loss_trained, op: "<", ref: loss_gd, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}')
AFTER = claim("F1", '{metric: loss_trained, op: "<", value: 0.05, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}',
              '{metric: loss_trained, op: "<", ref: loss_gd, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}')
OTHER = claim("F2", '{metric: loss_trained, op: ">", value: 0.0, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}')


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    root = write_project(tmp_path_factory.mktemp("changed"), BEFORE, OTHER)
    proc = litrec("run", "--profile", "quick", "--jobs", "1", cwd=root)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return root


@pytest.fixture
def changed(ran, tmp_path):
    root = tmp_path / "copy"
    shutil.copytree(ran, root)
    write_claims(root, AFTER, OTHER)  # tightened after the run: 0.5 -> 0.05
    return root


def test_before_the_change_the_claim_is_judged_as_usual(ran):
    code, rows = status(ran, "--check-current")
    assert code == 0 and rows["F1"]["verdict"] == "reproduced"
    assert rows["F1"]["expectation_changed"] is False


def test_status_judges_against_the_stored_expectation_and_shows_the_new_beside(changed):
    code, rows = status(changed)
    f1 = rows["F1"]
    assert f1["verdict"] == "expectation changed"
    assert f1["stored_verdict"] == "reproduced" and f1["new_verdict"] == "not reproduced"
    stored = f1["stored_outcomes"]
    assert [o["expectation"] for o in stored] == ["loss_trained < 0.5", "loss_trained < loss_gd"]
    assert [o["decision"] for o in stored] == ["holds", "holds"]
    now = f1["outcomes"]
    assert now[0]["expectation"] == "loss_trained < 0.05" and now[0]["decision"] == "fails"
    assert now[0]["expectation_changed"] and now[0]["stored_expectation"] == "loss_trained < 0.5"
    assert not now[1]["expectation_changed"]
    assert f1["stored_expectations"] == ["loss_trained < 0.5", "loss_trained < loss_gd"]
    assert "litrec run toy --profile quick --force" in f1["reason"]
    assert rows["F2"]["verdict"] == "reproduced"


def test_check_current_exits_1_and_the_text_says_so(changed):
    proc = litrec("status", "--profile", "quick", "--check-current", cwd=changed)
    assert proc.returncode == 1
    assert "#F1 is expectation changed" in proc.stderr
    lines = proc.stdout.splitlines()
    row = next(ln for ln in lines if ln.startswith("ARXIV-0000.00003#F1"))
    assert "expectation changed" in row
    summary = next(ln for ln in lines if ln.startswith("2 claims of"))
    assert summary.startswith("2 claims of ARXIV-0000.00003: 1 reproduced, 1 expectation changed "
                              "(profile quick)")


def test_a_loosened_expectation_never_turns_into_reproduced(tmp_path):
    root = write_project(tmp_path / "loose", claim("F1", '{metric: loss_trained, op: "<", value: 0.099, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}'))
    assert litrec("run", "--profile", "quick", "--jobs", "1", cwd=root).returncode == 1  # mean 0.1022
    write_claims(root, claim("F1", '{metric: loss_trained, op: "<", value: 0.2, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}'))  # after the run
    code, rows = status(root, "--check-current")
    assert code == 1 and rows["F1"]["verdict"] == "expectation changed"
    assert rows["F1"]["stored_verdict"] == "not reproduced"
    assert rows["F1"]["new_verdict"] == "reproduced"


def test_export_json_says_so(changed, tmp_path):
    out = tmp_path / "graph.json"
    assert litrec("export", "json", "--profile", "quick", "--out", out, cwd=changed).returncode == 0
    claims = {c["id"]: c for c in json.loads(out.read_text())["claims"]}
    assert claims["F1"]["verdict"] == "expectation changed"
    assert claims["F1"]["stored_verdict"] == "reproduced"
    assert claims["F1"]["new_verdict"] == "not reproduced"


def test_the_dashboard_and_the_claim_page_say_so(changed):
    pages = site_pages(changed)
    home = pages["index.md"]
    assert "lr-v-expectation-changed" in home and "1 <span class=\"lr-badge lr-v-expectation-changed\"" in home
    page = next(v for k, v in pages.items() if "ARXIV-0000.00003" in k)
    assert "lr-v-expectation-changed" in page
    assert "Judged against the expectations stored with the result" in page
    assert "loss_trained &lt; 0.5" in page or "loss_trained < 0.5" in page
    assert "expectation changed after the run: was loss_trained &lt; 0.5" in page


def test_a_rerun_ends_the_state(changed):
    assert litrec("run", "--profile", "quick", "--force", "--jobs", "1", cwd=changed).returncode == 1
    code, rows = status(changed, "--check-current")
    assert rows["F1"]["verdict"] == "not reproduced" and "stored_verdict" not in rows["F1"]
