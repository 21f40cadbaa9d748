"""Seeds, pre-registered expectations and sealed results, end to end on a toy project."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.seeds_toy import FIELDS, PROFILES, litrec
from tests.support.toy import SEED_FIGURES, analysis, write_project

TOY = analysis(
    doc="A toy trained model: its loss is 0.1 plus a seed-dependent wiggle (NumPy only).",
    head='import numpy as np\nfrom matplotlib.figure import Figure\n\nSEEDS = {"quick": (0, 1, 2)}',
    fields=FIELDS, profiles=PROFILES, body="""
    \"\"\"One seed's losses, and a curve.\"\"\"
    rng = np.random.default_rng(config.seed)
    trained = 0.1 + config.wiggle * rng.standard_normal()
    return {"metrics": {"loss_trained": trained, "loss_gd": trained + 0.02,
                        "curve": [trained * 3, trained * 2, trained]},
            "noise": {"loss_trained": 0.0005}}
    """) + SEED_FIGURES

PAPER = '''
id: ARXIV-0000.00003
kind: literature
title: A toy paper
claims:
  - id: F1
    kind: finding
    title: Trained beats GD
    statement: The trained loss is below GD's.
    check:
      analysis: toy
      expect:
        - {metric: loss_trained, op: "<", ref: loss_gd, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}
        - {metric: loss_trained, op: "<", value: 0.5, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}
  - id: F2
    kind: finding
    title: Not checked by machine
    statement: Something no analysis measures.
'''


@pytest.fixture(scope="module")
def ran(tmp_path_factory) -> Path:
    """A toy project whose quick profile ran once, three seeds."""
    root = tmp_path_factory.mktemp("seeds")
    write_project(root, TOY, {"literature/ARXIV-0000.00003.yaml": PAPER})
    proc = litrec("run", "--profile", "quick", "--jobs", "1", cwd=root)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return root


def status(root: Path, *extra: str) -> tuple[int, list[dict]]:
    proc = litrec("status", "--profile", "quick", "--format", "json", *extra, cwd=root)
    return proc.returncode, json.loads(proc.stdout)


def test_every_seed_is_stored_and_judged_on_its_interval(ran):
    result = json.loads((ran / "results" / "toy" / "quick.json").read_text())
    assert result["seeds"] == [0, 1, 2] and len(result["points"]) == 3
    assert result["figure_hashes"] and "curves" in result["figures"]
    code, rows = status(ran)
    f1 = next(r for r in rows if r["claim"].endswith("#F1"))
    assert code == 0 and f1["verdict"] == "reproduced" and f1["seeds"] == [0, 1, 2]
    paired, plain = f1["outcomes"]
    assert len(paired["values"]) == 3 and paired["judged"]["quantity"].endswith("(paired)")
    assert paired["interval"][0] < paired["mean"] < paired["interval"][1]
    assert paired["noise"] == pytest.approx(0.0005 * (3 ** 0.5) / 3)


def test_a_claim_without_an_analysis_is_unchecked_not_absent(ran):
    _, rows = status(ran)
    f2 = next(r for r in rows if r["claim"].endswith("#F2"))
    assert f2["verdict"] == "unchecked" and "no analysis yet" in f2["reason"]


def test_changing_an_expectation_after_the_run_is_flagged_until_rerun(ran, tmp_path):
    import shutil

    root = tmp_path / "copy"
    shutil.copytree(ran, root)
    rec = root / "records" / "literature" / "ARXIV-0000.00003.yaml"
    rec.write_text(rec.read_text().replace("value: 0.5", "value: 0.4"))
    code, rows = status(root)
    f1 = next(r for r in rows if r["claim"].endswith("#F1"))
    assert f1["expectation_changed"] is True
    changed = [o for o in f1["outcomes"] if o["expectation_changed"]]
    assert [o["stored_expectation"] for o in changed] == ["loss_trained < 0.5"]
    text = litrec("status", "--profile", "quick", "--verbose", cwd=root).stdout
    assert "expectation changed after the run: was loss_trained < 0.5, now loss_trained < 0.4" in text
    assert litrec("run", "--profile", "quick", "--force", "--jobs", "1", cwd=root).returncode == 0
    assert status(root)[1][0]["expectation_changed"] is False


@pytest.mark.parametrize("edit", ["number", pytest.param("figure", marks=pytest.mark.slow)])
def test_a_hand_edited_result_is_modified_and_fails_the_checks(ran, tmp_path, edit):
    import shutil

    root = tmp_path / "copy"
    shutil.copytree(ran, root)
    path = root / "results" / "toy" / "quick.json"
    if edit == "number":
        data = json.loads(path.read_text())
        data["points"][0]["metrics"]["loss_trained"] = 0.05
        path.write_text(json.dumps(data, indent=2))
    else:
        fig = root / "results" / "toy" / "quick" / "curves.svg"
        fig.write_text(fig.read_text() + "<!-- touched -->\n")
    code, rows = status(root, "--check-current")
    assert code == 1 and {r["verdict"] for r in rows if r["analysis"]} == {"modified"}
    check = litrec("status", "--profile", "quick", "--check-current", cwd=root)
    assert "results/toy/quick.json" in check.stderr
    val = litrec("validate", cwd=root)
    assert val.returncode == 1 and "results/toy/quick.json:1:1" in val.stdout
    assert "modified since litrec wrote it" in val.stdout


def test_an_expectation_for_another_profile_is_neither_judged_nor_a_change(ran, tmp_path):
    import shutil

    root = tmp_path / "copy"
    shutil.copytree(ran, root)
    rec = root / "records" / "literature" / "ARXIV-0000.00003.yaml"
    rec.write_text(rec.read_text().replace(
        "        - {metric: loss_trained, op: \"<\", value: 0.5, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}\n",
        "        - {metric: loss_trained, op: \"<\", value: 0.5, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}\n"
        "        - {metric: loss_trained, op: \"<\", value: 0.01, profiles: [paper], source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}\n"))
    code, rows = status(root, "--check-current")
    f1 = next(r for r in rows if r["claim"].endswith("#F1"))
    assert code == 0 and f1["verdict"] == "reproduced" and f1["expectation_changed"] is False
    assert len(f1["outcomes"]) == 2 and "loss_trained < 0.01 (paper)" not in f1["expected"]
    rec.write_text(rec.read_text().replace("profiles: [paper]", "profiles: [quick]"))
    code, rows = status(root)
    f1 = next(r for r in rows if r["claim"].endswith("#F1"))
    assert f1["expectation_changed"] is True and len(f1["outcomes"]) == 3
    assert f1["outcomes"][2]["expectation_changed"] and f1["outcomes"][2]["stored_expectation"] is None
