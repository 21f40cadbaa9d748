"""What litrec reads from an analysis module's source without importing it, kept per content.

Staleness and validation read the analysis sources: the modules each imports
(`litrec.analyses.inputs`), its PROFILES and what it lacks of the contract
(`litrec.analyses.contract`). Parsing them (`ast`) cost more than everything else a
no-op `litrec run` does, yet the answers depend only on the source's bytes and
on the litrec code that reads them. So each answer is a `litrec.cache.slots.Slot` of
its own, `.litrec-cache/sources/NAME.bin`, named for what it answers (a name and
its arguments, the module's path among them) and keyed on the SHA-256 of the
source and a hash of that code: a run whose analyses did not change parses
nothing, and a changed module or a new litrec is read afresh.

An answer is written as soon as it is worked out, whole, in one rename: a
process killed afterwards loses nothing, and processes at once never write over
each other's answers with what they held (each writes only the answer it just
worked out, under its own key; a slot holding another source's answer is read
as missing). A slot that cannot be read or written costs a parse, never an
answer.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from litrec.cache.slots import Slot, litrec_closure, litrec_code_hash

FOLDER = "sources"
_HELD: dict[tuple[Path | None, str], Any] = {}  # this process's answers, by project and key
_READER: list[str] = []


def reader_hash() -> str:
    """A hash of the litrec modules whose code reads the sources: a new litrec, new answers."""
    if not _READER:
        _READER.append(litrec_code_hash(litrec_closure(("analyses/contract", "analyses/importscan",
                                                        "analyses/inputs", "cache/sourcefacts"))))
    return _READER[0]


def fact(root: Path | None, what: str, raw: bytes, compute: Callable[[], Any],
         digest: str | None = None) -> Any:
    """The answer `compute()` gives about the source `raw`, kept under `what` (a name and any
    arguments: which answer, about which module), the source's SHA-256 (`digest` when already
    known) and the reader's code; `root` is the project (None: kept in this process only)."""
    root = Path(root).resolve() if root is not None else None
    key = f"{what} {digest or hashlib.sha256(raw).hexdigest()} {reader_hash()}"
    if (root, key) in _HELD:
        return _HELD[root, key]
    slot = None if root is None else \
        Slot(root, FOLDER, hashlib.blake2b(what.encode(), digest_size=16).hexdigest())
    value = slot.read(key) if slot is not None else None
    if value is None:
        value = compute()
        if slot is not None:
            slot.write(key, value)  # now: one answer, whole, in one rename
    _HELD[root, key] = value
    return value
