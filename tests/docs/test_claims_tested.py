"""Every checked claim of the record has an analysis with a test of its quick profile."""

from __future__ import annotations

import ast

from litrec.load import load_project
from tests.conftest import REPO


def _analysis_modules_imported(source: str) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "analysis":
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("analysis."):
            found.add(node.module.split(".", 1)[1])
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".", 1)[1] for a in node.names if a.name.startswith("analysis.")}
    return found


def test_every_claim_has_an_analysis_test():
    proj = load_project(REPO / "records", REPO / "analysis")
    assert proj.ok, [d.format() for d in proj.errors]
    tested = set()
    for path in (REPO / "tests" / "analyses").glob("test_*.py"):
        tested |= _analysis_modules_imported(path.read_text(encoding="utf-8"))
    missing = [f"{rec.id}#{claim.id} ({claim.check.analysis})" for rec, claim in proj.claims()
               if claim.check and proj.registry.entries[claim.check.analysis].module not in tested]
    assert not missing, f"claims whose analysis has no test in tests/analyses: {missing}"
