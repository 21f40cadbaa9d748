"""The verdicts of a `litrec run` that had nothing to run, kept for the next one.

A run with nothing stale reads every record, validates it against its schema,
decides each result's state and judges every claim: a pure function of the
files under `records/`, `analysis/` and `results/`, the installed packages and
litrec itself. Its answer (the current analyses and the claim statuses) is
kept in `.litrec-cache/run/PROFILE.bin` (`litrec.cache`), under a key made of all of those:

- every file under the three folders: its path, size, modification and change
  times, inode and content hash (`__pycache__` folders aside); a symbolic link
  anywhere in them, or a file that cannot be read, means no key (and no memo);
- the folders as given and the working folder (messages name paths);
- the profile and the targets;
- the git commit checked out and every branch and remote tip (each expectation's
  registration, pre-registered or post hoc, is read from the history of every branch:
  `litrec.verdicts.registration`);
- litrec's version and the source of each of its modules, what the caller says
  every result shares (`shared`: `litrec.analyses.memo.memo_key` passes the
  interpreter, the numerics environment variables and the instruction set, and
  the source digest of every editable install but litrec's, whose files change
  under one version and one folder time), and each folder on `sys.path` with
  its modification time (any package installed, upgraded or removed changes
  it), the project's own `.venv` included;
- the allowed signers, which decide whether a signed result reads *signed* or
  *bad signature* (in `shared` too: the file configured, the hash of its bytes and
  the ssh-keygen that checks, `litrec.util.signers.signers_key`), so a signer
  removed from the file is seen by the next run;
- the data files the analyses declare (`DATA`): kept with the answer, with
  their hashes, and expanded and hashed again (by the caller's `data_now`)
  before the answer is used.

The cache is a service below its users: this module imports none of litrec's
other packages; what only they can work out comes in as values or functions.

The answer is kept only when the key worked out again after the run is the key
made before it: an input edited while the run read it leaves no answer, even
when the edit was undone, its size and modification time put back (A -> B ->
A): the change time, which no program sets, moved on.

A run finds the same key, so the same inputs, and prints the kept answer
without loading the records' schemas: what it prints is what the full run
printed. Anything else, a damaged or foreign memo included, takes the full
path. `--force` and `LITREC_NO_CACHE=1` never use it.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from litrec import __version__
from litrec.cache.slots import Slot, data_unchanged, litrec_code_hash, named
from litrec.util.git import refs_of

SUBDIR = "run"
FORMAT = 3
SKIPPED = frozenset({"__pycache__"})


class NoKey(Exception):
    """The inputs cannot be keyed safely (a link, an unreadable file): no memo."""


def _tree(h, folder: Path, known: dict[str, tuple] | None = None) -> None:
    """Add every file under `folder` (path, size, times, inode, content hash) to the hash `h`.

    `known`: what the caller read and hashed of some files in this process, by path inside
    `folder`: a key `(size, mtime_ns, content hash, witness)` of `litrec.util.settled.read_record`;
    a file whose status still shows that key's witness holds those bytes (`file_unchanged`), and
    its hash is taken from the key instead of reading the file again: the same key either way."""
    try:
        st = os.lstat(folder)
    except FileNotFoundError:
        h.update(b"absent\0")
        return
    if not stat.S_ISDIR(st.st_mode):
        raise NoKey(f"{folder} is not a folder")
    known = known or {}
    cut = len(str(folder)) + 1
    stack = [folder]
    while stack:
        current = stack.pop()
        with os.scandir(current) as it:
            entries = sorted(it, key=lambda e: e.name)
        for e in entries:
            if e.is_symlink():
                raise NoKey(f"{e.path} is a symbolic link")
            if e.is_dir(follow_symlinks=False):
                if e.name not in SKIPPED:
                    stack.append(Path(e.path))
                continue
            if not e.is_file(follow_symlinks=False):
                raise NoKey(f"{e.path} is not a regular file")
            st = e.stat(follow_symlinks=False)
            key = known.get(e.path[cut:])
            if (key is not None and key[3] is not None and (st.st_size, st.st_mtime_ns) == key[:2]
                    and (st.st_ctime_ns, st.st_ino, st.st_dev) == tuple(key[3])):
                content = key[2]  # read and hashed in this process, unchanged since (its witness)
            else:
                with open(e.path, "rb") as fh:
                    content = hashlib.file_digest(fh, _content_hash).hexdigest()
            h.update(f"{e.path}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}\0{st.st_ino}\0"
                     f"{content}\0".encode())


def _content_hash():
    """The hash of a file's bytes, as `litrec.util.settled.content_hash` makes it (128-bit BLAKE2b)."""
    return hashlib.blake2b(digest_size=16)


def _litrec_sources() -> str:
    """The hash of every module of litrec's own package folder (the code that decides verdicts)."""
    here = Path(__file__).resolve().parent.parent
    names = sorted(p.relative_to(here).with_suffix("").as_posix() for p in here.rglob("*.py"))
    return litrec_code_hash(names, here)


def _packages(h, project: Path, hashed: list[Path]) -> None:
    """Add each folder on `sys.path` with its modification time (a package installed,
    upgraded or removed there changes it), the project's `.venv` included. The project
    folder itself and the folders hashed file by file (`hashed`) are left out: the project
    folder's time changes with any file made in it."""
    for entry in sys.path:
        try:
            where = Path(entry or ".").resolve()
        except (OSError, RuntimeError):
            continue
        if where == project or any(where == f or f in where.parents for f in hashed):
            continue
        try:
            h.update(f"{where}\0{os.stat(where).st_mtime_ns}\0".encode())
        except OSError:
            h.update(f"{where}\0-\0".encode())


def inputs_key(records: Path, analysis: Path, results: Path, profile: str,
               targets: list[str], shared: object, any_machine: bool = False,
               known: dict[str, tuple] | None = None) -> str | None:
    """The key of everything a no-op run's answer depends on (see the module docstring):
    `shared` is what every result shares (any JSON value; the caller works it out), and
    `any_machine` whether results of another CPU are left alone (`litrec run --any-machine`);
    `known` the keys of record files read in this process (`_tree`: not read again). None
    where it cannot be made safely."""
    h = hashlib.blake2b(digest_size=20)
    # the commit checked out: the registration of every expectation is read from git history
    head = [FORMAT, __version__, _litrec_sources(), sys.version, shared, os.getcwd(),
            str(records), str(analysis), str(results), profile, list(targets), any_machine,
            refs_of(Path(records).resolve().parent)]
    h.update(json.dumps(head).encode() + b"\0")
    _packages(h, Path(records).resolve().parent,
              [Path(f).resolve() for f in (records, analysis, results)])
    try:
        for folder in (records, analysis, results):
            h.update(f"[{folder}]\0".encode())
            _tree(h, Path(folder), known if folder is records else None)
    except (NoKey, OSError):
        return None
    return h.hexdigest()


@dataclass(frozen=True)
class Answer:
    """What a run with nothing to run printed, and the declared data it depended on."""

    current: list            # the analyses whose results are current
    claims: list             # each claim's status row (`ClaimStatus.row`)
    data_patterns: list      # the DATA entries of every analysis
    data_files: dict         # what they matched: path inside the project -> SHA-256
    without_profile: list = field(default_factory=list)  # used analyses without the profile
    profile: str = ""        # the profile the run judged (a run asked for none: the one chosen)

    def ok(self) -> bool:
        """Whether every field has the type a run wrote (a damaged entry may not)."""
        return (isinstance(self.current, list) and isinstance(self.claims, list)
                and isinstance(self.without_profile, list) and isinstance(self.profile, str)
                and all(isinstance(c, dict) for c in self.claims)
                and isinstance(self.data_patterns, list)
                and all(isinstance(p, str) for p in self.data_patterns)
                and isinstance(self.data_files, dict))


def _slot(records: Path, profile: str) -> Slot:
    return Slot(Path(records).resolve().parent, SUBDIR, profile)


def recall(records: Path, profile: str, key: str | None,
           data_now: Callable[[list[str]], dict]) -> Answer | None:
    """The answer kept under `key` for `profile`, or None (none kept, another key, damaged,
    a declared data file changed: `data_now(patterns)` gives what the patterns match now, path
    inside the project -> SHA-256, and raises ValueError where they cannot be read)."""
    if not key:
        return None
    answer = named(Answer, _slot(records, profile).read(key))
    if answer is None or not answer.ok():
        return None
    return answer if data_unchanged(answer.data_patterns, answer.data_files, data_now) else None


def keep(records: Path, profile: str, key: str | None, answer: Answer, again=None) -> None:
    """Keep `answer` under `key`; silent when it cannot. `again()` works the key out anew: the
    answer is kept only when it is still `key` (no input changed while the run read them)."""
    if not key or (again is not None and again() != key):
        return
    _slot(records, profile).write(key, answer)
