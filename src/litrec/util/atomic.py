"""Writing files and folders whole: fresh names beside the target, then one rename.

Everything is made with the modes any other program would give it (0666 for
a file, 0777 for a folder, less the umask), not the private 0600/0700 of
`tempfile`; a file rewritten in place (`rewrite_file`) keeps its own mode, and a
symbolic link to it stays a link. A crash leaves the old file whole and at most
a hidden temporary beside it, which the next writer of the same target may remove.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
from pathlib import Path


def fresh_name(parent: Path, prefix: str, suffix: str = "") -> Path:
    """A path in `parent` that does not exist yet (not reserved: create it with O_EXCL)."""
    while True:
        path = Path(parent) / f"{prefix}{secrets.token_hex(4)}{suffix}"
        if not os.path.lexists(path):
            return path


def fresh_dir(parent: Path, prefix: str) -> Path:
    """Create and return a new empty folder in `parent` (mode 0777 less the umask)."""
    while True:
        path = fresh_name(parent, prefix)
        try:
            os.mkdir(path, 0o777)
            return path
        except FileExistsError:
            continue


def leftovers(path: Path) -> list[Path]:
    """The temporaries a killed writer of `path` left beside it (`replace_file`'s and
    `rewrite_file`'s `.NAME-XXXXXXXX.tmp`): a caller that holds the target's lock may remove them."""
    pattern = re.compile(re.escape(f".{Path(path).name}-") + r"[0-9a-f]{8}\.tmp")
    try:
        return sorted(p for p in Path(path).parent.iterdir() if pattern.fullmatch(p.name) and p.is_file()
                      and not p.is_symlink())
    except OSError:
        return []


def write_new(path: Path, data: bytes, mode: int | None = None) -> None:
    """Create `path` (which must not exist) holding `data`, flushed to disk (with `mode`, the
    umask aside, where given)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    with os.fdopen(fd, "wb") as fh:
        if mode is not None:
            os.chmod(path, mode)  # by name: os.fchmod is not on every platform
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def replace_file(path: Path, data: bytes, prefix: str | None = None,
                 mode: int | None = None) -> None:
    """Replace `path` with `data` in one rename: a reader sees the old bytes or the new ones
    (the new file has `mode` where given)."""
    path = Path(path)
    tmp = fresh_name(path.parent, prefix or f".{path.name}-", ".tmp")
    try:
        if mode is None:
            write_new(tmp, data)
        else:
            write_new(tmp, data, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    sync_dir(path.parent)


def rewrite_file(path: Path, data: bytes) -> Path:
    """Replace the file at `path` with `data` in one rename, as the same file to its owner: a
    symbolic link is kept and the file it leads to is replaced, and the file keeps its mode
    (a file that is not there yet gets the usual one). Returns the path replaced. The caller
    decides whether a link may be followed (`litrec.util.confine.check`)."""
    real = Path(os.path.realpath(path))
    try:
        mode: int | None = stat.S_IMODE(os.stat(real).st_mode)
    except FileNotFoundError:
        mode = None
    replace_file(real, data, mode=mode)
    return real


def sync_dir(path: Path) -> None:
    """Flush a folder's entries (the renames in it) to disk, where the system allows it."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
