"""The validation cache: what checking each record file found, kept between runs of `litrec validate`.

It is one `litrec.cache.slots.Slot`, `.litrec-cache/validate/records.bin` at the
project root (the folder that holds `records/`), whose value is a `Contents`:

- `files`: per record file (by its path inside the records folder), a
  `FileEntry`: the key `(size, mtime_ns, content hash, witness)` of the bytes
  that were checked and what `litrec.records.filecheck.check_file` found in
  them; reused when the file's status still matches the witness (a file whose
  last change had settled before it was read: `litrec.util.settled.read_record`)
  or, read again, its key now is that key, so an edit caught neither by size
  nor by time is caught by the change time or the hash;
- `facts`: what the checks between records read of each valid record, kept
  apart and decoded only when those checks run again;
- `between`: the checks between records (links, duplicate ids, claims against
  the registry...), reused only when every file, the registry and the working
  folder are as they were;
- `registry`: the registry's check, reused only when no file of `analysis/`
  changed (its key sees each file's change time, so an edit undone while the
  registry was read leaves nothing kept).

The slot's key is `FORMAT`, the records folder and `schema_hash`: a hash of the
source of every module that decides a file's result (the schemas included,
and this module and the cache's, which decide an entry's shape), of PyYAML's
and pydantic's installation and of the interpreter; the slot adds litrec's
version and its seal (the cache's refusal rules). Entries are dataclasses, kept
as dicts of their fields (`litrec.cache.slots.plain`, `named`): an entry another
litrec wrote is under another key, never misread.

`litrec.records.validate` asks a `Cache` for what it may reuse and hands it
what it found; it never looks at what the cache holds.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from litrec.cache.slots import Slot, caching_off, litrec_closure, litrec_code_hash, named, plain
from litrec.util.confine import Refused
from litrec.util.settled import file_unchanged, read_record

SUBDIR = "validate"
NAME = "records"
FORMAT = 5

# The modules whose source decides what one file yields (parsing, schemas, messages), and
# the cache's own, which decide what an entry holds: these and every litrec module they import
# (`litrec.cache.slots.litrec_closure`, worked out from the source when a key is made).
SCHEMA_ENTRIES = ("records/filecheck", "records/discover", "records/model", "cache/vcache")
# The modules of the checks between records and of the registry (keyed with their entries).
CHECK_ENTRIES = ("records/checks", "records/validate", "records/project", "analyses/registry")
# Packages whose version changes what validation says (PyYAML, pydantic).
PACKAGES = ("yaml", "_yaml", "pydantic", "pydantic_core")


@dataclass(slots=True)
class FileEntry:
    """What checking one record file found (its facts kept apart)."""

    key: tuple | None       # (size, mtime_ns, content hash, witness) of the bytes checked; None: unread
    parsed: bool            # read and parsed as YAML
    raw_id: str | None      # the `id` as written, even when invalid (for duplicate ids)
    problems: tuple         # (line, col, field, message, code, severity, record) each
    record: str | None      # the id of the valid record it holds


@dataclass
class Between:
    """The checks between records: their problems (`Diagnostic` rows) and links, under a key."""

    key: str
    duplicates: tuple
    problems: tuple
    edges: int


@dataclass
class RegistryCheck:
    """What checking the analysis registry found: its names, METRICS and problems (rows)."""

    key: str | None
    exists: bool
    names: tuple
    problems: tuple
    metrics: tuple          # (analysis, its METRICS sorted, or None) each


@dataclass
class Contents:
    """The slot's value: each file's entry, the facts (one marshal blob) and the two checks."""

    files: dict
    facts: bytes
    between: dict | None
    registry: dict | None


def _source_hash(names: tuple[str, ...]) -> str:
    h = hashlib.blake2b(litrec_code_hash(names).encode(), digest_size=16)
    for pkg in PACKAGES:
        h.update(pkg.encode() + b"\0" + _package_stamp(pkg).encode())
    h.update(sys.version.encode())
    return h.hexdigest()


def _package_stamp(name: str) -> str:
    """Where an installed package is and when it was installed, without importing it."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return "absent"
    origin = getattr(spec, "origin", None) if spec else None
    if not origin:
        return "absent"
    try:
        return f"{origin}:{os.stat(origin).st_mtime_ns}"
    except OSError:
        return origin


def schema_hash() -> str:
    """The hash of every module source (and package) that decides what one record file yields."""
    return _source_hash(litrec_closure(SCHEMA_ENTRIES))


def checks_hash() -> str:
    """The hash of the sources of the checks between records and of the registry."""
    return _source_hash(litrec_closure(CHECK_ENTRIES))


def _digest(*parts) -> str:
    """A hash of plain data (`repr`, which writes equal data alike; `marshal` does not)."""
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def _row(d) -> tuple:
    return (d.path, d.line, d.col, d.field, d.message, d.code, d.severity, d.record)


class Cache:
    """The validation cache of the project `root` for `records_dir` (see the module docstring).

    Off (every lookup misses, nothing is kept) when `on` is false, caching is off
    (`LITREC_NO_CACHE`) or the folder is refused (`refused` says why: a link).
    """

    def __init__(self, root: Path, records_dir: Path, on: bool = True) -> None:
        self.root = Path(root)
        self.slot = Slot(root, SUBDIR, NAME)
        self.on = on and not caching_off()
        self.refused = self.slot.refused() if self.on else ""
        self.on = self.on and not self.refused
        self.key = repr((FORMAT, schema_hash(), str(Path(records_dir).resolve()))) if self.on else ""
        # None: none kept yet, damaged, or of another format, litrec or schema
        held = named(Contents, self.slot.read(self.key)) if self.on else None
        self.changed = held is None
        held = held or Contents({}, b"", None, None)
        self.files, self._blob = held.files, held.facts
        self._facts: dict[str, tuple] | None = None  # decoded from `_blob` when first asked
        self._between = named(Between, held.between) if held.between else None
        self._registry = named(RegistryCheck, held.registry) if held.registry else None
        self._between_key: str | None = None
        self._registry_before: str | None = None
        self._checks: str | None = None  # checks_hash(), worked out once per run

    def _checks_hash(self) -> str:
        if self._checks is None:
            self._checks = checks_hash()
        return self._checks

    def lookup(self, rel: str, path: str) -> FileEntry | None:
        """The kept entry of the file `path` (`rel` inside the records folder) when its bytes
        are those it was checked on."""
        held = self.files.get(rel)
        if held is None:
            return None
        try:
            entry = FileEntry(**held)
            if file_unchanged(path, entry.key):
                return entry
            now = read_record(path, self.root)[1]
        except (TypeError, Refused, OSError):  # not readable now: checked (and reported) afresh
            return None
        return entry if entry.key == now else None

    def facts(self, rel: str) -> tuple | None:
        """The kept facts of the file `rel` (a valid record)."""
        if self._facts is None:
            self._facts = marshal.loads(self._blob) if self._blob else {}
        return self._facts.get(rel)

    def between(self, names, results, records_dir: Path, analysis_dir: Path,
                reg: RegistryCheck) -> Between | None:
        """The kept checks between records when every file (`results`), the folders, the
        registry and the working folder are as they were."""
        if not self.on:
            return None
        state = _digest(*[(n, r.key if r.key is not None else r.problems)
                          for n, r in zip(names, results)])
        self._between_key = _digest(self._checks_hash(), os.getcwd(), str(records_dir),
                                    str(analysis_dir), analysis_dir.exists(), reg.exists,
                                    reg.names, reg.metrics, state)
        held = self._between
        return held if held is not None and held.key == self._between_key else None

    def keep_between(self, duplicates, problems, edges: int) -> None:
        """Keep what the checks between records found, under the key `between` made."""
        self._between = Between(self._between_key or "", tuple(map(_row, duplicates)),
                                tuple(map(_row, problems)), edges)
        self.changed = True

    def _registry_key(self, analysis_dir: Path) -> str | None:
        key = registry_key(analysis_dir, self.root) if self.on else None
        return None if key is None else _digest(key, self._checks_hash(), os.getcwd())

    def registry(self, analysis_dir: Path) -> RegistryCheck | None:
        """The kept registry check when no file of `analysis_dir` changed."""
        self._registry_before = key = self._registry_key(analysis_dir)
        held = self._registry
        return held if key is not None and held is not None and held.key == key else None

    def keep_registry(self, analysis_dir: Path, exists: bool, names: tuple, problems,
                      metrics: tuple) -> RegistryCheck:
        """What the registry check found; kept when `analysis_dir` is as it was keyed before
        the check read it (no edit in between, even one undone)."""
        found = RegistryCheck(None, exists, names, tuple(map(_row, problems)), metrics)
        key = self._registry_before
        if key is not None and self._registry_key(analysis_dir) == key:
            found.key, self._registry, self.changed = key, found, True
        return found

    def save(self, rels: list[str], results: list[FileEntry], fresh: dict[int, tuple | None]) -> None:
        """Keep every file's entry (`fresh`: the facts of those checked this run, by index),
        when anything changed; silent when it cannot."""
        if not self.on or not (self.changed or fresh or len(rels) != len(self.files)):
            return  # every file as kept (a file not kept is checked, so it is in `fresh`)
        facts = {rel: fresh[i] if i in fresh else self.facts(rel)
                 for i, rel in enumerate(rels) if results[i].key is not None}
        files = {rel: plain(res) for rel, res in zip(rels, results) if res.key is not None}
        self.slot.write(self.key, Contents(files, marshal.dumps(facts), plain(self._between),
                                           plain(self._registry)))


def registry_key(analysis_dir: Path, root: Path) -> str | None:
    """A key of everything the registry's check reads: registry.yaml and every module of analysis/.

    Each file's path, size, times (modification and change: an edit undone in
    between changes the second) and content hash. None when any of them is a
    symbolic link (or a folder of them is): then the registry is checked again
    each time rather than trusted to a key.
    """
    from litrec.util.confine import walk

    folder = Path(analysis_dir)
    if not os.path.lexists(folder):
        return _digest("absent", str(folder))
    if os.path.islink(folder):
        return None
    files, linked = walk(folder, (".py", ".yaml"))
    if linked:
        return None
    parts: list[object] = [str(folder), str(root)]
    for path in files:
        try:
            st = os.lstat(path)
            if not stat.S_ISREG(st.st_mode):
                return None
            raw = path.read_bytes()
        except OSError:
            return None
        parts.append((str(path), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino,
                      hashlib.blake2b(raw, digest_size=16).hexdigest()))
    return _digest(*parts)
