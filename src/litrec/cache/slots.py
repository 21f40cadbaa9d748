"""The cache's one primitive, `Slot`: values kept under keys in `.litrec-cache/` at the project root.

Everything in it is an answer litrec can always work out again, so a missing,
damaged or refused entry costs time, never a result. One primitive, `Slot`, is
a file `.litrec-cache/FOLDER/NAME.bin` holding one value under one key (a
string made by the caller from every input of the value: `litrec.analyses.inputs`, the
files read, the litrec code that computes it). Its on-disk format is one:

    MAGIC | blake2b-256 of the payload | payload = marshal((FORMAT, litrec version, key, value))

written whole in one rename (`litrec.util.atomic.replace_file`), read only when the
magic, the seal, the format, the version and the key all match. Values are
plain data (`marshal`: str, int, float, bool, None, bytes, and tuples, lists and
dicts of them); named entry types are dataclasses turned into a dict of their
fields and back (`plain`, `named`).

The refusal rules, the same for every use (tested once over every use,
`tests/cache/test_cache.py`):

- caching off: `LITREC_NO_CACHE` set (not 0), or `--no-cache` (which sets it for the
  command and the processes it starts): nothing is read or written;
- links: `.litrec-cache`, a folder of it or an entry that is a symbolic link (or not a
  folder / not a regular file) is not used; nothing is read or written through it;
- damage: an entry whose magic or seal does not match, or that does not decode, is
  read as missing (and replaced on the next write);
- foreign versions: an entry of another format, another litrec, or another key is
  read as missing;
- a write that fails (a read-only checkout) is silent.

The users: the validation cache (`litrec.cache.vcache`), validate's suspect-link
answer (`litrec.cache.linkmemo`), a no-op run's verdicts
(`litrec.cache.runmemo`), what sources say (`litrec.cache.sourcefacts`), what a file's
committed versions say (`litrec.cache.historymemo`, per commit) and, as a folder
of it (`cache_dir`), JAX's compile cache (`litrec.cache.jaxcache`, whose entries JAX keys
itself). Training checkpoints are not a cache: they sit beside a run's finished points
(`litrec.results.resume`). Nothing else uses the primitive
or names the folder (tests/architecture checks it).
"""

from __future__ import annotations

import dataclasses
import hashlib
import marshal
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from litrec import __version__
from litrec.util.atomic import replace_file

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

CACHE = ".litrec-cache"
OFF_VARIABLE = "LITREC_NO_CACHE"
FORMAT = 1
MAGIC = b"litrec cache\n"
_SEAL = 32
T = TypeVar("T", bound="DataclassInstance")


def caching_off() -> bool:
    """Whether litrec's caches are off (`LITREC_NO_CACHE` set, not 0; `--no-cache` sets it)."""
    return os.environ.get(OFF_VARIABLE, "").strip() not in ("", "0")


def turn_off() -> None:
    """Caching off for this process and the processes it starts (`--no-cache`)."""
    os.environ[OFF_VARIABLE] = "1"


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


def refusal(root: Path, name: str) -> str:
    """Why the folder `.litrec-cache/NAME` of the project `root` is not used ('' when it may
    be, or when it does not exist yet)."""
    root = Path(root)
    for folder in (root / CACHE, root / CACHE / name):
        try:
            mode = os.lstat(folder).st_mode
        except FileNotFoundError:
            return ""
        except OSError as exc:
            return f"{folder} cannot be read ({exc.strerror})"
        if stat.S_ISLNK(mode):
            return f"{folder} is a symbolic link; litrec does not follow it"
        if not stat.S_ISDIR(mode):
            return f"{folder} is not a folder"
    return ""


def cache_dir(root: Path, name: str, create: bool = True) -> Path | None:
    """The folder `.litrec-cache/NAME` of the project `root`, made when missing (with
    `create`); None when caching is off or the folder cannot be had safely (a link, a file,
    a read-only checkout)."""
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


_IMPORT = re.compile(rb"^[ \t]*(?:from[ \t]+(litrec(?:\.\w+)*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]+)"
                     rb"|import[ \t]+(litrec[\w.]*))", re.M)


def litrec_closure(entries, folder: Path | None = None) -> tuple[str, ...]:
    """The named litrec modules (`"records/filecheck"`, ...) and every litrec module they import,
    transitively (imports inside functions too: a superset of what loading them loads), as
    sorted names for `litrec_code_hash`. Read from the source in `folder` (litrec's own
    package folder by default), never imported: a key that lists its modules by hand misses
    the one an edit adds; LookupError for an entry that is not there. A line scan, not a
    parse (a parse of 30 modules costs 100 ms a key): an import statement is one a line
    starts with, as litrec's style (ruff's isort) writes it."""
    here = folder or Path(__file__).resolve().parent.parent
    gone = [e for e in entries if not (here / f"{e}.py").is_file()]
    if gone:  # a module moved or renamed and its key's entry left behind: a bug, said at once
        raise LookupError(f"no litrec module {', '.join(gone)} in {here}")
    seen: set[str] = set()
    todo = list(entries)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            source = (here / f"{name}.py").read_bytes()
        except OSError:
            continue  # litrec_code_hash counts it as missing
        for m in _IMPORT.finditer(source):
            if m.group(3):
                dotted = [m.group(3).decode()]
            else:
                names = re.findall(rb"\w+", m.group(2).split(b" as ")[0] if b"(" not in m.group(2)
                                   else m.group(2))
                module = m.group(1).decode()
                dotted = [module] + [f"{module}.{n.decode()}" for n in names]
            for d in dotted:
                rel = "/".join(d.split(".")[1:])
                for candidate in (rel, f"{rel}/__init__" if rel else "__init__"):
                    if (here / f"{candidate}.py").is_file():
                        todo.append(candidate)
                        break
    return tuple(sorted(seen))


def litrec_code_hash(names, folder: Path | None = None) -> str:
    """A hash of the source of the named litrec modules (paths below the package without `.py`,
    `"records/checks"`, ...) in `folder` (litrec's own package folder by default): the part of a
    key that a new litrec changes. A module that cannot be read counts as missing."""
    here = folder or Path(__file__).resolve().parent.parent
    h = hashlib.blake2b(digest_size=16)
    for name in names:
        h.update(name.encode() + b"\0")
        try:
            h.update((here / f"{name}.py").read_bytes())
        except OSError:
            h.update(b"missing")
    return h.hexdigest()


def data_unchanged(patterns: list[str], files: dict, data_now: Callable[[list[str]], dict]) -> bool:
    """Whether the declared data `patterns` still match `files` (path -> SHA-256), as a kept
    answer recorded them: `data_now(patterns)` says what they match now (ValueError: they
    cannot be read, so not unchanged)."""
    if not patterns and not files:
        return True
    try:
        return data_now(patterns) == files
    except ValueError:
        return False


def plain(entry: Any) -> Any:
    """A dataclass entry as a dict of its fields (what a slot keeps); other values as they are."""
    if dataclasses.is_dataclass(entry) and not isinstance(entry, type):
        return {f.name: getattr(entry, f.name) for f in dataclasses.fields(entry)}
    return entry


def named(kind: type[T], value: Any) -> T | None:
    """The entry of dataclass `kind` that `plain` gave `value`; None when `value` has other fields."""
    if not isinstance(value, dict) or set(value) != {f.name for f in dataclasses.fields(kind)}:
        return None
    try:
        return kind(**value)
    except (TypeError, ValueError):
        return None


class Slot:
    """One file of the cache, `.litrec-cache/FOLDER/NAME.bin` of the project `root`: one value
    under one key (see the module docstring for the format and the refusal rules)."""

    def __init__(self, root: Path, folder: str, name: str):
        self.root, self.folder, self.name = Path(root), folder, name

    def refused(self) -> str:
        """Why this slot's folder is not used ('' when it may be)."""
        return refusal(self.root, self.folder)

    def read(self, key: str) -> Any | None:
        """The value kept under `key`, or None: none kept, another key, format or litrec,
        damaged, a link, or caching off."""
        folder = cache_dir(self.root, self.folder, create=False)
        if folder is None:
            return None
        try:
            fd = os.open(folder / f"{self.name}.bin", os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                         | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            return None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            with os.fdopen(fd, "rb", closefd=False) as fh:
                blob = fh.read()
        except OSError:
            return None
        finally:
            os.close(fd)
        head = len(MAGIC) + _SEAL
        payload = blob[head:]
        if not blob.startswith(MAGIC) or hashlib.blake2b(payload, digest_size=_SEAL).digest() \
                != blob[len(MAGIC):head]:
            return None
        try:
            held = marshal.loads(payload)
        except (EOFError, ValueError, TypeError):
            return None
        if not (isinstance(held, tuple) and len(held) == 4
                and held[:3] == (FORMAT, __version__, key)):
            return None
        return held[3]

    def write(self, key: str, value: Any) -> bool:
        """Keep `value` under `key`, whole, in one rename; False (silently) when it cannot."""
        folder = cache_dir(self.root, self.folder, create=True)
        if folder is None:
            return False
        try:
            payload = marshal.dumps((FORMAT, __version__, key, plain(value)))
        except ValueError:  # a value marshal cannot write: nothing is kept
            return False
        blob = MAGIC + hashlib.blake2b(payload, digest_size=_SEAL).digest() + payload
        try:
            replace_file(folder / f"{self.name}.bin", blob, prefix=f".{self.name}-")
        except OSError:
            return False
        return True


def cache_folder(root: Path) -> Path:
    """The folder of litrec's caches in the project at `root` (what a run may read from)."""
    return Path(root) / CACHE
