"""Reading the project's files without leaving the project.

The project is the folder that holds `records/` (and `analysis/`, `results/`,
`site/`). litrec reads a file found there only when it is a regular file
inside the project: a symbolic link is followed only when it leads to a file
that is itself inside the project; a linked folder is never walked (it could
loop, or read the same records twice); a FIFO, socket or device is never
opened (a FIFO would block the command for ever). Anything else is refused
with a message that names the path and says where it leads, never with its
content. A file the user names on the command line (`litrec import bibtex
FILE`) is an argument, not part of the project: it may lie anywhere, but it
must be a regular file too (`read_regular`).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from litrec.util.formatting import excerpt

MAX_RECORD_BYTES = 1 << 20  # a record file over 1 MiB is refused before parsing
# The names the site gives its generated pages in the sections where record and analysis pages
# go (records/index.md, analyses/index.md): no record id or analysis name may take one, so that
# no record's or analysis's page and a generated one are the same file.
GENERATED_PAGE_NAMES = frozenset({"index"})

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"))


class Refused(Exception):
    """A path litrec will not read: a link out of the project, a linked folder, not a regular file."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class TooLarge(Refused):
    """A regular file over the size limit its reader set."""

    def __init__(self, size: int, limit: int):
        super().__init__(f"file is {size} bytes, over the {limit}-byte limit")
        self.size = size
        self.limit = limit


def need_dir(path: Path, what: str) -> None:
    """UsageError unless `path` is a folder (`what`: which one, `records`, `analysis`)."""
    if not Path(path).is_dir():
        from litrec.util.errors import UsageError

        raise UsageError(f"{what} folder '{path}' does not exist")


def project_root(folder: Path) -> Path:
    """The project that a named folder (records/, results/, analysis/) belongs to: its parent."""
    return Path(folder).resolve().parent


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _what(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def _not_regular(mode: int) -> Refused:
    return Refused(f"is {_what(mode)}, not a regular file; litrec reads only regular files")


def check(path: Path, root: Path) -> Path:
    """The real path of a regular file inside the project `root`; Refused otherwise.

    OSError (e.g. FileNotFoundError) when the path does not exist.
    """
    path = Path(path)
    st = os.lstat(path)
    real = path.resolve()
    if not _inside(real, Path(root).resolve()):
        if stat.S_ISLNK(st.st_mode):
            where = excerpt(os.readlink(path), 120)
            what = "folder" if real.is_dir() else "file"
            raise Refused(f"is a symbolic link to a {what} outside the project ({where}); "
                          "litrec does not follow it")
        raise Refused(f"lies in a linked folder that leads outside the project ({excerpt(real, 120)}); "
                      "litrec does not follow it")
    mode = os.stat(real).st_mode
    if not stat.S_ISREG(mode):
        raise _not_regular(mode)
    return real


def read_regular(path: Path | str, limit: int | None = None) -> bytes:
    """The bytes of a regular file, opened without blocking (a FIFO is refused, never read).

    Refused when it is not a regular file or is over `limit` bytes; OSError when
    it cannot be read.
    """
    return read_regular_stat(path, limit)[0]


def read_regular_stat(path: Path | str, limit: int | None = None,
                      nofollow: bool = False) -> tuple[bytes, os.stat_result]:
    """`read_regular`, with the status of the file as it was opened (its size and time).

    With `nofollow`, a symbolic link is not opened (OSError ELOOP where the system says so).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags | (getattr(os, "O_NOFOLLOW", 0) if nofollow else 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _not_regular(st.st_mode)
        if limit is not None and st.st_size > limit:
            raise TooLarge(st.st_size, limit)
        first = os.read(fd, st.st_size + 1)  # the whole file in one read, unless it grew
        if len(first) <= st.st_size:
            return first, st
        chunks = [first]
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks), st
    finally:
        os.close(fd)


def read_file(path: Path, root: Path, limit: int | None = None) -> bytes:
    """The bytes of a regular file inside the project `root` (see `check`); Refused otherwise."""
    return read_regular(check(path, root), limit)


def prune_linked(dirpath: str, dirnames: list[str]) -> list[tuple[Path, str]]:
    """Keep in `dirnames` (of an `os.walk` step) the folders to walk: not hidden, not linked;
    return the linked ones with why they are not walked."""
    keep, refused = [], []
    for d in sorted(dirnames):
        if d.startswith("."):
            continue
        full = os.path.join(dirpath, d)
        if os.path.islink(full):
            where = excerpt(os.readlink(full), 120)
            refused.append((Path(full), f"is a symbolic link to a folder ({where}); litrec does "
                            "not walk linked folders (they can lead out of the project, loop or "
                            "hold the same files twice); move or copy the files here"))
        else:
            keep.append(d)
    dirnames[:] = keep
    return refused


def walk(folder: Path, suffixes: tuple[str, ...] | None = None
         ) -> tuple[list[Path], list[tuple[Path, str]]]:
    """Files under `folder` (hidden names skipped; `suffixes` to keep only those), sorted,
    and the linked folders found there with why they are not walked.

    Linked files are listed (`check` decides when they are read); linked folders
    are not walked, inside the project or out of it.
    """
    files: list[str] = []
    refused: list[tuple[Path, str]] = []
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        refused += prune_linked(dirpath, dirnames)
        files.extend(os.path.join(dirpath, f) for f in filenames
                     if not f.startswith(".") and (suffixes is None or f.endswith(suffixes)))
    return [Path(p) for p in sorted(files)], sorted(refused)
