"""The toy project of the `litrec run` tests: an analysis that imports a helper of its package,
draws a figure and returns nested metrics and a list; a paper with two claims on it (F1
reproduced, F2 not: its total is 12 at quick, not above a thousand); a note that uses F2 and
is a source of a theory, so both rest on a claim not reproduced. No JAX work.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.files import write
from tests.support.toy import write_project

TOY = '''
from dataclasses import dataclass
from analysis.helper import scale


@dataclass(frozen=True)
class Config:
    seed: int = 0
    n: int = 4
    fail: bool = False


PROFILES = {"quick": Config(n=4), "paper": Config(n=8)}


def run(config, progress=None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    if config.fail:
        raise RuntimeError("boom")
    xs = np.arange(config.n, dtype=float)
    if progress:
        progress(1, 2, "half")
    fig, ax = plt.subplots()
    ax.plot(xs)
    return {"metrics": {"n": config.n, "total": scale(xs.sum()), "xs": xs,
                        "nested": {"ok": True}},
            "figures": {"line": fig}, "notes": ["toy"]}
'''

LIT = '''
id: ARXIV-0000.00001
kind: literature
title: Toy paper
claims:
  - id: F1
    kind: finding
    title: Total is big
    statement: The total exceeds ten.
    check:
      analysis: toy
      expect:
        - {metric: total, op: ">", value: 10, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}
        - {metric: nested.ok, op: "==", value: true, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}
        - {metric: xs, op: ">=", value: 0, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}
  - id: F2
    kind: finding
    title: Total is huge
    statement: The total exceeds a thousand.
    check:
      analysis: toy
      expect:
        - {metric: total, op: ">", value: 1000, paper: 1234, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}
'''

NOTE = '''
id: NOTE-1
kind: note
links:
  - {rel: uses, target: "ARXIV-0000.00001#F2"}
  - {rel: source_of, target: THEORY-1}
'''


def write_run_toy(root: Path) -> Path:
    """The toy project at `root`; returns `root`."""
    write_project(root, TOY, {"literature/ARXIV-0000.00001.yaml": LIT, "notes/NOTE-1.yaml": NOTE,
                              "theories/THEORY-1.yaml": "id: THEORY-1\nkind: theory\n"})
    write(root, "analysis/helper.py", "def scale(x):\n    return 2 * float(x)\n")
    return root
