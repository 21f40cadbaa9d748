"""A user adds a paper to a copy of this project, and every project-level check stays green.

The copy holds the project's records, analyses, results, schemas and site pages
and its analysis tests. Into it go what site/writing-records.md and site/writing-analyses.md
describe: a literature record with a claim that an analysis checks, a note that
uses the claim, the anthology's entry for the paper, and a NumPy-only analysis,
registered, with a test of its own. Then, as a user would: `litrec validate`,
`litrec run NAME` (quick, then paper, whose result is committed), `litrec status`,
the analysis's test, and the tests of tests/project pointed at the copy with
LITREC_TEST_PROJECT. Nothing here depends on what the project's records hold:
the new ids are the next free ones.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from litrec.records.load import load_project
from litrec.records.newrecord import next_id
from tests.conftest import REPO
from tests.support.new_paper import project_copy

NAME = "lln-uniform-mean"  # the new analysis; its module is analysis/lln_uniform_mean.py
MODULE = NAME.replace("-", "_")

ANALYSIS = '''\
"""The law of large numbers on U(0, 1) draws: their mean is close to 1/2.

A NumPy-only analysis added by tests/test_add_a_paper.py, as a user would add one.
"""
from dataclasses import dataclass

import numpy as np
from matplotlib.figure import Figure


@dataclass(frozen=True)
class Config:
    seed: int = 0        # the draws' generator
    n: int = 100_000     # number of draws


PROFILES = {
    "quick": Config(n=4_000),
    "paper": Config(),
}


def run(config: Config, progress=None) -> dict:
    xs = np.random.default_rng(config.seed).uniform(0.0, 1.0, size=config.n)  # (n,)
    if progress is not None:
        progress(1, 1, "draws")
    fig = Figure()
    fig.subplots().hist(xs, bins=20)
    return {"metrics": {"mean": xs.mean(), "n": config.n, "in_range": bool((xs >= 0).all() and (xs < 1).all())},
            "figures": {"histogram": fig}, "notes": [f"{config.n} draws"]}
'''

ANALYSIS_TEST = f'''\
"""The quick profile of {NAME}: the mean of the draws is close to 1/2."""
from analysis import {MODULE} as m


def test_quick_profile_mean_is_a_half():
    r = m.run(m.PROFILES["quick"])["metrics"]
    assert abs(r["mean"] - 0.5) < 0.02 and r["n"] == 4_000 and r["in_range"]
'''


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


def _litrec(root: Path, *args: str) -> subprocess.CompletedProcess:
    """`litrec ARGS` in its own process, as a user runs it (the analysis is imported there)."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "litrec", *args], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)


def _free_arxiv_id(ids: set[str]) -> str:
    return next(f"ARXIV-2501.{n:05d}" for n in range(1, 100_000) if f"ARXIV-2501.{n:05d}" not in ids)


def add_a_paper(root: Path) -> dict[str, str]:
    """Add the paper, its note and anthology entry, and the analysis with its test; return the new ids."""
    proj = load_project(root / "records", root / "analysis")
    assert proj.ok, [d.format() for d in proj.errors]
    ids = set(proj.records)
    assert NAME not in proj.registry.entries
    paper, note, entry = _free_arxiv_id(ids), next_id("note", ids), next_id("anthology", ids, "LIT")

    _write(root / "records" / "literature" / f"{paper}.yaml", f"""\
        # yaml-language-server: $schema=../../schema/literature.schema.json
        id: {paper}
        kind: literature
        title: A note on averages of uniform draws
        authors: [Ada Lovelace]
        year: 2025
        arxiv: "{paper.removeprefix('ARXIV-')}"
        claims:
          - id: F1
            kind: finding
            title: The mean of many U(0, 1) draws is about one half
            statement: The mean of many independent U(0, 1) draws is within 0.02 of 1/2.
            check:
              analysis: {NAME}
              expect:
                - {{metric: mean, op: "≈", value: 0.5, abs_tol: 0.02, paper: 0.5, source: {{kind: paper, where: §1, quote: a test claim, threshold: paper}}}}
                - {{metric: in_range, op: "==", value: true, source: {{kind: paper, where: §1, quote: a test claim, threshold: paper}}}}
        """)
    _write(root / "records" / "notes" / f"{note}.yaml", f"""\
        # yaml-language-server: $schema=../../schema/note.schema.json
        id: {note}
        kind: note
        title: Averages settle
        links:
          - rel: reading_of
            target: {paper}
          - rel: uses
            target: {paper}#F1
            note: the finding this note rests on
        """)
    _write(root / "records" / "anthology" / f"{entry}.yaml", f"""\
        # yaml-language-server: $schema=../../schema/anthology.schema.json
        id: {entry}
        kind: anthology
        title: A note on averages of uniform draws
        stance: kept
        read_for: what an average of draws tells
        links:
          - rel: entry_for
            target: {paper}
          - rel: keeps
            target: {paper}#F1
        """)
    (root / "analysis" / f"{MODULE}.py").write_text(ANALYSIS, encoding="utf-8")
    with open(root / "analysis" / "registry.yaml", "a", encoding="utf-8") as fh:
        fh.write(f"\n{NAME}:\n  module: {MODULE}\n  title: \"The mean of U(0, 1) draws is about 1/2\"\n")
    (root / "tests" / "analyses" / f"test_{MODULE}.py").write_text(ANALYSIS_TEST, encoding="utf-8")
    return {"paper": paper, "note": note, "entry": entry}


@pytest.mark.slow
def test_a_new_paper_with_its_analysis_passes_every_project_check(tmp_path, monkeypatch, cli):
    root = project_copy(tmp_path / "project")
    new = add_a_paper(root)
    claim = f"{new['paper']}#F1"
    monkeypatch.chdir(root)  # validate and status run in this process; they import no analysis

    code, out, err = cli("validate")
    assert code == 0 and "valid" in err, out + err
    registry = yaml.safe_load((root / "analysis" / "registry.yaml").read_text(encoding="utf-8"))
    assert registry[NAME]["module"] == MODULE and len(registry) >= 2  # appended, nothing lost
    edges = {(e.source, e.rel, e.ref) for e in load_project(root / "records", root / "analysis").edges}
    assert {(new["note"], "uses", claim), (new["entry"], "entry_for", new["paper"]),
            (new["entry"], "keeps", claim)} <= edges

    done = _litrec(root, "run", NAME, "--profile", "quick", "--format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    doc = json.loads(done.stdout)
    assert doc["ran"] == [NAME] and doc["failed"] == []
    verdicts = {c["claim"]: c for c in doc["claims"]}
    assert verdicts[claim]["verdict"] == "reproduced", verdicts[claim]
    assert (root / "results" / NAME / "quick" / "histogram.svg").is_file()

    code, out, err = cli("status", "--profile", "quick", "--format", "json")
    assert code == 0, out + err
    rows = {r["claim"]: r for r in json.loads(out)}
    assert rows[claim]["analysis"] == NAME and rows[claim]["verdict"] == "reproduced"

    # the paper profile's result is what a user commits; then the committed results are current
    # (those copied from the project may have been computed on another CPU: as in CI, that
    # alone does not fail the check)
    done = _litrec(root, "run", NAME, "--profile", "paper")
    assert done.returncode == 0, done.stdout + done.stderr
    code, out, err = cli("status", "--profile", "paper", "--check-current", "--any-machine")
    assert code == 0, out + err

    # the new analysis's own test, in the copy (without tests/analyses/conftest.py, which sets
    # up JAX for the JAX analyses: this one is NumPy only)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--noconftest",
                           "--rootdir", str(root), f"tests/analyses/test_{MODULE}.py"],
                          cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr

    # the new records' links reviewed (site/suspect-links.md): what a user commits with them
    done = _litrec(root, "review", *new.values())
    assert done.returncode == 0, done.stdout + done.stderr

    # the project-level tests, pointed at the copy
    env = {**os.environ, "LITREC_TEST_PROJECT": str(root)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider",
                           "tests/project"], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    for rid in new.values():  # they read the copy: the new records are among their cases
        assert f"test_record_names_its_schema[{rid}] PASSED" in done.stdout, rid
    assert "test_every_claim_has_an_analysis_test PASSED" in done.stdout


def test_a_new_paper_breaks_no_check_of_make_test(tmp_path, monkeypatch, cli):
    """The checks of `make test` that read the live project, in a copy with a second paper (its
    records, analysis and test; before its run): the README picture's check, which would fail
    there, is this repository's own (`repo_docs`: `make test-all` only); the project's records
    validate, the new note getting its review baseline in the copy's review file."""
    import tomllib

    from litrec.site.screenshot import HOME, stale_inputs, write_stamp

    root = project_copy(tmp_path / "project")
    png = root / "site" / "assets" / "screenshot.png"
    write_stamp(png, root)  # the picture as taken of the project, here
    assert stale_inputs(png, root) == []
    new = add_a_paper(root)
    assert stale_inputs(png, root) == [f"changed: {HOME}"]  # the home page lists the new claim
    check = (REPO / "tests" / "docs" / "test_screenshot.py").read_text(encoding="utf-8")
    addopts = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"][
        "ini_options"]["addopts"]
    assert "@pytest.mark.repo_docs\ndef test_the_readme_picture_is_newer_than_what_it_shows" in check
    assert "not repo_docs" in addopts  # left out of `make test`, run by `make test-all`
    assert "run `make screenshot`" in check and "then commit site/assets/screenshot.png and" in check

    monkeypatch.chdir(root)
    code, out, err = cli("validate")
    assert code == 0 and "valid" in err, out + err
    assert "commit it" in err  # the new note's review baseline (or the project's first one)
    assert new["note"] in (root / "reviews.yaml").read_text(encoding="utf-8")
