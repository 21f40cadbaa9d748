"""The answers read from the analyses' sources are kept in .litrec-cache/sources/ of the project,
one slot each, written when worked out: the same answers as a fresh read, a changed source read
afresh, nothing lost by a process killed afterwards, and processes at once never write over each
other's answers. The cache's refusal rules are tested once for every use, in
tests/cache/test_cache.py."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from litrec.analyses.inputs import result_inputs as fingerprint
from litrec.analyses.registry import load_registry
from litrec.cache import sourcefacts

SOURCES = (".litrec-cache", "sources")


@pytest.fixture(autouse=True)
def fresh_process(monkeypatch):
    """Each test starts with nothing held in this process."""
    monkeypatch.setattr(sourcefacts, "_HELD", {})
    monkeypatch.delenv("LITREC_NO_CACHE", raising=False)


def _answers(root):
    reg = load_registry(root / "analysis", [])
    fps = {name: fingerprint(reg, name, "quick") for name in reg.entries}
    return reg.profiles, {n: (fp.code_hash, fp.versions) for n, fp in fps.items()}


def test_kept_answers_equal_fresh_ones_and_a_change_is_read_afresh(project, monkeypatch):
    fresh = _answers(project)
    assert list(project.joinpath(*SOURCES).glob("*.bin"))  # kept as soon as worked out
    monkeypatch.setattr(sourcefacts, "_HELD", {})  # a later process: answers from the slots
    monkeypatch.setattr("ast.parse", lambda *a, **k: pytest.fail("parsed a kept source"))
    assert _answers(project) == fresh
    monkeypatch.undo()
    monkeypatch.setattr(sourcefacts, "_HELD", {})
    module = project / "analysis" / "prop1_identity.py"
    module.write_text(module.read_text() + "\nimport numpy\n")
    profiles, fps = _answers(project)
    assert fps["prop1-identity"] != fresh[1]["prop1-identity"]


WORKER = """
import os, signal, sys
from pathlib import Path
from litrec.cache import sourcefacts

root, name = Path(sys.argv[1]), sys.argv[2]
sys.stdin.readline()  # every worker starts together
for i in range(20):
    sourcefacts.fact(root, f"{name} {i}", f"{name} {i}".encode(), lambda: {"by": name, "i": i})
os.kill(os.getpid(), signal.SIGKILL)  # no exit handler runs
"""


def test_answers_survive_a_killed_process_and_processes_at_once(tmp_path):
    """Four processes work out twenty answers each at the same time and are killed with
    SIGKILL: every answer is on disk, and each under its own key."""
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(tmp_path), f"p{n}"],
                              stdin=subprocess.PIPE, env={**os.environ, "LITREC_NO_CACHE": "0"})
             for n in range(4)]
    for proc in procs:
        proc.stdin.write(b"go\n")
        proc.stdin.flush()
    assert [proc.wait(timeout=120) for proc in procs] == [-signal.SIGKILL] * 4
    for n in range(4):
        for i in range(20):
            what = f"p{n} {i}"
            got = sourcefacts.fact(tmp_path, what, what.encode(),
                                   lambda: pytest.fail(f"{what} was lost"))
            assert got == {"by": f"p{n}", "i": i}
    assert len(list(tmp_path.joinpath(*SOURCES).glob("*.bin"))) == 80
