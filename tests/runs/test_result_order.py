"""A result is written as soon as its own points are back: an analysis with seed figures is not
held until every other analysis's queued points have run (they are drawn ahead of them)."""

from __future__ import annotations

import json

import pytest

from tests.support.files import write
from tests.support.seeds_toy import TOY, litrec
from tests.support.toy import analysis


@pytest.fixture(autouse=True)
def _hook_alone(monkeypatch):
    """The later analysis looks for the first's result file, which a sandbox does not hold: the audit hook alone watches (LITREC_SANDBOX=off); the sandbox's own tests are
    tests/runs/test_sandbox.py."""
    monkeypatch.setenv("LITREC_SANDBOX", "off")

FIRST = TOY + '''

def seed_figures(points):
    """Every seed's loss."""
    from matplotlib.figure import Figure

    fig = Figure()
    fig.add_subplot().plot([p["metrics"]["loss_trained"] for p in points])
    return {"seeds": fig}
'''

# Each of its points waits (up to a minute) for the first analysis's result and says if it came.
LATER = analysis(doc="Points that wait for the first analysis's result.",
                 head='import pathlib\nimport time\n\nSEEDS = {"quick": (0, 1, 2)}',
                 fields="seed: int = 0", profiles='{"quick": Config()}', body="""
there = pathlib.Path(__file__).parents[1] / "results" / "first" / "quick.json"
for _ in range(600):
    if there.is_file():
        return {"metrics": {"first_written": 1.0}}
    time.sleep(0.1)
return {"metrics": {"first_written": 0.0}}
""")

PAPER = """id: ARXIV-0000.00009
kind: literature
title: A paper of two analyses
claims:
  - id: F1
    kind: finding
    title: Small loss
    statement: The loss is small.
    check:
      analysis: first
      expect:
        - {metric: loss_trained, op: "<", value: 0.5, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}
  - id: F2
    kind: finding
    title: Written
    statement: The first result is written first.
    check:
      analysis: later
      expect:
        - {metric: first_written, op: ">", value: 0.5, source: {kind: paper, where: §1, quote: a test claim, threshold: paper}}
"""


def test_an_analysis_with_seed_figures_is_written_before_the_points_queued_after_it(tmp_path):
    write(tmp_path, "analysis/__init__.py", "")
    write(tmp_path, "analysis/first.py", FIRST)
    write(tmp_path, "analysis/later.py", LATER)
    write(tmp_path, "analysis/registry.yaml",
          "first:\n  module: first\n  title: First\n\nlater:\n  module: later\n  title: Later\n")
    write(tmp_path, "records/literature/ARXIV-0000.00009.yaml", PAPER)
    done = litrec("run", "--profile", "quick", "--jobs", "2", "--executor", "local", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    first = json.loads((tmp_path / "results" / "first" / "quick.json").read_text())
    assert "seeds.svg" in first["figures"] or (tmp_path / "results" / "first" / "quick" / "seeds.svg").is_file()
    later = json.loads((tmp_path / "results" / "later" / "quick.json").read_text())
    assert later["metrics"]["first_written"] == 1.0      # every one of its points saw it
    assert later["spread"]["first_written"]["min"] == 1.0
