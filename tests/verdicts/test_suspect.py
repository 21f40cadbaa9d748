"""Suspect links: NOTE-621 uses P1 and F1 and THEORY-169 rests on NOTE-621; when F1's verdict
moves after they were reviewed, both are suspect until `litrec review` clears them."""

from __future__ import annotations

import json

from tests.verdicts.test_status_width import _result

GOOD = {"cos_sensitivity": 0.999, "model_diff": 0.08, "pred_diff": 0.02, "loss_interpolated": 0.2,
        "loss_trained": 0.2, "loss_gd": 0.2,
        "ood": {"min_cos": 0.999, "max_rel_gap": 0.01, "max_rel_gap_interpolated": 0.01}}


def _f1(project, loss_trained: float) -> None:
    _result(project, "single-layer-lsa", [{**GOOD, "loss_trained": loss_trained},
                                          {**GOOD, "loss_trained": loss_trained}])


def _suspects(cli) -> list[dict]:
    return json.loads(cli("validate", "--format", "json")[1])["suspect"]


def test_a_verdict_that_moves_makes_the_note_and_the_theory_suspect(project, cli):
    _f1(project, 0.2)
    _result(project, "prop1-identity", {"max_abs_error_f64": 0.0, "max_abs_error_f32": 0.0,
                                        "max_abs_readout_error_f64": 0.0})
    assert cli("status")[0] == 0
    code, out, _ = cli("review", "NOTE-621", "THEORY-169")
    assert code == 0 and "reviewed NOTE-621: 3 links it rests on" in out
    code, out, err = cli("validate")
    assert code == 0 and "suspect" not in out and _suspects(cli) == []

    _f1(project, 0.5)  # F1 stops reproducing: 0.5 is not within 1% of 0.2
    code, out, _ = cli("validate")
    assert code == 0  # a warning, not an error
    lines = [ln for ln in out.splitlines() if ": warning: " in ln]
    assert len(lines) == 3, out
    note = next(ln for ln in lines if "#F1 (uses)" in ln)
    assert ("links[2].target: suspect: NOTE-621 rests on ARXIV-2212.07677#F1 (uses), which moved "
            "since NOTE-621 was last reviewed: its verdict moved from reproduced to not "
            "reproduced.") in note
    paper = next(ln for ln in lines if "(reading_of)" in ln)  # the paper it reads: its F1 moved
    assert "F1's verdict moved from reproduced to not reproduced" in paper
    theory = next(ln for ln in lines if "THEORY-169" in ln)
    assert "THEORY-169 rests on NOTE-621 (source_of)" in theory  # the link is in NOTE-621's file
    assert "what it rests on changed" in theory
    assert cli("validate", "--strict")[0] == 1
    assert {(s["record"], s["target"]) for s in _suspects(cli)} == {
        ("NOTE-621", "ARXIV-2212.07677"), ("NOTE-621", "ARXIV-2212.07677#F1"),
        ("THEORY-169", "NOTE-621")}
    exported = json.loads(cli("export", "json")[1])
    note_rec = next(r for r in exported["records"] if r["id"] == "NOTE-621")
    assert note_rec["suspect"] and any(r["state"] == "suspect" for r in note_rec["reviews"])

    assert cli("review", "NOTE-621")[0] == 0  # the note is read again: it is cleared ...
    assert [(s["record"], s["target"]) for s in _suspects(cli)] == [("THEORY-169", "NOTE-621")]
    assert cli("review", "THEORY-169")[0] == 0  # ... and the theory that rests on it, when reviewed
    assert _suspects(cli) == [] and cli("validate", "--strict")[0] == 0


def test_a_changed_statement_is_suspect_and_unknown_ids_are_refused(project, cli):
    assert cli("review", "NOTE-621")[0] == 0
    lit = project / "records/literature/ARXIV-2212.07677.yaml"
    text = lit.read_text(encoding="utf-8")
    lit.write_text(text.replace("the query included", "the query too"), encoding="utf-8")
    moved = {s["target"]: s["moved"] for s in _suspects(cli)}
    assert moved["ARXIV-2212.07677#P1"] == ["its statement changed"]
    code, _, err = cli("review", "NOTE-62")
    assert code == 2 and "did you mean 'NOTE-621'?" in err


def test_links_never_reviewed_are_notes_shown_with_verbose(project, cli):
    assert cli("review", "THEORY-169")[0] == 0  # a review file exists; NOTE-621 is not in it
    _, out, err = cli("validate")
    assert "never reviewed" not in out
    _, out, _ = cli("validate", "--verbose")
    assert "NOTE-621 rests on ARXIV-2212.07677#P1 (uses) and was never reviewed" in out
