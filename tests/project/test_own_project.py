"""The project's own records, analyses and results: what any project must keep true.

These tests read PROJECT (tests/conftest.py): the repository, or the project whose
root the environment variable LITREC_TEST_PROJECT names. They expect nothing of the
records beyond what the files say, so they hold whatever papers, notes or analyses
a project adds: its records validate, name their schema and agree with it, its
committed paper results are current, every checked claim's analysis has a test,
and every record and claim gets its place on the site.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from litrec.records.discover import find_record_files
from litrec.records.load import load_project
from litrec.records.schema import schema_filename
from litrec.util.yamlsafe import load_bytes
from tests.conftest import PROJECT, REPO
from tests.support.schema import COMMENT, assert_valid_both_ways

RECORDS, ANALYSIS, RESULTS = PROJECT / "records", PROJECT / "analysis", PROJECT / "results"
SCHEMA_DIR = PROJECT / "schema"


def _args(*extra) -> list[str]:
    return ["--records", str(RECORDS), "--analysis", str(ANALYSIS), *extra]


def test_the_records_validate(cli, tmp_path):
    """On a copy of the records, their review file and the papers' texts their quotes are checked
    against: validate records the review baseline of links new to the file (site/suspect-links.md),
    and a test writes into its own folder, never into the project."""
    import shutil

    copy = tmp_path / "project"
    shutil.copytree(RECORDS, copy / "records")
    for rec in load_project(RECORDS, ANALYSIS).records.values():
        text = getattr(rec, "text", None)
        if text and (PROJECT / text).is_file():
            (copy / text).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(PROJECT / text, copy / text)
    if (PROJECT / "reviews.yaml").is_file():
        shutil.copy(PROJECT / "reviews.yaml", copy / "reviews.yaml")
    code, out, err = cli("validate", "--records", str(copy / "records"), "--analysis", str(ANALYSIS),
                         "--results", str(RESULTS))
    assert code == 0, out + err
    assert [ln for ln in out.splitlines() if ln and ": info: " not in ln] == []
    assert "valid" in err


def test_the_committed_paper_results_are_current(cli):
    """What CI checks with `litrec status --profile paper --check-current --any-machine`: the
    results were computed on one machine, CI runs on whatever machine it is given."""
    code, out, err = cli("status", "--profile", "paper", "--check-current", "--any-machine",
                         "--results", str(RESULTS), *_args())
    assert code == 0, out + err


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
    """Every checked claim of the records has an analysis with a test in tests/analyses."""
    proj = load_project(RECORDS, ANALYSIS)
    assert proj.ok, [d.format() for d in proj.errors]
    tested = set()
    for path in (PROJECT / "tests" / "analyses").glob("test_*.py"):
        tested |= _analysis_modules_imported(path.read_text(encoding="utf-8"))
    missing = [f"{rec.id}#{claim.id} ({claim.check.analysis})" for rec, claim in proj.claims()
               if claim.check and proj.registry.entries[claim.check.analysis].module not in tested]
    assert not missing, f"claims whose analysis has no test in tests/analyses: {missing}"


def test_every_record_gets_a_page_and_every_claim_an_anchor():
    from litrec.site.build import generate

    proj = load_project(RECORDS, ANALYSIS)
    assert proj.records, f"no records in {RECORDS}"
    site = PROJECT / "site" if (PROJECT / "site").is_dir() else REPO / "site"
    files, data = generate(proj, RESULTS, "paper", site)
    for rid, rec in proj.records.items():
        page = files[data.record_page(rid)]
        for claim in getattr(rec, "claims", []) or []:
            assert f"{{ #{claim.id.lower()} }}" in page, f"{rid}#{claim.id}"
    assert files["index.md"].count("lr-v-") >= sum(1 for _ in proj.claims())


def _records() -> list[Path]:
    return find_record_files(RECORDS)


@pytest.mark.parametrize("path", _records(), ids=lambda p: p.stem)
def test_record_names_its_schema(path: Path):
    """The first line names the kind's schema by a path that is right from the record's folder."""
    data = load_bytes(path.read_bytes()).data
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(COMMENT), f"{path}: first line should be {COMMENT}<path>"
    named = first[len(COMMENT):].strip()
    expected = Path(os.path.relpath(SCHEMA_DIR / schema_filename(data["kind"]), path.parent)).as_posix()
    assert named == expected
    assert (path.parent / named).resolve() == (SCHEMA_DIR / schema_filename(data["kind"])).resolve()


@pytest.mark.parametrize("path", _records(), ids=lambda p: p.stem)
def test_record_valid_both_ways(path: Path):
    """The validator's model and the kind's JSON Schema both accept the record."""
    assert_valid_both_ways(path)
