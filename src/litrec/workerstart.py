"""Imported first by the server that local and LocalCluster workers fork from (Linux).

Its effects, in that server and so in every worker forked from it:

- SIGINT is ignored from the first instruction, so a Ctrl-C in the terminal
  reaches litrec alone, which stops the workers itself (`litrec.executors`);
- the server leaves at once when litrec has finished (its last exit handler
  skips the interpreter's teardown of JAX, a few tenths of a second): until it
  has gone, a reader of litrec's output (`litrec run | tee log`) waits. The
  workers leave through `os._exit` already, without exit handlers.

Nothing else imports it.
"""

import atexit
import os
import signal

signal.signal(signal.SIGINT, signal.SIG_IGN)
atexit.register(os._exit, 0)  # registered first, so it runs after every other exit handler
