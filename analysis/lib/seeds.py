"""Evaluation noise and per-seed figures for the analyses of von Oswald et al.,
"Transformers learn in-context by gradient descent" (ICML 2023).

A metric that is a mean over M evaluation tasks has a standard error, std over
tasks / sqrt(M), due to the finite evaluation set: `mean_se` gives both,
`paired_se` the standard error of a difference of two means on the same tasks,
and `position_se` the standard error (delta method) of where one mean sits
between two others, (a - lo) / (hi - lo), the `between` form of the records.
`seed_curves` draws one curve per training seed for the runner's `seed_figures`.
"""
from typing import Callable, Sequence

import numpy as np
from matplotlib.figure import Figure


def mean_se(values) -> tuple[float, float]:
    """Mean over tasks and its standard error (std / sqrt(M)) of per-task values (M,)."""
    v = np.asarray(values, np.float64).ravel()
    return float(v.mean()), float(v.std(ddof=1) / np.sqrt(v.size)) if v.size > 1 else 0.0


def paired_se(a, b) -> float:
    """Standard error of mean(a) - mean(b) for per-task values on the same tasks (M,) each."""
    return mean_se(np.asarray(a, np.float64) - np.asarray(b, np.float64))[1]


def relative_gap_se(a, b) -> float:
    """Standard error of (mean a - mean b) / mean b (delta method), per-task values (M,) each."""
    a, b = np.asarray(a, np.float64).ravel(), np.asarray(b, np.float64).ravel()
    ma, mb = a.mean(), b.mean()
    return mean_se((a - b) / mb - (ma - mb) * b / mb ** 2)[1]


def position(a, lo, hi) -> tuple[float, float]:
    """(mean a - mean lo) / (mean hi - mean lo) and its standard error (delta method), per-task values."""
    a, lo, hi = (np.asarray(x, np.float64).ravel() for x in (a, lo, hi))
    num, den = a.mean() - lo.mean(), hi.mean() - lo.mean()
    influence = (a - lo) / den - num * (hi - lo) / den ** 2         # (M,) linearised per-task terms
    return float(num / den), mean_se(influence)[1]


def seed_curves(points: Sequence[dict], panels: Sequence[tuple[str, Callable[[dict], tuple]]],
                ylog: bool = True, xlabel: str = "training step") -> Figure:
    """One panel per (title, getter); getter(metrics) -> (x, values[, reference level]); a line per seed.

    `xlabel` names what the getters return first (training steps unless said otherwise).
    """
    fig = Figure(figsize=(5 * len(panels), 3.8))
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, (title, getter) in zip(axes, panels):
        for i, point in enumerate(points):
            got = getter(point["metrics"])
            ax.plot(got[0], got[1], color=f"C{i % 10}", label=f"seed {point['seed']}")
            if len(got) > 2 and got[2] is not None:
                ax.axhline(got[2], color=f"C{i % 10}", linestyle=":", linewidth=0.8)
        if ylog:
            ax.set_yscale("log")
        ax.set_xlabel(xlabel)
        ax.set_title(title, fontsize=10)
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
