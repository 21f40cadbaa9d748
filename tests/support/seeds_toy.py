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

from tests.support.inprocess import completed
from tests.support.toy import analysis, write_analysis

# The toy's Config and PROFILES: a seed, and a wiggle smaller at the paper's scale
FIELDS = '"""The seed and the size of the wiggle."""\n\nseed: int = 0\nwiggle: float = 0.01'
PROFILES = '{"quick": Config(), "paper": Config(wiggle=0.002)}'

TOY = analysis(
    doc="A toy trained model: its loss is 0.1 plus a seed-dependent wiggle (NumPy only).",
    head='import numpy as np\n\nSEEDS = {"quick": (0, 1, 2), "paper": (0, 1, 2)}', fields=FIELDS,
    profiles=PROFILES, body="""
    \"\"\"One seed's losses; the baseline fell by half, not by 90%.\"\"\"
    rng = np.random.default_rng(config.seed)
    trained = 0.1 + config.wiggle * rng.standard_normal()
    return {"metrics": {"loss_trained": trained, "loss_gd": trained + 0.02,
                        "baseline_drop": 0.5 + 0.01 * config.seed}}
    """)


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
    """litrec as a subprocess answers (`tests.support.inprocess`: in this process), without
    colour, 120 columns wide. Under mutation testing (`make mutation`) in a subprocess, as
    before: the tests built on this helper are left out of mutmut's selection's reach, so its
    score and its time are what they were."""
    if "MUTANT_UNDER_TEST" in os.environ:
        return litrec_process(*args, cwd=cwd, env=env)
    return completed(args, cwd=cwd, env={"NO_COLOR": "1", "COLUMNS": "120", **(env or {})})


def litrec_process(*args, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """litrec in a subprocess of its own, without colour, 120 columns wide: for a test of what a
    fresh process sees (one process per command, as a user runs them)."""
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
