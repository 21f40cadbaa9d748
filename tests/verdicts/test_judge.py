"""Verdicts over seeds, on synthetic metrics where the right answer is known."""

from __future__ import annotations

import math

import pytest

from litrec.records.model import Expectation
from litrec.verdicts.judge import evaluate
from litrec.verdicts.stats import seeds_needed, summarize, t975


def E(**kw) -> Expectation:
    return Expectation.model_validate(kw)


def seeds(**columns) -> list[dict]:
    """Per-seed metric dicts from columns: seeds(a=[1, 2], b=[3, 4])."""
    n = len(next(iter(columns.values())))
    return [{k: v[i] for k, v in columns.items()} for i in range(n)]


# ---------------------------------------------------------------- the interval


def test_student_t_interval_matches_the_textbook():
    s = summarize([1.0, 2.0, 3.0])
    assert s.mean == 2.0 and s.std == 1.0 and s.method == "student t"
    half = 4.303 / math.sqrt(3)  # t_{0.975, 2}
    assert s.low == pytest.approx(2 - half) and s.high == pytest.approx(2 + half)


def test_one_seed_is_its_own_interval():
    s = summarize([0.25])
    assert (s.low, s.high, s.std, s.method) == (0.25, 0.25, 0.0, "single seed")


def test_ten_seeds_or_more_use_a_bootstrap_inside_the_range():
    xs = [0.1 * i for i in range(12)]
    s = summarize(xs)
    assert s.method == "bootstrap"
    assert min(xs) < s.low < s.mean < s.high < max(xs)
    assert summarize(xs) == s  # a fixed generator: the same interval every time


def test_t_quantiles_fall_towards_the_normal():
    assert t975(1) == 12.706 and t975(30) == 2.042 and t975(200) == 1.960
    assert all(t975(d) > t975(d + 1) for d in range(1, 30))


def test_seeds_needed_shrinks_with_the_gap():
    s = summarize([0.9, 1.1, 1.0])
    assert seeds_needed(s, 1.5) < seeds_needed(s, 1.1)
    assert seeds_needed(s, 1.0) is None  # the mean sits on the threshold


# ---------------------------------------------------------------- three values


@pytest.mark.parametrize("values, decision", [
    ([0.10, 0.11, 0.12], "holds"),         # interval [0.085, 0.135] entirely below 0.2
    ([0.30, 0.31, 0.29], "fails"),         # entirely above
    ([0.10, 0.30, 0.17], "inconclusive"),  # [-0.06, 0.44] straddles 0.2
])
def test_a_threshold_is_judged_on_the_interval(values, decision):
    o = evaluate(E(metric="loss", op="<", value=0.2), seeds(loss=values))
    assert o.decision == decision
    assert o.n == 3 and o.values == values and o.interval[0] < o.mean < o.interval[1]
    assert (o.seeds_needed is not None) == (decision == "inconclusive")


def test_a_single_seed_is_judged_on_its_point_as_before():
    assert evaluate(E(metric="loss", op="<", value=0.2), [{"loss": 0.19}]).decision == "holds"
    assert evaluate(E(metric="loss", op="<", value=0.2), [{"loss": 0.21}]).decision == "fails"


def test_two_metrics_of_one_run_are_compared_per_seed():
    # each seed's trained loss is 1% below its GD loss, while both swing by 10% across seeds:
    # unpaired intervals overlap, the paired difference is clearly negative
    gd = [0.20, 0.22, 0.18, 0.21]
    trained = [g * 0.99 for g in gd]
    o = evaluate(E(metric="trained", op="<", ref="gd"), seeds(trained=trained, gd=gd))
    assert o.decision == "holds"
    assert o.judged["quantity"] == "trained − gd (paired)"
    assert o.judged["interval"][1] < 0
    assert o.interval[1] > min(gd)  # the metric's own interval overlaps the reference's


def test_approximately_equal_is_a_band_in_units_of_the_tolerance():
    e = E(metric="a", op="≈", ref="b", rel_tol=0.02)
    assert evaluate(e, seeds(a=[1.001, 0.999, 1.0], b=[1, 1, 1])).decision == "holds"
    assert evaluate(e, seeds(a=[1.1, 1.09, 1.11], b=[1, 1, 1])).decision == "fails"
    assert evaluate(e, seeds(a=[1.0, 1.04, 1.02], b=[1, 1, 1])).decision == "inconclusive"


def test_between_measures_where_the_value_sits():
    e = E(metric="k2.trained", op="between", low="k2.gdpp", high="k2.gd", position="< 0.15")
    rows = [{"k2": {"trained": 0.111, "gdpp": 0.110, "gd": 0.154}},
            {"k2": {"trained": 0.1115, "gdpp": 0.1108, "gd": 0.155}},
            {"k2": {"trained": 0.112, "gdpp": 0.1101, "gd": 0.153}}]
    o = evaluate(e, rows)
    assert o.decision == "holds"
    assert 0 < o.judged["mean"] < 0.1
    far = [{"k2": {"trained": 0.14, "gdpp": 0.11, "gd": 0.154}}] * 2
    assert evaluate(e, far).decision == "fails"


def test_between_refuses_a_malformed_position():
    with pytest.raises(ValueError, match="position"):
        E(metric="a", op="between", low="l", high="h", position="about 0.1")
    with pytest.raises(ValueError, match="not value or ref"):
        E(metric="a", op="between", low="l", high="h", position="< 1", value=1.0)


def test_a_boolean_is_never_compared_with_a_number():
    o = evaluate(E(metric="flag", op=">", value=0.5), [{"flag": True}])
    assert o.decision == "refused" and "not a number" in o.reason
    o = evaluate(E(metric="flag", op="==", value=1.0), [{"flag": True}])
    assert o.decision == "refused"


def test_a_boolean_must_hold_at_every_seed():
    e = E(metric="ok", op="==", value=True)
    assert evaluate(e, seeds(ok=[True, True])).decision == "holds"
    assert evaluate(e, seeds(ok=[False, False])).decision == "fails"
    assert evaluate(e, seeds(ok=[True, False])).decision == "inconclusive"


def test_nan_fails_with_a_reason():
    o = evaluate(E(metric="loss", op="<", value=1.0), [{"loss": None}])
    assert o.decision == "fails" and "NaN" in o.reason


def test_a_list_metric_holds_only_where_every_element_holds():
    e = E(metric="gaps", op="<", value=0.1)
    assert evaluate(e, seeds(gaps=[[0.01, 0.02], [0.02, 0.03]])).decision == "holds"
    assert evaluate(e, seeds(gaps=[[0.01, 0.5], [0.02, 0.6], [0.02, 0.55]])).decision == "fails"
    assert evaluate(e, seeds(gaps=[[0.01, 0.05], [0.02, 0.15], [0.01, 0.1]])).decision == "inconclusive"


def test_evaluation_noise_is_carried_beside_the_metric():
    o = evaluate(E(metric="loss", op="<", value=1.0), [{"loss": 0.5}], noise={"loss": 0.003})
    assert o.noise == 0.003
