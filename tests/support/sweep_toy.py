"""A toy project whose analysis declares a sweep over seeds (numpy only, no JAX work): each point
draws n normal numbers from its seed and returns their mean shifted by 10 (the level) and a
figure; a paper with one claim on it (the level is above 9). `write_toy` rewrites the analysis
with other quick-profile settings: a sleep, a seed that fails, a folder of markers.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.toy import write_project

TOY = '''
"""A toy sweep: the mean of n normal draws from each seed, shifted by 10."""
import os
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    seed: int = 0
    n: int = 16
    sleep: float = 0.0          # seconds each point waits: time to kill a worker mid-task
    fail_seed: int = -1         # the seed whose point raises
    marker_dir: str = ""        # each try of a point leaves <seed>.<pid>.<ns> here as it starts


PROFILES = {"quick": Config(%(quick)s), "paper": Config(n=32)}
SWEEP = {"quick": {"seed": [0, 1, 2]}}


def run(config, progress=None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    if config.marker_dir:
        open(os.path.join(config.marker_dir, f"{config.seed}.{os.getpid()}.{time.time_ns()}"), "w").close()
    time.sleep(config.sleep)
    if config.seed == config.fail_seed:
        raise RuntimeError(f"boom at seed {config.seed}")
    xs = np.random.default_rng(config.seed).normal(size=config.n)  # (n,)
    fig, ax = plt.subplots()
    ax.plot(xs)
    return {"metrics": {"level": 10 + xs.mean(), "first": xs[:2], "n": config.n,
                        "ok": True, "nested": {"seed": config.seed}},
            "figures": {"draws": fig}, "notes": ["toy sweep"]}
'''

LIT = '''
id: ARXIV-0000.00002
kind: literature
title: Toy sweep paper
claims:
  - id: F1
    kind: finding
    title: The level is about ten
    statement: The level is about ten.
    check:
      analysis: toy-sweep
      expect:
        - {metric: level, op: ">", value: 9, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}
        - {metric: ok, op: "==", value: true, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}
'''


def write_toy(root: Path, **quick) -> None:
    """(Re)write the toy analysis with these quick-profile settings."""
    args = ", ".join(f"{k}={v!r}" for k, v in quick.items())
    (root / "analysis" / "toy_sweep.py").write_text(TOY % {"quick": args})


def write_sweep_project(root: Path) -> Path:
    """The sweep project at `root`; returns `root`."""
    return write_project(root, TOY % {"quick": ""}, {"literature/ARXIV-0000.00002.yaml": LIT},
                         name="toy-sweep", module="toy_sweep", title="Toy sweep")
