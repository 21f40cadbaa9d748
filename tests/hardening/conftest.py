"""Hardening tests: bad input, faults and hostile files, each built in a temporary project.

`mini` is a small valid project (a paper with one checked claim, a note that uses
it, a NumPy-only analysis); `litrec` runs the command line in a subprocess, as a
user would, and returns its exit code and output. Every hardening test asserts
the same four things where they apply: the exit code, a message that names the
file (and line), no traceback, and nothing changed outside what litrec owns.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

ANALYSIS = '''
"""A toy analysis: the sum of 0..n-1 (NumPy only)."""
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Config:
    """How many numbers to sum."""

    n: int = 5


PROFILES = {"quick": Config(n=5), "paper": Config(n=6)}


def run(config, progress=None):
    """Sum the numbers."""
    return {"metrics": {"total": float(np.arange(config.n).sum()), "n": config.n}}
'''

PAPER = '''
id: ARXIV-0000.00001
kind: literature
title: A toy paper
authors: [Ada Lovelace]
year: 2023
claims:
  - id: F1
    kind: finding
    title: The total is ten
    statement: The sum of the first five numbers is ten.
    check:
      analysis: toy
      expect:
        - {metric: total, op: ">=", value: 10, source: {kind: paper, where: §1, states: a test claim}}
'''

NOTE = '''
id: NOTE-1
kind: note
title: A note on the toy paper
links:
  - {rel: uses, target: "ARXIV-0000.00001#F1"}
'''


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


def write(root: Path, rel: str, text: str) -> Path:
    """Write a file under `root` (folders made), dedented."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


@pytest.fixture
def mini(tmp_path) -> Path:
    """A small valid project in `tmp_path/project`."""
    root = tmp_path / "project"
    write(root, "analysis/__init__.py", "")
    write(root, "analysis/toy.py", ANALYSIS)
    write(root, "analysis/registry.yaml", "toy:\n  module: toy\n  title: Toy sum\n")
    write(root, "records/literature/ARXIV-0000.00001.yaml", PAPER)
    write(root, "records/notes/NOTE-1.yaml", NOTE)
    return root


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
    as the signing tests make theirs (`tests.verdicts.test_signature.keypair`); the test is
    skipped where ssh-keygen is not installed."""
    if shutil.which("ssh-keygen") is None:
        pytest.skip("ssh-keygen is not installed (openssh-client)")
    from tests.verdicts.test_signature import keypair

    return keypair(tmp_path / "keys", "ada@example.org")


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (relative path -> bytes), to show nothing changed; litrec's
    caches (`.litrec-cache/`, what it can always work out again) are not the project's files."""
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()
            and ".litrec-cache" not in p.relative_to(folder).parts}
