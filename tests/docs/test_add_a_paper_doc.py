"""site/add-a-paper.md is real: every command it shows runs, in order, in a copy of the project.

The page's fenced blocks are read in order. A `sh` block's lines are commands, run
with bash in the copy (litrec and python from this environment first on PATH), each
expected to exit 0 unless the line ends in `# exits N`. A `text` block right after
an `sh` block is what its last command prints: each of its lines must match a line
of the output, in order, with runs of spaces made one and `…` standing for any
text. A block with a `title="PATH"` is a file the page asks the reader to write:
it is written there, or, when the title ends in `(appended)`, must be in the file
as a command left it. Nothing here depends on what the project's records hold,
except that the page's new ids and analysis name must be free in it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.support.new_paper import project_copy

PAGE = REPO / "site" / "add-a-paper.md"
FENCE = re.compile(r'^```(\w+)(?: title="([^"]+)")?\n(.*?)^```$', re.M | re.S)


@dataclass
class Block:
    """One fenced block of the page."""

    lang: str
    title: str | None
    text: str


def blocks(page: str) -> list[Block]:
    """The page's fenced blocks, in order."""
    return [Block(m.group(1), m.group(2), m.group(3)) for m in FENCE.finditer(page)]


def _pattern(line: str) -> re.Pattern:
    parts = [re.escape(p) for p in " ".join(line.split()).split("…")]
    return re.compile(r"\A" + ".*".join(parts) + r"\Z")


def shown_lines_match(shown: str, output: str) -> list[str]:
    """The lines of `shown` not found, in order, among the lines of `output`."""
    lines = [" ".join(ln.split()) for ln in output.splitlines()]
    missing, at = [], 0
    for want in (ln for ln in shown.splitlines() if ln.strip()):
        pat = _pattern(want)
        hit = next((i for i in range(at, len(lines)) if pat.match(lines[i])), None)
        if hit is None:
            missing.append(want)
        else:
            at = hit + 1
    return missing


def test_the_matcher_fails_on_what_is_not_there():
    assert shown_lines_match("a … c\nd", "x\na b  c\nd\n") == []
    assert shown_lines_match("d\na … c", "a b c\nd\n") == ["a … c"]  # order matters
    assert shown_lines_match("2 passed", "1 passed") == ["2 passed"]


def test_the_page_has_commands_outputs_and_files():
    found = blocks(PAGE.read_text(encoding="utf-8"))
    commands = [ln for b in found if b.lang == "sh" for ln in b.text.splitlines()]
    for needed in ("litrec new literature", "litrec new note", "litrec new anthology",
                   "litrec new analysis", "litrec validate", "litrec run jl-projection --profile quick",
                   "litrec status", "litrec site build", "python -m pytest"):
        assert any(c.startswith(needed) for c in commands), needed
    titles = {b.title for b in found if b.title}
    assert {"analysis/jl_projection.py", "tests/analyses/test_jl_projection.py",
            "records/notes/NOTE-901.yaml", "records/anthology/ANTH-LIT-901.yaml"} <= titles


def _run(cmd: str, root: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200",
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("LITREC_TEST_PROJECT", None)
    return subprocess.run(["bash", "-c", cmd], cwd=root, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600)


@pytest.mark.slow  # a site build and the analysis's test (with JAX set up by tests/analyses) in a copy
def test_every_command_of_the_page_runs_as_shown(tmp_path):
    root = project_copy(tmp_path / "project")
    for rid in ("DOI-10.1002_rsa.10073", "NOTE-901", "ANTH-LIT-901"):
        assert not list((root / "records").rglob(f"{rid}.yaml")), \
            f"{rid} exists in the project: give the page another id"
    assert "jl-projection:" not in (root / "analysis" / "registry.yaml").read_text(encoding="utf-8")

    last: tuple[str, str] | None = None  # the last command and its output
    previous = None
    for block in blocks(PAGE.read_text(encoding="utf-8")):
        if block.lang == "sh":
            for line in block.text.splitlines():
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                cmd, _, comment = line.partition("  # ")
                want = int(m.group(1)) if (m := re.match(r"exits (\d+)", comment)) else 0
                done = _run(cmd, root)
                output = done.stdout  # standard error merged into it, in the order printed
                assert done.returncode == want, f"{cmd}: exit {done.returncode}, not {want}\n{output}"
                last = (cmd, output)
        elif block.lang == "text" and block.title is None and previous == "sh":
            assert last is not None
            missing = shown_lines_match(block.text, last[1])
            assert not missing, f"{last[0]} printed no line like {missing}; it printed:\n{last[1]}"
        elif block.title and block.title.endswith(" (appended)"):
            path = root / block.title.removesuffix(" (appended)")
            assert block.text in path.read_text(encoding="utf-8"), block.title
        elif block.title:
            path = root / block.title
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(block.text, encoding="utf-8")
        previous = block.lang
    assert (root / "public" / "records" / "DOI-10.1002_rsa.10073.html").is_file()
    page = (root / "public" / "records" / "DOI-10.1002_rsa.10073.html").read_text(encoding="utf-8")
    assert "no analysis yet" in page and "Theorem 2.1, §2" in page
    result = json.loads((root / "results" / "jl-projection" / "paper.json").read_text(encoding="utf-8"))
    assert list(result["versions"]) == ["matplotlib", "numpy"]  # what the page says: not JAX
