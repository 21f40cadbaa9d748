"""The local executor's queue: an analysis's first point goes ahead of its others.

Seeds of one analysis run the same programs, so the first point that JAX compiles
leaves them in the project's compile cache (`litrec.cache.jaxcache`) for the others
to load. Sent all at once to a pool of two workers, an analysis's first two seeds
would start together and both compile: on a cold cache, deeper-gdpp's quick points
took 31 s, 14 s and 13 s one after another, so a second compile at once costs about
the first point's compile again.

`LeadQueue` holds the points of a group (an analysis's job) back until the group's
first point (its lead) is done, and sends another group's point to a free worker
instead. It never leaves a worker idle for that: where every point still waiting
belongs to a group whose lead is running, the first of them goes anyway. Points go
in the order they were submitted otherwise, so an analysis's points still run
before those of the analyses queued behind it, and its result is written as soon as
its own points are back.

The runner queues every analysis's points inside `holding`, so that the first worker
free already sees them all. At most as many calls as there are workers are in the pool at a time; the rest wait
here, and a waiting one can be cancelled. The futures given out are plain
`concurrent.futures.Future`s that take the pool's result, its exception, or the
reason the pool refused the call (broken, shut down).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass
class _Waiting:
    future: concurrent.futures.Future
    fn: Callable
    arg: Any
    group: str | None


class LeadQueue:
    """Calls for a pool of `slots` workers (`send(fn, arg)` puts one in the pool, a future),
    sent so that a group's first call is done before the group's others start."""

    def __init__(self, send: Callable[[Callable, Any], concurrent.futures.Future], slots: int):
        self._send = send
        self._slots = max(1, slots)
        self._lock = threading.RLock()
        self._waiting: list[_Waiting] = []
        self._in_pool = 0
        self._leads: dict[str, concurrent.futures.Future] = {}  # a group's first call
        self._closed = False
        self._held = 0  # inside `holding`: calls are queued, none sent

    @contextlib.contextmanager
    def holding(self) -> Iterator[None]:
        """Queue the calls submitted inside, then send them: a free worker picks among all of
        them, not only among those submitted before it was free."""
        with self._lock:
            self._held += 1
        try:
            yield
        finally:
            with self._lock:
                self._held -= 1
                self._fill()

    def submit(self, fn: Callable, arg: Any, group: str | None = None) -> concurrent.futures.Future:
        """Queue one call; its future. `group` names the calls that share compiled programs."""
        future: concurrent.futures.Future = concurrent.futures.Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("cannot schedule new futures after shutdown")
            self._waiting.append(_Waiting(future, fn, arg, group))
            self._fill()
        return future

    def close(self) -> None:
        """Send nothing more: the calls still waiting are cancelled."""
        with self._lock:
            self._closed = True
            waiting, self._waiting = self._waiting, []
        for item in waiting:
            item.future.cancel()

    def waiting(self) -> int:
        """How many calls are held here, not yet in the pool."""
        with self._lock:
            return len(self._waiting)

    def _ready(self, item: _Waiting) -> bool:
        """Whether a waiting call may go now: it has no group, it leads its group, or its
        group's lead is done."""
        if item.group is None:
            return True
        lead = self._leads.get(item.group)
        return lead is None or lead.done()

    def _next(self) -> _Waiting | None:
        """The first waiting call that may go, else the first waiting call (a free worker
        never waits for a lead)."""
        self._waiting = [w for w in self._waiting if not w.future.cancelled()]
        if not self._waiting:
            return None
        pick = next((w for w in self._waiting if self._ready(w)), self._waiting[0])
        self._waiting.remove(pick)
        return pick

    def _fill(self) -> None:
        """Send waiting calls while the pool has a free worker (called with the lock held).
        A group is forgotten once its lead is done and none of its calls waits, so that a
        later run's group of the same name has a lead of its own."""
        while not self._closed and not self._held and self._in_pool < self._slots:
            item = self._next()
            if item is None:
                break
            if not item.future.set_running_or_notify_cancel():
                continue  # cancelled since `_next` looked
            if item.group is not None:
                self._leads.setdefault(item.group, item.future)
            try:
                inner = self._send(item.fn, item.arg)
            except BaseException as exc:  # a broken or shut pool: the call fails with its reason
                item.future.set_exception(exc)
                continue
            self._in_pool += 1
            inner.add_done_callback(functools.partial(self._back, outer=item.future))
        waiting = {w.group for w in self._waiting}
        for group in [g for g, lead in self._leads.items() if lead.done() and g not in waiting]:
            del self._leads[group]

    def _back(self, inner: concurrent.futures.Future, outer: concurrent.futures.Future) -> None:
        """A call came back from the pool: its future gets its outcome, and a worker is free."""
        with self._lock:
            self._in_pool -= 1
        if inner.cancelled():
            outer.set_exception(concurrent.futures.CancelledError())
        elif inner.exception() is not None:
            outer.set_exception(inner.exception())
        else:
            outer.set_result(inner.result())
        with self._lock:
            self._fill()
