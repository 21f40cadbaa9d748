"""A copy of the project to add a paper to, as a user would (tests/test_add_a_paper.py and the
page it follows, site/add-a-paper.md, in tests/docs/test_add_a_paper_doc.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import PROJECT


def project_copy(dest: Path) -> Path:
    """The project's records, analyses, results, schemas, site pages, review file and analysis
    tests in `dest` (what a run leaves at the quick profile, caches and error logs left out)."""
    junk = shutil.ignore_patterns("__pycache__", "*.pyc", "quick", "quick.json", "*.error.log")
    for rel in ("records", "analysis", "results", "schema", "site", "tests/analyses"):
        if (PROJECT / rel).is_dir():
            shutil.copytree(PROJECT / rel, dest / rel, ignore=junk)
    for rel in ("mkdocs.yml", "reviews.yaml"):  # the review file: as an adopter's clone has it
        if (PROJECT / rel).is_file():
            shutil.copy(PROJECT / rel, dest / rel)
    return dest
