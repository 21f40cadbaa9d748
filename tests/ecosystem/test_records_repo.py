"""A repository that keeps records only (no analysis/): `litrec validate`, the pre-commit hooks
run as pre-commit runs them, and the steps of the example workflow."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import FIXTURES

from .conftest import ROOT, run_cli

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
WORKFLOW = yaml.safe_load((ROOT / "docs-examples" / "github-workflow.yml").read_text())
ENV = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
       "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "NO_COLOR": "1"}
BROKEN = "records/notes/NOTE-621.yaml"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, env=ENV, check=True, capture_output=True,
                          text=True).stdout


@pytest.fixture
def repo(tmp_path) -> Path:
    """A git repository holding the fixture records, their schemas and a pre-commit config."""
    root = tmp_path / "papers"
    shutil.copytree(FIXTURES / "project" / "records", root / "records")
    (root / ".pre-commit-config.yaml").write_text(
        "repos:\n  - repo: https://github.com/OWNER/litrec\n    rev: v0.1.0\n"
        "    hooks:\n      - id: litrec-validate\n      - id: litrec-schema\n")
    _git(root, "init", "-q")
    assert run_cli("litrec schema --out schema", root)[0] == 0
    _git(root, "add", "-A")
    assert not (root / "analysis").exists()
    return root


def _break(repo: Path) -> None:
    path = repo / BROKEN
    path.write_text(path.read_text().replace("rel: reading_of", "rel: read_in"))


# ------------------------------------------------------------------ validate


def test_validate_notes_the_analyses_it_cannot_check(repo):
    code, out, err = run_cli("litrec validate", repo)
    assert code == 0, out + err
    notes = [ln for ln in out.splitlines() if "is not checked: there is no analysis/ folder" in ln]
    assert len(notes) == 7 and all(": info: " in ln for ln in notes)
    assert notes[0].startswith("records/literature/ARXIV-2212.07677.yaml:69:17: info: "
                               "claims[0].check.analysis: analysis 'prop1-identity' is not checked")
    doc = json.loads(run_cli("litrec validate --format json", repo)[1])
    assert doc["valid"] and doc["errors"] == []
    assert sum(d["code"] == "unchecked-analysis" and d["severity"] == "info" for d in doc["info"]) == 7


def test_an_analysis_folder_without_a_registry_is_still_an_error(repo):
    (repo / "analysis").mkdir()
    code, out, _ = run_cli("litrec validate --quiet", repo)
    assert code == 1 and "analysis 'prop1-identity' cannot be resolved: no registry at " \
                         "analysis/registry.yaml" in out


def test_a_named_analysis_folder_must_exist(repo):
    code, _, err = run_cli("litrec validate --analysis elsewhere", repo)
    assert code == 2 and "analysis folder 'elsewhere' does not exist" in err


def test_a_broken_record_fails(repo):
    _break(repo)
    code, out, _ = run_cli("litrec validate --quiet", repo)
    assert code == 1 and f"{BROKEN}:" in out and "'read_in' is the inverse of 'reading_of'" in out


# ------------------------------------------------------------------ pre-commit


def _run_hook(repo: Path, hook_id: str) -> int | None:
    """Run a hook as pre-commit does: skipped (None) unless a staged file matches `files`;
    the entry and its args in the repository's root (pass_filenames: false); failed when it
    exits non-zero or changes a tracked file."""
    (hook,) = [h for h in HOOKS if h["id"] == hook_id]
    staged = _git(repo, "ls-files").splitlines()
    if not any(re.search(hook["files"], f) for f in staged):
        return None
    argv = shlex.split(hook["entry"]) + list(hook.get("args", []))
    assert argv[0] == "litrec" and hook["pass_filenames"] is False
    before = _git(repo, "diff")
    proc = subprocess.run([sys.executable, "-m", "litrec", *argv[1:]], cwd=repo, env=ENV,
                          capture_output=True, text=True)
    return proc.returncode or int(_git(repo, "diff") != before)


def test_validate_hook_in_a_records_only_repository(repo):
    assert _run_hook(repo, "litrec-validate") == 0
    _break(repo)
    _git(repo, "add", BROKEN)
    assert _run_hook(repo, "litrec-validate") == 1


def test_validate_hook_runs_for_records_analyses_and_results():
    files = re.compile(next(h for h in HOOKS if h["id"] == "litrec-validate")["files"])
    for path in ("records/notes/NOTE-621.yaml", "analysis/registry.yaml", "analysis/lib/lsa.py",
                 "results/prop1-identity/paper.json"):
        assert files.search(path), path
    for path in ("README.md", "site/index.md", "src/litrec/commands/run.py", "my-records/x.yaml"):
        assert not files.search(path), path


def test_schema_hook_in_a_records_only_repository(repo):
    assert _run_hook(repo, "litrec-schema") == 0
    stale = repo / "schema" / "note.schema.json"
    stale.write_text(stale.read_text().replace('"additionalProperties": false', '"additionalProperties": true', 1))
    _git(repo, "add", "schema")
    assert _run_hook(repo, "litrec-schema") == 1  # rewritten: pre-commit fails the commit
    assert _run_hook(repo, "litrec-schema") == 0


# ------------------------------------------------------------------ the example workflow


def _run_workflow(repo: Path) -> list[tuple[str, int | None]]:
    """The `run` steps of the workflow's build job, in order, as GitHub runs them (bash -e),
    with litrec already installed; `.litrec` is this checkout. (name, exit status) each, None
    for a step its `if:` skips; the first failure ends the job."""
    (repo / ".litrec").symlink_to(ROOT)
    done: list[tuple[str, int | None]] = []
    for step in WORKFLOW["jobs"]["records"]["steps"]:
        if "run" not in step or step["name"].startswith("Install"):
            continue
        cond = step.get("if")
        if cond is not None:
            found = re.fullmatch(r"hashFiles\('([^']+)'\) != ''", cond)
            assert found, f"an `if:` this test cannot evaluate: {cond}"
            if not list(repo.glob(found.group(1))):
                done.append((step["name"], None))
                continue
        proc = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=repo, env=ENV,
                              capture_output=True, text=True)
        done.append((step["name"], proc.returncode))
        if proc.returncode:
            break
    return done


@pytest.mark.slow
def test_the_example_workflow_builds_a_records_only_site(repo):
    done = dict(_run_workflow(repo))
    assert done == {
        "Validate the records": 0,
        "The committed editor schemas are current": 0,
        "Rerun stale analyses (quick profile)": None,
        "The committed paper results are current": None,
        "Site configuration (litrec's example, when the repository has no mkdocs.yml)": 0,
        "Build the site strictly": 0,
    }
    upload = next(s for s in WORKFLOW["jobs"]["records"]["steps"]
                  if s.get("uses", "").startswith("actions/upload-pages-artifact"))
    site = repo / upload["with"]["path"]
    assert (site / "index.html").is_file() and (site / "records" / "ARXIV-2212.07677.html").is_file()


def test_the_example_workflow_stops_at_a_broken_record(repo):
    _break(repo)
    assert _run_workflow(repo) == [("Validate the records", 1)]


def test_the_example_workflow_fails_on_schemas_never_committed(repo):
    _git(repo, "rm", "-r", "-q", "--cached", "schema")
    assert _run_workflow(repo)[:2] == [("Validate the records", 0),
                                       ("The committed editor schemas are current", 1)]
