"""Every checked claim of the record has an analysis with a test of its quick profile."""

from __future__ import annotations

from litrec.project import load_project
from tests.conftest import REPO


def test_every_claim_has_an_analysis_test():
    proj = load_project(REPO / "records", REPO / "analysis")
    assert proj.ok, [d.format() for d in proj.errors]
    tests = {p.name: p.read_text(encoding="utf-8") for p in (REPO / "tests" / "analyses").glob("test_*.py")}
    missing = []
    for rec, claim in proj.claims():
        if claim.check is None:
            continue
        module = proj.registry.entries[claim.check.analysis].module
        if not any(f"analysis.{module}" in t or f"import {module}" in t or f"analysis import {module}" in t
                   for t in tests.values()):
            missing.append(f"{rec.id}#{claim.id} ({claim.check.analysis})")
    assert not missing, f"claims whose analysis has no test in tests/analyses: {missing}"
