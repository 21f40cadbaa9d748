"""The interval over seeds against reference values: SciPy's t quantiles and bootstrap as oracles."""

from __future__ import annotations

import math
import statistics

import numpy as np
import pytest

from litrec.verdicts.stats import BOOTSTRAP_FROM, T975, Summary, seeds_needed, summarize, t975


def scipy_stats():
    """SciPy's statistics, the oracle: imported by the tests that use it, not when every test
    worker collects this module (a second or more each)."""
    from scipy import stats

    return stats


@pytest.mark.parametrize("df", range(1, 41))
def test_the_t_table_is_scipys_quantile_to_three_decimals(df):
    sp = scipy_stats()
    want = float(sp.t.ppf(0.975, df)) if df <= 30 else float(sp.norm.ppf(0.975))
    assert t975(df) == pytest.approx(want, abs=5e-4 if df <= 30 else 0.5e-2)
    assert t975(df) == (round(want, 3) if df <= 30 else 1.960)


def test_the_t_table_ends_at_30_degrees_of_freedom():
    assert len(T975) == 30 and t975(30) == 2.042 and t975(31) == 1.960


@pytest.mark.parametrize("values", [
    [1.0, 2.0],
    [0.1, 0.4, 0.2],
    [0.31, 0.29, 0.35, 0.30],              # 4 seeds: df 3
    [0.5, 0.7, 0.4, 0.65, 0.55],           # 5 seeds: df 4
    [1.0, 1.1, 0.9, 1.05, 0.95, 1.2],
    [3.0, 2.0, 4.0, 3.5, 2.5, 3.2, 2.8, 3.1, 2.9],  # 9 seeds: the last with Student t
])
def test_fewer_than_ten_seeds_give_scipys_student_t_interval(values):
    sp = scipy_stats()
    n = len(values)
    s = summarize(values)
    mean, sd = statistics.fmean(values), statistics.stdev(values)
    low, high = sp.t.interval(0.95, n - 1, loc=mean, scale=sd / math.sqrt(n))
    assert s.method == "student t" and s.n == n and s.values == tuple(values)
    assert s.mean == pytest.approx(mean, rel=1e-12) and s.std == pytest.approx(sd, rel=1e-12)
    # the table's quantiles are rounded to 3 decimals: 1e-4 of the half-width
    assert s.low == pytest.approx(low, abs=1e-4 * (high - low))
    assert s.high == pytest.approx(high, abs=1e-4 * (high - low))


def test_one_seed_is_a_point_with_no_spread():
    s = summarize([0.25])
    assert s == Summary((0.25,), 0.25, 0.0, 0.25, 0.25, "single seed")
    assert s.to_json() == {"values": [0.25], "mean": 0.25, "std": 0.0, "interval": [0.25, 0.25],
                           "n": 1, "method": "single seed"}


def test_to_json_is_what_is_stored():
    s = summarize([1.0, 2.0, 3.0])
    j = s.to_json()
    assert j == {"values": [1.0, 2.0, 3.0], "mean": 2.0, "std": 1.0, "interval": [s.low, s.high],
                 "n": 3, "method": "student t"}


def _documented_bootstrap(values) -> tuple[float, float]:
    """The interval as stats' docstring describes it: 10,000 resamples, generator seed 0."""
    xs = np.asarray(values, dtype=float)
    rng = np.random.default_rng(0)
    idx = rng.integers(0, len(xs), size=(10_000, len(xs)))
    lo, hi = np.percentile(xs[idx].mean(axis=1), [2.5, 97.5])
    return float(lo), float(hi)


@pytest.mark.parametrize("n", [9, 10, 11])
def test_the_bootstrap_starts_at_ten_seeds(n):
    values = [0.1 * i + (0.3 if i == 0 else 0.0) for i in range(n)]
    s = summarize(values)
    assert BOOTSTRAP_FROM == 10
    assert s.method == ("bootstrap" if n >= 10 else "student t")
    assert s.std == pytest.approx(statistics.stdev(values), rel=1e-12)
    assert s.values == tuple(values) and s.mean == pytest.approx(statistics.fmean(values))
    if n >= 10:
        assert (s.low, s.high) == _documented_bootstrap(values)


@pytest.mark.parametrize("values", [
    [0.1 * i for i in range(10)],
    [5.0] + [1.0 + 0.01 * i for i in range(11)],       # one outlier, first
    [1.0 + 0.01 * i for i in range(11)] + [5.0],       # one outlier, last
    [0.97, 1.02, 0.99, 1.05, 0.96, 1.01, 1.03, 0.98, 1.0, 1.04, 0.95, 1.02, 0.99, 1.01, 1.0],
])
def test_the_bootstrap_interval_agrees_with_scipys(values):
    sp = scipy_stats()
    s = summarize(values)
    assert s.method == "bootstrap" and (s.low, s.high) == _documented_bootstrap(values)
    ref = sp.bootstrap((np.asarray(values),), np.mean, confidence_level=0.95, n_resamples=10_000,
                       method="percentile", rng=np.random.default_rng(12345)).confidence_interval
    width = ref.high - ref.low
    assert s.low == pytest.approx(ref.low, abs=0.03 * width)
    assert s.high == pytest.approx(ref.high, abs=0.03 * width)
    assert summarize(values) == s  # a fixed generator


# ------------------------------------------------ seeds_needed: exact values


def summary(mean: float, std: float, n: int) -> Summary:
    return Summary(tuple([mean] * n), mean, std, mean - 1, mean + 1, "student t")


def oracle_seeds(mean, std, n, threshold, limit=1000):
    """The least n' >= max(n, 2) with t_{0.975, n'-1} * std / sqrt(n') < |mean - threshold|,
    with the t quantile from SciPy rounded as the table rounds it."""
    sp = scipy_stats()
    gap = abs(mean - threshold)
    for m in range(max(n, 2), limit + 1):
        q = round(float(sp.t.ppf(0.975, m - 1)), 3) if m <= 31 else 1.960
        if q * std / math.sqrt(m) < gap:
            return m
    return None


@pytest.mark.parametrize("mean, std, n, threshold, want", [
    (0.5, 1.0, 3, 0.0, 18),    # 2.110 / sqrt(18) = 0.497 < 0.5; 2.120 / sqrt(17) = 0.514
    (1.0, 1.0, 3, 0.0, 7),     # 2.447 / sqrt(7) = 0.925 < 1;    2.571 / sqrt(6) = 1.050
    (0.9, 0.1, 3, 1.0, 7),     # the same gap/std ratio, below the threshold
    (3.0, 1.0, 3, 0.0, 3),     # already decided at 3 (4.303 / sqrt(3) = 2.48 < 3)
    (0.1, 1.0, 3, 0.0, 385),   # 1.960 / sqrt(385) = 0.0999 < 0.1
    (0.2, 1.0, 5, 0.0, 97),    # beyond the table: 1.960 / sqrt(97) = 0.1990; sqrt(96): 0.2000
    (10.0, 1.0, 2, 0.0, 2),    # two seeds are enough: 12.706 / sqrt(2) = 8.98 < 10
    (5.0, 1.0, 2, 0.0, 3),     # 8.98 > 5; 4.303 / sqrt(3) = 2.48 < 5
    (3.182, 2.0, 4, 0.0, 5),   # at 4 seeds exactly on it (3.182 * 2 / 2), not below: 5
])
def test_seeds_needed_exact_values(mean, std, n, threshold, want):
    got = seeds_needed(summary(mean, std, n), threshold)
    assert got == want
    if (mean, std, n) != (3.182, 2.0, 4):  # an exact tie, decided by the table's value
        assert got == oracle_seeds(mean, std, n, threshold)


def test_seeds_needed_stops_at_its_limit_and_on_no_spread_or_no_gap():
    s = summary(0.5, 1.0, 3)
    assert seeds_needed(s, 0.0, limit=18) == 18 and seeds_needed(s, 0.0, limit=17) is None
    assert seeds_needed(summary(0.01, 1.0, 3), 0.0) is None          # 38,000 seeds: past 1000
    assert seeds_needed(summary(1.0, 0.0, 3), 0.0) is None           # no spread: no estimate
    assert seeds_needed(summary(1.0, 1.0, 3), 1.0) is None           # the mean on the threshold
    assert seeds_needed(summarize([1.0, 1.0, 1.0]), 0.5) is None


def test_seeds_needed_is_counted_from_the_seeds_there_are():
    # a larger run never asks for fewer seeds than it has
    assert seeds_needed(summary(3.0, 1.0, 12), 0.0) == 12
    assert seeds_needed(summary(0.5, 1.0, 20), 0.0) == 20


def test_seeds_needed_counts_up_to_a_thousand_seeds_by_default():
    # 1.960 / sqrt(1000) = 0.061981 > 0.06196 > 1.960 / sqrt(1001) = 0.061949
    assert seeds_needed(summary(0.06196, 1.0, 3), 0.0) is None
    assert seeds_needed(summary(0.06196, 1.0, 3), 0.0, limit=1001) == 1001
    assert seeds_needed(summary(0.062, 1.0, 3), 0.0) == 1000
