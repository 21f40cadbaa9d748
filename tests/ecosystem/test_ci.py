"""CI and terminal: the pre-commit hooks, the example workflow, NO_COLOR and --format json."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tomllib

import pytest
import yaml

from litrec.commands import build_parser

from .conftest import ROOT, run_cli

HOOKS = ROOT / ".pre-commit-hooks.yaml"
WORKFLOW = ROOT / "docs-examples" / "github-workflow.yml"


def _litrec_commands(text: str) -> list[list[str]]:
    """Every `litrec ...` command line in a shell snippet."""
    out = []
    for part in re.split(r"&&|\|\||;|\n", text):
        argv = shlex.split(part)
        if argv and argv[0].endswith("litrec"):
            out.append(argv[1:])
    return out


def _parses(argv: list[str]) -> None:
    try:
        build_parser().parse_args(argv)
    except SystemExit:
        pytest.fail(f"litrec does not accept: litrec {' '.join(argv)}")


def test_pre_commit_hooks():
    hooks = yaml.safe_load(HOOKS.read_text())
    assert [h["id"] for h in hooks] == ["litrec-validate", "litrec-schema"]
    for hook in hooks:
        assert {"id", "name", "entry", "language"} <= set(hook)
        assert hook["language"] == "python" and hook["pass_filenames"] is False
        (argv,) = _litrec_commands(hook["entry"])
        _parses(argv)
    files = re.compile(hooks[0]["files"])
    assert files.search("records/notes/NOTE-621.yaml") and files.search("analysis/registry.yaml")
    assert not files.search("src/litrec/commands/run.py")


def _revs(text: str) -> list[str]:
    return re.findall(r"^\s*#?\s*rev:\s*(\S+)", text, re.M)


def _release_tag() -> str:
    """`v` + the version in pyproject.toml: the tag of the release the docs name."""
    return "v" + tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_the_snippets_name_the_release_tag():
    """Every `rev:` the docs show, and the example workflow's LITREC_REV, is this version's tag,
    the CHANGELOG has that release's section, and where this clone has tags, the tag exists."""
    tag = _release_tag()
    shown = {str(p.relative_to(ROOT)): _revs(p.read_text())
             for p in (HOOKS, ROOT / "README.md", ROOT / "site" / "usage.md")}
    assert all(shown.values()), shown
    for where, revs in shown.items():
        assert set(revs) == {tag}, f"{where}: rev {revs} is not the release tag {tag}"
    assert yaml.safe_load(WORKFLOW.read_text())["env"]["LITREC_REV"] == tag
    assert re.search(rf"^## \[{re.escape(tag[1:])}\] - ", (ROOT / "CHANGELOG.md").read_text(), re.M)
    tags = subprocess.run(["git", "tag", "--list"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    if tags:  # a clone made without tags cannot say; one with tags must have this one
        assert tag in tags, f"no tag {tag} in this repository"


def _steps(job: str) -> list[dict]:
    return yaml.safe_load(WORKFLOW.read_text())["jobs"][job]["steps"]


def test_example_workflow_runs_the_ci_steps():
    wf = yaml.safe_load(WORKFLOW.read_text())
    assert not str(WORKFLOW.relative_to(ROOT)).startswith(".github")
    steps = _steps("records")
    runs = "\n".join(s.get("run", "") for s in steps)
    commands = _litrec_commands(runs)
    for argv in commands:
        _parses(argv)
    assert ["validate"] in commands
    assert ["run", "--profile", "quick", "--allow-not-reproduced"] in commands
    assert ["status", "--profile", "paper", "--check-current", "--any-machine"] in commands
    site = [c for c in commands if c[:2] == ["site", "build"]]
    assert site, "the workflow builds the site"
    out = build_parser().parse_args(site[0]).out
    upload = [s for s in steps if s.get("uses", "").startswith("actions/upload-pages-artifact")]
    assert upload and upload[0]["with"]["path"].rstrip("/") == str(out)
    order = [c[0] for c in commands]
    assert order.index("validate") < order.index("run") < order.index("site")
    assert wf["permissions"] == {"contents": "read"}  # only the deploy job may write


def test_example_workflow_needs_nothing_from_this_repository():
    """A record repository has no Makefile, .venv or analyses: litrec comes from a pinned commit
    of its repository, installed under its constraints; analysis steps run only where there are
    analyses; the site configuration falls back to litrec's example."""
    wf = yaml.safe_load(WORKFLOW.read_text())
    steps = _steps("records")
    runs = "\n".join(s.get("run", "") for s in steps)
    assert not re.search(r"\bmake\b|\.venv/", runs)
    (litrec,) = [s for s in steps if s.get("with", {}).get("repository")]
    assert litrec["uses"].startswith("actions/checkout@")
    assert litrec["with"] == {"repository": "${{ env.LITREC_REPO }}", "ref": "${{ env.LITREC_REV }}",
                              "path": ".litrec"}
    assert wf["env"]["LITREC_REV"] == _release_tag()
    (install,) = [s for s in steps if "pip install" in s.get("run", "")]
    assert "-c .litrec/constraints.txt ./.litrec" in install["run"]
    for s in steps:
        if re.search(r"litrec (run|status)\b", s.get("run", "")) or s.get("uses", "").startswith(
                "actions/cache"):
            assert s["if"] == "hashFiles('analysis/registry.yaml') != ''", s["name"]
    example = ROOT / "docs-examples" / "mkdocs.yml"
    assert example.is_file() and "cp .litrec/docs-examples/mkdocs.yml mkdocs.yml" in runs


def test_example_workflow_deploys_to_pages_from_main():
    job = yaml.safe_load(WORKFLOW.read_text())["jobs"]["deploy"]
    assert job["needs"] == "records"
    assert job["if"] == "github.event_name == 'push' && github.ref == 'refs/heads/main'"
    assert job["permissions"] == {"pages": "write", "id-token": "write"}
    assert job["environment"] == {"name": "github-pages",
                                  "url": "${{ steps.deployment.outputs.page_url }}"}
    uses = [s.get("uses", "").split("@")[0] for s in job["steps"]]
    assert uses == ["actions/configure-pages", "actions/deploy-pages"]
    assert job["steps"][-1]["id"] == "deployment"
    assert all("run" not in s for s in job["steps"])  # deploys the artifact the records job built
    on = yaml.safe_load(WORKFLOW.read_text())[True]  # YAML 1.1 reads the key `on` as True
    assert on["push"]["branches"] == ["main"] and "pull_request" in on


# ------------------------------------------------------------------ terminal


def _in_terminal(args: list[str], cwd, **env) -> bytes:
    """Output of `litrec ARGS` run in a pseudo-terminal, as a user's shell would run it."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    full_env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    full_env.update(COLUMNS="120", TERM="xterm-256color", **env)
    proc = subprocess.Popen([sys.executable, "-m", "litrec", *args], cwd=cwd, stdin=slave,
                            stdout=slave, stderr=slave, env=full_env, close_fds=True)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=60)
    os.close(master)
    return out


def test_status_is_coloured_in_a_terminal(project):
    """The check below means something: without NO_COLOR a terminal does get escapes."""
    assert b"\x1b[" in _in_terminal(["status"], project)


def test_no_color_status(project):
    out = _in_terminal(["status"], project, NO_COLOR="1")
    assert b"\x1b[" not in out, sorted(set(re.findall(rb"\x1b\[[0-9;]*m", out)))


def test_no_color_validate(project):
    out = _in_terminal(["validate"], project, NO_COLOR="1")
    assert b"valid" in out and b"\x1b[" not in out


@pytest.mark.parametrize("line", [
    "litrec validate --format json",
    "litrec status --format json",
    "litrec new note --format json",
    "litrec graph --format json",
    "litrec export json",
])
def test_machine_readable_output(project, line):
    code, out, _ = run_cli(line, project)
    assert code == 0
    json.loads(out)
