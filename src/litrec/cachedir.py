"""The project's cache folder, `.litrec-cache/` beside `records/`: what litrec may recompute.

Everything in it is an answer litrec can always work out again (what a module
imports, XLA's compiled programs), so deleting it, or a damaged file in it,
costs time, never a result. A folder is made only inside the project and is
never reached through a symbolic link: where `.litrec-cache` or one of its
folders is a link or a file, or cannot be made (a read-only checkout), litrec
runs without that cache. `LITREC_NO_CACHE=1` turns every cache off.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

CACHE = ".litrec-cache"
OFF_VARIABLE = "LITREC_NO_CACHE"


def caching_off() -> bool:
    """Whether the environment turns litrec's caches off (`LITREC_NO_CACHE` set, not 0)."""
    return os.environ.get(OFF_VARIABLE, "").strip() not in ("", "0")


def _own_folder(path: Path) -> bool:
    """Make `path` a folder unless it exists; False when it is anything but a real folder."""
    try:
        os.mkdir(path, 0o777)
    except FileExistsError:
        pass
    except OSError:
        return False
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)  # lstat: a link to a folder is refused
    except OSError:
        return False


def cache_dir(root: Path, name: str, create: bool = True) -> Path | None:
    """The folder `.litrec-cache/NAME` of the project `root`, made when missing (with `create`);
    None when caching is off or the folder cannot be had safely (see the module docstring)."""
    if caching_off():
        return None
    root = Path(root).resolve()
    base, folder = root / CACHE, root / CACHE / name
    if not create:
        try:
            ok = all(stat.S_ISDIR(os.lstat(p).st_mode) for p in (base, folder))
        except OSError:
            return None
        return folder if ok else None
    if _own_folder(base) and _own_folder(folder):
        return folder
    return None


def litrec_code_hash(names, folder: Path | None = None) -> str:
    """A hash of the source of the named litrec modules (`"checks"`, ...) in `folder` (litrec's
    own by default): the part of a cache's key that a new litrec changes. A module that cannot
    be read counts as missing."""
    here = folder or Path(__file__).resolve().parent
    h = hashlib.blake2b(digest_size=16)
    for name in names:
        h.update(name.encode() + b"\0")
        try:
            h.update((here / f"{name}.py").read_bytes())
        except OSError:
            h.update(b"missing")
    return h.hexdigest()
