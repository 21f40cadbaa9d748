"""One litrec process at a time: an exclusive lock on a file beside what it guards.

The lock is `flock` on a lock file that its holder removes when it is done, so a
project at rest holds no lock file. A process that locked a file removed in the
meantime opens the new one and locks again (the lock file's inode is checked), so
two holders never overlap. The results of an analysis (`litrec.results.store.locked`)
and the review file (`litrec.verdicts.suspect`) are guarded so. Where the system has
no `flock` (Windows), nothing is locked.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from types import ModuleType

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows: no lock, one command at a time by hand
    fcntl = None

POLL_S = 0.05


def acquire(lock: Path, wait_s: float = 0.0) -> int | None:
    """Open and lock `lock` (created when absent): the open descriptor, for `release`; None when
    another process still holds it after `wait_s` seconds. OSError when it cannot be created."""
    deadline = time.monotonic() + wait_s
    while True:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
        if fcntl is None:
            return fd
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            if time.monotonic() >= deadline:
                return None
            time.sleep(POLL_S)
            continue
        try:
            if os.stat(lock).st_ino == os.fstat(fd).st_ino:
                return fd  # the file that is there now, not one its last holder removed
        except FileNotFoundError:
            pass
        os.close(fd)


def release(lock: Path, fd: int) -> None:
    """Remove the lock file while still holding it (a process waiting on it sees it went, and
    locks the next one), then let it go."""
    try:
        os.unlink(lock)
    except OSError:
        pass
    os.close(fd)
