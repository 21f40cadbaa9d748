"""A toy project for the verdict tests: one NumPy analysis over three seeds (a trained model's
loss with a seed-dependent wiggle), its claims written by the test; `litrec`, `status` and
`site_pages` read what litrec makes of it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from tests.support.toy import write_analysis

TOY = '''
"""A toy trained model: its loss is 0.1 plus a seed-dependent wiggle (NumPy only)."""
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Config:
    """The seed and the size of the wiggle."""

    seed: int = 0
    wiggle: float = 0.01


PROFILES = {"quick": Config(), "paper": Config(wiggle=0.002)}
SEEDS = {"quick": (0, 1, 2), "paper": (0, 1, 2)}


def run(config, progress=None):
    """One seed's losses; the baseline fell by half, not by 90%."""
    rng = np.random.default_rng(config.seed)
    trained = 0.1 + config.wiggle * rng.standard_normal()
    return {"metrics": {"loss_trained": trained, "loss_gd": trained + 0.02,
                        "baseline_drop": 0.5 + 0.01 * config.seed}}
'''


def claim(cid: str, *expect: str) -> str:
    """A claim of the toy paper checked by the toy analysis, with these expectations (YAML flow maps)."""
    lines = "\n".join(f"        - {e}" for e in expect)
    return textwrap.dedent(f"""\
      - id: {cid}
        kind: finding
        title: Claim {cid}
        statement: A statement.
        check:
          analysis: toy
          expect:
    """) + lines + "\n"


def write_project(root: Path, *claims: str) -> Path:
    """The toy analysis and a paper whose claims are `claims` (from `claim`)."""
    write_analysis(root, TOY)
    write_claims(root, *claims)
    return root


def write_claims(root: Path, *claims: str) -> None:
    """Rewrite the toy paper with these claims."""
    rec = root / "records" / "literature" / "ARXIV-0000.00003.yaml"
    rec.parent.mkdir(parents=True, exist_ok=True)
    rec.write_text("id: ARXIV-0000.00003\nkind: literature\ntitle: A toy paper\nclaims:\n"
                   + "".join(textwrap.indent(c, "  ") for c in claims))


def litrec(*args, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """litrec in a subprocess, without colour, 120 columns wide."""
    full = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120", **(env or {})}
    return subprocess.run([sys.executable, "-m", "litrec", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, env=full, timeout=300)


def killed(root: Path, when: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """litrec ARGS in `root`, its whole process group killed (SIGKILL, as a machine that goes down)
    as soon as the file `when` exists: a sitting that ends part-way, the way a hermetic point
    cannot be told to end (it sees no undeclared variable or file)."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120"}
    proc = subprocess.Popen([sys.executable, "-m", "litrec", *args], cwd=root, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + timeout
    while proc.poll() is None and not when.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    out, err = proc.communicate(timeout=timeout)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def status(root: Path, *extra: str, profile: str = "quick",
           env: dict | None = None) -> tuple[int, dict[str, dict]]:
    """(exit code, rows of `status --format json` by claim id: F1, F2, ...)."""
    proc = litrec("status", "--profile", profile, "--format", "json", *extra, cwd=root, env=env)
    rows = json.loads(proc.stdout)
    return proc.returncode, {r["claim"].partition("#")[2]: r for r in rows}


def site_pages(root: Path, profile: str = "quick") -> dict[str, str]:
    """The generated pages of the toy project's site (docs path -> Markdown), without MkDocs."""
    from litrec.records.load import load_project
    from litrec.site.build import generate

    files, _ = generate(load_project(root / "records", root / "analysis"), root / "results",
                        profile, None)
    return {k: v for k, v in files.items() if isinstance(v, str)}
