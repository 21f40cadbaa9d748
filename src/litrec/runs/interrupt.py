"""Stopping a run: Ctrl-C and SIGTERM from the user, told apart from an analysis that exits.

While a run is going (`handling()`), SIGINT and SIGTERM raise `Interrupted`, a
`KeyboardInterrupt` that carries the exit code (130 or 143), and the signal is
noted. An analysis that calls `sys.exit` or raises `KeyboardInterrupt` itself
raises a plain `SystemExit` or `KeyboardInterrupt` with no signal noted:
`stray` names it, and the runner records it as that analysis's failure
instead of stopping the run (or, worse, reporting success).

Inside `deferred()` (writing a result) a signal is only noted, so no write
stops half way; `check()` raises it afterwards.

A signal can land while Python runs a callback whose exceptions it only reports
(a weak reference's callback inside the import system, a `__del__`): the
`Interrupted` raised there is swallowed. While a run is going such a report is
kept quiet (`sys.unraisablehook`), the signal stays noted, and the next `check()`
raises it: the waits of a run (`result`, the executors' `as_completed`) check
every `TICK_S` seconds.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_STOPS: dict[int, str] = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}
_state: dict[str, Any] = {"noted": None, "deferring": 0, "active": 0}  # noted: a signal or None
TICK_S = 0.25  # how often a wait of a run looks for a stop that was swallowed


class Interrupted(KeyboardInterrupt):
    """The user stopped the run with SIGINT (Ctrl-C) or SIGTERM; `exit_code` is 128 + signal."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(_STOPS.get(signum, "interrupted"))
        self.signum = int(signum)
        self.exit_code = 128 + int(signum)


def requested() -> bool:
    """Whether the user has asked the run to stop (a signal was noted)."""
    return _state["noted"] is not None


def _handler(signum, frame) -> None:
    first = _state["noted"] is None
    if first:
        _state["noted"] = signum
    if first and not _state["deferring"]:
        raise Interrupted(signum)  # later signals: the run is already stopping


@contextmanager
def handling() -> Iterator[None]:
    """Turn SIGINT and SIGTERM into `Interrupted` for the duration (main thread only)."""
    if threading.current_thread() is not threading.main_thread() or _state["active"]:
        yield
        return
    previous = {s: signal.getsignal(s) for s in _STOPS}
    hook = sys.unraisablehook
    _state.update(noted=None, active=1)
    sys.unraisablehook = _quiet_when_swallowed(hook)
    for s in _STOPS:
        signal.signal(s, _handler)
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h)
        sys.unraisablehook = hook
        _state.update(noted=None, active=0, deferring=0)


def _quiet_when_swallowed(hook):
    """`hook`, except for an `Interrupted` that Python could only report (raised by the
    handler inside a callback): it stays noted, for the next `check()`."""
    def unraisable(info) -> None:
        if isinstance(info.exc_value, Interrupted):
            return
        hook(info)

    return unraisable


@contextmanager
def deferred() -> Iterator[None]:
    """Only note a signal that comes during the block; `check()` raises it once it is done."""
    _state["deferring"] += 1
    try:
        yield
    finally:
        _state["deferring"] -= 1


def check() -> None:
    """Raise `Interrupted` if a signal was noted (while deferred, or swallowed by an analysis)."""
    if _state["noted"] is not None and _state["active"] and not _state["deferring"]:
        raise Interrupted(_state["noted"])


def result(future) -> Any:
    """`future.result()`, waited for in steps of `TICK_S` seconds, so that a stop whose
    `Interrupted` was swallowed still stops the wait (`check`)."""
    while True:
        try:
            return future.result(timeout=TICK_S)
        except TimeoutError:
            if future.done():  # done meanwhile, or the call itself raised TimeoutError
                return future.result()
            check()


def stray(exc: BaseException) -> str | None:
    """What an analysis did when it raised `exc` outside the Exception family (None: a real
    stop by the user, or an ordinary exception, to be let through)."""
    if isinstance(exc, (Exception, Interrupted)) or requested():
        return None
    if isinstance(exc, SystemExit):
        return f"the analysis called sys.exit({exc.code!r}) (raised SystemExit)"
    if isinstance(exc, KeyboardInterrupt):
        return "the analysis raised KeyboardInterrupt itself (no Ctrl-C was pressed)"
    return f"the analysis raised {type(exc).__name__}: {exc}"
