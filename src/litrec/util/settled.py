"""Reading a record file with a witness: its bytes, and what its status must still show for
the bytes read to be known unchanged without reading them again (git's "racily clean" rule).

The validation cache (`litrec.cache.vcache`) and the per-file checks (`litrec.records.filecheck`)
read record files through `read_record`; `file_unchanged` asks of a kept key.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from pathlib import Path

from litrec.util.confine import MAX_RECORD_BYTES, check, read_regular_stat


def content_hash(raw: bytes) -> str:
    """The hash that keys a file's cached work on its content (hex, 128 bits)."""
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


# How long before a file is read its last change must lie for its status to vouch for the
# bytes read (`read_record`'s witness): more than any file system's timestamp granularity
# (ext4's coarse clock ticks in milliseconds, FAT's in 2 s) and a small clock skew.
SETTLED_NS = 3_000_000_000


def read_record(path: str, root: Path) -> tuple[bytes, tuple]:
    """A record file's bytes and its key `(size, mtime_ns, content hash, witness)`.

    The witness is `(ctime_ns, inode, device)` of the regular file that was read
    (not a link), given only when its last change (ctime, which no tool can set
    back) lies more than `SETTLED_NS` before the read began: any later write
    gives it another ctime, so while `os.lstat` shows the same size, times,
    inode and device, the file holds the bytes that were read and hashed
    (`file_unchanged`). A file changed just before it was read has no witness
    and is read and hashed again next time (git's "racily clean" rule).

    A file the record scan found is inside the project unless it is a symbolic
    link (linked folders are never walked): only a link is resolved and
    checked (`litrec.util.confine.check`). Raises Refused (TooLarge) or OSError.
    """
    began = time.time_ns()
    try:  # a link is not opened here (O_NOFOLLOW, else looked at first); a FIFO never blocks
        if not _NOFOLLOW and os.path.islink(path):
            raise OSError(path)
        raw, st = read_regular_stat(path, MAX_RECORD_BYTES, nofollow=True)
        settled = st.st_ctime_ns + SETTLED_NS < began and st.st_mtime_ns + SETTLED_NS < began
        witness = (st.st_ctime_ns, st.st_ino, st.st_dev) if settled else None
    except OSError:
        if not os.path.islink(path):
            raise
        raw, st = read_regular_stat(check(Path(path), root), MAX_RECORD_BYTES)  # where it leads, if inside
        witness = None  # a link: what it leads to is read again each time
    return raw, (st.st_size, st.st_mtime_ns, content_hash(raw), witness)


def file_unchanged(path: str, key) -> bool:
    """Whether the file `path` still holds the bytes `read_record` read for `key`, by its
    status alone (its witness; False when the key has none: then read it again)."""
    if not isinstance(key, tuple) or len(key) != 4 or key[3] is None:
        return False
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return (stat.S_ISREG(st.st_mode)
            and (st.st_size, st.st_mtime_ns) == key[:2]
            and (st.st_ctime_ns, st.st_ino, st.st_dev) == tuple(key[3]))


_NOFOLLOW = hasattr(os, "O_NOFOLLOW")
