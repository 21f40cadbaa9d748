"""`litrec run`'s options are one frozen value (`litrec.runs.options.RunOptions`), built once by the
command from its arguments and passed down whole: reproduce, the plan and the runner read it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from litrec.runs.options import ExecutorSpec, RunOptions


def test_the_options_and_their_spec_are_frozen(tmp_path):
    options = RunOptions(records=tmp_path, analysis=tmp_path, results=tmp_path, profile="quick",
                         targets=["toy"], executor=ExecutorSpec("local", 2))
    assert options.targets == ("toy",)  # a list given is kept as a tuple: frozen through and through
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.profile = "paper"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.executor.workers = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        RunOptions(tmp_path, tmp_path, tmp_path, "quick")  # type: ignore[misc]  # by name only


def test_of_works_out_what_was_not_given(tmp_path, monkeypatch):
    from litrec.runs import options as module
    from litrec.util.errors import UsageError

    monkeypatch.setattr(module, "default_jobs", lambda: 5)
    (tmp_path / "records").mkdir()
    got = RunOptions.of(records=tmp_path / "records", analysis=None, results=tmp_path / "out",
                        profile="paper")
    assert got == RunOptions(records=tmp_path / "records", analysis=tmp_path.resolve() / "analysis",
                             results=tmp_path / "out", profile="paper", targets=(),
                             executor=ExecutorSpec("local", 5, None), force=False,
                             compile_cache=True, any_machine=False)
    with pytest.raises(UsageError, match=r"^records folder '.*nope' does not exist$"):
        RunOptions.of(records=tmp_path / "nope", analysis=None, results=tmp_path, profile="paper")


def _counted(monkeypatch, cls) -> list:
    """Each instance of the (frozen dataclass) `cls` made from now on, `dataclasses.replace` too."""
    made: list = []
    real = cls.__init__

    def init(self, *args, **kwargs):
        real(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(cls, "__init__", init)
    return made


def test_the_command_builds_the_options_once_from_what_it_parsed(toy, cli, monkeypatch):
    import litrec.runs.reproduce
    from litrec.runs.reproduce import Reproduction

    expected = RunOptions(records=Path("records"), analysis=toy.resolve() / "analysis",
                          results=Path("elsewhere"), profile="quick",
                          targets=("toy", "ARXIV-0000.00001#F1"),
                          executor=ExecutorSpec("local", 3, None), force=True, compile_cache=False,
                          any_machine=True)
    calls = []
    monkeypatch.setattr(litrec.runs.reproduce, "reproduce",
                        lambda *args, **kwargs: calls.append((args, kwargs)) or Reproduction())
    options, specs = _counted(monkeypatch, RunOptions), _counted(monkeypatch, ExecutorSpec)
    code, _, err = cli("run", "toy", "ARXIV-0000.00001#F1", "--profile", "quick", "--jobs", "3",
                       "--results", "elsewhere", "--force", "--no-compile-cache", "--any-machine",
                       "--format", "json")
    assert code == 0, err
    assert (len(options), len(specs)) == (1, 1)
    assert calls == [((options[0],), {"showing": calls[0][1]["showing"]})]  # by name, but showing
    assert options[0] == expected and options[0].executor is specs[0]


def test_a_whole_run_reads_the_one_spec_the_command_built(toy, cli, monkeypatch):
    """Nothing below the command builds the options or the executor's spec again: not the
    plan, not the runner (before, the plan had its own fallback spec)."""
    options, specs = _counted(monkeypatch, RunOptions), _counted(monkeypatch, ExecutorSpec)
    code, _, err = cli("run", "--profile", "quick", "--jobs", "1", "--format", "json")
    assert (code, len(options), len(specs)) == (1, 1, 1), err  # F2 is not reproduced: exit 1
    assert options[0].executor is specs[0] and specs[0] == ExecutorSpec("local", 1, None)


def test_the_memo_key_is_the_one_of_the_same_folders_and_profile(ran_toy):
    """A no-op run keeps its answer under what `memo_key` gives the options' values as they were
    passed before the options were one value, `any_machine` among them (tests/runs/test_runmemo.py
    keeps the rest)."""
    from litrec.analyses.memo import data_now, memo_key
    from litrec.cache import runmemo
    from litrec.runs.reproduce import reproduce

    toy = ran_toy  # the toy's result: nothing is stale from here on
    records = Path("records")
    options = RunOptions.of(records=records, analysis=None, results=Path("results"),
                            profile="quick", targets=["toy"], executor=ExecutorSpec("local", 1))
    for any_machine in (False, True):
        chosen = dataclasses.replace(options, any_machine=any_machine)
        assert reproduce(chosen).ran == []  # nothing to run: its answer is kept
        keys = {a: memo_key(records, records.resolve().parent / "analysis", Path("results"), "quick", ["toy"], a)
                for a in (False, True)}
        assert None not in keys.values() and keys[False] != keys[True]
        assert runmemo.recall(records, "quick", keys[any_machine], data_now(toy)) is not None
        assert runmemo.recall(records, "quick", keys[not any_machine], data_now(toy)) is None  # one kept


def test_a_run_answered_from_the_memo_imports_no_executor(ran_toy):
    """The spec the command builds is plain data (`litrec.runs.options`): a run answered from the
    run memo still imports none of the executors' machinery (process pools, multiprocessing)."""
    import subprocess
    import sys

    script = ("import sys; from litrec.commands import main; "
              "rc = main(['run', '--profile', 'quick', '--jobs', '2', '--format', 'json']); "
              "print(*[m in sys.modules for m in ('litrec.runs.options', 'litrec.runs.executors', "
              "'multiprocessing')], rc)")
    lasts = []
    for _ in range(2):  # the first keeps its answer (a process of its own: its sys.path)
        proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ran_toy)
        lasts.append(proc.stdout.strip().splitlines()[-1])
    assert lasts == ["True True True 1", "True False False 1"], proc.stdout + proc.stderr


def test_reproduce_called_without_a_display_runs_in_silence(toy, cli):
    """`reproduce(options)` as a library call, with no `showing`: what runs reports to the
    default `Events` (silence), not to None."""
    from litrec.runs.reproduce import reproduce

    options = RunOptions.of(records=Path("records"), analysis=None, results=Path("results"),
                            profile="quick", targets=["toy"], executor=ExecutorSpec("local", 1), force=True)
    out = reproduce(options)
    assert out.ran == ["toy"] and out.failed == []
