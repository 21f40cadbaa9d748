"""Ctrl-C that a library wraps in its own exception is still Ctrl-C.

pydantic-core, building a validator when the signal came, once raised `SchemaError: Error
building "literal" validator: Interrupted: interrupted`, and litrec printed its traceback.
Whatever a command raises after a signal was noted, litrec exits as interrupted.
"""

from __future__ import annotations

import os
import signal
import time

import litrec.commands.run as run_command
from litrec.commands import main


def test_an_exception_raised_after_a_signal_exits_as_interrupted(monkeypatch, capsys):
    def wrapped(args):
        try:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, while a library works
            time.sleep(5)
        except KeyboardInterrupt as exc:  # the library catches it and raises its own
            raise ValueError(f'Error building "literal" validator: {type(exc).__name__}: {exc}') from None
        raise AssertionError("no signal came")

    monkeypatch.setattr(run_command, "run", wrapped)
    assert main(["run"]) == 130
    assert capsys.readouterr().err == "litrec: interrupted\n"


def test_an_exception_without_a_signal_is_not_taken_for_one(monkeypatch):
    def broken(args):
        raise ValueError("a bug")

    monkeypatch.setattr(run_command, "run", broken)
    try:
        main(["run"])
    except ValueError as exc:
        assert str(exc) == "a bug"
    else:
        raise AssertionError("the bug was swallowed")
