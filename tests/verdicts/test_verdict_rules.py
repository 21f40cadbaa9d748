"""A claim's verdict from its outcomes: preconditions, directions, few seeds, stored expectations.

In-process tables (no litrec subprocess), so that a changed rule fails a test.
"""

from __future__ import annotations

import hashlib
import json
import math

import pytest

from litrec.records.expectation import Expectation
from litrec.verdicts.claims import judged_in, stored_expectations
from litrec.verdicts.judge import Outcome, claim_verdict, evaluate, leaning, likely_direction
from litrec.verdicts.stats import Summary, few_seeds, few_seeds_short, mean, mean_noise, sample_std, summarize


def E(**kw) -> Expectation:
    return Expectation.model_validate(kw)


def O(decision: str, **kw) -> Outcome:
    o = Outcome(kw.pop("expectation", "m < 1"), kw.pop("metric", "m"), None, None,
                {"holds": True, "fails": False}.get(decision), decision=decision)
    for k, v in kw.items():
        setattr(o, k, v)
    return o


def where(o: Outcome) -> str:
    return f"at {o.metric}"


# ------------------------------------------------ the claim's verdict


def test_every_outcome_holding_is_reproduced():
    assert claim_verdict([O("holds"), O("holds")], where) == ("reproduced", None, None, None)
    assert claim_verdict([], where) == ("reproduced", None, None, None)


def test_a_failure_is_not_reproduced_and_a_refusal_is_an_error_first():
    assert claim_verdict([O("holds"), O("fails")], where) == ("not reproduced", None, None, None)
    got = claim_verdict([O("fails"), O("refused", metric="x", reason="no number"),
                    O("refused", metric="y", reason="other")], where)
    assert got == ("error", "at x: no number; not judged", None, None)


@pytest.mark.parametrize("decision, word", [("fails", "failed"), ("inconclusive", "undecided")])
def test_an_unmet_precondition_makes_the_claim_inconclusive_never_not_reproduced(decision, word):
    pre = O(decision, precondition=True, expectation="gd_drop > 0.9 (precondition)")
    for others in ([O("fails")], [O("holds")], [O("inconclusive", seeds_needed=5)]):
        got = claim_verdict([pre, *others], where)
        assert got == ("inconclusive", f"precondition {word}: gd_drop > 0.9 (precondition)",
                       "undecided", None)
    two = claim_verdict([pre, O("fails", precondition=True, expectation="b")], where)
    assert two[1] == f"precondition {word}: gd_drop > 0.9 (precondition); precondition failed: b"
    # a refusal still comes first
    assert claim_verdict([pre, O("refused", reason="r")], where)[0] == "error"


def test_a_precondition_that_holds_leaves_the_verdict_to_the_claim():
    pre = O("holds", precondition=True)
    assert claim_verdict([pre, O("fails")], where)[0] == "not reproduced"
    assert claim_verdict([pre, O("holds")], where)[0] == "reproduced"


def _open(direction: str, needed: int | None, n: int = 5, metric: str = "m", reason=None):
    o = O("inconclusive", metric=metric, direction=direction, seeds_needed=needed, n=n,
          reason=reason, mean=0.5, threshold=1.0)
    return o


@pytest.mark.parametrize("directions, claim", [
    (["likely holds"], "likely reproduced"),
    (["likely holds", "likely holds"], "likely reproduced"),
    (["likely holds", "undecided"], "undecided"),
    (["undecided", "likely fails"], "likely not reproduced"),
    (["likely fails", "likely holds"], "likely not reproduced"),
])
def test_the_claim_leans_the_way_its_open_outcomes_do(directions, claim):
    outs = [_open(d, 4 + i, metric=f"m{i}") for i, d in enumerate(directions)]
    verdict, reason, direction, needed = claim_verdict([O("holds"), *outs], where)
    assert (verdict, direction) == ("inconclusive", claim)
    assert needed == 3 + len(directions)  # the most any open outcome needs
    assert reason == f"an interval straddles its threshold, {claim}: " + "; ".join(
        f"{o.metric}: {leaning(o)}" for o in outs)


def test_no_estimate_anywhere_needs_no_seed_count():
    assert claim_verdict([_open("undecided", None)], where)[3] is None


@pytest.mark.parametrize("n", [2, 3])
def test_a_few_seeds_claim_says_why_its_interval_is_wide(n):
    o = _open("likely holds", 7, n=n, reason=few_seeds(n))
    reason = claim_verdict([o], where)[1]
    assert reason == (f"an interval straddles its threshold, {few_seeds_short(n)}; likely "
                      f"reproduced: m: {leaning(o)}")
    # without the outcome's own seed-count reason the claim does not add it
    plain = _open("likely holds", 7, n=n)
    assert claim_verdict([plain], where)[1].startswith("an interval straddles its threshold, likely")
    other = _open("likely holds", 7, n=n, reason="something else")
    assert claim_verdict([other], where)[1].startswith("an interval straddles its threshold, likely")


def test_the_widest_open_outcome_decides_the_few_seeds_note():
    few = _open("likely holds", 7, n=2, reason=few_seeds(2))
    many = _open("likely holds", 7, n=5, metric="x")
    # the largest seed count among the open outcomes, 5, is not few: no note
    assert claim_verdict([few, many], where)[1].startswith("an interval straddles its threshold, likely")


# ------------------------------------------------ which way an open outcome leans


def S(m: float) -> Summary:
    return Summary((m,), m, 1.0, m - 5, m + 5, "student t")


@pytest.mark.parametrize("op, m, t, direction", [
    ("<", 0.5, 1.0, "likely holds"), ("<", 1.5, 1.0, "likely fails"), ("<", 1.0, 1.0, "undecided"),
    ("<=", 0.5, 1.0, "likely holds"), ("<=", 1.5, 1.0, "likely fails"),
    ("<=", 1.0, 1.0, "undecided"),
    (">", 0.5, 1.0, "likely fails"), (">", 1.5, 1.0, "likely holds"), (">", 1.0, 1.0, "undecided"),
    (">=", 0.5, 1.0, "likely fails"), (">=", 1.5, 1.0, "likely holds"),
    ("band", 0.5, 0.0, "likely holds"), ("band", -0.5, 0.0, "likely holds"),
    ("band", 1.5, 0.0, "likely fails"), ("band", -1.5, 0.0, "likely fails"),
    ("band", 1.0, 0.0, "undecided"), ("band", -1.0, 0.0, "undecided"),
])
def test_an_open_outcome_leans_to_the_side_of_its_mean(op, m, t, direction):
    assert likely_direction(S(m), op, t, 5) == direction
    assert likely_direction(S(m), op, t, None) == "undecided"  # no number of seeds would decide


def test_the_leaning_in_words():
    o = evaluate(E(metric="m", op="<", value=1.0), [{"m": v} for v in (0.8, 0.9, 1.0)])
    assert o.decision == "inconclusive" and o.threshold == 1.0 and o.direction == "likely holds"
    assert leaning(o) == f"mean 0.9 below 1: about {o.seeds_needed} seeds would likely decide it holds (seeds added after this look are marked: optional stopping)"
    o = evaluate(E(metric="m", op="<", value=1.0), [{"m": v} for v in (1.0, 1.1, 1.2)])
    assert leaning(o) == f"mean 1.1 above 1: about {o.seeds_needed} seeds would likely decide it fails (seeds added after this look are marked: optional stopping)"
    o = evaluate(E(metric="m", op="<", value=1.0), [{"m": v} for v in (0.9, 1.0, 1.1)])
    assert leaning(o) == "mean 1 at 1: undecided, no number of seeds would likely decide it at this spread"
    o = evaluate(E(metric="a", op="<", ref="b"), [{"a": v, "b": 1.0} for v in (0.8, 0.9, 1.0)])
    assert leaning(o).startswith("mean of a − b (paired) -0.1 below 0: about ")
    assert leaning(evaluate(E(metric="m", op="<", value=1.0), [{"m": 0.1}])) is None
    o = evaluate(E(metric="m", op="==", value=1), [{"m": 1}, {"m": 2}])
    assert o.direction == "undecided"
    assert leaning(o) == "undecided: the metric equals the expected value at some seeds, not at others"


def test_the_leaning_of_a_list_is_its_worst_element():
    e = E(metric="g", op="<", value=1.0)
    rows = [{"g": [0.8, 1.0, 0.9]}, {"g": [0.9, 1.1, 1.0]}, {"g": [1.0, 1.2, 1.1]}]
    o = evaluate(e, rows)  # elements: 0.9 likely holds, 1.1 likely fails, 1.0 undecided
    assert o.decision == "inconclusive" and o.direction == "likely fails"
    rows = [{"g": [0.8, 0.9]}, {"g": [0.9, 1.0]}, {"g": [1.0, 1.1]}]
    assert evaluate(e, rows).direction == "undecided"
    rows = [{"g": [0.8, 0.8]}, {"g": [0.9, 0.9]}, {"g": [1.0, 1.0]}]
    o = evaluate(e, rows)
    assert o.direction == "likely holds" and o.reason == few_seeds(3)
    assert evaluate(e, rows[:1] * 1).reason is None


def test_the_threshold_and_the_other_side_are_carried():
    o = evaluate(E(metric="m", op=">", value=0.5, factor=2.0), [{"m": 2.0}])
    assert o.threshold == 1.0 and o.ref is None and o.ref_values is None
    o = evaluate(E(metric="a", op="<", ref="b", factor=0.8), [{"a": 0.1, "b": 1.0}, {"a": 0.2, "b": 2.0}])
    assert o.threshold == 0.0 and o.ref == "0.8 × b" and o.ref_values == pytest.approx([0.8, 1.6])
    o = evaluate(E(metric="a", op="<", ref="b"), [{"a": 0.1, "b": 1.0}])
    assert o.ref == "b" and o.ref_values is None  # one seed: the expected value says it
    o = evaluate(E(metric="a", op="<", ref="b"), [{"a": [0.1], "b": [1.0]}, {"a": [0.1], "b": [1.0]}])
    assert o.ref_values is None  # not numbers
    o = evaluate(E(metric="a", op="≈", ref="b", abs_tol=0.1), [{"a": 1.05, "b": 1.0}])
    assert o.threshold == 1.0
    o = evaluate(E(metric="a", op="≈", ref="b", abs_tol=0.1), [{"a": 0.95, "b": 1.0}])
    assert o.threshold == -1.0
    o = evaluate(E(metric="a", op="≈", ref="b", abs_tol=0.1), [{"a": 1.0, "b": 1.0}])
    assert o.threshold == 1.0


# ------------------------------------------------ few seeds, mean, spread and noise


def test_few_seeds_says_why_an_interval_is_wide():
    assert few_seeds(1) is None and few_seeds(4) is None and few_seeds(0) is None
    assert few_seeds(2) == ("the interval is wide because of the seed count: 2 seeds give Student "
                            "t with 1 degree of freedom (t = 12.7, against 1.96 for many seeds), "
                            "so the mean is known only to ±9 standard deviations of the seeds; "
                            "run more seeds (a paper profile) to decide")
    assert few_seeds(3).startswith("the interval is wide because of the seed count: 3 seeds give "
                                   "Student t with 2 degrees of freedom (t = 4.3, against")
    assert "±2.5 standard deviations" in few_seeds(3)
    assert few_seeds_short(2) == "wide because of the seed count: 2 seeds, t = 12.7 with 1 degree of freedom"
    assert few_seeds_short(3) == "wide because of the seed count: 3 seeds, t = 4.3 with 2 degrees of freedom"
    assert few_seeds_short(1) is None and few_seeds_short(4) is None


def test_mean_and_sample_std():
    assert mean([1.0, 2.0, 4.0]) == pytest.approx(7 / 3)
    assert mean([0.1] * 10) == 0.1 * 10 / 10  # summed exactly
    assert sample_std([1.0, 2.0, 3.0]) == 1.0
    assert sample_std([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]) == pytest.approx(math.sqrt(32 / 7))
    assert sample_std([3.0]) == 0.0 and sample_std([]) == 0.0
    assert summarize([2.0, 4.0]).std == pytest.approx(math.sqrt(2))


def test_mean_noise_of_a_mean_over_points():
    got = mean_noise([{"a": 0.3, "b": 1.0}, {"a": 0.4}, {"a": 0.0, "b": 2.0}])
    assert got == {"a": pytest.approx(0.5 / 3)}  # b is missing at one point: left out
    assert mean_noise([{"a": 0.3}, {"a": True}]) == {}
    assert mean_noise([{"b": 2.0, "a": 1.0}]) == {"a": 1.0, "b": 2.0}
    assert list(mean_noise([{"b": 2.0, "a": 1.0}])) == ["a", "b"]
    assert mean_noise([]) == {}


# ------------------------------------------------ expectations per profile and as stored


def test_an_expectation_is_judged_in_its_profiles_only():
    a = E(metric="m", op="<", value=1.0)
    b = E(metric="m", op="<", value=2.0, profiles=["paper_full"])
    assert judged_in([a, b], "paper") == [a]
    assert judged_in([a, b], "paper_full") == [a, b]
    assert judged_in([a, b], None) == [a, b]


def _stored(data, hash_=None) -> dict:
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return {"expectations": {"P#1": {"text": [], "data": data,
                                     "hash": hash_ or hashlib.sha256(blob.encode()).hexdigest()}}}


def test_stored_expectations_are_read_back_only_when_their_hash_matches():
    data = [{"metric": "m", "op": "<", "value": 1.0}]
    (e,) = stored_expectations(_stored(data), "P#1")
    assert e == E(metric="m", op="<", value=1.0)
    assert stored_expectations(_stored(data, "0" * 64), "P#1") is None
    assert stored_expectations(_stored(data), "P#2") is None
    assert stored_expectations({}, "P#1") is None
    assert stored_expectations({"expectations": {"P#1": {"data": "x"}}}, "P#1") is None
    assert stored_expectations({"expectations": {"P#1": ["x"]}}, "P#1") is None
    bad = [{"metric": "m", "op": "<"}]  # no right-hand side: not an expectation of this litrec
    assert stored_expectations(_stored(bad), "P#1") is None


def test_the_leaning_of_a_list_has_no_single_mean():
    rows = [{"g": [0.8, 0.8]}, {"g": [0.9, 0.9]}, {"g": [1.0, 1.0]}]
    o = evaluate(E(metric="g", op="<", value=1.0), rows)
    assert o.mean is None and o.values is None
    assert leaning(o) == f"about {o.seeds_needed} seeds would likely decide it holds (seeds added after this look are marked: optional stopping)"
