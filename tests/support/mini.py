"""The mini project of the hardening tests: a paper with one checked claim, a note that uses it,
and a NumPy-only analysis that sums 0..n-1 (the `mini` fixture of tests/conftest.py writes it)."""

from __future__ import annotations

from pathlib import Path

from tests.support.toy import analysis, write_project

ANALYSIS = analysis(
    doc="A toy analysis: the sum of 0..n-1 (NumPy only).",
    head="import numpy as np",
    fields='"""How many numbers to sum."""\n\nn: int = 5',
    profiles='{"quick": Config(n=5), "paper": Config(n=6)}',
    body='"""Sum the numbers."""\nreturn {"metrics": {"total": float(np.arange(config.n).sum()), "n": config.n}}')

PAPER = '''
id: ARXIV-0000.00001
kind: literature
title: A toy paper
authors: [Ada Lovelace]
year: 2023
claims:
  - id: F1
    kind: finding
    title: The total is ten
    statement: The sum of the first five numbers is ten.
    check:
      analysis: toy
      expect:
        - {metric: total, op: ">=", value: 10, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}
'''

NOTE = '''
id: NOTE-1
kind: note
title: A note on the toy paper
links:
  - {rel: uses, target: "ARXIV-0000.00001#F1"}
'''


def write_mini(root: Path) -> Path:
    """The mini project at `root`; returns `root`."""
    write_project(root, ANALYSIS, {"literature/ARXIV-0000.00001.yaml": PAPER, "notes/NOTE-1.yaml": NOTE},
                  title="Toy sum")
    return root

