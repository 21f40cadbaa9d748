"""Which way an undecided verdict leans: the side of the threshold the mean sits on, and the seeds to decide it."""

from __future__ import annotations

import pytest

from litrec.records.expectation import Expectation
from litrec.verdicts.judge import evaluate, leaning
from tests.support.seeds_toy import claim, litrec, status, write_project


def judge(values, **exp):
    return evaluate(Expectation(metric="m", **exp), [{"m": v, "r": 0.0} for v in values])


@pytest.mark.parametrize("values, op, value, direction", [
    ([0.98, 0.985, 0.975], ">", 0.99, "likely fails"),     # mean 0.98 below 0.99
    ([0.98, 0.985, 0.975], ">=", 0.99, "likely fails"),
    ([0.98, 0.985, 0.975], "<", 0.99, "likely holds"),
    ([0.98, 0.985, 0.975], "<=", 0.99, "likely holds"),
    ([1.0, 0.995, 1.005], ">", 0.99, "likely holds"),       # mean 1.0 above 0.99
    ([1.0, 0.995, 1.005], "<", 0.99, "likely fails"),
    ([0.5, 1.5, 1.0], ">", 1.0, "undecided"),               # the mean sits on the threshold
    ([0.9, 1.1, 1.0000001], ">", 1.0, "undecided"),         # so close that no n would decide
])
def test_an_inconclusive_outcome_leans_to_the_side_of_its_mean(values, op, value, direction):
    o = judge(values, op=op, value=value)
    assert o.decision == "inconclusive" and o.direction == direction
    assert o.threshold == value


def test_the_leaning_names_the_mean_the_threshold_and_the_seeds():
    o = judge([0.98, 0.985, 0.975], op=">", value=0.99)
    # t(3) * 0.005 / 2 = 0.00796 < 0.01, the gap; t(2) * 0.005 / sqrt(3) = 0.0124 is not
    assert o.seeds_needed == 4
    assert leaning(o) == "mean 0.98 below 0.99: about 4 seeds would likely decide it fails (seeds added after this look are marked: optional stopping)"
    o = judge([0.5, 1.5, 1.0], op=">", value=1.0)
    assert leaning(o) == ("mean 1 at 1: undecided, no number of seeds would likely "
                          "decide it at this spread")


def test_a_decided_outcome_has_no_direction():
    assert judge([0.5, 0.51, 0.52], op="<", value=0.99).direction is None
    assert judge([0.5, 0.51, 0.52], op=">", value=0.99).direction is None
    assert leaning(judge([0.5], op=">", value=0.99)) is None


def test_a_band_leans_inside_or_outside_its_tolerance():
    inside = judge([0.995, 1.0, 1.005, 1.012], op="≈", value=1.0, abs_tol=0.01)
    assert inside.decision == "inconclusive" and inside.direction == "likely holds"
    assert inside.threshold == 1.0  # the nearer edge, in units of the tolerance
    outside = judge([1.005, 1.012, 1.02, 1.015], op="≈", value=1.0, abs_tol=0.01)
    assert outside.decision == "inconclusive" and outside.direction == "likely fails"


def test_a_paired_comparison_leans_on_the_differences():
    o = evaluate(Expectation(metric="a", op="<", ref="b"),
                 [{"a": 1.0, "b": 1.01}, {"a": 1.0, "b": 0.995}, {"a": 1.0, "b": 1.02}])
    assert o.decision == "inconclusive" and o.direction == "likely holds" and o.threshold == 0.0
    assert leaning(o).startswith("mean of a − b (paired) -0.008333 below 0:")


def test_a_list_leans_to_fail_when_one_element_would():
    seeds = [{"m": [0.5, 0.98]}, {"m": [0.5, 0.985]}, {"m": [0.51, 0.975]}]
    o = evaluate(Expectation(metric="m", op="<", value=0.99), seeds)
    assert o.decision == "inconclusive" and o.direction == "likely holds"
    o = evaluate(Expectation(metric="m", op=">", value=0.99), seeds)
    assert o.decision == "fails" and o.direction is None
    seeds = [{"m": [1.0, 0.98]}, {"m": [1.2, 0.985]}, {"m": [0.995, 0.975]}]
    o = evaluate(Expectation(metric="m", op=">", value=0.99), seeds)
    assert o.decision == "inconclusive" and o.direction == "likely fails"


def test_equality_at_some_seeds_is_undecided():
    o = evaluate(Expectation(metric="m", op="==", value=True), [{"m": True}, {"m": False}])
    assert o.decision == "inconclusive" and o.direction == "undecided"
    assert "some seeds" in leaning(o)


def test_the_claim_says_which_way_on_every_surface(tmp_path):
    # the toy's quick losses are 0.10126, 0.10346, 0.10189 (mean 0.1022, 95% [0.0994, 0.1050])
    root = write_project(tmp_path / "p",
                         claim("F1", '{metric: loss_trained, op: "<", value: 0.1035, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}'),
                         claim("F2", '{metric: loss_trained, op: "<", value: 0.1010, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}'),
                         claim("F3", '{metric: loss_trained, op: "<", value: 0.2, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}'))
    assert litrec("run", "--profile", "quick", "--jobs", "1", cwd=root).returncode == 0
    _, rows = status(root)
    assert rows["F1"]["verdict"] == "inconclusive" and rows["F1"]["direction"] == "likely reproduced"
    assert rows["F2"]["verdict"] == "inconclusive"
    assert rows["F2"]["direction"] == "likely not reproduced"
    assert rows["F2"]["outcomes"][0]["direction"] == "likely fails"
    assert "mean 0.1022 above 0.101: about" in rows["F2"]["reason"]
    assert rows["F3"]["direction"] is None and rows["F3"]["outcomes"][0]["direction"] is None
    text = litrec("status", "--profile", "quick", "--verbose", cwd=root).stdout
    assert "likely fails: mean 0.1022 above 0.101: about" in text
