"""`litrec status --format table|csv|md`: a row per claim and scale, its verdict there and the
mean and n of each metric its expectations read (the deciding one first), as a terminal table
that fits the width, as RFC 4180 CSV with a column per metric, and as a Markdown table."""

from __future__ import annotations

import csv
import io

import pytest

ROWS = 12  # the fixture's 6 checked claims at its 2 scales, paper and paper_full


@pytest.fixture(autouse=True)
def _eighty_columns(monkeypatch):
    """`both_scales` (tests/verdicts/conftest.py) seen 80 columns wide, without colour."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("NO_COLOR", "1")


def test_the_table_shows_every_claim_at_every_scale_and_fits_80_columns(both_scales, cli):
    code, out, err = cli("status", "--format", "table")
    assert code == 0, err
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines), out
    assert lines[0].split() == ["claim", "scale", "verdict", "n", "metrics", "(mean", "over", "seeds)"]
    assert len(lines) == 2 + ROWS
    f1 = [line for line in lines if line.startswith("ARXIV-2212.07677#F1 ")]
    assert [line.split()[1] for line in f1] == ["paper", "paper_full"]
    assert "  inconclusive  " in f1[0] and "  not reproduced  " in f1[1]
    assert "  2  loss_trained 0.202; " in f1[0] and "  2  loss_trained 0.5; " in f1[1]
    assert f1[0].endswith("…")  # the other metrics cut, never wrapped
    p1 = next(line for line in lines if line.startswith("ARXIV-2212.07677#P1 "))
    assert p1.split() == ["ARXIV-2212.07677#P1", "paper", "missing"]  # no numbers: no result


def test_csv_has_a_column_per_metric_and_its_n_with_the_numbers_in_full(both_scales, cli):
    code, out, _ = cli("status", "--format", "csv")
    assert code == 0 and "\r\n" in out
    rows = list(csv.DictReader(io.StringIO(out, newline="")))
    assert len(rows) == ROWS
    by = {(r["claim"], r["scale"]): r for r in rows}
    f1 = by["ARXIV-2212.07677#F1", "paper"]
    assert (f1["verdict"], f1["loss_trained"], f1["loss_trained n"]) == ("inconclusive", "0.202", "2")
    assert by["ARXIV-2212.07677#F1", "paper_full"]["loss_trained"] == "0.5"
    c1 = by["NOTE-621#C1", "paper_full"]
    assert (c1["verdict"], c1["params_unchanged"], c1["params_unchanged n"]) == ("reproduced", "true", "1")
    assert c1["loss_trained"] == "" and by["ARXIV-2212.07677#P3", "paper"]["verdict"] == "missing"


def test_markdown_is_a_pipe_table_with_every_metric(both_scales, cli):
    code, out, _ = cli("status", "--format", "md")
    lines = out.splitlines()
    assert code == 0 and lines[1] == "| --- | --- | --- | ---: | --- |" and len(lines) == 2 + ROWS
    assert ("| ARXIV-2212.07677#F1 | paper_full | not reproduced | 2 | loss_trained 0.5; "
            "cos_sensitivity 0.999; ") in out
    assert "ood.max_rel_gap_interpolated 0.01 |" in out  # nothing cut


def test_the_deciding_metric_comes_first(both_scales, cli):
    from litrec.records.load import load_project
    from litrec.verdicts.claims import claim_statuses
    from litrec.verdicts.grid import measured

    proj = load_project(both_scales / "records")
    (f1,) = [s for s in claim_statuses(proj, both_scales / "results", "paper")
             if s.claim == "ARXIV-2212.07677#F1"]
    f1.outcomes.reverse()  # loss_trained last of its expectations, still the one that decided
    assert measured(f1)[0].metric == "loss_trained" and len(measured(f1)) == 8


def test_the_default_and_json_outputs_are_as_they_were(both_scales, cli):
    code, out, _ = cli("status")  # the summary first, then a row per claim
    assert code == 0 and "\nARXIV-2212.07677#P1  missing " in out and not out.startswith("ARXIV")
    code, out, _ = cli("status", "--format", "json")
    assert code == 0 and out.lstrip().startswith("[")
