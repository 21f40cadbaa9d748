"""Shared helpers for the ecosystem tests: the repository root and the CLI run in-process.

The `project` fixture (the fixture project in a temporary folder) is in tests/conftest.py.
"""

from __future__ import annotations

import contextlib
import io
import os
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_cli(line: str | list[str], cwd: Path | None = None) -> tuple[int, str, str]:
    """Run `litrec ...` in this process; return (exit code, stdout, stderr)."""
    from litrec.commands import main

    argv = shlex.split(line) if isinstance(line, str) else list(line)
    if argv and argv[0] == "litrec":
        argv = argv[1:]
    out, err = io.StringIO(), io.StringIO()
    old = Path.cwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse usage errors
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        os.chdir(old)
    return code, out.getvalue(), err.getvalue()
