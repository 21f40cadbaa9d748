"""The console examples of the site's pages, run: each output shown is what the command prints.

A ```console block is a session: `$ COMMAND` lines, each followed by its output
and, when the exit status is not 0, a line `[exit N]`. COMMAND is `litrec ...`
(optionally after `NAME=VALUE` settings of the environment), `cat FILE`,
`rm FILE`, `git ...` (a fixed author and date, no user configuration) or
`sed -i 's/OLD/NEW/' FILE` (an edit the example makes to a record); it runs
as its own process, with this environment's litrec first on PATH, in a sandbox
the page names (`SANDBOXES`): each `## ` section gets a fresh one. In a shown
line, `…` stands for any text (a duration, a path of the machine), so a shown
output is the real one with what changes from run to run elided.

A block right after the line `<!-- console: not run: REASON -->` is a command
that cannot run here (a cluster at another address); it may show no output.

    python -m tests.docs.console --write site/scale-out.md   # refresh a page's outputs

site/usage.md has its own runner (`tests.ecosystem.usage_doc`, in-process).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable
from pathlib import Path

from tests.conftest import FIXTURES, copy_project

BLOCK = re.compile(r"^```console\n(.*?)^```$", re.S | re.M)
NOT_RUN = re.compile(r"<!-- console: not run: ([^>]+) -->\n+$")
EPOCH = "1767225600"  # 2026-01-01: dates the examples write are the same on every run
BIN = Path(sys.executable).parent


def fixture_project(dest: Path) -> Path:
    """The fixture project (tests/fixtures/project), with tests/fixtures/refs.bib."""
    proj = copy_project(dest)
    shutil.copy(FIXTURES / "refs.bib", proj / "refs.bib")
    return proj


def sweep_project(dest: Path) -> Path:
    """The toy project of the sweep tests (`tests.support.sweep_toy`): one analysis that sweeps three seeds (numpy only)."""
    from tests.support.sweep_toy import LIT, write_toy

    (dest / "analysis").mkdir(parents=True)
    (dest / "analysis" / "__init__.py").write_text("")
    write_toy(dest)
    (dest / "analysis" / "registry.yaml").write_text(
        "toy-sweep:\n  module: toy_sweep\n  title: Toy sweep\n")
    lit = dest / "records" / "literature" / "ARXIV-0000.00002.yaml"
    lit.parent.mkdir(parents=True)
    lit.write_text(textwrap.dedent(LIT))
    return dest


# Every page with console blocks, and the project its examples run in.
SANDBOXES: dict[str, Callable[[Path], Path]] = {
    "export-format.md": fixture_project,
    "scale-out.md": sweep_project,
    "suspect-links.md": fixture_project,
}


def run(line: str, cwd: Path) -> str:
    """One command's output as a terminal shows it (stdout and stderr interleaved)."""
    argv = shlex.split(line)
    env = {**os.environ, "SOURCE_DATE_EPOCH": EPOCH, "COLUMNS": "200", "NO_COLOR": "1",
           "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "PYTHONPATH": str(cwd),
           "GIT_AUTHOR_NAME": "A. Researcher", "GIT_AUTHOR_EMAIL": "a@example.org",
           "GIT_COMMITTER_NAME": "A. Researcher", "GIT_COMMITTER_EMAIL": "a@example.org",
           "GIT_AUTHOR_DATE": f"@{EPOCH} +0000", "GIT_COMMITTER_DATE": f"@{EPOCH} +0000",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    while argv and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", argv[0]):
        name, _, value = argv.pop(0).partition("=")
        env[name] = value
    if argv[0] == "cat":
        return (cwd / argv[1]).read_text(encoding="utf-8")
    if argv[0] == "rm":
        assert len(argv) == 2 and not argv[1].startswith(("-", "/")) and ".." not in argv[1], line
        (cwd / argv[1]).unlink()
        return ""
    assert argv[0] in ("litrec", "sed", "git"), f"a console example runs litrec, cat, rm, sed or git, not: {line}"
    assert argv[0] != "sed" or argv[1] == "-i", f"a sed example edits a file in place: {line}"
    proc = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=300)
    return proc.stdout + (f"[exit {proc.returncode}]\n" if proc.returncode else "")


def _pattern(line: str) -> re.Pattern:
    return re.compile(r"\A" + ".*".join(re.escape(p) for p in line.split("…")) + r"\Z")


def merge(shown: str, actual: str) -> str:
    """The actual output, keeping each shown line whose `…` pattern matches its actual line."""
    s, a = shown.splitlines(), actual.splitlines()
    if len(s) == len(a):
        a = [want if "…" in want and _pattern(want).match(got) else got for want, got in zip(s, a)]
    return "".join(line + "\n" for line in a)


def _session(block: str, cwd: Path) -> str:
    out, lines, i = [], block.splitlines(), 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.startswith("$ "):
            continue
        j = i
        while j < len(lines) and not lines[j].startswith("$ "):
            j += 1
        out.append(line + "\n" + merge("\n".join(lines[i:j]), run(line[2:], cwd)))
        i = j
    return "".join(out)


def render(name: str, page: str) -> str:
    """The page with every console block's outputs as they are now."""
    make = SANDBOXES[name]
    done = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, section in enumerate(re.split(r"(?m)^(?=## )", page)):
            cwd = make(Path(tmp) / f"s{i}")

            def sub(m: re.Match) -> str:
                if NOT_RUN.search(section[:m.start()]):
                    return m.group(0)
                return "```console\n" + _session(m.group(1), cwd) + "```"

            done.append(BLOCK.sub(sub, section))
    return "".join(done)


def blocks_not_run(page: str) -> list[tuple[str, str]]:
    """(reason, block) of each block marked not run."""
    return [(NOT_RUN.search(page[:m.start()]).group(1), m.group(1)) for m in BLOCK.finditer(page)
            if NOT_RUN.search(page[:m.start()])]


if __name__ == "__main__":
    path = Path(sys.argv[-1])
    text = path.read_text(encoding="utf-8")
    new = render(path.name, text)
    if "--write" in sys.argv:
        path.write_text(new, encoding="utf-8")
        print(f"wrote {path}")
    else:
        sys.stdout.write(new)
