"""`litrec upgrade`: a record set written before expectations needed a source (and before a paper
source needed quote and threshold) is brought to the present format in place, with TODO
placeholders that validate lists as to-dos, its comments and layout kept.

Each test writes its own old-format project in a temporary folder; nothing here reads the
live records.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

OLD_PAPER = """\
# yaml-language-server: $schema=../../schema/literature.schema.json
# A paper recorded before sources were asked for.
id: ARXIV-0000.00007
kind: literature
title: An old record
text: texts/paper.txt   # the paper's text, kept beside the records
claims:
  - id: F1
    kind: finding
    title: t
    statement: s
    check:
      analysis: some-analysis
      expect:
        # a block expectation, then a flow one over two lines
        - metric: loss
          op: "<"
          value: 0.5   # the paper's bound
        - {metric: gap, op: ">", value: 0.1,
           note: "two lines"}
        - {metric: k, op: "<", ref: d, source: {kind: extension, reason: "litrec's own"}}
  - id: F2
    kind: finding
    title: u
    statement: v
    check:
      analysis: some-analysis
      expect:
        - metric: loss
          op: "<"
          value: 0.4
          source:
            kind: paper
            where: "§2"   # no quote, no threshold
        - {metric: loss, op: ">", value: 0.1, source: {kind: paper, where: "§3", quote: "the loss stays above a tenth"}}
        - {metric: loss, op: ">", value: 0.0, source: {kind: official, file: train.py, line: 3, threshold: litrec}}
"""

NOTE = "id: NOTE-1\nkind: note\ntitle: A note\nlinks:\n  - rel: uses\n    target: ARXIV-0000.00007#F1\n"


@pytest.fixture
def old(tmp_path, monkeypatch) -> Path:
    """A records-only project in the older format; the working directory."""
    root = tmp_path / "old"
    for rel, text in {"records/literature/ARXIV-0000.00007.yaml": OLD_PAPER,
                      "records/notes/NOTE-1.yaml": NOTE,
                      "texts/paper.txt": "We show that the loss stays above a tenth.\n"}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def _validate(cli) -> tuple[int, list[dict], list[dict]]:
    code, out, _ = cli("validate", "--format", "json")
    doc = json.loads(out)
    return code, doc["errors"], [d for d in doc["info"] if d["severity"] == "warning"]


def test_an_old_record_set_fails_then_validates_with_to_dos_after_upgrade(old, cli):
    paper = old / "records/literature/ARXIV-0000.00007.yaml"
    note = old / "records/notes/NOTE-1.yaml"
    code, errors, _ = _validate(cli)
    assert code == 1 and [e["field"] for e in errors] == [  # each incomplete source (and,
        f"claims[1].check.expect[{j}].source" for j in range(3)]  # once mended, each missing one)
    paper.write_text(OLD_PAPER.split("  - id: F2")[0], encoding="utf-8")
    code, errors, _ = _validate(cli)
    assert code == 1 and [e["code"] for e in errors] == ["missing-source"] * 2
    paper.write_text(OLD_PAPER, encoding="utf-8")
    note_stat = note.stat()

    code, out, err = cli("upgrade")
    assert code == 0, err
    assert out.splitlines()[0] == "upgraded records/literature/ARXIV-0000.00007.yaml: 5 changes"
    assert ("  records/literature/ARXIV-0000.00007.yaml:16: claims[0].check.expect[0]: added "
            'source: {kind: paper, where: "TODO", quote: "TODO", threshold: litrec, '
            'threshold_reason: "TODO"}') in out
    assert ('claims[1].check.expect[0].source: added quote: "TODO", threshold: litrec, '
            'threshold_reason: "TODO"') in out
    assert 'claims[1].check.expect[2].source: added threshold_reason: "TODO"' in out
    assert "made 5 changes in 1 file; fill in each TODO" in err

    code, errors, warnings = _validate(cli)
    assert code == 0 and errors == []
    assert {w["code"] for w in warnings} == {"to-do"} and len(warnings) == 5
    assert "quote: the paper's own words there (a quote TODO is never checked" in \
        next(w["message"] for w in warnings if w["field"] == "claims[0].check.expect[0].source")
    # the real quote was checked against the paper's text, the placeholders were not
    assert not any(d["code"] == "quote-not-found" for d in errors + warnings)

    text = paper.read_text(encoding="utf-8")
    for comment in ("# A paper recorded before sources were asked for.", "# the paper's bound",
                    "# a block expectation, then a flow one over two lines",
                    "# no quote, no threshold", "# the paper's text, kept beside the records"):
        assert comment in text
    assert ('          value: 0.5   # the paper\'s bound\n          source: {kind: paper, where: '
            '"TODO", quote: "TODO", threshold: litrec, threshold_reason: "TODO"}\n') in text
    assert ('           note: "two lines", source: {kind: paper, where: "TODO", quote: "TODO", '
            'threshold: litrec, threshold_reason: "TODO"}}\n') in text
    assert ('            where: "§2"   # no quote, no threshold\n            quote: "TODO"\n'
            '            threshold: litrec\n            threshold_reason: "TODO"\n') in text
    assert note.stat().st_mtime_ns == note_stat.st_mtime_ns  # needed no change: not written

    upgraded = paper.read_bytes()
    code, out, err = cli("upgrade")  # a second upgrade changes nothing
    assert code == 0 and out == "" and "nothing to upgrade" in err
    assert paper.read_bytes() == upgraded


def test_the_placeholder_judges_as_before_and_is_marked_on_the_site(old, cli):
    """A source is prose: adding one never changes what is judged, so no result goes stale;
    the placeholder is a to-do wherever it is shown."""
    from litrec.records.load import load_project
    from litrec.records.upgrade import plan_upgrade
    from litrec.site.claim_pieces import source_cell
    from litrec.util.yamlsafe import load_bytes

    paper = old / "records/literature/ARXIV-0000.00007.yaml"
    before = load_bytes(paper.read_bytes()).data["claims"][0]["check"]["expect"][0]
    plan = plan_upgrade(paper, paper.read_text(encoding="utf-8"))
    assert len(plan.changes) == 5 and paper.read_text(encoding="utf-8") == OLD_PAPER  # planned only
    assert cli("upgrade")[0] == 0
    proj = load_project(old / "records")
    e = proj.records["ARXIV-0000.00007"].claims[0].check.expect[0]
    from litrec.records.expectation import Expectation

    assert e.criterion() == Expectation.model_validate(before).criterion()
    assert e.source.todo() == ["where", "quote", "threshold_reason"]
    cell = source_cell({"source": e.source, "registration": {}})
    assert "to-do" in cell and "where, quote, threshold_reason still TODO" in cell


def test_dry_run_shows_the_diff_and_writes_nothing(old, cli):
    paper = old / "records/literature/ARXIV-0000.00007.yaml"
    code, out, err = cli("upgrade", "--dry-run")
    assert code == 0 and paper.read_text(encoding="utf-8") == OLD_PAPER
    assert out.startswith("--- a/records/literature/ARXIV-0000.00007.yaml\n"
                          "+++ b/records/literature/ARXIV-0000.00007.yaml\n")
    assert '+            quote: "TODO"\n' in out
    assert "would make 5 changes in 1 file" in err and "dry run: nothing written" in err


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_a_record_linked_out_of_the_project_is_refused(old, cli, tmp_path):
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(OLD_PAPER.replace("ARXIV-0000.00007", "ARXIV-0000.00008"), encoding="utf-8")
    (old / "records/literature/ARXIV-0000.00008.yaml").symlink_to(outside)
    code, out, err = cli("upgrade")
    assert code == 1
    assert "records/literature/ARXIV-0000.00008.yaml: not upgraded: is a symbolic link" in err
    assert outside.read_text(encoding="utf-8").endswith(OLD_PAPER.split("ARXIV-0000.00007")[-1])
    assert "upgraded records/literature/ARXIV-0000.00007.yaml" in out  # the others are upgraded
