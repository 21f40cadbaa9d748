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

def finding(*expect: str, cid: str = "F1", title: str = "The total is ten",
            statement: str = "The sum of the first five numbers is ten.", analysis: str = "toy") -> str:
    """One finding of a record's `claims:` list (two spaces in), checked by `analysis` with these
    expectations (YAML flow mappings, one a line)."""
    return (f"  - id: {cid}\n    kind: finding\n    title: {title}\n    statement: {statement}\n"
            f"    check:\n      analysis: {analysis}\n      expect:\n" + "".join(f"        - {e}\n" for e in expect))


PAPER = "\nid: ARXIV-0000.00001\nkind: literature\ntitle: A toy paper\nauthors: [Ada Lovelace]\nyear: 2023\n" \
    "claims:\n" + finding('{metric: total, op: ">=", value: 10, source: {kind: paper, where: §1, '
                           'quote: a test claim, threshold: paper}}')

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

