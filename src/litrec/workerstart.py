"""Imported first by the server that local and LocalCluster workers fork from (Linux).

Its one effect: that server, and so every worker forked from it, ignores SIGINT
from its first instruction, so a Ctrl-C in the terminal reaches litrec alone,
which stops the workers itself (`litrec.executors`). Nothing else imports it.
"""

import signal

signal.signal(signal.SIGINT, signal.SIG_IGN)
