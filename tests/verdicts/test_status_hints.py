"""Every command `litrec status` hints at works: run as printed, in the project it was printed
for, each exits 0, never with a usage error or a profile the analysis lacks.

Two papers, two analyses: `toy` has the scales `paper` and `paper_full`, `small` only `paper`;
the claims at `paper_full` of `small` read unchecked, and no hint names that scale for them.
The hints are gathered from every surface of `status` (each scale, `--verbose`, the JSON
reasons) in two states of the project: a threshold edited after the run, a `paper_full` result
missing; then the same results on another CPU (this one with a feature more, in this process)."""

from __future__ import annotations

import json
import re

import pytest

from litrec.analyses import inputs as inputs_module
from litrec.runs import sweep
from tests.support.files import write
from tests.support.toy import analysis, importable

PAPER = "source: {kind: paper, where: §1, quote: a test claim, threshold: paper}"
EXTENSION = "source: {kind: extension, reason: litrec's own test}"
TOY = analysis(head="import numpy as np", fields="n: int = 5",
               profiles='{"quick": Config(n=5), "paper": Config(n=6), "paper_full": Config(n=7)}',
               body='return {"metrics": {"total": float(np.arange(config.n).sum())}}')
SMALL = analysis(metrics={"share": 0.25}, profiles='{"quick": Config(), "paper": Config()}')
REGISTRY = "scales: [paper, paper_full]\ntoy:\n  module: toy\n  title: Toy\nsmall:\n  module: small\n  title: Small\n"
# a command as a hint names it (not `litrec status:`, the prefix of its own notes)
HINT = re.compile(r"litrec (?:run|status|sign|review|validate|diff|export)(?!:)(?: [A-Za-z0-9_.#+-]+)*")


def _claim(cid: str, name: str, *expect: str) -> str:
    lines = "".join(f"        - {{{e}, {PAPER if 'extension' not in e else ''}}}\n".replace(", }", "}")
                    for e in expect)
    return (f"  - id: {cid}\n    kind: finding\n    title: Claim {cid}\n    statement: A statement.\n"
            f"    check:\n      analysis: {name}\n      expect:\n{lines}")


def _paper(rid: str, *claims: str) -> str:
    return f"id: {rid}\nkind: literature\ntitle: Paper {rid}\nclaims:\n" + "".join(claims)


TOTAL = "metric: total, op: '>=', value: 10"
EDITED = "metric: total, op: '>=', value: 9"   # still holds: its forced rerun exits 0
SHARE = "metric: share, op: '<', value: 0.5"
SHARE_EXT = "metric: share, op: '<', value: 0.3, " + EXTENSION


def _records(root, total: str) -> None:
    write(root, "records/literature/ARXIV-0000.00005.yaml", _paper(
        "ARXIV-0000.00005", _claim("F1", "toy", TOTAL), _claim("F2", "small", SHARE, SHARE_EXT)))
    write(root, "records/literature/ARXIV-0000.00006.yaml", _paper(
        "ARXIV-0000.00006", _claim("G1", "small", SHARE), _claim("G2", "toy", total)))


@pytest.fixture
def two_papers(tmp_path, monkeypatch, cli):
    """Both analyses run at quick and paper; G2's threshold edited since; no paper_full result."""
    root = tmp_path / "project"
    write(root, "analysis/__init__.py", "")
    write(root, "analysis/toy.py", TOY)
    write(root, "analysis/small.py", SMALL)
    write(root, "analysis/registry.yaml", REGISTRY)
    _records(root, TOTAL)
    importable(root, monkeypatch)
    monkeypatch.setenv("LITREC_SANDBOX", "off")  # the points run here, where a patched CPU is seen
    monkeypatch.setenv("COLUMNS", "1000")        # a hint on one line
    for profile in ("quick", "paper"):
        code, out, err = cli("run", "--profile", profile, "--jobs", "1")
        assert code == 0, out + err
    _records(root, EDITED)
    return root


def _hints(cli) -> list[str]:
    """Every command any surface of `status` prints, each once, in the order first printed."""
    found: list[str] = []
    for profile in (None, "quick", "paper", "paper_full"):
        at = ["--profile", profile] if profile else []
        for extra in ([], ["--verbose"], ["--check-current"]):
            code, out, err = cli("status", *at, *extra)
            assert code in (0, 1) and "usage:" not in err, err
            found += HINT.findall(out + err)
        rows = json.loads(cli("status", *at, "--format", "json")[1])
        found += [h for r in rows for h in HINT.findall(r["reason"] or "")]
    return list(dict.fromkeys(found))


def _run_every(cli, hints: list[str]) -> None:
    for hint in hints:
        code, out, err = cli(*hint.split()[1:])
        assert code == 0, f"{hint}: exit {code}\n{out}{err}"
        assert "usage:" not in err and "error" not in err, f"{hint}\n{err}"
        assert not re.search(r"has no profile|unknown profile", err), f"{hint}\n{err}"  # a note may
        # name the analyses a run over all of them leaves out for lack of the profile


def test_every_hint_status_prints_is_a_command_that_works(two_papers, cli, monkeypatch):
    hints = _hints(cli)
    assert "litrec run ARXIV-0000.00006#G2 --profile paper_full" in hints  # the missing result
    assert any(h.startswith("litrec run toy --profile paper") and h.endswith("--force")
               for h in hints), hints  # G2's threshold edited since the run
    lacking = [h for h in hints if "paper_full" in h
               and any(name in h for name in ("small", "#F2", "#G1"))]
    assert lacking == []  # small has no paper_full: its claims are unchecked there, with no hint
    _run_every(cli, hints)

    # the same results on another CPU: the hint that recomputes them works too
    other = (*inputs_module.machine_isa(), "amx_tile_x")
    for module in (inputs_module, sweep):
        monkeypatch.setattr(module, "machine_isa", lambda: other)
    hints = _hints(cli)
    assert "litrec run --profile paper --rerun-other-machine" in hints, hints
    assert "litrec run --profile quick --rerun-other-machine" in hints, hints
    _run_every(cli, hints)
    assert cli("status", "--profile", "paper", "--check-current")[0] == 0  # all recomputed here
