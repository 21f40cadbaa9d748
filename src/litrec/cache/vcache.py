"""The validation cache: each record file's checked result, kept between runs of `litrec validate`.

It lives in one file, `.litrec-cache/validate/records.bin` at the project root
(the folder that holds `records/`), and holds:

- per record file (by its path inside the records folder): the file's key
  `(size, mtime_ns, content hash)` and what `litrec.records.filecheck.check_file`
  found (its problems and facts): reused only when the key is the file's
  key now, so an edit caught neither by size nor by time is caught by the hash;
  the facts are kept apart and decoded only when the checks between records
  run again;
- the checks between records (links, duplicate ids, claims against the
  registry...): reused only when every file, the registry and the working
  folder are as they were (`memo_key`);
- the registry's problems, reused only when no file of `analysis/` changed.

The whole file is a `litrec.cache.Slot`, keyed on the litrec version and
`SCHEMA_HASH`, a hash of the source of every module that decides a file's
result (the schemas included), so an edited model invalidates it; the slot is
sealed, written whole in one rename, and a damaged, foreign or linked one is
not used (the cache's refusal rules). The shapes of its entries are checked
as they are read (marshal keeps no types).
"""

from __future__ import annotations

import hashlib
import marshal
import os
import stat
import sys
from pathlib import Path

from litrec import __version__
from litrec.cache import Slot, litrec_code_hash

SUBDIR = "validate"
NAME = "records"
FORMAT = 3

# The modules whose source decides what one file yields (parsing, schemas, messages).
SCHEMA_MODULES = ("util/confine", "util/diagnostics", "records/discover", "verdicts/expectation",
                  "records/explain", "records/filecheck", "util/formatting", "records/kinds",
                  "records/locators", "records/model", "util/safetext", "records/strict",
                  "records/yamlsafe", "util/errors")
# The modules of the checks between records and of the registry (keyed with the memos).
CHECK_MODULES = ("records/checks", "records/validate", "runs/contract", "runs/inputs",
                 "records/project", "runs/registry")
# Packages whose version changes what validation says (PyYAML, pydantic).
PACKAGES = ("yaml", "_yaml", "pydantic", "pydantic_core")


def _source_hash(names: tuple[str, ...]) -> str:
    h = hashlib.blake2b(litrec_code_hash(names).encode(),
                        digest_size=16)
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
    return _source_hash(SCHEMA_MODULES)


def checks_hash() -> str:
    """The hash of the sources of the checks between records and of the registry."""
    return _source_hash(CHECK_MODULES)


def digest(*parts) -> str:
    """A hash of plain data (str, int, bool, None in tuples): keys of the memos.

    Made of `repr`, which writes equal data alike (`marshal` does not: it marks
    objects shared in memory).
    """
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


class Cache:
    """The cache of one project for one records folder: entries by file, and the memos.

    `refused` says why the cache is not used (a linked `.litrec-cache`); then
    nothing is read or written.
    """

    def __init__(self, root: Path, records_dir: Path) -> None:
        self.slot = Slot(root, SUBDIR, NAME)
        self.key = repr((FORMAT, __version__, schema_hash(), str(Path(records_dir).resolve())))
        # path inside records/ -> (key, parsed, raw_id, problems, record id or None)
        self.entries: dict[str, tuple] = {}
        self._facts_blob = b""                # the facts by path, decoded on first use
        self._facts: dict[str, tuple] | None = None
        self.memo: tuple | None = None        # (key, duplicate ids, problems between records, edges)
        self.registry: tuple | None = None    # (key, exists, names, problems)
        self.refused = self.slot.refused()
        self.damaged = False
        self.changed = False
        if not self.refused:
            self._read()

    def _read(self) -> None:
        held = self.slot.read(self.key)  # None: none yet, damaged, or another litrec or schema
        if not (isinstance(held, tuple) and len(held) == 4 and isinstance(held[0], dict)
                and type(held[3]) is bytes):
            self.damaged = True
            return
        entries, memo, registry, facts = held
        self.entries = entries
        self._facts_blob = facts
        self.memo = memo if _is_memo(memo) else None
        self.registry = registry if _is_registry(registry) else None

    def facts(self) -> dict[str, tuple]:
        """The facts of each valid record by its path (read from the cache on first use)."""
        if self._facts is None:
            try:
                facts = marshal.loads(self._facts_blob) if self._facts_blob else {}
            except (EOFError, ValueError, TypeError):
                facts = None
            self._facts = facts if isinstance(facts, dict) else {}
        return self._facts

    def put(self, rel: str, entry: tuple, facts: tuple | None) -> None:
        """Keep a file's result and facts (`rel`: its path inside the records folder)."""
        self.entries[rel] = entry
        self.facts()[rel] = facts
        self.changed = True

    def drop(self, rel: str) -> None:
        """Forget a file (removed, or not readable now)."""
        self.entries.pop(rel, None)
        self.facts().pop(rel, None)
        self.changed = True

    def save(self) -> None:
        """Write the cache (when anything changed), whole, in one rename; silent when it cannot."""
        if self.refused or not (self.changed or self.damaged):
            return
        facts = self.facts()
        try:
            blob = marshal.dumps({rel: facts.get(rel) for rel in self.entries})
        except ValueError:  # pragma: no cover - an entry marshal cannot write: keep no cache
            return
        self.slot.write(self.key, (self.entries, self.memo, self.registry, blob))


def problems_ok(problems) -> bool:
    """Whether cached problems are `(line, col, field, message, code, severity, record)` tuples."""
    if not isinstance(problems, tuple):
        return False
    for p in problems:
        if not (isinstance(p, tuple) and len(p) == 7 and type(p[0]) is int and type(p[1]) is int
                and all(type(x) is str for x in p[2:6]) and (p[6] is None or type(p[6]) is str)):
            return False
    return True


def _rows_ok(rows) -> bool:
    """Whether cached diagnostics are `(path, line, col, field, message, code, severity, record)`."""
    return isinstance(rows, tuple) and all(
        isinstance(d, tuple) and len(d) == 8 and type(d[0]) is str and problems_ok((d[1:],))
        for d in rows)


def _is_memo(memo) -> bool:
    return (isinstance(memo, tuple) and len(memo) == 4 and type(memo[0]) is str
            and _rows_ok(memo[1]) and _rows_ok(memo[2]) and type(memo[3]) is int)


def _is_registry(reg) -> bool:
    return (isinstance(reg, tuple) and len(reg) == 5 and type(reg[0]) is str
            and type(reg[1]) is bool and isinstance(reg[2], tuple)
            and all(type(n) is str for n in reg[2]) and _rows_ok(reg[3])
            and isinstance(reg[4], tuple)
            and all(isinstance(m, tuple) and len(m) == 2 and type(m[0]) is str
                    and (m[1] is None or (isinstance(m[1], tuple)
                                          and all(type(x) is str for x in m[1])))
                    for m in reg[4]))


def facts_ok(f) -> bool:
    """Whether cached facts have the shape of `litrec.records.filecheck.Facts`."""
    if not (isinstance(f, tuple) and len(f) == 8 and type(f[0]) is str and type(f[1]) is str
            and isinstance(f[2], tuple) and isinstance(f[3], tuple) and isinstance(f[4], tuple)
            and (f[5] is None or type(f[5]) is str) and type(f[6]) is bool
            and (f[7] is None or type(f[7]) is str)):
        return False
    for ref in f[2]:
        if not (isinstance(ref, tuple) and len(ref) == 3 and type(ref[0]) is str
                and type(ref[1]) is str and isinstance(ref[2], tuple)):
            return False
    return (all(isinstance(c, tuple) and len(c) == 3 and type(c[0]) is str
                and (c[1] is None or type(c[1]) is str) and isinstance(c[2], tuple)
                and all(isinstance(m, tuple) and len(m) == 2 and type(m[0]) is str
                        and isinstance(m[1], tuple) for m in c[2]) for c in f[3])
            and all(a is None or type(a) is str for a in f[4]))


def registry_key(analysis_dir: Path, root: Path) -> str | None:
    """A key of everything the registry's check reads: registry.yaml and every module of analysis/.

    None when any of them is a symbolic link (or a folder of them is): then the
    registry is checked again each time rather than trusted to a key.
    """
    from litrec.util.confine import walk

    folder = Path(analysis_dir)
    if not os.path.lexists(folder):
        return digest("absent", str(folder))
    if os.path.islink(folder):
        return None
    files, linked = walk(folder, (".py", ".yaml"))
    if linked:
        return None
    parts = [str(folder), str(root)]
    for path in files:
        try:
            st = os.lstat(path)
            if not stat.S_ISREG(st.st_mode):
                return None
            raw = path.read_bytes()
        except OSError:
            return None
        parts.append((str(path), st.st_size, st.st_mtime_ns,
                      hashlib.blake2b(raw, digest_size=16).hexdigest()))
    return digest(*parts)
