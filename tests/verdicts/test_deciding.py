"""The judge says which outcome decided a verdict, and every surface names that one.

A claim whose precondition fails while another of its expectations fails too is inconclusive
because of the precondition: the terminal's row, the TeX export's `Metric` macro, the site's
reason and the JSON export all name the precondition (`Outcome.deciding`).
"""

from __future__ import annotations

import json
import re

import pytest

from litrec.verdicts.judge import DECIDING, Outcome, claim_verdict, deciding, mark_deciding
from tests.support.seeds_toy import claim, litrec, site_pages, write_project

PAPER = "source: {kind: paper, where: §1, quote: a test claim, threshold: paper}"
ACC = f'{{metric: loss_trained, op: ">", value: 0.5, {PAPER}}}'  # fails: the loss is about 0.1
BASE_DROP = f'{{metric: baseline_drop, op: ">", value: 0.9, precondition: true, {PAPER}}}'  # fails


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    root = write_project(tmp_path_factory.mktemp("deciding"), claim("F1", ACC, BASE_DROP))
    proc = litrec("run", "--profile", "quick", "--jobs", "1", cwd=root)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return root


def test_every_surface_names_the_failed_precondition_not_the_other_failure(ran, tmp_path):
    ref = "ARXIV-0000.00003#F1"
    # the terminal's row: the number beside the verdict is the precondition's
    row = next(ln for ln in litrec("status", "--profile", "quick", cwd=ran).stdout.splitlines()
               if ln.startswith(ref))
    assert "inconclusive" in row and "baseline_drop" in row and "loss_trained" not in row
    # the TeX export's Metric macro
    tex = litrec("export", "tex", "--profile", "quick", cwd=ran).stdout
    metric = re.search(r"\\newcommand\{\\litrec\w+FOneQuickMetric\}\{([^}]*)\}", tex)
    assert metric is not None and metric.group(1) == r"baseline\_drop"
    # the JSON export: the one outcome the judge marked, and why
    out = tmp_path / "graph.json"
    assert litrec("export", "json", "--profile", "quick", "--out", out, cwd=ran).returncode == 0
    (c,) = [c for c in json.loads(out.read_text())["claims"] if c["ref"] == ref]
    marked = [(o["metric"], o["deciding"]) for o in c["outcomes"] if o["deciding"]]
    assert c["verdict"] == "inconclusive" and marked == [("baseline_drop", "precondition failed")]
    # the site's reason, in the claims table of its home page
    assert "The run did not reach the set-up the claim needs (baseline_drop &gt; 0.9 " \
           "(precondition) fails)" in site_pages(ran)["index.md"]


def O(decision: str, precondition: bool = False, metric: str = "m") -> Outcome:
    return Outcome(f"{metric} < 1", metric, None, None, None, decision=decision,
                   precondition=precondition, reason="r" if decision == "refused" else None)


@pytest.mark.parametrize("outcomes, metric, why", [
    ([O("fails", metric="a"), O("refused", metric="b")], "b", "refused"),
    ([O("fails", metric="a"), O("fails", True, metric="b")], "b", "precondition failed"),
    ([O("inconclusive", True, metric="a"), O("fails", True, metric="b")], "b", "precondition failed"),
    ([O("holds"), O("inconclusive", True, metric="a"), O("fails", metric="b")], "a",
     "precondition undecided"),
    ([O("inconclusive", metric="a"), O("fails", metric="b")], "b", "failed"),
    ([O("holds", metric="a"), O("inconclusive", metric="b")], "b", "straddles"),
    ([O("holds", metric="a"), O("holds", True, metric="b")], "a", "all hold"),
])
def test_the_judge_marks_one_outcome_and_why(outcomes, metric, why):
    claim_verdict(outcomes, lambda o: o.metric)
    assert [(o.metric, o.deciding) for o in outcomes if o.deciding] == [(metric, why)]
    assert deciding(outcomes) is next(o for o in outcomes if o.deciding) and why in DECIDING


def test_judging_again_moves_the_mark_and_outcomes_kept_unmarked_get_the_same_rule():
    outcomes = [O("fails", metric="a"), O("holds", metric="b")]
    assert mark_deciding(outcomes).metric == "a"
    outcomes[0].decision = "holds"
    claim_verdict(outcomes, lambda o: o.metric)
    assert [o.deciding for o in outcomes] == ["all hold", None]
    kept = [O("holds", metric="a"), O("fails", metric="b")]  # as read back from before the mark
    assert deciding(kept).metric == "b" and deciding([]) is None
