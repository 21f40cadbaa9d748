"""`litrec status` reads at 80 and 120 columns: at most two lines per claim (the verdict and the
deciding number beside its expectation, then the reason for anything but reproduced), cut,
never wrapped; the summary is wrapped, never cut; `--verbose` wraps every outcome to the width."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from litrec.runs.seal import seal


def _result(project, name: str, metrics: dict | list[dict], store: bool = False) -> None:
    """A sealed `paper` result of `name`; with `store`, the expectations it was judged against."""
    from litrec.runs.inputs import RESULT_FORMAT
    from litrec.runs.inputs import result_inputs as fingerprint
    from litrec.records.load import load_project
    from litrec.runs.results import write_result
    from litrec.verdicts.claims import expectation_record

    proj = load_project(project / "records")
    fp = fingerprint(proj.registry, name, "paper")
    seeds = metrics if isinstance(metrics, list) else None
    payload = {"format": RESULT_FORMAT, "analysis": name, "profile": "paper",
               "code_hash": fp.code_hash, "code_files": fp.files, "versions": fp.versions,
               "inputs": fp.record(),
               "started": "2026-01-02T03:04:05+00:00", "wall_time_s": 1.0, "config": {},
               "metrics": seeds[0] if seeds else metrics, "figures": {}, "notes": []}
    if store:
        payload["expectations"] = {f"{r.id}#{c.id}": expectation_record(c.check.expect, "paper")
                                   for r, c in proj.claims()
                                   if c.check is not None and c.check.analysis == name}
    if seeds:
        payload["seeds"] = list(range(len(seeds)))
        payload["sweep"] = {"seed": list(range(len(seeds)))}
        payload["points"] = [{"seed": i, "metrics": m} for i, m in enumerate(seeds)]
    write_result(project / "results", name, "paper", seal(payload, {}), {})


def _status(project, columns: int, *args: str) -> str:
    env = {**os.environ, "COLUMNS": str(columns), "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "litrec", "status", *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=120)
    return proc.stdout


@pytest.fixture
def judged(project):
    """C1 reproduced, F1 inconclusive over two seeds (a loss barely above its reference)."""
    _result(project, "conditioning-vs-parameters", {
        "params_unchanged": True, "max_abs_pred_error": 0.0, "max_abs_dW_error": 0.0,
        "implied_model_distance": 1.0, "min_cross_distance": 1.0})
    base = {"cos_sensitivity": 0.999, "model_diff": 0.08, "pred_diff": 0.02,
            "loss_interpolated": 0.2, "ood": {"min_cos": 0.999, "max_rel_gap": 0.01,
                                              "max_rel_gap_interpolated": 0.01}}
    _result(project, "single-layer-lsa", [
        {**base, "loss_trained": 0.2010, "loss_gd": 0.2, "loss_interpolated": 0.2},
        {**base, "loss_trained": 0.2030, "loss_gd": 0.2, "loss_interpolated": 0.2}])
    return project


@pytest.mark.parametrize("columns", [80, 120])
def test_at_most_two_lines_per_claim_within_the_width(judged, columns):
    lines = _status(judged, columns).splitlines()
    assert lines and all(len(line) <= columns for line in lines), "\n".join(lines)
    claims = json.loads(_status(judged, columns, "--format", "json"))
    # the summary: its first line unindented, the rest (the other scale, wrapped) indented
    summary = next(i for i, ln in enumerate(lines) if ln.startswith(f"{len(claims)} claims:"))
    assert all(ln.startswith("  ") for ln in lines[summary + 1:])
    assert " ".join(ln.strip() for ln in lines[summary:]).endswith(
        "1 reproduced, 1 inconclusive, 4 missing (profile paper)")  # wrapped, never cut
    starts = [i for i, ln in enumerate(lines[:summary]) if ln and not ln.startswith(" ")]
    assert [lines[i].split()[0] for i in starts] == [c["claim"] for c in claims]
    ends = starts[1:] + [summary]
    for c, start, end in zip(claims, starts, ends):
        block = lines[start:end]
        assert len(block) <= 2, block  # the claim's line, and a reason line at most
        assert c["verdict"] in block[0]
        if c["verdict"] == "reproduced":
            assert len(block) == 1 and ", expected " in block[0]  # the number beside its expectation
        elif c["verdict"] in ("not reproduced", "inconclusive", "stale"):
            assert ", expected " in block[0] and len(block) == 2 and block[1].startswith("    ")
    by_claim = {lines[s].split()[0]: lines[s:e] for s, e in zip(starts, ends)}
    c1 = by_claim["NOTE-621#C1"]
    assert "reproduced" in c1[0] and "params_unchanged true, expected == true" in c1[0]
    f1 = by_claim["ARXIV-2212.07677#F1"]
    assert "inconclusive" in f1[0]
    if columns == 120:  # room for the interval beside the expectation
        assert "[" in f1[0] and "expected ≈ loss_gd" in f1[0]
        assert "wide because of the seed count" in f1[1]
    missing = by_claim["ARXIV-2212.07677#F2"]
    assert "missing" in missing[0] and "litrec run" in "".join(missing)


def test_a_narrow_terminal_wraps_the_summary_and_cuts_no_count(judged):
    lines = _status(judged, 40).splitlines()
    assert all(len(line) <= 40 for line in lines), "\n".join(lines)
    summary = next(i for i, ln in enumerate(lines) if ln.startswith("6 claims:"))
    assert " ".join(ln.strip() for ln in lines[summary:]) == \
        "6 claims: 1 reproduced, 1 inconclusive, 4 missing (profile paper)"


def test_verbose_wraps_and_gives_both_sides_per_seed_and_every_reason(judged):
    lines = _status(judged, 80, "--verbose").splitlines()
    assert all(len(line) <= 80 for line in lines), "\n".join(lines)
    text = " ".join(ln.strip() for ln in lines)
    assert "loss_trained per seed [0.201, 0.203]" in text
    assert "loss_gd per seed [0.2, 0.2]" in text       # the other side too
    assert "holds on its whole interval" in text       # a reason beside every mark
    assert "1 degree of freedom (t = 12.7" in text     # why two seeds cannot decide
    assert "not judged (missing)" in text              # expectations with no result yet


def test_an_error_verdict_lists_its_expectations_with_a_reason(project):
    _result(project, "conditioning-vs-parameters", {"params_unchanged": True})  # metrics lacking
    lines = _status(project, 80, "--verbose").splitlines()
    text = " ".join(ln.strip() for ln in lines)
    assert "error" in text and "has no metric 'max_abs_pred_error'" in text
    assert "max_abs_pred_error < 1e-10: not judged (error)" in text
