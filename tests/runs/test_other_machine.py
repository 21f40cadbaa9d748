"""Results computed on another CPU: `litrec run` keeps them as they are unless asked, saying in one
line what it kept, the command that recomputes them and about how long that would take; `status`
says the machine's difference once per scale, after its table (the summary first, then the rows),
not under every claim.

Another CPU is this one with a feature more (`machine_isa` patched in this process: the runs here
are in-process, one point each, without a sandbox, so the patch reaches the point too)."""

from __future__ import annotations

import json
import shutil

import pytest

from litrec.analyses import inputs as inputs_module
from litrec.runs import sweep
from tests.support.inprocess import run_inprocess
from tests.support.mini import finding
from tests.support.toy import analysis, importable, write_project

PAPER = "source: {kind: paper, where: §1, quote: a test claim, threshold: paper}"
EXTENSION = "source: {kind: extension, reason: litrec's own test}"
LIT = ("id: ARXIV-0000.00004\nkind: literature\ntitle: A toy paper on two machines\nclaims:\n"
       + finding(f'{{metric: total, op: ">=", value: 10, {PAPER}}}',
                 f'{{metric: total, op: "<", value: 100, {EXTENSION}}}')
       + finding(f'{{metric: total, op: "<", value: 100, {PAPER}}}', cid="F2",
                 title="The total is below a hundred", statement="The sum stays small."))
TOY = analysis(head="import numpy as np", fields="n: int = 5",
               profiles='{"quick": Config(n=5), "paper": Config(n=6)}',
               body='return {"metrics": {"total": float(np.arange(config.n).sum())}}')
RESULT = "results/toy/{}.json"


@pytest.fixture(scope="module")
def computed_here(tmp_path_factory):
    """The toy's quick and paper results, computed here once for this module (only copied)."""
    root = write_project(tmp_path_factory.mktemp("two-machines") / "project", TOY,
                         {"literature/ARXIV-0000.00004.yaml": LIT})
    for profile in ("quick", "paper"):
        code, out, err = run_inprocess(["run", "--profile", profile, "--jobs", "1"], cwd=root,
                                       env={"LITREC_SANDBOX": "off"})
        assert code == 0, out + err
    return root


@pytest.fixture
def elsewhere(computed_here, tmp_path, monkeypatch):
    """A copy of the toy with its results computed here; then this machine becomes another CPU."""
    root = importable(shutil.copytree(computed_here, tmp_path / "project", symlinks=True), monkeypatch)
    monkeypatch.setenv("LITREC_SANDBOX", "off")
    monkeypatch.setenv("COLUMNS", "200")
    other = (*inputs_module.machine_isa(), "amx_tile_x")
    for module in (inputs_module, sweep):
        monkeypatch.setattr(module, "machine_isa", lambda: other)
    return root


def test_run_keeps_another_cpu_s_results_and_says_so_in_one_line(elsewhere, cli):
    before = (elsewhere / RESULT.format("quick")).read_bytes()
    code, out, err = cli("run", "--profile", "quick")
    assert code == 0, err
    assert (elsewhere / RESULT.format("quick")).read_bytes() == before  # neither rerun nor re-stamped
    assert "nothing to run: 1 result of another CPU kept as it is for profile 'quick'" in err
    assert "0 analyses current" not in err
    (line,) = [ln for ln in err.splitlines() if ln.startswith("litrec run: kept")]
    assert line.startswith("litrec run: kept 1 result computed on another CPU (")
    assert "amx_tile_x only here), not recomputed: toy; their numbers stand" in line
    assert line.endswith(", as long as they took there)")
    assert "recompute them here: litrec run --profile quick --rerun-other-machine (about 1 s" in line
    assert out.count("computed on another CPU (said below the table)") == 3  # F1, F1+ext, F2
    assert "amx_tile_x" not in out
    doc = json.loads(cli("run", "--profile", "quick", "--format", "json")[1])
    assert doc["other_machine"] == ["toy"] and doc["ran"] == []
    assert {r["verdict"] for r in doc["claims"]} == {"stale"}
    assert all(r["reason"].startswith("computed on another CPU, rerun it here") for r in doc["claims"])


def test_a_named_target_is_kept_too_and_its_rerun_names_it(elsewhere, cli):
    code, _, err = cli("run", "ARXIV-0000.00004#F2", "--profile", "quick")
    assert code == 0
    assert "recompute them here: litrec run ARXIV-0000.00004#F2 --profile quick --rerun-other-machine" in err


@pytest.mark.parametrize("flag", ["--rerun-other-machine", "--force"])
def test_asked_run_recomputes_them_here(elsewhere, cli, flag):
    before = (elsewhere / RESULT.format("quick")).read_bytes()
    code, out, err = cli("run", "--profile", "quick", flag, "--jobs", "1")
    assert code == 0, err
    assert "running toy (quick)" in err and "litrec run: kept" not in err
    assert (elsewhere / RESULT.format("quick")).read_bytes() != before
    stored = json.loads((elsewhere / RESULT.format("quick")).read_text(encoding="utf-8"))
    assert stored["inputs"]["isa"][-1] == "amx_tile_x"
    assert "computed on another CPU" not in out
    code, _, err = cli("run", "--profile", "quick", "--any-machine", "--rerun-other-machine")
    assert code == 2 and "give one" in err


def test_status_says_the_machine_once_by_the_scale_concerned(elsewhere, cli):
    code, out, _ = cli("status", "--profile", "quick")
    assert code == 0
    assert out.count("amx_tile_x only here") == 2  # once for quick, once for paper, not per claim
    assert out.count("computed on another CPU (said below the table)") == 3
    lines = out.splitlines()  # the summary first, then the rows, then the notes, wrapped
    assert lines[0].startswith("at paper, the paper's own scale: 2 claims of ARXIV-0000.00004: 2 stale")
    first_row = next(i for i, ln in enumerate(lines) if ln.startswith("ARXIV-0000.00004#"))
    first_note = next(i for i, ln in enumerate(lines) if ln.startswith("1 result was computed"))
    assert "(profile quick)" in " ".join(lines[:first_row]) and first_row < first_note
    assert all(ln.startswith(("ARXIV-0000.00004#", " ")) for ln in lines[first_row:first_note])
    notes = " ".join(" ".join(lines[first_note:]).split()).split(" at paper: ")
    assert notes[0].startswith("1 result was computed on another CPU (")
    assert notes[0].endswith("): toy; their numbers stand, shown stale and not judged here; recompute them "
                             "here: litrec run --profile quick --rerun-other-machine (about 1 s, as long as they "
                             "took there)")
    assert notes[1].startswith("1 result was computed on another CPU (")
    assert "recompute them here: litrec run --profile paper --rerun-other-machine (" in notes[1]
    rows = json.loads(cli("status", "--profile", "quick", "--format", "json")[1])
    assert all(r["other_machine"] and "amx_tile_x only here" in r["reason"] for r in rows)  # JSON: whole


def test_status_says_nothing_of_it_when_the_results_are_this_cpu_s(elsewhere, cli, monkeypatch):
    assert cli("run", "--profile", "quick", "--rerun-other-machine", "--jobs", "1")[0] == 0
    out = cli("status", "--profile", "quick")[1]
    assert "at paper: 1 result was computed on another CPU" in out
    assert not any(ln.startswith("1 result was computed") for ln in out.splitlines())
    assert "said below the table" not in out


@pytest.mark.parametrize("columns", ["60", "90", "200"])
def test_status_never_splits_the_command_its_note_names(elsewhere, cli, monkeypatch, columns):
    """A hint is copied from the terminal as it stands: the note wraps around its command."""
    monkeypatch.setenv("COLUMNS", columns)
    out = cli("status", "--profile", "quick")[1]
    assert all(len(line) <= int(columns) for line in out.splitlines())
    for profile in ("quick", "paper"):
        assert f"litrec run --profile {profile} --rerun-other-machine" in out, out
