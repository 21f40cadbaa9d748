"""Both scales on every surface: a claim's verdict at `paper` and at `paper_full`, side by side."""

from __future__ import annotations

import json

import pytest

from tests.verdicts.toyproject import TOY, claim, litrec, site_pages, status, write_project

FULL = TOY.replace('"paper": Config(wiggle=0.002)}', '"paper": Config(wiggle=0.002), '
                   '"paper_full": Config(wiggle=0.0005)}').replace(
    '"paper": (0, 1, 2)}', '"paper": (0, 1, 2), "paper_full": (0, 1, 2, 3, 4)}')


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    # at paper (wiggle 0.002) 0.1009 lies inside the interval [0.09988, 0.10100],
    # at paper_full (0.0005, five seeds) above [0.09959, 0.10082]: inconclusive, then reproduced
    root = write_project(tmp_path_factory.mktemp("scales"),
                         claim("F1", '{metric: loss_trained, op: "<", value: 0.1009, source: {kind: paper, where: §1, states: a test claim}}'),
                         claim("F2", '{metric: loss_trained, op: ">", value: 0.0, source: {kind: paper, where: §1, states: a test claim}}'))
    (root / "analysis" / "toy.py").write_text(FULL)
    assert litrec("run", "--profile", "paper", "--jobs", "1", cwd=root).returncode == 0
    assert litrec("run", "--profile", "paper_full", "--jobs", "1", cwd=root).returncode == 0
    return root


def test_status_json_gives_the_verdict_at_both_scales(ran):
    _, rows = status(ran, profile="paper")
    assert rows["F1"]["verdict"] == "inconclusive"
    assert rows["F1"]["verdicts"] == {"paper": "inconclusive", "paper_full": "reproduced"}
    assert rows["F2"]["verdicts"] == {"paper": "reproduced", "paper_full": "reproduced"}
    _, rows = status(ran, profile="paper_full")
    assert rows["F1"]["verdict"] == "reproduced"
    assert rows["F1"]["verdicts"] == {"paper": "inconclusive", "paper_full": "reproduced"}


def test_a_scale_not_run_is_missing_beside_the_other(tmp_path):
    root = write_project(tmp_path / "p", claim("F2", '{metric: loss_trained, op: ">", value: 0.0, source: {kind: paper, where: §1, states: a test claim}}'))
    assert litrec("run", "--profile", "quick", "--jobs", "1", cwd=root).returncode == 0
    _, rows = status(root)
    assert rows["F2"]["verdict"] == "reproduced"
    assert rows["F2"]["verdicts"] == {"paper": "missing", "paper_full": "missing"}


def test_the_text_says_the_other_scale_and_which_one_is_shown(ran):
    lines = litrec("status", "--profile", "paper", cwd=ran).stdout.splitlines()
    # the paper's own scale leads the summary, the table's profile follows; neither is cut
    assert lines[-2:] == ["at paper_full, the paper's own scale: 2 claims: 2 reproduced",
                          "  2 claims: 1 reproduced, 1 inconclusive (profile paper)"]
    # without --profile, status shows the paper's own scale, the reduced one beside it
    plain = litrec("status", cwd=ran).stdout.splitlines()
    assert plain[-2:] == ["2 claims: 2 reproduced (profile paper_full, the paper's own scale)",
                          "  at paper: 2 claims: 1 reproduced, 1 inconclusive"]
    row = next(ln for ln in plain if ln.startswith("ARXIV-0000.00003#F1"))
    assert "reproduced" in row
    assert any("at paper: inconclusive" in ln for ln in plain)


def test_export_json_gives_both(ran, tmp_path):
    out = tmp_path / "graph.json"
    assert litrec("export", "json", "--out", out, cwd=ran).returncode == 0
    doc = json.loads(out.read_text())
    assert doc["profile"] == "paper" and doc["scales"] == ["paper", "paper_full"]
    f1 = next(c for c in doc["claims"] if c["id"] == "F1")
    assert f1["verdict"] == "inconclusive"
    assert f1["verdicts"] == {"paper": "inconclusive", "paper_full": "reproduced"}


def test_the_dashboard_says_which_scale_its_headline_uses(ran):
    pages = site_pages(ran, profile="paper")
    home = pages["index.md"]
    assert "the <strong>paper</strong> one first" in home
    assert home.index("<th>at <code>paper</code>") < home.index("<th>at <code>paper_full</code>")
    row = home[home.index("#F1"):]
    row = row[:row.index("</tr>")]
    assert row.index("lr-v-inconclusive") < row.index("lr-v-reproduced")  # paper, then paper_full
    page = next(v for k, v in pages.items() if "ARXIV-0000.00003" in k)
    assert "at <code>paper_full</code>: " in page


def test_a_run_at_another_profile_names_the_paper_s_own_scale_in_its_summary(tmp_path):
    """`litrec run --profile quick` where `paper_full` has results: its summary gives the counts
    at the paper's own scale in one line, first; a scale with no result says nothing."""
    root = write_project(tmp_path / "p", claim("F2", '{metric: loss_trained, op: ">", value: 0.0, source: {kind: paper, where: §1, states: a test claim}}'))
    (root / "analysis" / "toy.py").write_text(FULL)
    assert litrec("run", "--profile", "paper_full", "--jobs", "1", cwd=root).returncode == 0
    for _ in range(2):  # a run, then one answered without running anything: the same summary
        proc = litrec("run", "--profile", "quick", "--jobs", "1", cwd=root)
        assert proc.returncode == 0, proc.stderr
        lines = proc.stdout.splitlines()
        assert lines[-2:] == ["at paper_full, the paper's own scale: 1 claim: 1 reproduced",
                              "  1 claim: 1 reproduced (profile quick)"], proc.stdout
        assert "at paper:" not in proc.stdout  # no result at paper: not summarised
