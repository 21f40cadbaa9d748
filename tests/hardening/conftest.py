"""Hardening tests: bad input, faults and hostile files, each built in a temporary project.

`mini` (tests/conftest.py, written by `tests.support.mini`) is a small valid project (a
paper with one checked claim, a note that uses it, a NumPy-only analysis); `litrec` runs the
command line in a subprocess, as a user would, and returns its exit code and output. Every
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
def litrec():
    """Run `litrec ARGS...` in a subprocess in `cwd`; return a Result."""

    def run(*args, cwd: Path, timeout: float = 120, env: dict | None = None) -> Result:
        full_env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200", **(env or {})}
        proc = subprocess.run([sys.executable, "-m", "litrec", *map(str, args)], cwd=cwd,
                              capture_output=True, text=True, timeout=timeout, env=full_env)
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
