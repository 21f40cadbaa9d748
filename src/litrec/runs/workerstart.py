"""Imported first by the server that local and LocalCluster workers fork from (Linux).

Its effects, in that server and so in every worker forked from it:

- SIGINT is ignored from the first instruction, so a Ctrl-C in the terminal
  reaches litrec alone, which stops the workers itself (`litrec.runs.executors`);
- the server leaves at once when litrec has finished (its last exit handler
  skips the interpreter's teardown of JAX, a few tenths of a second): until it
  has gone, a reader of litrec's output (`litrec run | tee log`) waits. The
  workers leave through `os._exit` already, without exit handlers;
- a worker whose start fails because litrec is gone (stopped by SIGTERM or
  Ctrl-C while its workers start: the semaphores it shared are removed, and
  `SemLock._rebuild` raises FileNotFoundError) leaves without a traceback.

Nothing else imports it.
"""

import atexit
import os
import signal
import sys

signal.signal(signal.SIGINT, signal.SIG_IGN)
atexit.register(os._exit, 0)  # registered first, so it runs after every other exit handler
_hook = sys.excepthook


def _quiet_when_litrec_is_gone(kind, value, tb):
    """The forkserver child's report of a failed start: silent when litrec went away."""
    frames, at = [], tb
    while at is not None:
        frames.append(at.tb_frame.f_code.co_name)
        at = at.tb_next
    if issubclass(kind, (FileNotFoundError, EOFError, ConnectionError)) and (
            "_rebuild" in frames or "_main" in frames):
        return  # litrec stopped while this worker started: nothing to say
    _hook(kind, value, tb)


sys.excepthook = _quiet_when_litrec_is_gone
