"""Run the examples of site/usage.md and check (or rewrite) the outputs shown there.

Every ```console block of the page is a session: `$ COMMAND` lines, each followed
by its output as litrec prints it (standard output and error interleaved, as a
terminal shows them) and, when the exit status is not 0, a line `[exit N]`.
Each `## ` section runs in a fresh sandbox: a copy of the fixture project
(tests/fixtures/project: the seed records and a stub analysis registry) and
tests/fixtures/refs.bib. COMMAND is a `litrec` command or `cat FILE`.

    python -m tests.ecosystem.usage_doc --write    # refresh the outputs in site/usage.md
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from tests.conftest import FIXTURES, copy_project
from tests.conftest import REPO as ROOT

PAGE = ROOT / "site" / "usage.md"
EPOCH = "1767225600"  # 2026-01-01: dates the examples write are the same on every run
_BLOCK = re.compile(r"^```console\n(.*?)^```$", re.S | re.M)


def _run(line: str, cwd: Path) -> str:
    from litrec.commands import main

    argv = shlex.split(line)
    if argv[0] == "cat":
        return (cwd / argv[1]).read_text(encoding="utf-8")
    assert argv[0] == "litrec", f"usage.md runs litrec and cat only, not: {line}"
    buf = io.StringIO()
    old_cwd, old_env = Path.cwd(), os.environ.get("SOURCE_DATE_EPOCH")
    os.chdir(cwd)
    os.environ["SOURCE_DATE_EPOCH"] = EPOCH
    try:
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            try:
                code = main(argv[1:])
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        os.chdir(old_cwd)
        if old_env is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = old_env
    out = buf.getvalue()
    return out + (f"[exit {code}]\n" if code else "")


def _sandbox(base: Path) -> Path:
    proj = copy_project(base)
    shutil.copy(FIXTURES / "refs.bib", proj / "refs.bib")
    return proj


def _session(block: str, cwd: Path) -> str:
    """The block with every command's output as it is now."""
    out = []
    for line in block.splitlines():
        if line.startswith("$ "):
            out.append(line + "\n")
            out.append(_run(line[2:], cwd))
    return "".join(out)


def render(page: str) -> str:
    """The page with every console block's outputs replaced by real ones."""
    sections = re.split(r"(?m)^(?=## )", page)
    done = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, section in enumerate(sections):
            cwd = _sandbox(Path(tmp) / f"s{i}")
            done.append(_BLOCK.sub(lambda mt: "```console\n" + _session(mt.group(1), cwd) + "```",
                                   section))
    return "".join(done)


if __name__ == "__main__":
    text = PAGE.read_text(encoding="utf-8")
    new = render(text)
    if "--write" in sys.argv:
        PAGE.write_text(new, encoding="utf-8")
        print(f"wrote {PAGE}")
    else:
        sys.stdout.write(new)
