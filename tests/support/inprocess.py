"""`litrec ARGS` as a test runs it when the process is not what it tests: in this process, in
`cwd`, with `env` over the environment, its output caught as a subprocess's would be.

A subprocess costs a Python start and litrec's imports (half a second to a second on a busy
machine); a call here costs what the command does. What a user's process would show is kept:
the exit code (argparse's too), standard output and error, and a traceback in the error text
when litrec lets an exception out (the tests assert there is none). The working directory and
the environment are put back afterwards, and so are `sys.path` and the `analysis` modules (a
run imports its project's `analysis` package: left so, a test of this repository's analyses
would import that one, also where a module-scoped fixture made the run). The tests that stop or kill litrec, or that test a
fresh interpreter (its imports, its start), keep a subprocess.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import traceback
from collections.abc import Iterator, Mapping
from pathlib import Path

from litrec.commands import main


@contextlib.contextmanager
def environment(env: Mapping[str, str | None]) -> Iterator[None]:
    """`os.environ` with `env` over it (a name given None: unset) for the duration, then
    exactly as it was."""
    saved = dict(os.environ)
    for name, value in env.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def run_inprocess(args, *, cwd: Path, env: Mapping[str, str | None] | None = None) -> tuple[int, str, str]:
    """`litrec ARGS` in this process, `env` over the environment (`environment`): (exit code,
    standard output, standard error)."""
    out, err = io.StringIO(), io.StringIO()
    before, path, imported = Path.cwd(), list(sys.path), _analysis_modules()
    try:
        with environment(env or {}):
            os.chdir(cwd)
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = main([str(a) for a in args])
                except SystemExit as exc:  # argparse: usage errors, --help, --version
                    code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
                except Exception:  # as the interpreter would print it, and its exit code
                    traceback.print_exc(file=sys.stderr)
                    code = 1
    finally:
        os.chdir(before)
        sys.path[:] = path  # the project's `analysis` package it imported goes with it
        for name in _analysis_modules().keys() - imported.keys():
            del sys.modules[name]
        sys.modules.update(imported)
    return code, out.getvalue(), err.getvalue()


def _analysis_modules() -> dict:
    return {n: m for n, m in sys.modules.items() if n == "analysis" or n.startswith("analysis.")}


def completed(args, *, cwd: Path, env: Mapping[str, str | None] | None = None) -> subprocess.CompletedProcess:
    """`run_inprocess`, answered as `subprocess.run(..., capture_output=True, text=True)` would."""
    code, out, err = run_inprocess(args, cwd=cwd, env=env)
    return subprocess.CompletedProcess(["litrec", *map(str, args)], code, out, err)
