"""`litrec run`'s answer on a toy project, worked out three ways: as it is (caches on), with every
cache off (`LITREC_NO_CACHE=1`) and with `--force`, each on its own copy of the project; the
three must agree (tests/hardening/test_inputs.py and the tests built on it). `litrec` is the
hardening tests' fixture (tests/hardening/conftest.py): the command line in a subprocess.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.support.mini import PAPER
from tests.support.toy import analysis, write_project

CLAIM = "ARXIV-0000.00001#F1"  # the mini paper's one claim: total >= 10
PLAIN = analysis(metrics={"total": 10.0}, doc="The total its source says.")


def project_with(root: Path, source: str) -> Path:
    """The mini paper (`tests.support.mini`) checked by the toy analysis `source`, at `root`."""
    return write_project(root, source, {"literature/ARXIV-0000.00001.yaml": PAPER})


def run_answer(litrec, root: Path, *args, env=None):
    """`run --profile quick --format json` (no traceback): its document, and each claim's
    (verdict, measured)."""
    done = litrec("run", "--profile", "quick", "--format", "json", *args, cwd=root, env=env)
    assert "Traceback" not in done.err, done.err
    try:
        doc = json.loads(done.out)
    except ValueError:
        raise AssertionError(f"not JSON on stdout: {done.out!r}\n{done.err}") from None
    return doc, {c["claim"]: (c["verdict"], c.get("measured")) for c in doc["claims"]}


def three_ways(litrec, root: Path, tmp_path: Path, env=lambda copy: {}):
    """The verdicts of `run`, `LITREC_NO_CACHE=1 run` and `run --force`, each on a copy of
    the project; asserted equal, and returned (with what the cached run ran)."""
    got = {}
    ran = None
    for how, args, extra in (("cached", (), {}), ("no cache", (), {"LITREC_NO_CACHE": "1"}),
                             ("force", ("--force",), {})):
        copy = tmp_path / f"copy-{how.replace(' ', '-')}"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(root, copy, symlinks=True)
        doc, got[how] = run_answer(litrec, copy, *args, env={**env(copy), **extra})
        if how == "cached":
            ran = doc["ran"]
    assert got["cached"] == got["no cache"] == got["force"], got
    return got["cached"], ran


def status_both_ways(litrec, root: Path) -> dict[str, str]:
    """`status` with caches on, asserted equal to it with every cache off: each claim's verdict."""
    got = [litrec("status", "--profile", "quick", "--format", "json", cwd=root, env=env)
           for env in ({}, {"LITREC_NO_CACHE": "1"})]
    assert got[0].out == got[1].out and got[0].code == got[1].code, got
    return {c["claim"]: c["verdict"] for c in json.loads(got[0].out)}
