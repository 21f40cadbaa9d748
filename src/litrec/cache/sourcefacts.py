"""What litrec reads from an analysis module's source without importing it, kept per content.

Staleness and validation read the analysis sources: the modules each imports
(`litrec.runs.inputs`), its PROFILES and what it lacks of the contract
(`litrec.runs.contract`). Parsing them (`ast`) cost more than everything else a
no-op `litrec run` does, yet the answers depend only on the source's bytes and
on the litrec code that reads them. So each answer is kept in
`.litrec-cache/sources/facts.bin` (`litrec.cache`) under the SHA-256 of the source and of that
code: a run whose analyses did not change parses nothing, and a changed module
or a new litrec is read afresh. The file is a cache: a damaged or missing one
is read as empty, and a failed write is ignored.
"""

from __future__ import annotations

import atexit
import hashlib
from pathlib import Path
from typing import Any, Callable

from litrec.cache import Slot, litrec_code_hash

MAX_ENTRIES = 2000  # the oldest answers go first; a project's analyses hold a few dozen modules


class _Store:
    """The answers of one project, read from disk once per process and written on a miss."""

    def __init__(self, root: Path | None):
        self.root = root
        self.slot = Slot(root, "sources", "facts") if root is not None else None
        self.facts: dict[str, Any] | None = None
        self.dirty = False

    def _load(self) -> dict[str, Any]:
        if self.facts is None:
            held = self.slot.read(_reader_hash()) if self.slot is not None else None
            self.facts = held if isinstance(held, dict) else {}  # missing or damaged: worked out again
        return self.facts

    def get(self, key: str, compute: Callable[[], Any]) -> Any:
        facts = self._load()
        if key in facts:
            return facts[key]
        value = facts[key] = compute()
        while len(facts) > MAX_ENTRIES:
            del facts[next(iter(facts))]
        if not self.dirty:
            self.dirty = True
            atexit.register(self._save)  # once, at exit: one write for all of a run's misses
        return value

    def _save(self) -> None:
        self.dirty = False
        if self.slot is not None:
            self.slot.write(_reader_hash(), self.facts)  # a cache that cannot be written only
            # costs the next run a parse


_STORES: dict[Path | None, _Store] = {}
_READER: list[str] = []


def _reader_hash() -> str:
    """A hash of the litrec modules whose code reads the sources: a new litrec, new answers."""
    if not _READER:
        _READER.append(litrec_code_hash(("runs/contract", "runs/importscan", "runs/inputs",
                                         "cache/sourcefacts")))
    return _READER[0]


def fact(root: Path | None, what: str, raw: bytes, compute: Callable[[], Any],
         digest: str | None = None) -> Any:
    """The answer `compute()` gives about the source `raw`, kept under `what` (a name and any
    arguments), the source's SHA-256 (`digest` when already known) and the reader's code;
    `root` is the project (None: kept in this process only)."""
    root = Path(root).resolve() if root is not None else None
    store = _STORES.get(root)
    if store is None:
        store = _STORES[root] = _Store(root)
    key = f"{what} {digest or hashlib.sha256(raw).hexdigest()} {_reader_hash()}"
    return store.get(key, compute)


def flush() -> None:
    """Write what this process learned now, not at exit (a test reads the file back)."""
    for store in _STORES.values():
        if store.dirty:
            store._save()
