"""`litrec status` at any width, piped or not: a row per claim (the verdict and the deciding number
beside its expectation, then the reason for anything but reproduced) and the summary are wrapped
to the terminal's width, their continuation lines indented: every verdict, every count and the
whole expected side are there at 60, 80 and 200 columns and with no COLUMNS at all; the reason
takes one line, cut with … where longer (a command it names never cut), and `--verbose` gives
it whole and wraps every outcome to the width."""

from __future__ import annotations

import json

import pytest

from tests.support.inprocess import run_inprocess
from tests.support.results import sealed_result


def _status(project, columns: int | None, *args: str) -> str:
    """status's standard output, piped (never a terminal); `columns` None: no COLUMNS at all."""
    env = {"NO_COLOR": "1", "COLUMNS": str(columns) if columns else None, "LINES": None}
    return run_inprocess(["status", *args], cwd=project, env=env)[1]


def _blocks(lines: list[str], claims: list[dict], verbose: bool = False) -> tuple[dict[str, str], str]:
    """Each claim's lines joined into one text (by claim), and the summary's, joined likewise: the
    summary comes first, then the rows (each starting at the margin with its claim)."""
    ids = {c["claim"] for c in claims}
    margin = [i for i, ln in enumerate(lines) if ln and not ln.startswith(" ")]
    first_row = next(i for i in margin if lines[i].split()[0] in ids)
    assert margin[0] == 0 < first_row and lines[0].split()[0] not in ids  # the summary, first
    assert all(ln.startswith("  ") for ln in lines[1:first_row])  # its continuation: indented
    starts = [i for i in margin if i >= first_row]
    assert [lines[i].split()[0] for i in starts] == [c["claim"] for c in claims]
    assert verbose or all(ln.startswith("    ") for i, ln in enumerate(lines)
                          if i > first_row and i not in starts)
    joined = {lines[s].split()[0]: " ".join(" ".join(lines[s:e]).split())
              for s, e in zip(starts, starts[1:] + [len(lines)])}
    return joined, " ".join(" ".join(lines[:first_row]).split())


@pytest.mark.parametrize("columns", [60, pytest.param(80, marks=pytest.mark.slow),
                                     pytest.param(200, marks=pytest.mark.slow), None])
def test_rows_and_summary_wrap_and_never_cut_a_verdict_a_count_or_the_expectation(
        both_scales, columns):
    lines = _status(both_scales, columns, "--profile", "paper").splitlines()
    assert lines and all(len(line) <= (columns or 80) for line in lines), "\n".join(lines)
    cut = [line for line in lines if "…" in line]  # a reason cut to its line, nothing else
    assert all(line.startswith("    ") and line.endswith("…") for line in cut), "\n".join(lines)
    claims = json.loads(_status(both_scales, columns, "--profile", "paper", "--format", "json"))
    rows, summary = _blocks(lines, claims)
    whole, _ = _blocks(_status(both_scales, columns, "--profile", "paper", "--verbose").splitlines(),
                       claims, verbose=True)
    assert summary == ("at paper_full, the paper's own scale: 5 claims of ARXIV-2212.07677: 1 not "
                       "reproduced, 4 missing; 1 claim of your own: 1 reproduced 5 claims of "
                       "ARXIV-2212.07677: 1 inconclusive, 4 missing; 1 claim of your own: 1 "
                       "reproduced (profile paper)")
    for c in claims:
        text = rows[c["claim"]]
        assert f'{c["claim"]} {c["verdict"]} ' in text + " "  # the verdict, beside the claim
        for scale, v in c["verdicts"].items():  # the other scale's verdict where it differs
            if scale != "paper" and v not in (None, "missing", c["verdict"]):
                assert f"at {scale}: {v}" in text, text
        if c["reason"] and c["verdict"] != "reproduced":
            assert " ".join(c["reason"].split()) in whole[c["claim"]], whole[c["claim"]]
        block = [ln for ln in lines if ln.startswith(c["claim"] + " ")]
        at = lines.index(block[0])  # the row: the claim's line, the number's, the reason's line
        assert len([ln for ln in lines[at + 1:at + 5] if ln.startswith(" ")]) <= 3
    c1, f1 = rows["NOTE-621#C1"], rows["ARXIV-2212.07677#F1"]
    assert "params_unchanged true, expected == true" in c1
    assert "expected ≈ loss_gd (±0.01 rel)" in f1 or \
        "expected loss_trained ≈ loss_gd (±0.01 rel)" in f1  # the expected side, whole
    assert "at paper_full: not reproduced" in f1
    assert "wide because of the seed count" in whole["ARXIV-2212.07677#F1"]
    assert "litrec run" in rows["ARXIV-2212.07677#F2"]  # missing: the command that runs it
    if columns == 200:  # room for the most detailed form on the claim's line
        block = [ln for ln in lines if ln.startswith("ARXIV-2212.07677#F1 ")]
        assert len(block) == 1 and block[0].endswith(
            "(loss_trained − expected) / tolerance = 1 [-5.353, 7.353], expected loss_trained ≈ "
            "loss_gd (±0.01 rel)")
    else:  # narrower: the shorter forms
        assert "loss_trained 0.202" in f1


def test_a_narrow_terminal_wraps_the_summary_and_cuts_no_count(judged):
    lines = _status(judged, 40).splitlines()
    assert all(len(line) <= 40 for line in lines), "\n".join(lines)
    assert lines[0].startswith("5 claims of")  # the summary first, then the rows
    end = next(i for i, ln in enumerate(lines) if i > 0 and not ln.startswith(" "))
    assert " ".join(ln.strip() for ln in lines[:end]) == \
        ("5 claims of ARXIV-2212.07677: 1 inconclusive, 4 missing; 1 claim of your own: 1 "
         "reproduced (profile paper)")
    assert "expected ≈ loss_gd (±0.01 rel)" in " ".join(ln.strip() for ln in lines)


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
    sealed_result(project, "conditioning-vs-parameters", {"params_unchanged": True})  # metrics lacking
    lines = _status(project, 80, "--verbose").splitlines()
    text = " ".join(ln.strip() for ln in lines)
    assert "error" in text and "has no metric 'max_abs_pred_error'" in text
    assert "max_abs_pred_error < 1e-10: not judged (error)" in text


def test_a_reason_takes_one_line_and_a_command_in_it_is_whole_or_absent():
    from litrec.verdicts.terminal import reason_lines

    long = "at paper_full: not reproduced; an interval straddles its threshold, wide because of the seed count"
    assert reason_lines(long, 60) == ["    at paper_full: not reproduced; an interval straddles it…"]
    assert reason_lines("short; enough", 60) == ["    short; enough"]
    command = "no paper result for 'prop3-token-building'; run: litrec run ARXIV-2212.07677#P3 --profile paper"
    assert reason_lines(command, 80) == ["    no paper result for 'prop3-token-building';",
                                         "    run: litrec run ARXIV-2212.07677#P3 --profile paper"]
    more = command + "; and a long tail that would not fit on any line of this width at all"
    assert reason_lines(more, 120) == ["    " + command + "; …"]
    lines = reason_lines("run: litrec run ARXIV-2212.07677#P3 --profile paper_full --force; more", 40)
    assert " ".join(ln.strip() for ln in lines) == \
        "run: litrec run ARXIV-2212.07677#P3 --profile paper_full --force; …"  # wrapped, not cut
    assert all(len(ln) <= 40 for ln in lines)
