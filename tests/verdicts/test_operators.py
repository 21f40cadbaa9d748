"""Every operator at, just inside and just outside its threshold: tables a wrong verdict fails.

Two levels: `decide` on intervals with exact edges (no floating-point doubt about which side
of the threshold an edge lies), and `evaluate` on per-seed metrics, for one seed and several,
with NaN/null in some seeds, factors and tolerances other than the defaults.
"""

from __future__ import annotations

import math

import pytest

from litrec.records.model import Expectation
from litrec.verdicts.judge import MissingMetric, decide, evaluate, get_metric
from litrec.verdicts.stats import Summary, summarize


def E(**kw) -> Expectation:
    return Expectation.model_validate(kw)


def seeds(**columns) -> list[dict]:
    """Per-seed metric dicts from columns: seeds(a=[1, 2], b=[3, 4])."""
    n = len(next(iter(columns.values())))
    return [{k: v[i] for k, v in columns.items()} for i in range(n)]


def interval(lo: float, hi: float) -> Summary:
    """A summary with exactly this interval (three seeds, mean in the middle, spread 1)."""
    mid = (lo + hi) / 2
    return Summary((lo, mid, hi), mid, 1.0, lo, hi, "student t")


# ------------------------------------------------ the decision on an interval, threshold 0

BELOW, TOUCH_BELOW, STRADDLE, TOUCH_ABOVE, ABOVE, POINT = (
    (-2.0, -1.0), (-1.0, 0.0), (-1.0, 1.0), (0.0, 1.0), (1.0, 2.0), (0.0, 0.0))

DECIDE = {
    #      below    touching below   straddling     touching above  above    a point on it
    "<":  ("holds", "inconclusive", "inconclusive", "fails",        "fails", "fails"),
    "<=": ("holds", "holds",        "inconclusive", "inconclusive", "fails", "holds"),
    ">":  ("fails", "fails",        "inconclusive", "inconclusive", "holds", "fails"),
    ">=": ("fails", "inconclusive", "inconclusive", "holds",        "holds", "holds"),
}


@pytest.mark.parametrize("op", list(DECIDE))
@pytest.mark.parametrize("where", range(6))
def test_each_operator_on_each_side_of_its_threshold(op, where):
    lo, hi = (BELOW, TOUCH_BELOW, STRADDLE, TOUCH_ABOVE, ABOVE, POINT)[where]
    decision, needed = decide(interval(lo, hi), op, 0.0)
    assert decision == DECIDE[op][where], (op, lo, hi)
    assert (needed is not None) == (decision == "inconclusive" and lo + hi != 0)


@pytest.mark.parametrize("op", list(DECIDE))
def test_a_nonzero_threshold_is_where_the_edges_are_compared(op):
    # the same table shifted by 5: the threshold is used, not 0
    for where, (lo, hi) in enumerate((BELOW, TOUCH_BELOW, STRADDLE, TOUCH_ABOVE, ABOVE, POINT)):
        assert decide(interval(lo + 5, hi + 5), op, 5.0)[0] == DECIDE[op][where]


BAND = [  # (low, high) of (metric - expected) / tolerance; the band is [-1, 1]
    ((-0.5, 0.5), "holds"),
    ((-1.0, 1.0), "holds"),          # both edges on the band's edges
    ((0.2, 1.0), "holds"),           # upper edge on it
    ((-1.0, -0.2), "holds"),         # lower edge on it
    ((-1.5, 0.5), "inconclusive"),   # out on the lower side
    ((0.5, 1.5), "inconclusive"),    # out on the upper side
    ((-2.0, 2.0), "inconclusive"),   # both
    ((1.0, 2.0), "inconclusive"),    # touching the upper edge from outside
    ((-2.0, -1.0), "inconclusive"),  # touching the lower edge from outside
    ((1.5, 2.0), "fails"),
    ((-2.0, -1.5), "fails"),
    ((3.0, 3.0), "fails"),
    ((-3.0, -3.0), "fails"),
]


@pytest.mark.parametrize("edges, decision", BAND)
def test_the_band_on_both_sides_and_at_its_edges(edges, decision):
    assert decide(interval(*edges), "band", 0.0)[0] == decision


@pytest.mark.parametrize("mean, edge", [(0.6, 1.0), (-0.6, -1.0), (1.8, 1.0), (-1.8, -1.0),
                                        (0.0, 1.0), (0.3, 1.0), (-0.3, -1.0), (0.05, 1.0),
                                        (-0.05, -1.0)])
def test_an_undecided_band_counts_seeds_to_its_nearer_edge(mean, edge):
    # std 1, three seeds: the seeds needed are those of the plain threshold at the nearer edge
    s = Summary((mean - 1, mean, mean + 1), mean, 1.0, mean - 3.0, mean + 3.0, "student t")
    decision, needed = decide(s, "band", 0.0)
    assert decision == "inconclusive"
    gap = abs(mean - edge)
    expect = next((n for n in range(3, 1001) if _t(n - 1) / math.sqrt(n) < gap), None)
    assert needed == expect


def _t(df: int) -> float:
    from scipy import stats

    return round(float(stats.t.ppf(0.975, df)), 3) if df <= 30 else 1.960


# ------------------------------------------------ one seed: the point decides

ONE_SEED = [  # op, value, measured, decision
    ("<", 0.5, 0.4999, "holds"), ("<", 0.5, 0.5, "fails"), ("<", 0.5, 0.5001, "fails"),
    ("<=", 0.5, 0.4999, "holds"), ("<=", 0.5, 0.5, "holds"), ("<=", 0.5, 0.5001, "fails"),
    (">", 0.5, 0.5001, "holds"), (">", 0.5, 0.5, "fails"), (">", 0.5, 0.4999, "fails"),
    (">=", 0.5, 0.5001, "holds"), (">=", 0.5, 0.5, "holds"), (">=", 0.5, 0.4999, "fails"),
    (">", -0.5, -0.4999, "holds"), ("<", -0.5, -0.4999, "fails"),
]


@pytest.mark.parametrize("op, value, measured, decision", ONE_SEED)
def test_one_seed_at_inside_and_outside_the_threshold(op, value, measured, decision):
    o = evaluate(E(metric="m", op=op, value=value), [{"m": measured}])
    assert o.decision == decision
    assert o.holds is {"holds": True, "fails": False}[decision]
    assert (o.n, o.method, o.values, o.interval) == (1, "single seed", [measured], [measured] * 2)
    assert o.measured == measured == o.mean and o.expected == value
    assert o.seeds_needed is None and o.judged is None and o.reason is None


# ------------------------------------------------ several seeds: the interval decides

def three(mean: float, d: float) -> list[float]:
    return [mean - d, mean, mean + d]


# three seeds m-d, m, m+d have std d and the 95% interval m ± 4.303 d / sqrt(3) = m ± 2.484 d
SEVERAL = [  # op, mean, d; the threshold is 1.0
    ("<", 0.7, 0.1, "holds"), ("<", 1.3, 0.1, "fails"), ("<", 0.9, 0.1, "inconclusive"),
    ("<", 1.1, 0.1, "inconclusive"),
    ("<=", 0.7, 0.1, "holds"), ("<=", 1.3, 0.1, "fails"), ("<=", 0.9, 0.1, "inconclusive"),
    ("<=", 1.1, 0.1, "inconclusive"),
    (">", 1.3, 0.1, "holds"), (">", 0.7, 0.1, "fails"), (">", 1.1, 0.1, "inconclusive"),
    (">", 0.9, 0.1, "inconclusive"),
    (">=", 1.3, 0.1, "holds"), (">=", 0.7, 0.1, "fails"), (">=", 1.1, 0.1, "inconclusive"),
    (">=", 0.9, 0.1, "inconclusive"),
]


@pytest.mark.parametrize("op, mean, d, decision", SEVERAL)
def test_three_seeds_inside_outside_and_straddling(op, mean, d, decision):
    values = three(mean, d)
    o = evaluate(E(metric="m", op=op, value=1.0), seeds(m=values))
    assert o.decision == decision
    half = 4.303 * d / math.sqrt(3)
    assert o.interval == pytest.approx([mean - half, mean + half])
    assert o.mean == pytest.approx(mean) and o.values == values and o.method == "student t"
    assert o.holds is {"holds": True, "fails": False}.get(decision)
    if decision == "inconclusive":  # gap 0.1, std 0.1: t(n-1)/sqrt(n) < 1 from n = 7
        assert o.seeds_needed == 7
    else:
        assert o.seeds_needed is None


@pytest.mark.parametrize("values, decision", [
    ([0.1, float("nan"), 0.2], "fails"),
    ([0.1, None, 0.2], "fails"),
    ([None, 0.1, 0.2], "fails"),
    ([0.1, 0.2, float("nan")], "fails"),
])
def test_a_nan_or_null_in_one_seed_of_several_fails_the_expectation(values, decision):
    o = evaluate(E(metric="m", op="<", value=1.0), seeds(m=values))
    assert o.decision == decision and o.holds is False
    assert o.reason == "a measured value is NaN or null (or its references coincide)"
    assert o.interval is None and o.mean is None
    assert o.measured[0] == 0.1 or o.measured[0] is None  # every seed's value, shown as a list


def test_a_nan_in_the_reference_of_one_seed_fails_too():
    o = evaluate(E(metric="a", op="<", ref="b"), seeds(a=[0.1, 0.1], b=[0.2, float("nan")]))
    assert o.decision == "fails" and "NaN" in o.reason
    o = evaluate(E(metric="a", op="<", ref="b"), seeds(a=[0.1, 0.1], b=[0.2, None]))
    assert o.decision == "fails"
    assert o.measured == [0.1, 0.1]


def test_a_nan_single_seed_shows_the_value_itself():
    o = evaluate(E(metric="m", op=">", value=0.0), [{"m": None}])
    assert o.decision == "fails" and o.measured is None and o.values is None


# ------------------------------------------------ factors

@pytest.mark.parametrize("measured, decision", [(0.39, "holds"), (0.41, "fails"), (0.6, "fails")])
def test_a_factor_scales_the_expected_number(measured, decision):
    # 0.41 < 0.5 but not < 0.8 x 0.5 = 0.4: a factor ignored or divided by holds it
    o = evaluate(E(metric="m", op="<", value=0.5, factor=0.8), [{"m": measured}])
    assert o.decision == decision
    assert o.expected == pytest.approx(0.4)
    assert o.rel_diff == pytest.approx((measured - 0.4) / 0.4)


def test_a_factor_scales_the_reference_per_seed():
    gd = [1.0, 1.1, 0.9]
    trained = [0.85 * g for g in gd]  # 15% below gd: below 0.9 gd, not below 0.8 gd
    holds = evaluate(E(metric="t", op="<", ref="gd", factor=0.9), seeds(t=trained, gd=gd))
    fails = evaluate(E(metric="t", op="<", ref="gd", factor=0.8), seeds(t=trained, gd=gd))
    assert holds.decision == "holds" and fails.decision == "fails"
    assert holds.judged["quantity"] == "t − 0.9 × gd (paired)"
    assert holds.judged["mean"] == pytest.approx(-0.05)
    assert holds.judged["values"] == pytest.approx([-0.05, -0.055, -0.045])
    assert holds.expected == pytest.approx(0.9)  # the reference's mean, times the factor
    assert fails.expected == pytest.approx(0.8)


def test_a_reference_without_factor_is_named_plainly_and_paired():
    o = evaluate(E(metric="t", op=">", ref="gd"), seeds(t=[1.2, 1.3, 1.25], gd=[1.0] * 3))
    assert o.judged["quantity"] == "t − gd (paired)" and o.decision == "holds"
    assert o.judged["values"] == pytest.approx([0.2, 0.3, 0.25])
    assert o.expected == 1.0 and o.rel_diff == pytest.approx(0.25)


def test_a_factor_on_an_equality_and_on_a_band():
    assert evaluate(E(metric="m", op="==", value=2.0, factor=1.5), [{"m": 3.0}]).decision == "holds"
    assert evaluate(E(metric="m", op="==", value=2.0, factor=1.5), [{"m": 2.0}]).decision == "fails"
    e = E(metric="m", op="≈", value=2.0, factor=1.5, abs_tol=0.01)
    assert evaluate(e, [{"m": 3.005}]).decision == "holds"
    assert evaluate(e, [{"m": 2.0}]).decision == "fails"


def test_a_factor_on_an_equality_with_a_nan_or_null_reference_judges_as_without_one():
    # NaN or null times a factor is what it was: it failed with a TypeError (a traceback)
    for r in (math.nan, None):
        for m in (1.0, None):
            with_factor = evaluate(E(metric="m", op="==", ref="r", factor=2.0), [{"m": m, "r": r}])
            without = evaluate(E(metric="m", op="==", ref="r"), [{"m": m, "r": r}])
            assert with_factor.decision == without.decision
    assert evaluate(E(metric="m", op="==", ref="r", factor=2.0), [{"m": 1.0, "r": math.nan}]).decision == "fails"


def test_a_list_reference_is_shown_times_its_factor():
    o = evaluate(E(metric="m", op="<", ref="r", factor=2.0),
                 seeds(m=[[1.0, 1.0]], r=[[1.0, 3.0]]))
    assert o.expected == [2.0, 6.0] and o.decision == "holds"
    o = evaluate(E(metric="m", op="<", ref="r", factor=2.0), seeds(m=[[1.0, 7.0]], r=[[1.0, 3.0]]))
    assert o.decision == "fails"


# ------------------------------------------------ the ≈ band and its tolerances

@pytest.mark.parametrize("kw, measured, decision", [
    # absolute tolerance 0.01 around 1.0
    ({"abs_tol": 0.01}, 1.0099, "holds"), ({"abs_tol": 0.01}, 1.0101, "fails"),
    ({"abs_tol": 0.01}, 0.9901, "holds"), ({"abs_tol": 0.01}, 0.9899, "fails"),
    # relative tolerance 5% of the expected value 2.0 (0.1)
    ({"rel_tol": 0.05}, 2.099, "holds"), ({"rel_tol": 0.05}, 2.101, "fails"),
    ({"rel_tol": 0.05}, 1.901, "holds"), ({"rel_tol": 0.05}, 1.899, "fails"),
    # both: the larger decides
    ({"rel_tol": 0.05, "abs_tol": 0.2}, 2.19, "holds"), ({"rel_tol": 0.05, "abs_tol": 0.2}, 2.21, "fails"),
    ({"rel_tol": 0.2, "abs_tol": 0.01}, 2.39, "holds"), ({"rel_tol": 0.2, "abs_tol": 0.01}, 2.41, "fails"),
    # a zero tolerance: exactly equal holds, anything else fails
    ({"abs_tol": 0.0}, None, "holds"), ({"abs_tol": 0.0}, 1.0000001, "fails"),
    ({"abs_tol": 0.0}, 0.9999999, "fails"),
])
def test_approximately_with_each_tolerance(kw, measured, decision):
    value = 2.0 if "rel_tol" in kw else 1.0
    measured = value if measured is None else measured
    o = evaluate(E(metric="m", op="≈", value=value, **kw), [{"m": measured}])
    assert o.decision == decision


def test_a_relative_tolerance_is_of_the_expected_value_not_of_the_measured():
    # 5% of 1.0 is 0.05; 5% of the measured 1.06 would be 0.053 and hold it
    assert evaluate(E(metric="m", op="≈", value=1.0, rel_tol=0.05), [{"m": 1.052}]).decision == "fails"
    # below zero the tolerance is still positive
    assert evaluate(E(metric="m", op="≈", value=-2.0, rel_tol=0.05), [{"m": -2.09}]).decision == "holds"
    assert evaluate(E(metric="m", op="≈", value=-2.0, rel_tol=0.05), [{"m": -1.89}]).decision == "fails"


def test_approximately_over_seeds_is_judged_in_units_of_the_tolerance():
    o = evaluate(E(metric="a", op="≈", ref="b", abs_tol=0.1), seeds(a=[1.02, 1.04, 1.06], b=[1, 1, 1]))
    assert o.judged["quantity"] == "(a − expected) / tolerance"
    assert o.judged["values"] == pytest.approx([0.2, 0.4, 0.6])
    assert o.decision == "holds"
    # mean 0.8 in tolerance units, spread 0.2: straddles the upper edge 1
    o = evaluate(E(metric="a", op="≈", ref="b", abs_tol=0.1), seeds(a=[1.06, 1.08, 1.1], b=[1, 1, 1]))
    assert o.decision == "inconclusive"
    # gap 0.2 to the edge at 1, std 0.2 in those units: t(n-1)/sqrt(n) < 1 from n = 7
    assert o.seeds_needed == 7
    o = evaluate(E(metric="a", op="≈", ref="b", abs_tol=0.1), seeds(a=[0.94, 0.92, 0.9], b=[1, 1, 1]))
    assert o.decision == "inconclusive" and o.seeds_needed == 7  # the lower edge, at -1
    o = evaluate(E(metric="a", op="≈", ref="b", abs_tol=0.1), seeds(a=[0.7, 0.72, 0.74], b=[1, 1, 1]))
    assert o.decision == "fails"


# ------------------------------------------------ between

@pytest.mark.parametrize("position, trained, decision", [
    ("< 0.25", 1.2, "holds"), ("< 0.25", 1.25, "fails"), ("< 0.25", 1.3, "fails"),
    ("<= 0.25", 1.25, "holds"), ("<= 0.25", 1.3, "fails"),
    ("> 0.25", 1.3, "holds"), ("> 0.25", 1.25, "fails"), ("> 0.25", 1.2, "fails"),
    (">= 0.25", 1.25, "holds"), (">= 0.25", 1.2, "fails"),
])
def test_between_at_inside_and_outside_its_position(position, trained, decision):
    # low 1, high 2: the position is trained - 1
    e = E(metric="t", op="between", low="lo", high="hi", position=position)
    o = evaluate(e, [{"t": trained, "lo": 1.0, "hi": 2.0}])
    assert o.decision == decision
    assert o.judged["mean"] == pytest.approx(trained - 1.0)
    assert o.expected == position


def test_between_measures_from_low_towards_high_whichever_is_larger():
    e = E(metric="t", op="between", low="lo", high="hi", position="< 0.25")
    # low above high: 2.9 is 0.1 of the way from 3 down to 2
    o = evaluate(e, [{"t": 2.9, "lo": 3.0, "hi": 2.0}])
    assert o.judged["mean"] == pytest.approx(0.1) and o.decision == "holds"
    assert o.judged["quantity"] == "position of t between lo and hi"


def test_between_with_coinciding_or_missing_ends_fails():
    e = E(metric="t", op="between", low="lo", high="hi", position="< 0.5")
    for row in ({"t": 1.0, "lo": 1.0, "hi": 1.0}, {"t": 1.0, "lo": None, "hi": 2.0},
                {"t": 1.0, "lo": 0.0, "hi": float("nan")}, {"t": None, "lo": 0.0, "hi": 2.0}):
        o = evaluate(e, [{"t": 0.5, "lo": 0.0, "hi": 2.0}, row])
        assert o.decision == "fails" and "coincide" in o.reason, row


def test_between_over_seeds_is_judged_on_the_position_interval():
    e = E(metric="t", op="between", low="lo", high="hi", position="< 0.5")
    rows = [{"t": 1.0 + p, "lo": 1.0, "hi": 2.0} for p in (0.35, 0.45, 0.55)]
    o = evaluate(e, rows)
    assert o.decision == "inconclusive" and o.seeds_needed is not None
    assert o.judged["interval"][0] < 0.5 < o.judged["interval"][1]


# ------------------------------------------------ equality, booleans, types

def test_equality_over_seeds():
    e = E(metric="m", op="==", value=3)
    assert evaluate(e, seeds(m=[3, 3])).decision == "holds"
    o = evaluate(e, seeds(m=[3, 4]))
    assert o.decision == "inconclusive" and o.measured == [3, 4] and o.values == [3, 4]
    o = evaluate(e, seeds(m=[4, 4]))
    assert o.decision == "fails" and o.measured == 4 and o.holds is False
    o = evaluate(E(metric="m", op="==", ref="r"), seeds(m=[1, 2], r=[1, 2]))
    assert o.decision == "holds"


def test_a_boolean_against_a_number_is_refused_with_both_named():
    o = evaluate(E(metric="m", op="==", value=1.0), [{"m": True}])
    assert o.decision == "refused" and o.holds is None
    assert o.reason == ("metric 'm' is the boolean true and the expected value is 1.0; "
                        "litrec does not compare them")
    o = evaluate(E(metric="m", op="==", value=False), [{"m": 0}])
    assert o.reason == ("metric 'm' is 0 and the expected value is the boolean false; "
                        "litrec does not compare them")
    assert evaluate(E(metric="m", op="==", value=True, factor=2.0), [{"m": True}]).decision == "holds"


@pytest.mark.parametrize("value, named", [
    (True, "the boolean true"), (False, "the boolean false"), ("ten", "the text 'ten'"),
    ("x" * 50, "the text " + repr("x" * 40)), ({"a": 1}, "a mapping"),
])
def test_a_value_that_is_not_a_number_is_refused_and_named(value, named):
    o = evaluate(E(metric="m", op="<", ref="x"), [{"m": 1.0, "x": value}])
    assert o.decision == "refused"
    assert o.reason == (f"metric 'x' is {named}, not a number; litrec does not compare it with "
                        "one (the claim and the analysis disagree on the metric's type)")
    o = evaluate(E(metric="x", op="<", value=1.0), [{"x": value}])
    assert o.reason.startswith(f"metric 'x' is {named}, not a number")


def test_a_non_number_expected_value_is_named_as_such():
    o = evaluate(E(metric="m", op="==", ref="r", factor=2.0), [{"m": 1.0, "r": "one"}])
    assert o.decision == "refused" and o.reason.startswith("the expected value is the text 'one'")


def test_a_metric_is_found_by_its_dotted_name_or_reported_missing():
    assert get_metric({"a": {"b": {"c": 3}}}, "a.b.c") == 3
    for metrics, name in (({"a": 1.5}, "a.b"), ({"a": {"b": 1}}, "a.c"), ({}, "a"),
                          ({"a": [1, 2]}, "a.b")):
        with pytest.raises(MissingMetric) as exc:
            get_metric(metrics, name)
        assert exc.value.args == (name,)


def test_the_outcome_carries_the_expectation_and_its_sources():
    e = E(metric="m", op="<", value=1.0, paper=0.5, official=0.6, note="why")
    o = evaluate(e, [{"m": 0.5}], noise={"m": 0.01, "other": 1})
    assert (o.expectation, o.metric, o.paper, o.official, o.note, o.noise) == (
        "m < 1", "m", 0.5, 0.6, "why", 0.01)
    assert evaluate(e, [{"m": 0.5}]).noise is None
    assert o.rel_diff == pytest.approx(-0.5)
    assert evaluate(E(metric="m", op="<", value=0.0), [{"m": -1.0}]).rel_diff is None


# ------------------------------------------------ list metrics: every element

def test_a_list_metric_is_judged_per_element_with_every_seed():
    e = E(metric="g", op="<", value=1.0)
    o = evaluate(e, seeds(g=[[0.1, 0.5], [0.2, 0.7], [0.3, 0.6]]))
    assert o.decision == "holds"
    assert o.measured == pytest.approx([0.2, 0.6]) and o.values is None
    assert o.expected == 1.0 and o.seeds_needed is None
    # the second element straddles with gap 0.1 and std 0.1: 7 seeds; the first holds
    o = evaluate(e, seeds(g=[[0.1, 0.8], [0.2, 0.9], [0.3, 1.0]]))
    assert o.decision == "inconclusive" and o.seeds_needed == 7
    o = evaluate(e, seeds(g=[[0.1, 1.8], [0.2, 0.9], [0.3, 1.0]]))
    assert o.decision == "inconclusive"
    o = evaluate(e, seeds(g=[[5.1, 0.8], [5.2, 0.9], [5.3, 1.0]]))
    assert o.decision == "fails" and o.seeds_needed is None


def test_a_list_metric_against_a_list_reference_and_between():
    o = evaluate(E(metric="g", op="<", ref="r"), seeds(g=[[1.0, 2.0], [1.1, 2.1]], r=[[2.0, 1.0], [2.1, 1.1]]))
    assert o.decision == "fails"
    o = evaluate(E(metric="g", op="<", ref="r"), seeds(g=[[1.0, 0.5], [1.1, 0.6]], r=[[2.0, 1.0], [2.1, 1.1]]))
    assert o.decision == "holds" and o.expected == [2.0, 1.0]
    e = E(metric="g", op="between", low="lo", high="hi", position="< 0.5")
    o = evaluate(e, [{"g": [1.1, 1.2], "lo": [1.0, 1.0], "hi": [2.0, 2.0]}])
    assert o.decision == "holds" and o.measured == [1.1, 1.2]
    o = evaluate(e, [{"g": [1.1, 1.7], "lo": [1.0, 1.0], "hi": [2.0, 2.0]}])
    assert o.decision == "fails"


def test_a_list_whose_length_changes_across_seeds_is_refused():
    o = evaluate(E(metric="g", op="<", value=1.0), seeds(g=[[0.1, 0.2], [0.1]]))
    assert o.decision == "refused"
    assert o.reason == ("metric 'g' is a list at some seeds and not at others, or its length "
                        "changes")
    o = evaluate(E(metric="g", op="<", value=1.0), seeds(g=[[0.1, 0.2], 0.3]))
    assert o.decision == "refused"


def test_several_seeds_are_summarized_like_summarize():
    values = [0.31, 0.29, 0.35, 0.30]
    o = evaluate(E(metric="m", op="<", value=1.0), seeds(m=values))
    s = summarize(values)
    assert o.interval == [s.low, s.high] and o.mean == s.mean and o.measured == s.mean
    assert o.n == 4 and o.method == "student t" and o.judged is None


def test_a_list_metric_against_a_number_metric_compares_every_element_with_it():
    o = evaluate(E(metric="g", op="<", ref="r"), seeds(g=[[0.1, 0.2], [0.2, 0.3]], r=[1.0, 1.0]))
    assert o.decision == "holds" and o.measured == pytest.approx([0.15, 0.25])
    o = evaluate(E(metric="g", op="<", ref="r"), seeds(g=[[0.1, 2.0], [0.2, 2.1], [0.1, 2.2]],
                                                      r=[1.0, 1.0, 1.0]))
    assert o.decision == "fails"


def test_a_list_whose_open_element_sits_on_the_threshold_needs_no_seed_count():
    o = evaluate(E(metric="g", op="<", value=1.0), seeds(g=[[0.1, 0.9], [0.2, 1.0], [0.3, 1.1]]))
    assert o.decision == "inconclusive" and o.seeds_needed is None and o.direction == "undecided"


def test_a_number_compared_with_a_list_is_refused_and_named():
    o = evaluate(E(metric="m", op="<", ref="r"), [{"m": 1.0, "r": [1.0, 2.0]}])
    assert o.decision == "refused"
    assert o.reason.startswith("metric 'r' is a list, not a number")
