"""Declared metrics (METRICS): validate checks claims' metric names, the runner refuses extras,
and a record with several problems has every one of them reported in one pass."""

from __future__ import annotations

import textwrap

import pytest

from litrec.analyses.contract import declares, source_metrics, source_problems, undeclared
from tests.support.toy import importable, write_analysis

TOY = '''
"""A toy analysis that declares what it returns."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    """Nothing to set."""

    seed: int = 0


PROFILES = {"quick": Config()}
METRICS = ("err_avg", "err_ols", "curve")


def run(config, progress=None):
    """Two errors and a curve (nested)."""
    return {"metrics": {"err_avg": 0.6, "err_ols": 1e-30, "curve": {"step": [0, 1], "loss": [1.0, 0.5]}}}
'''

LIT = '''
id: ARXIV-0000.00009
kind: literature
title: A paper
claims:
  - id: F1
    kind: finding
    title: OLS beats averaging
    statement: Least squares has a smaller error than averaging.
    check:
      analysis: toy
      expect:
        - {metric: err_ols, op: "<", ref: err_avg, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}
'''


@pytest.fixture
def toy(tmp_path, monkeypatch):
    write_analysis(tmp_path, TOY)
    rec = tmp_path / "records" / "literature" / "ARXIV-0000.00009.yaml"
    rec.parent.mkdir(parents=True)
    rec.write_text(textwrap.dedent(LIT))  # its first line blank: the errors' line numbers count it
    return importable(tmp_path, monkeypatch)


def test_source_metrics_and_coverage():
    assert source_metrics(TOY) == {"err_avg", "err_ols", "curve"}
    assert source_metrics("PROFILES = {}\n") is None
    assert declares({"curve"}, "curve.step") and not declares({"curve"}, "curves")
    assert undeclared({"a": 1, "b": {"c": 2, "d": 3}}, {"a", "b.c"}) == ["b.d"]
    assert undeclared({"a": 1}, None) == []
    assert any("METRICS is not a literal" in p for p in source_problems(
        "PROFILES = {}\nMETRICS = tuple(NAMES)\n\ndef run(config, progress=None):\n    pass\n"))


def test_a_misspelt_metric_is_a_located_error_with_a_suggestion(toy, cli):
    assert cli("validate")[0] == 0
    rec = toy / "records" / "literature" / "ARXIV-0000.00009.yaml"
    rec.write_text(rec.read_text().replace("ref: err_avg", "ref: err_avgg"))
    code, out, _ = cli("validate")
    assert code == 1
    assert ("records/literature/ARXIV-0000.00009.yaml:13:43: claims[0].check.expect[0].ref: "
            "analysis 'toy' declares no metric 'err_avgg'. Did you mean 'err_avg'?") in out


def test_the_runner_notes_a_metric_the_module_does_not_declare(toy, cli):
    import json

    (toy / "analysis" / "toy.py").write_text(TOY.replace('"err_ols", "curve")', '"err_ols")'))
    code, _, err = cli("run", "--profile", "quick", "--jobs", "1")
    assert code == 0, err
    result = json.loads((toy / "results" / "toy" / "quick.json").read_text())
    assert any("returned metrics its METRICS do not declare: curve.step, curve.loss" in n
               for n in result["notes"])


def test_every_error_of_a_record_in_one_pass(project, cli):
    """A schema error (a bad op) no longer hides a dangling link or a misspelt analysis of the
    same record: all three are reported at once."""
    path = project / "records" / "notes" / "NOTE-621.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("target: THEORY-169", "target: THEORY-196", 1)
    text = text.replace('op: "<"', 'op: "<<"', 1)
    text = text.replace("analysis: conditioning-vs-parameters", "analysis: conditioning-vs-params", 1)
    path.write_text(text, encoding="utf-8")
    code, out, err = cli("validate")
    assert code == 1
    errors = [ln for ln in out.splitlines() if ": info: " not in ln]
    assert len(errors) == 3, out
    assert any("links[3].target: no record 'THEORY-196'. Did you mean 'THEORY-169'?" in e
               for e in errors)
    assert any("found '<<'" in e for e in errors)
    assert any("no registered analysis 'conditioning-vs-params'" in e for e in errors)
    assert "7 valid records" in err  # the invalid record is not counted as valid
    assert cli("validate", "--no-cache")[1] == out  # the same without the cache


def test_an_invalid_record_edited_while_validating_is_not_salvaged_from_the_new_bytes(tmp_path):
    """The facts of an invalid record come from the bytes its problems were found in: a file
    that changed between the two reads gives none (the next validation sees the edit)."""
    from litrec.records.filecheck import salvaged_facts
    from litrec.util.settled import read_record

    path = tmp_path / "NOTE-1.yaml"
    path.write_text("id: NOTE-1\nkind: note\ntitel: misspelt\nlinks:\n  - rel: uses\n    target: NOTE-2\n")
    key = read_record(str(path), tmp_path)[1]
    found = salvaged_facts(str(path), tmp_path, key)
    assert found is not None and found.id == "NOTE-1" and [r[1] for r in found.refs] == ["NOTE-2"]
    path.write_text("id: NOTE-1\nkind: note\ntitel: misspelt\nlinks:\n  - rel: uses\n    target: NOTE-3\n")
    assert salvaged_facts(str(path), tmp_path, key) is None
    assert salvaged_facts(str(path), tmp_path) is not None     # no key: whatever the file holds
