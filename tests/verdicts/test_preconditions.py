"""Preconditions of the run: a failed one makes the claim inconclusive, never not reproduced."""

from __future__ import annotations

import json
import shutil

import pytest

from litrec.records.expectation import Expectation
from litrec.verdicts.claims import expectation_record
from tests.support.seeds_toy import claim, litrec, status, write_project

BASELINE = '{metric: baseline_drop, op: ">", value: 0.9, precondition: true, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}'
BASELINE_OK = '{metric: baseline_drop, op: ">", value: 0.4, precondition: true, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}'
BASELINE_UNSURE = '{metric: baseline_drop, op: ">", value: 0.51, precondition: true, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}'


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    root = write_project(
        tmp_path_factory.mktemp("pre"),
        claim("F1", '{metric: loss_trained, op: "<", ref: loss_gd, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}', BASELINE),
        claim("F2", '{metric: loss_trained, op: ">", value: 0.5, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}', BASELINE),
        claim("F3", '{metric: loss_trained, op: ">", value: 0.5, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}', BASELINE_OK),
        claim("F4", '{metric: loss_trained, op: "<", value: 0.5, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}', BASELINE_OK),
        claim("F5", '{metric: loss_trained, op: ">", value: 0.5, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}', BASELINE_UNSURE))
    proc = litrec("run", "--profile", "quick", "--jobs", "1", cwd=root)
    assert proc.returncode == 1, proc.stdout + proc.stderr  # F3 is not reproduced
    return root


def test_a_failed_precondition_is_inconclusive_whatever_the_claim_says(ran):
    _, rows = status(ran)
    for cid in ("F1", "F2"):  # the claim's own expectation holds (F1) or fails (F2)
        assert rows[cid]["verdict"] == "inconclusive", rows[cid]
        assert rows[cid]["reason"] == "precondition failed: baseline_drop > 0.9 (precondition)"
    assert rows["F2"]["rests_on_it"] == []
    pre = rows["F2"]["outcomes"][1]
    assert pre["precondition"] is True and pre["decision"] == "fails"
    assert rows["F2"]["outcomes"][0]["precondition"] is False


def test_a_precondition_that_holds_leaves_the_verdict_to_the_claim(ran):
    _, rows = status(ran)
    assert rows["F3"]["verdict"] == "not reproduced" and rows["F4"]["verdict"] == "reproduced"


def test_an_undecided_precondition_is_inconclusive_too(ran):
    _, rows = status(ran)
    assert rows["F5"]["verdict"] == "inconclusive"
    assert rows["F5"]["reason"].startswith("precondition undecided: baseline_drop > 0.51")


def test_text_table_and_export_say_the_precondition_failed(ran, tmp_path):
    text = litrec("status", "--profile", "quick", cwd=ran).stdout
    lines = text.splitlines()
    i = next(i for i, ln in enumerate(lines) if ln.startswith("ARXIV-0000.00003#F2"))
    assert "inconclusive" in lines[i]  # the verdict and its number; the reason on the next line
    assert lines[i + 1].startswith("    precondition failed: baseline_drop > 0.9")
    out = tmp_path / "graph.json"
    assert litrec("export", "json", "--profile", "quick", "--out", out, cwd=ran).returncode == 0
    claims = {c["id"]: c for c in json.loads(out.read_text())["claims"]}
    assert claims["F2"]["verdict"] == "inconclusive"
    assert [o["precondition"] for o in claims["F2"]["outcomes"]] == [False, True]


def test_a_precondition_marks_its_expectation_and_the_default_hashes_as_before():
    plain = Expectation(metric="a", op=">", value=1.0)
    assert "precondition" not in plain.model_dump(mode="json")
    assert expectation_record([plain]) == expectation_record(
        [Expectation(metric="a", op=">", value=1.0, precondition=False)])
    pre = Expectation(metric="a", op=">", value=1.0, precondition=True)
    assert pre.describe() == "a > 1 (precondition)"
    assert expectation_record([pre])["hash"] != expectation_record([plain])["hash"]


def test_the_schema_and_the_validator_agree_on_the_field(tmp_path):
    root = write_project(tmp_path / "p", claim("F1", '{metric: a, op: ">", value: 1, precondition: "yes", source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}'))
    proc = litrec("validate", cwd=root)
    assert proc.returncode == 1 and "precondition" in proc.stdout
    schema = json.loads((__import__("tests.conftest").conftest.REPO / "schema" / "literature.schema.json")
                        .read_text())
    assert "precondition" in json.dumps(schema)
    shutil.rmtree(root)


def test_a_stale_result_stands_for_the_verdict_its_numbers_gave(ran, tmp_path):
    """Evidence for suspect links: a result gone stale (here its code changed) stands for the
    verdict the judge gave its numbers, a failed precondition inconclusive as when it was current."""
    from litrec.verdicts.claims import ClaimStatus
    from litrec.verdicts.reading import standing

    root = tmp_path / "stale"
    shutil.copytree(ran, root)
    _, current = status(root)
    module = root / "analysis" / "toy.py"
    module.write_text(module.read_text() + "# an edit\n")
    _, stale = status(root)
    for cid in ("F1", "F2", "F3", "F4", "F5"):
        assert stale[cid]["verdict"] == "stale"
        assert stale[cid]["last_verdict"] == current[cid]["verdict"], cid
        assert standing(ClaimStatus.from_row(stale[cid])) == current[cid]["verdict"], cid
