"""A no-op `litrec run` answers from its memo (`litrec.cache.runmemo`) only while every input is as it was."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from litrec.analyses.memo import memo_key
from litrec.cache import runmemo


@pytest.fixture
def toy(ran_toy):
    """Every test here starts from the toy's quick result (`ran_toy`: run once, copied)."""
    return ran_toy


@pytest.fixture
def full_runs(monkeypatch):
    """How many runs took the full path (loaded and validated the records: `Project.load`)."""
    from litrec.records.project import Project

    calls: list[int] = []
    real = Project.load.__func__

    def counted(cls, *args, **kwargs):
        calls.append(1)
        return real(cls, *args, **kwargs)

    monkeypatch.setattr(Project, "load", classmethod(counted))
    return calls


def _fresh(cli, monkeypatch, *args):
    """The answer of a run with every cache of litrec off: what a kept answer must equal."""
    with monkeypatch.context() as m:
        m.setenv("LITREC_NO_CACHE", "1")
        return cli("run", *args)


def _memo_ready(cli):
    cli("run", "--profile", "quick", "--format", "json")  # a no-op (the result is there): keeps its answer


def test_second_noop_run_prints_the_kept_answer(toy, cli, full_runs, monkeypatch):
    _memo_ready(cli)
    assert (toy / ".litrec-cache" / "run" / "quick.bin").is_file()
    before = len(full_runs)
    for fmt in ("json", "text"):
        got = cli("run", "--profile", "quick", "--format", fmt)
        assert got == _fresh(cli, monkeypatch, "--profile", "quick", "--format", fmt)
    assert len(full_runs) == before + 2  # the two fresh runs only
    assert json.loads(cli("run", "--profile", "quick", "--format", "json")[1])["ran"] == []


def test_kept_answer_is_printed_without_the_records_schemas(toy):
    script = ("import sys; from litrec.commands import main; "
              "rc = main(['run', '--profile', 'quick', '--format', 'json']); "
              "print('pydantic' in sys.modules, 'yaml' in sys.modules, rc)")
    lasts = []
    for _ in range(2):  # the first keeps its answer (a process of its own: its sys.path)
        proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              cwd=toy)
        lasts.append(proc.stdout.strip().splitlines()[-1])
    assert lasts == ["True True 1", "False False 1"], proc.stdout + proc.stderr


def _same_size_edit(path, old: str, new: str) -> None:
    """Change the text, keeping the size and the modification time (only the hash sees it)."""
    assert len(old) == len(new)
    st = os.stat(path)
    path.write_text(path.read_text().replace(old, new))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


EDITS = {
    "expectation": lambda t: (t / "records/literature/ARXIV-0000.00001.yaml").write_text(
        (t / "records/literature/ARXIV-0000.00001.yaml").read_text().replace("value: 1000", "value: 5")),
    "same size and time": lambda t: _same_size_edit(
        t / "records/literature/ARXIV-0000.00001.yaml", "value: 1000", "value: 0001"),
    "new record": lambda t: (t / "records/notes/NOTE-2.yaml").write_text(
        "id: NOTE-2\nkind: note\nlinks:\n  - {rel: uses, target: 'ARXIV-0000.00001#F1'}\n"),
    "removed record": lambda t: (t / "records/notes/NOTE-1.yaml").unlink(),
    "tampered result": lambda t: _same_size_edit(
        t / "results/toy/quick.json", '"n": 4', '"n": 5'),
    "removed figure": lambda t: (t / "results/toy/quick/line.svg").unlink(),
    "registry title": lambda t: (t / "analysis/registry.yaml").write_text(
        "toy:\n  module: toy\n  title: Toy, renamed\n"),
    "analysis helper": lambda t: (t / "analysis/helper.py").write_text(
        "def scale(x):\n    return 3 * float(x)\n"),
}


RERUN = {"analysis helper", "tampered result", "removed figure"}  # their result is rerun
FLIPS_F2 = {"expectation", "same size and time"}  # F2's threshold comes down after the run


EVERYDAY = {"expectation", "tampered result", "analysis helper"}  # make test-all: every edit


@pytest.mark.parametrize("edit", [e if e in EVERYDAY else pytest.param(e, marks=pytest.mark.slow) for e in sorted(EDITS)])
def test_any_changed_input_takes_the_full_path(toy, cli, full_runs, monkeypatch, edit):
    _memo_ready(cli)
    kept = json.loads(cli("run", "--profile", "quick", "--format", "json")[1])
    assert kept["claims"][1]["verdict"] == "not reproduced"
    EDITS[edit](toy)
    before = len(full_runs)
    got = cli("run", "--profile", "quick", "--format", "json")
    assert len(full_runs) == before + 1
    doc = json.loads(got[1])
    assert doc["ran"] == (["toy"] if edit in RERUN else [])
    if edit not in RERUN:
        assert got == _fresh(cli, monkeypatch, "--profile", "quick", "--format", "json")
    if edit in FLIPS_F2:  # judged against the stored threshold until a rerun, the new one beside
        assert doc["claims"][1]["verdict"] == "expectation changed"
        assert doc["claims"][1]["new_verdict"] == "reproduced"
    again = cli("run", "--profile", "quick", "--format", "json")  # from the memo kept just now
    assert again == _fresh(cli, monkeypatch, "--profile", "quick", "--format", "json")
    assert json.loads(again[1])["ran"] == []


def test_targets_force_and_no_cache_do_not_take_anothers_answer(toy, cli, full_runs, monkeypatch):
    _memo_ready(cli)
    one = cli("run", "ARXIV-0000.00001#F1", "--profile", "quick", "--format", "json")
    assert [c["claim"] for c in json.loads(one[1])["claims"]] == ["ARXIV-0000.00001#F1"]
    before = len(full_runs)
    cli("run", "--profile", "quick", "--force", "--format", "json")
    monkeypatch.setenv("LITREC_NO_CACHE", "1")
    cli("run", "--profile", "quick", "--format", "json")
    assert len(full_runs) == before + 2


@pytest.mark.parametrize("damage", ["misshapen rows", "other fields"])
def test_a_memo_of_another_shape_is_never_trusted(toy, cli, full_runs, monkeypatch, damage):
    """The refusal rules of the cache itself (caching off, links, damage, versions, keys) are
    tested once for every use, in tests/cache/test_cache.py; here, what a sealed entry of the
    right key may still hold."""
    from litrec.cache.slots import Slot, plain

    _memo_ready(cli)
    slot = Slot(toy, "run", "quick")
    key = memo_key(Path("records"), Path("records").resolve().parent / "analysis",
                   Path("results"), "quick", [], True)  # as the command makes it, from toy/ (another
    # CPU's results kept: `any_machine`, unless --rerun-other-machine)
    held = plain(runmemo.recall(Path("records"), "quick", key, lambda patterns: {}))
    held["claims"][0]["verdict"] = "not reproduced"  # what a forged memo would say
    if damage == "misshapen rows":  # sealed, key right, rows of another shape
        held["claims"][0]["outcomes"] = [{"no such field": 1}]
        slot.write(key, held)
    else:
        slot.write(key, {**held, "extra": 1})
    before = len(full_runs)
    got = cli("run", "--profile", "quick", "--format", "json")
    assert len(full_runs) == before + 1
    assert got == _fresh(cli, monkeypatch, "--profile", "quick", "--format", "json")


def test_a_link_under_the_inputs_means_no_key(toy):
    args = (toy / "records", toy / "analysis", toy / "results", "quick", [])
    assert memo_key(*args) is not None
    (toy / "results" / "toy" / "link.json").symlink_to(toy / "results" / "toy" / "quick.json")
    assert memo_key(*args) is None


def test_key_covers_the_profile_targets_packages_and_litrec(toy, monkeypatch,
                                                          tmp_path_factory):
    dirs = (toy / "records", toy / "analysis", toy / "results")
    key = memo_key(*dirs, "quick", [])
    assert memo_key(*dirs, "quick", []) == key
    assert memo_key(*dirs, "paper", []) != key
    assert memo_key(*dirs, "quick", ["toy"]) != key
    site = tmp_path_factory.mktemp("site-packages")  # outside the project
    monkeypatch.syspath_prepend(str(site))
    with_site = memo_key(*dirs, "quick", [])
    assert with_site != key
    (site / "newpkg-1.0.dist-info").mkdir()  # a package installed there
    os.utime(site, ns=(1, os.stat(site).st_mtime_ns + 1_000_000))
    assert memo_key(*dirs, "quick", []) != with_site
    monkeypatch.setattr(runmemo, "litrec_code_hash", lambda names, folder=None: "another litrec")  # its code
    assert memo_key(*dirs, "quick", []) not in (key, with_site)


def test_an_edit_undone_while_the_run_reads_the_inputs_keeps_no_answer(toy, cli, monkeypatch):
    """A -> B -> A within one run, size and modification time put back each time: the run read
    B, and the key worked out after it is A's again but for the change time, so B's answer is
    never kept as A's (the next run equals a run with every cache off)."""
    from litrec.records.project import Project

    (toy / ".litrec-cache" / "run" / "quick.bin").unlink(missing_ok=True)  # no answer kept
    paper = toy / "records/literature/ARXIV-0000.00001.yaml"
    real = Project.load.__func__

    def read_b_then_undo(cls, *args, **kwargs):
        _same_size_edit(paper, "value: 1000", "value: 0001")  # B
        try:
            return real(cls, *args, **kwargs)
        finally:
            _same_size_edit(paper, "value: 0001", "value: 1000")  # A again

    with monkeypatch.context() as m:
        m.setattr(Project, "load", classmethod(read_b_then_undo))
        during = cli("run", "--profile", "quick", "--format", "json")
    fresh = _fresh(cli, monkeypatch, "--profile", "quick", "--format", "json")
    assert during != fresh  # the premise: the run in between answered for B
    assert cli("run", "--profile", "quick", "--format", "json") == fresh
