"""Hardening tests: bad input, faults and hostile files, each built in a temporary project.

`mini` (tests/conftest.py, written by `tests.support.mini`) is a small valid project (a
paper with one checked claim, a note that uses it, a NumPy-only analysis); `litrec` runs the
command line and returns its exit code and output as a user's subprocess would (in this
process where the interpreter's start is not what is tested). Every
hardening test asserts the same four things where they apply: the exit code, a message that
names the file (and line), no traceback, and nothing changed outside what litrec owns.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.inprocess import run_inprocess
from tests.support.signing import keypair


@dataclass
class Result:
    """What a command did: exit code and output."""

    code: int
    out: str
    err: str

    @property
    def text(self) -> str:
        """Standard output and error together."""
        return self.out + self.err


@pytest.fixture
def litrec(request):
    """Run `litrec ARGS...` in `cwd`; return a Result. In this process (`tests.support.inprocess`),
    as a subprocess would answer, unless the test is marked `process` (what it checks is the
    process: what reaches its file descriptors, what its interpreter reads as it starts) or `env`
    sets a variable the interpreter reads as it starts (PYTHONPATH and the other PYTHON* ones):
    then in a subprocess, with `timeout`."""
    process = request.node.get_closest_marker("process") is not None

    def run(*args, cwd: Path, timeout: float = 120, env: dict | None = None) -> Result:
        env = {"NO_COLOR": "1", "COLUMNS": "200", **(env or {})}
        if not process and not any(name.startswith("PYTHON") for name in env):
            return Result(*run_inprocess(args, cwd=cwd, env=env))
        proc = subprocess.run([sys.executable, "-m", "litrec", *map(str, args)], cwd=cwd,
                              capture_output=True, text=True, timeout=timeout, env={**os.environ, **env})
        return Result(proc.returncode, proc.stdout, proc.stderr)

    return run


@pytest.fixture
def ssh_key(tmp_path) -> Path:
    """A throwaway SSH private key (ed25519, no passphrase) made by ssh-keygen in `tmp_path/keys`,
    as the signing tests make theirs (`tests.support.signing.keypair`); the test is skipped
    where ssh-keygen is not installed."""
    if shutil.which("ssh-keygen") is None:
        pytest.skip("ssh-keygen is not installed (openssh-client)")
    return keypair(tmp_path / "keys", "ada@example.org")
