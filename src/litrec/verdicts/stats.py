"""Numbers over seeds: mean, spread and a 95% interval, and how many seeds would decide.

A trained model's measured value is the mean over its seeds with a 95%
confidence interval for that mean: Student's t for fewer than 10 seeds (the
t quantiles below are the standard two-sided 95% values), a percentile
bootstrap over seeds (10,000 resamples, fixed generator seed) from 10 on. One
seed gives a degenerate interval, the value itself, so a single-seed result is
judged as before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# Two-sided 95% Student t quantiles t_{0.975, df}, df = 1..30; beyond 30 the normal 1.960.
T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
BOOTSTRAP_FROM = 10  # seeds; below this, Student t
BOOTSTRAP_RESAMPLES = 10_000


def t975(df: int) -> float:
    """The two-sided 95% Student t quantile for `df` degrees of freedom."""
    return T975[df - 1] if df <= len(T975) else 1.960


@dataclass(frozen=True)
class Summary:
    """Values over seeds: mean, sample std, the 95% interval of the mean, and how it was made."""

    values: tuple[float, ...]
    mean: float
    std: float
    low: float
    high: float
    method: str  # "single seed", "student t" or "bootstrap"

    @property
    def n(self) -> int:
        """The number of seeds."""
        return len(self.values)

    def to_json(self) -> dict:
        """As stored and printed: values, mean, std, interval, n, method."""
        return {"values": list(self.values), "mean": self.mean, "std": self.std,
                "interval": [self.low, self.high], "n": self.n, "method": self.method}


def mean(xs) -> float:
    """The mean of numbers (at least one), summed exactly (`math.fsum`)."""
    return math.fsum(xs) / len(xs)


def sample_std(xs) -> float:
    """The sample standard deviation (n - 1 in the denominator) of numbers; 0 for fewer than 2."""
    if len(xs) < 2:
        return 0.0
    m = mean(xs)
    return math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def mean_noise(per_point: list[dict]) -> dict:
    """The evaluation noise of a mean over points, per metric: sqrt(sum of squared standard
    errors) / n, for the metrics every point gives a number for."""
    names = sorted({k for noise in per_point for k in noise})
    out = {}
    for k in names:
        ses = [noise.get(k) for noise in per_point]
        numbers = [se for se in ses if isinstance(se, (int, float)) and not isinstance(se, bool)]
        if len(numbers) == len(ses):
            out[k] = math.sqrt(math.fsum(se * se for se in numbers)) / len(ses)
    return out


def summarize(values) -> Summary:
    """Mean, std and 95% interval of the mean of finite `values` (at least one)."""
    xs = tuple(float(v) for v in values)
    n = len(xs)
    m = mean(xs)
    if n == 1:
        return Summary(xs, m, 0.0, m, m, "single seed")
    std = sample_std(xs)
    if n < BOOTSTRAP_FROM:
        half = t975(n - 1) * std / math.sqrt(n)
        return Summary(xs, m, std, m - half, m + half, "student t")
    import numpy as np

    rng = np.random.default_rng(0)
    means = np.asarray(xs)[rng.integers(0, n, size=(BOOTSTRAP_RESAMPLES, n))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return Summary(xs, m, std, float(low), float(high), "bootstrap")


FEW_SEEDS = 3  # up to this many seeds, t_{0.975, n-1} is more than twice the normal 1.960


def few_seeds(n: int) -> str | None:
    """Why an interval over `n` seeds is wide whatever the spread, when it is (None otherwise).

    With n seeds the interval is the mean ± t_{0.975, n-1} · std / sqrt(n): at 2 seeds
    t has one degree of freedom and is 12.7 (±9.0 standard deviations of the seeds),
    at 3 it is 4.30 (±2.5), against 1.96 for many seeds.
    """
    if not 2 <= n <= FEW_SEEDS:
        return None
    t = t975(n - 1)
    return (f"the interval is wide because of the seed count: {n} seeds give Student t with "
            f"{n - 1} degree{'s' * (n != 2)} of freedom (t = {t:.3g}, against 1.96 for many "
            f"seeds), so the mean is known only to ±{t / math.sqrt(n):.2g} standard deviations "
            "of the seeds; run more seeds (a paper profile) to decide")


def few_seeds_short(n: int) -> str | None:
    """`few_seeds` in a few words, for a claim's one-line reason."""
    if not 2 <= n <= FEW_SEEDS:
        return None
    return (f"wide because of the seed count: {n} seeds, t = {t975(n - 1):.3g} with {n - 1} "
            f"degree{'s' * (n != 2)} of freedom")


def seeds_needed(summary: Summary, threshold: float, limit: int = 1000) -> int | None:
    """Seeds at which the interval, at this mean and spread, would clear `threshold` (None: never).

    An estimate from the spread seen so far: the least n with t(n-1) * std / sqrt(n) below
    the distance from the mean to the threshold.
    """
    gap = abs(summary.mean - threshold)
    if summary.std == 0 or gap == 0:
        return None
    for n in range(max(summary.n, 2), limit + 1):
        if t975(n - 1) * summary.std / math.sqrt(n) < gap:
            return n
    return None
